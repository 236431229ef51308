// The run-time view of every structure's fault catalogue (fault_catalogue.hpp),
// filled by the registrations of whichever layers a binary links. Listing faults
// (`./lfcheck faults`) reads it; it never holds a second copy of the texts.
#pragma once

#include <algorithm>
#include <cstdio>
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

// `--list-faults [NAME]` of every runner: one fault per line, name first; the
// structure's tests (check_faults_caught.sh, the faults tests' discovery in
// cmake/Lfcheck.cmake) read this format.
inline void print_fault_list(std::FILE* out, const std::string& structure) {
  for (auto& f : fault_registry())
    if (structure.empty() || f.mechanism == structure)
      std::fprintf(out, "%s  [%s, caught by: %s] %s%s%s\n", f.name.c_str(), f.mechanism.c_str(),
                   f.expected_layer.c_str(), f.breaks.c_str(), f.real_bug.empty() ? "" : " — re-creates: ",
                   f.real_bug.c_str());
}

}  // namespace lfcheck
