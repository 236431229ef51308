// The run-time view of every structure's fault catalogue (fault_catalogue.hpp),
// filled by the registrations of whichever layers a binary links. Listing faults
// (`./lfcheck faults`) reads it; it never holds a second copy of the texts.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "harness/fault_catalogue.hpp"

namespace lfcheck {

struct FaultListing {
  std::string mechanism, name, breaks, real_bug, expected_layer;
};

inline std::vector<FaultListing>& fault_registry() {
  static std::vector<FaultListing> all;
  return all;
}

template <class E>
void register_faults() {
  auto& all = fault_registry();
  const std::string mechanism = FaultTraits<E>::mechanism;
  if (std::any_of(all.begin(), all.end(), [&](auto& f) { return f.mechanism == mechanism; }))
    return;
  for (const auto& f : FaultTraits<E>::catalogue)
    all.push_back({mechanism, f.name, f.breaks, f.real_bug, f.expected_layer});
}

// Whether `fault` (full or short name) is a fault of `structure` ("" = any).
inline bool is_known_fault(const std::string& structure, const std::string& fault) {
  for (auto& f : fault_registry())
    if ((structure.empty() || f.mechanism == structure) &&
        (f.name == fault || std::string(fault_short_name(f.name)) == fault))
      return true;
  return false;
}


}  // namespace lfcheck
