// Which seeded fault the property tests instantiate: LFCHECK_FAULT in the
// environment (set by `./lfcheck props NAME --fault F`). A structure whose
// catalogue does not hold that fault runs its correct code; if no test that ran
// held it, lfcheck-props exits 2 (harness/props/main.cpp): the fault never ran.
#pragma once

#include <atomic>
#include <cstdlib>
#include <string_view>

#include "harness/fault_catalogue.hpp"

namespace lfcheck {

inline std::string_view selected_fault() {
  const char* f = std::getenv("LFCHECK_FAULT");
  return f ? f : "";
}

// Set once a test instantiated the selected fault. Relaxed: read by main after
// RUN_ALL_TESTS returned (the tests' threads are joined by then).
inline std::atomic<bool>& selected_fault_instantiated_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}
inline bool selected_fault_instantiated() { return selected_fault_instantiated_flag().load(std::memory_order_relaxed); }

template <class E, class F>
void with_selected_fault(F&& f) {
  if (with_fault<E>(selected_fault(), f)) {
    selected_fault_instantiated_flag().store(true, std::memory_order_relaxed);
    return;
  }
  with_fault<E>("none", f);
}

}  // namespace lfcheck
