// The base of every model scenario (see model_registry.hpp for the contract).
// Scenarios are written against the Sync policy only, so the same class can be
// driven by Relacy (RelacySync) or by real threads (StdSync).
#pragma once

namespace lfcheck {

struct ScenarioBase {
  static constexpr bool full_search = false;
  static constexpr bool real_threads = false;
  void before() {}
  void after() {}
  void invariant() {}
};

}  // namespace lfcheck
