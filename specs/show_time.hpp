// A `when` or a time as the specs print it: small values as numbers, the int64
// extremes (and their neighbours) by name, so a table shows "MIN" rather than
// -9223372036854775808. Cost: one comparison chain and a to_string.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace lfcheck::specs {

inline std::string show_time(std::int64_t w) {
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  if (w == kMin) return "MIN";
  if (w == kMax) return "MAX";
  if (w < kMin + 8) return "MIN+" + std::to_string(w - kMin);
  if (w > kMax - 8) return "MAX-" + std::to_string(kMax - w);
  return std::to_string(w);
}

}  // namespace lfcheck::specs
