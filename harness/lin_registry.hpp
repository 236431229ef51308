// How a spec registers for `lfcheck lin`: LFCHECK_LIN(SpecType) in a
// registration TU (models/NAME_lin.cpp). The TU is compiled into both layers:
//   model build (g++, RelacySync): an entry of lin_registry(), run by lfcheck-lin-model;
//   real-thread build (LFCHECK_REAL_THREADS, TSan/ASan/plain): the spec's stress
//   workloads in stress_registry() (harness/lin/stress.hpp), run by lfcheck-stress.
// Both instantiate the Subject for every fault of the spec's catalogue.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/fault_catalogue.hpp"
#include "harness/fault_registry.hpp"
#include "harness/lin/driver.hpp"
#include "harness/registration.hpp"
#include "harness/lin/spec_subject.hpp"

namespace lfcheck::lin {

struct LinEntry {
  std::string structure;
  // Generates and runs o.scenarios scenarios with `fault`; false if the fault is unknown.
  std::function<bool(const LinOptions& o, std::string_view fault, LinSummary& out)> run;
  // Re-runs one encoded scenario from a recorded scheduler state; false if it cannot be decoded.
  std::function<bool(const std::string& encoded, const LinOptions& o, std::string_view fault,
                     const std::string& scheduler, const std::string& state, LinOutcome& out)>
      replay;
};

inline std::vector<LinEntry>& lin_registry() {
  static std::vector<LinEntry> all;
  return all;
}

}  // namespace lfcheck::lin

// The spec's name is the structure's: the NAME lfcheck_add_structure gave it, if any.
#define LFCHECK_CHECK_SPEC_NAME(SpecType)                                                          \
  static_assert(std::string_view(LFCHECK_THIS_STRUCTURE).empty() ||                                \
                    std::string_view(SpecType::name) == std::string_view(LFCHECK_THIS_STRUCTURE), \
                "the spec's name and the NAME of lfcheck_add_structure(NAME ...) must agree")

#if defined(LFCHECK_REAL_THREADS)
#include "harness/lin/stress.hpp"
#define LFCHECK_LIN(SpecType)         \
  LFCHECK_CHECK_SPEC_NAME(SpecType); \
  static const ::lfcheck::lin::LinStressRegistrar<SpecType> LFCHECK_PP_CAT(lfcheck_lin_stress_registrar_, __LINE__)
#else
#include "harness/lin/model.hpp"

namespace lfcheck::lin {

template <class S>
struct LinModelRegistrar {
  static_assert(spec::subject_uses_sync<S, RelacySync>,
                "this spec's Subject is not a template over the Sync policy, so Relacy cannot see its "
                "atomics: give the structure NO_MODEL in lfcheck_add_structure (stress, lin and props "
                "still check it)");
  LinModelRegistrar() {
    using Fault = spec::FaultOf<S>;
    register_faults<Fault>();
    lin_registry().push_back({S::name, &run, &replay});
  }

 private:
  // Only the hooks depend on the fault (lin_model_hooks): the driver, the checker
  // and the generators are compiled once per spec.
  static const model::ScenarioHooks* hooks_of(std::string_view fault) {
    const model::ScenarioHooks* hooks = nullptr;
    with_fault<spec::FaultOf<S>>(fault, [&](auto f) { hooks = &lin_model_hooks<S, decltype(f)::value>(); });
    return hooks;
  }
  static bool run(const LinOptions& o, std::string_view fault, LinSummary& out) {
    const model::ScenarioHooks* hooks = hooks_of(fault);
    if (!hooks) return false;
    out = drive_two_pass<S>(
        o, std::string("lin ") + S::name + " model",
        [&](const Scenario<S>& sc) { return run_sampled_scenario<S>(*hooks, sc, o); },
        [&](const Scenario<S>& sc) { return run_bound_scenario<S>(*hooks, sc, o); },
        [&](const Scenario<S>& sc) { return run_model_scenario<S>(*hooks, sc, o); });
    return true;
  }
  static bool replay(const std::string& encoded, const LinOptions& o, std::string_view fault,
                     const std::string& scheduler, const std::string& state, LinOutcome& out) {
    Scenario<S> sc;
    const model::ScenarioHooks* hooks = hooks_of(fault);
    if (!hooks || !decode(encoded, sc)) return false;
    out = replay_model_scenario<S>(*hooks, sc, o, scheduler, state);
    return true;
  }
};

}  // namespace lfcheck::lin

#define LFCHECK_LIN(SpecType)         \
  LFCHECK_CHECK_SPEC_NAME(SpecType); \
  static const ::lfcheck::lin::LinModelRegistrar<SpecType> LFCHECK_PP_CAT(lfcheck_lin_model_registrar_, __LINE__)
#endif
