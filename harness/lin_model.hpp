// Linearizability under the C++ memory model as Relacy explores it: one
// generated scenario (lin_scenario.hpp) run by Relacy, its Subject instantiated
// with RelacySync, every execution's results checked by lin::check in after().
//
// Each scenario runs with the random scheduler (LinOptions::random_iterations
// executions) and then with the context-bound search (bound K), which is
// exhaustive up to K preemptions when it finishes within bound_executions; a
// search the execution limit stopped is not exhaustive. Both go through
// lfcheck's own simulate (model_run.hpp): the first verdict is kept, the failing
// execution is re-run alone for its history, a failure that does not come back
// is NONDETERMINISTIC SCENARIO, and executions are counted where they happen.
//
// The results are harness bookkeeping, invisible to Relacy (like the hand-written
// scenarios' tallies): plain memory outside the simulated objects, written by the
// fibers of one OS thread. Distinct outcomes are few, so the checker runs once per
// distinct outcome (a fixed-size cache: no allocation survives an execution, so
// Relacy's leak check stays exact). A history the checker rejects, or one it
// cannot decide within its budget, fails the execution through Sync::check, so
// Relacy records the execution's history as for any failure.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "harness/lin_outcome.hpp"
#include "harness/lin_scenario.hpp"
#include "harness/spec_subject.hpp"
#include "lin/checker.hpp"
#include "lin/table.hpp"
// Relacy last: everything above includes its standard headers first.
#include "harness/model_run.hpp"
#include "harness/relacy_registry.hpp"
#include "sync/relacy_sync.hpp"

namespace lfcheck::lin {

// State shared by the runner and the per-execution test objects of one search.
template <class S>
struct ModelShared {
  static constexpr std::size_t kCacheSize = 512;
  const Scenario<S>* scenario = nullptr;
  Budget check_budget;
  Results<S> current;             // the running execution's results
  Returned returned{};              // how many calls of each part returned
  Results<S> good[kCacheSize];    // outcomes the checker accepted
  std::size_t good_count = 0;
  Report last_report;               // the last rejected history's report (outside the simulation)
  bool rejected = false;

  bool known_good(const Results<S>& r) const {
    for (std::size_t i = 0; i < good_count; ++i)
      if (good[i].same_as(r, *scenario)) return true;
    return false;
  }
  void remember(const Results<S>& r) {
    if (good_count < kCacheSize) good[good_count++] = r;
  }
};

template <class S, spec::FaultOf<S> F>
struct LinModelTest : rl::test_suite<LinModelTest<S, F>, kMaxThreads> {
  static inline ModelShared<S>* shared = nullptr;

  ExecutionTick tick;        // first member: counts (and may end) the execution
  LabelReset reset_labels;   // runs before the subject labels its variables
  spec::SubjectOf<S, RelacySync, F> subject;

  void before() {
    ModelShared<S>& sh = *shared;
    sh.current.reset();
    sh.returned = Returned{};
    for (std::size_t i = 0; i < sh.scenario->prefix.size(); ++i) {
      sh.current.prefix[i] = subject.run(sh.scenario->prefix[i], kSetupThread);
      ++sh.returned.prefix;
    }
  }

  void thread(unsigned t) {
    ModelShared<S>& sh = *shared;
    if (t >= sh.scenario->threads.size()) return;  // a 2-thread scenario: the third one idles
    const auto& calls = sh.scenario->threads[t];
    for (std::size_t i = 0; i < calls.size(); ++i) {
      sh.current.threads[t][i] = subject.run(calls[i], t);
      ++sh.returned.threads[t];
    }
  }

  void after() {
    ModelShared<S>& sh = *shared;
    for (std::size_t i = 0; i < sh.scenario->suffix.size(); ++i) {
      sh.current.suffix[i] = subject.run(sh.scenario->suffix[i], kSetupThread);
      ++sh.returned.suffix;
    }
    if constexpr (requires { subject.check_invariants(); }) {
      const char* broken = subject.check_invariants();
      RelacySync::check(broken == nullptr, broken ? broken : "");
    }
    if (sh.known_good(sh.current)) return;
    // Not seen before: ask the checker. Its allocations are freed before it
    // returns; only the verdict is kept.
    const Report report = check(to_history(*sh.scenario, sh.current), sh.check_budget);
    if (report.verdict == Verdict::linearizable) {
      sh.remember(sh.current);
      return;
    }
    sh.rejected = true;
    RelacySync::check(false, report.verdict == Verdict::unknown
                                 ? "LINEARIZABILITY UNKNOWN: the checker's budget ran out on this history"
                                 : "NOT LINEARIZABLE: no sequential order of these operations gives these results");
  }
};

namespace detail {

// A model-layer outcome as lin reports it.
inline LinOutcome to_lin_outcome(const ModelOutcome& m, const char* scheduler) {
  LinOutcome out;
  out.scheduler = scheduler;
  out.executions = m.executions;
  out.exhaustive = m.whole_space;
  if (m.result == rl::test_result_success) return out;
  out.failed = true;
  out.history = m.history;
  out.state = m.state;
  if (!m.reproduced) {
    out.failure = std::string("NONDETERMINISTIC SCENARIO (") + rl::test_result_str(m.result) +
                  ", then on re-run " + rl::test_result_str(m.rerun_result) + ")";
  } else {
    // Relacy's words with the check's own text, e.g. "USER ASSERT FAILED (NOT LINEARIZABLE: ...)".
    const auto first_line = m.history.substr(0, m.history.find('\n'));
    out.failure = first_line.empty() ? rl::test_result_str(m.result) : first_line;
  }
  return out;
}

// The failing execution's calls and results: the checker's table when it
// rejected the history, else the calls that returned before the failure.
template <class S>
std::string failing_table(const Scenario<S>& sc, const ModelShared<S>& shared, const LinOptions& o) {
  if (!shared.rejected) return scenario_listing(sc, shared.current, shared.returned);
  const History<S> h = to_history(sc, shared.current);
  return render_table(h, check(h, o.check_budget));
}

}  // namespace detail

// Runs one scenario: random iterations, then the bound search (unless the random
// run failed). The outcome's table shows the failing execution's calls and results.
template <class S, spec::FaultOf<S> F>
LinOutcome run_model_scenario(const Scenario<S>& sc, const LinOptions& o) {
  using Test = LinModelTest<S, F>;
  auto shared = std::make_unique<ModelShared<S>>();
  shared->scenario = &sc;
  shared->check_budget = o.check_budget;
  Test::shared = shared.get();

  ModelRequest sampled;
  sampled.iterations = o.random_iterations;
  LinOutcome out = detail::to_lin_outcome(
      run_model<Test, rl::random_scheduler<kMaxThreads>, SearchKind::sampled>(sampled), "random");
  if (!out.failed && o.bound > 0) {
    ModelRequest tree;
    tree.context_bound = o.bound;
    tree.execution_limit = o.bound_executions;
    const std::uint64_t sampled_executions = out.executions;
    out = detail::to_lin_outcome(
        run_model<Test, rl::context_bound_scheduler<kMaxThreads>, SearchKind::tree>(tree), "bound");
    out.executions += sampled_executions;
  }
  if (out.failed) out.table = detail::failing_table(sc, *shared, o);
  Test::shared = nullptr;
  return out;
}

// Re-runs the one execution recorded in a replay file (scheduler and state).
template <class S, spec::FaultOf<S> F>
LinOutcome replay_model_scenario(const Scenario<S>& sc, const LinOptions& o, const std::string& scheduler,
                                 const std::string& state) {
  using Test = LinModelTest<S, F>;
  auto shared = std::make_unique<ModelShared<S>>();
  shared->scenario = &sc;
  shared->check_budget = o.check_budget;
  Test::shared = shared.get();
  ModelRequest one;
  one.initial_state = state;
  one.execution_limit = 1;
  one.context_bound = o.bound;
  LinOutcome out =
      scheduler == "bound"
          ? detail::to_lin_outcome(run_model<Test, rl::context_bound_scheduler<kMaxThreads>, SearchKind::tree>(one),
                                   "bound")
          : detail::to_lin_outcome(run_model<Test, rl::random_scheduler<kMaxThreads>, SearchKind::sampled>(one),
                                   "random");
  out.exhaustive = false;  // a replay runs the recorded execution alone
  if (out.failed) out.table = detail::failing_table(sc, *shared, o);
  Test::shared = nullptr;
  return out;
}

}  // namespace lfcheck::lin
