// Which seeded fault the property tests instantiate: LFCHECK_FAULT in the
// environment (set by `./lfcheck props NAME --fault F`). A structure whose
// catalogue does not hold that fault runs its correct code.
#pragma once

#include <cstdlib>
#include <string_view>

#include "harness/fault_catalogue.hpp"

namespace lfcheck {

inline std::string_view selected_fault() {
  const char* f = std::getenv("LFCHECK_FAULT");
  return f ? f : "";
}

template <class E, class F>
void with_selected_fault(F&& f) {
  if (!with_fault<E>(selected_fault(), f)) with_fault<E>("none", f);
}

}  // namespace lfcheck
