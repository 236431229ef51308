// Linearizability under the C++ memory model as Relacy explores it: one
// generated scenario (harness/lin/scenario.hpp) run by Relacy, its Subject instantiated
// with RelacySync, every execution's results checked by lin::check in after().
//
// Each scenario runs with the random scheduler (LinOptions::random_iterations
// executions) and then with the context-bound search (bound K), which is
// exhaustive up to K preemptions when it finishes within bound_executions; a
// search the execution limit stopped is not exhaustive. Both go through
// lfcheck's own simulate (harness/model/run.hpp): the first verdict is kept, the failing
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
#include <memory>
#include <string>

#include "harness/lin/execution.hpp"
#include "harness/lin/outcome.hpp"
#include "harness/lin/scenario.hpp"
#include "harness/lin/spec_subject.hpp"
#include "lin/checker.hpp"
#include "lin/table.hpp"
// Relacy last: everything above includes its standard headers first.
#include "harness/model/run.hpp"
#include "harness/model/relacy_registry.hpp"
#include "sync/relacy_sync.hpp"

namespace lfcheck::lin {

// State shared by the runner and the per-execution test objects of one search:
// the execution's bookkeeping (harness/lin/execution.hpp) and whether the checker
// rejected an outcome (else the failure was another check's).
template <class S>
struct ModelShared : ExecutionBook<S> {
  bool rejected = false;
};

template <class S, spec::FaultOf<S> F>
struct LinModelTest : rl::test_suite<LinModelTest<S, F>, kMaxThreads> {
  static inline ModelShared<S>* shared = nullptr;

  ExecutionTick tick;        // first member: counts (and may end) the execution
  LabelReset reset_labels;   // runs before the subject labels its variables
  spec::SubjectOf<S, RelacySync, F> subject;

  void before() { run_prefix(subject, *shared); }
  void thread(unsigned t) { run_thread(subject, *shared, t); }
  void after() {
    const Judgement j = finish_execution(subject, *shared);
    if (!j.words) return;
    if (!j.invariant) shared->rejected = true;
    // Fails the execution: Relacy records its history as for any failure.
    RelacySync::check(false, j.words);
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
    out.failure = std::string("NONDETERMINISTIC SCENARIO (") + failure_words(m) +
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

// The shared state of one scenario's runs, bound to its test class for as long
// as they last (Relacy constructs the test objects itself: they find it through
// LinModelTest::shared).
template <class S, spec::FaultOf<S> F>
struct Bound {
  std::unique_ptr<ModelShared<S>> owned = std::make_unique<ModelShared<S>>();  // 512 cached outcomes: not on the stack
  ModelShared<S>& shared = *owned;
  Bound(const Scenario<S>& sc, const LinOptions& o) {
    shared.scenario = &sc;
    shared.check_budget = o.check_budget;
    LinModelTest<S, F>::shared = &shared;
  }
  ~Bound() { LinModelTest<S, F>::shared = nullptr; }
  Bound(const Bound&) = delete;
  Bound& operator=(const Bound&) = delete;
};

}  // namespace detail

// One scenario's sampled run: o.random_iterations executions of o.sampler
// (Relacy's random scheduler or lfcheck's PCT at o.pct_depth).
template <class S, spec::FaultOf<S> F>
LinOutcome run_sampled_scenario(const Scenario<S>& sc, const LinOptions& o) {
  using Test = LinModelTest<S, F>;
  detail::Bound<S, F> bound(sc, o);
  ModelRequest sampled;
  sampled.iterations = o.random_iterations;
  sampled.pct_depth = o.pct_depth;
  LinOutcome out =
      o.sampler == "pct"
          ? detail::to_lin_outcome(run_model<Test, pct_scheduler<kMaxThreads>, SearchKind::sampled>(sampled), "pct")
          : detail::to_lin_outcome(
                run_model<Test, rl::random_scheduler<kMaxThreads>, SearchKind::sampled>(sampled), "random");
  if (out.failed) out.table = detail::failing_table(sc, bound.shared, o);
  return out;
}

// One scenario's bound search (none when o.bound is 0: no executions).
template <class S, spec::FaultOf<S> F>
LinOutcome run_bound_scenario(const Scenario<S>& sc, const LinOptions& o) {
  if (o.bound == 0) return {};
  using Test = LinModelTest<S, F>;
  detail::Bound<S, F> bound(sc, o);
  ModelRequest tree;
  tree.context_bound = o.bound;
  tree.execution_limit = o.bound_executions;
  LinOutcome out = detail::to_lin_outcome(
      run_model<Test, rl::context_bound_scheduler<kMaxThreads>, SearchKind::tree>(tree), "bound");
  if (out.failed) out.table = detail::failing_table(sc, bound.shared, o);
  return out;
}

// Runs one scenario: its sampled run, then the bound search (unless the sampled
// run failed); the runner of the shrink candidates of a failure the bound search
// found. The outcome's table shows the failing execution's calls and results.
template <class S, spec::FaultOf<S> F>
LinOutcome run_model_scenario(const Scenario<S>& sc, const LinOptions& o) {
  LinOutcome out = run_sampled_scenario<S, F>(sc, o);
  if (out.failed) return out;
  const std::uint64_t sampled_executions = out.executions;
  out = run_bound_scenario<S, F>(sc, o);
  out.executions += sampled_executions;
  return out;
}

// Re-runs the one execution recorded in a replay file (scheduler and state).
template <class S, spec::FaultOf<S> F>
LinOutcome replay_model_scenario(const Scenario<S>& sc, const LinOptions& o, const std::string& scheduler,
                                 const std::string& state) {
  using Test = LinModelTest<S, F>;
  detail::Bound<S, F> bound(sc, o);
  ModelRequest one;
  one.initial_state = state;
  one.execution_limit = 1;
  one.context_bound = o.bound;
  one.pct_depth = o.pct_depth;
  LinOutcome out =
      scheduler == "bound"
          ? detail::to_lin_outcome(run_model<Test, rl::context_bound_scheduler<kMaxThreads>, SearchKind::tree>(one),
                                   "bound")
      : scheduler == "pct"
          ? detail::to_lin_outcome(run_model<Test, pct_scheduler<kMaxThreads>, SearchKind::sampled>(one), "pct")
          : detail::to_lin_outcome(run_model<Test, rl::random_scheduler<kMaxThreads>, SearchKind::sampled>(one),
                                   "random");
  out.exhaustive = false;  // a replay runs the recorded execution alone
  if (out.failed) out.table = detail::failing_table(sc, bound.shared, o);
  return out;
}

}  // namespace lfcheck::lin
