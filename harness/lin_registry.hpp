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

#include "harness/cli/cli.hpp"
#include "harness/fault_catalogue.hpp"
#include "harness/fault_registry.hpp"
#include "harness/lin/driver.hpp"
#include "harness/lin/enumeration.hpp"
#include "harness/registration.hpp"
#include "harness/lin/spec_subject.hpp"

namespace lfcheck::lin {

struct VerifyLimits;  // harness/lin/verify.hpp (the model layer's)

struct LinEntry {
  std::string structure;
  // Generates and runs o.scenarios scenarios with `fault`; false if the fault is unknown.
  std::function<bool(const LinOptions& o, std::string_view fault, LinSummary& out)> run;
  // Re-runs one encoded scenario from a recorded scheduler state; false if it cannot be decoded.
  std::function<bool(const std::string& encoded, const LinOptions& o, std::string_view fault,
                     const std::string& scheduler, const std::string& state, LinOutcome& out)>
      replay;
  // lfcheck verify (harness/lin/verify.hpp): every scenario of a bound over the spec's
  // alphabets, smallest first; false and why if the spec declares no alphabet (or one
  // the reductions cannot take).
  std::function<bool(const VerifyBound&, Reduction, Enumeration& out, std::string& why)> enumerate;
  // Runs one encoded scenario of it under DPOR to its end or its limits; false if it
  // cannot be decoded or the fault is unknown.
  std::function<bool(const std::string& encoded, const VerifyLimits& limits, std::string_view fault,
                     LinOutcome& out)>
      verify;
  // An encoded scenario as text ("prefix: push(1); t0: pop(); t1: pop()"), "" if it cannot be decoded.
  std::function<std::string(const std::string& encoded)> describe;
  // What the reductions claim about one scenario of the unreduced enumeration
  // (reduction_relatives, harness/lin/enumeration.hpp; verify --check-reduction).
  std::function<bool(const VerifyBound&, std::uint64_t letters_seed, const std::string& encoded,
                     std::vector<std::string>& same, std::vector<std::string>& fresh)>
      relatives;
};

inline std::vector<LinEntry>& lin_registry() {
  static std::vector<LinEntry> all;
  return all;
}

// The structure a lin runner's command line names (its one positional argument, if
// any): "" for none; a usage error (exit 2) for more than one, or a name no registered
// spec has.
inline std::string named_spec(const std::string& program, const std::vector<std::string>& positional) {
  if (positional.size() > 1) cli::usage_error(program, "at most one structure name");
  if (positional.empty()) return "";
  std::string known;
  for (auto& e : lin_registry()) {
    if (e.structure == positional[0]) return e.structure;
    known += (known.empty() ? "" : ", ") + e.structure;
  }
  cli::usage_error(program, "no spec for structure '" + positional[0] + "' (known: " + known + ")");
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
#include "harness/lin/verify.hpp"

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
    lin_registry().push_back(
        {S::name, &run, &replay, &enumerate<S>, &verify, &describe_encoded, &reduction_relatives<S>});
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
  static bool verify(const std::string& encoded, const VerifyLimits& limits, std::string_view fault, LinOutcome& out) {
    Scenario<S> sc;
    const model::ScenarioHooks* hooks = hooks_of(fault);
    if (!hooks || !decode(encoded, sc)) return false;
    out = verify_scenario<S>(*hooks, sc, limits);
    return true;
  }
  static std::string describe_encoded(const std::string& encoded) {
    Scenario<S> sc;
    return decode(encoded, sc) ? describe(sc) : std::string();
  }
};

}  // namespace lfcheck::lin

#define LFCHECK_LIN(SpecType)         \
  LFCHECK_CHECK_SPEC_NAME(SpecType); \
  static const ::lfcheck::lin::LinModelRegistrar<SpecType> LFCHECK_PP_CAT(lfcheck_lin_model_registrar_, __LINE__)
#endif
