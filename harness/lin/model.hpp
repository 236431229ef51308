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

#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "harness/lin/execution.hpp"
#include "harness/lin/outcome.hpp"
#include "harness/lin/scenario.hpp"
#include "harness/lin/spec_hooks.hpp"
#include "harness/lin/spec_subject.hpp"
#include "lin/checker.hpp"
#include "lin/table.hpp"
// Relacy last: everything above includes its standard headers first.
#include "harness/model/run.hpp"
#include "harness/model/scenario_hooks.hpp"
#include "sync/relacy_sync.hpp"

namespace lfcheck::lin {

// State shared by the runner and the per-execution test objects of one search:
// the execution's bookkeeping (harness/lin/execution.hpp) and whether the checker
// rejected an outcome (else the failure was another check's). One per spec: the
// runner binds it for as long as one scenario's runs last (ModelShared<S>::bound).
template <class S>
struct ModelShared : ExecutionBook<S> {
  bool rejected = false;
  static inline ModelShared* bound = nullptr;
};

// One execution of a scenario, as the runner library runs it (ScenarioHooks,
// harness/model/scenario_hooks.hpp): the Subject is built inside the simulation,
// before every execution, and destroyed after after(). The only part of the lin
// model layer compiled once per seeded fault: everything else is per spec.
template <class S, spec::FaultOf<S> F>
struct LinModelTest {
  // The spec's hooks (spec_hooks.hpp): the driver's around the Subject (declared
  // first: begun before it is built, ended after it is destroyed), each simulated
  // thread's around its calls. Relacy's threads are fibers of one OS thread, so
  // here the hooks may only touch state written against the Sync policy.
  spec::ThreadScope<S> driver{spec::kDriverThread};
  spec::SubjectOf<S, RelacySync, F> subject;

  void before() {
    ModelShared<S>& shared = *ModelShared<S>::bound;
    shared.rejected = false;  // describes this execution only (the failing one is re-run last)
    run_prefix(subject, shared);
  }
  void thread(unsigned t) {
    const spec::ThreadScope<S> scope(t);
    run_thread(subject, *ModelShared<S>::bound, t);
  }
  void invariant() {}
  void after() {
    ModelShared<S>& shared = *ModelShared<S>::bound;
    const Judgement j = finish_execution(subject, shared);
    if (!j.words) return;
    if (!j.invariant) shared.rejected = true;
    // Fails the execution: Relacy records its history as for any failure.
    RelacySync::check(false, j.words);
  }
};

// The hooks of one fault's test (what with_fault picks): the rest takes these.
template <class S, spec::FaultOf<S> F>
const model::ScenarioHooks& lin_model_hooks() {
  return model::hooks_for<LinModelTest<S, F>>();
}

namespace detail {

// A model-layer outcome as lin reports it.
inline LinOutcome to_lin_outcome(const ModelOutcome& m, const char* scheduler) {
  LinOutcome out;
  out.scheduler = scheduler;
  out.executions = m.executions;
  out.exhaustive = m.whole_space && !m.no_shared_access;  // a search of nothing proves nothing
  out.no_shared_access = m.no_shared_access;
  out.interrupted = m.stopped == Stop::interrupt;
  out.stopped = m.stopped == Stop::limit ? "limit" : m.stopped == Stop::budget ? "budget" : out.interrupted ? "interrupt" : "";
  if (m.result == rl::test_result_success) return out;
  out.failed = true;
  out.history = m.history;
  out.state = m.state;
  if (m.diverged) {
    out.failure = "NONDETERMINISTIC SCENARIO (an execution did not repeat the choices of the path it replayed)";
  } else if (!m.reproduced) {
    out.failure = std::string("NONDETERMINISTIC SCENARIO (") + failure_words(m) +
                  ", then on re-run " + rl::test_result_str(m.rerun_result) + ")";
  } else {
    // Relacy's words with the check's own text, e.g. "USER ASSERT FAILED (boom)"; the
    // checker's own rejection (after() fails the execution with its words through
    // Sync::check) is recorded in its words, as the stress layer records it:
    // "NOT LINEARIZABLE: ...", never as a user assertion.
    const auto first_line = m.history.substr(0, m.history.find('\n'));
    out.failure = first_line.empty() ? rl::test_result_str(m.result) : first_line;
    for (const char* words : {kNotLinearizableWords, kUnknownWords})
      if (out.failure == std::string(rl::test_result_str(rl::test_result_user_assert_failed)) + " (" + words + ")")
        out.failure = words;
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

// One run of one scenario under one scheduler, with its shared state bound for
// as long as the run lasts (Relacy constructs the test objects itself: they find
// it through ModelShared<S>::bound).
template <class S>
LinOutcome run_lin(const model::ScenarioHooks& hooks, const Scenario<S>& sc, const LinOptions& o,
                   const std::string& scheduler, const ModelRequest& request) {
  auto shared = std::make_unique<ModelShared<S>>();  // 512 cached outcomes: not on the stack
  shared->scenario = &sc;
  shared->check_budget = o.check_budget;
  ModelShared<S>::bound = shared.get();
  LinOutcome out = to_lin_outcome(run_scenario(hooks, kMaxThreads, scheduler, request), scheduler.c_str());
  if (out.failed) out.table = failing_table(sc, *shared, o);
  ModelShared<S>::bound = nullptr;
  return out;
}

}  // namespace detail

// One scenario's sampled run: o.random_iterations executions of o.sampler
// (Relacy's random scheduler or lfcheck's PCT at o.pct_depth).
template <class S>
LinOutcome run_sampled_scenario(const model::ScenarioHooks& hooks, const Scenario<S>& sc, const LinOptions& o) {
  ModelRequest sampled;
  sampled.iterations = o.random_iterations;
  sampled.pct_depth = o.pct_depth;
  return detail::run_lin(hooks, sc, o, o.sampler == "pct" ? "pct" : "random", sampled);
}

// One scenario's search: DPOR up to o.dpor_executions — where it ends, every
// execution class of the scenario was checked ("verified") — else the bound-K
// search up to o.bound_executions (exhaustive up to K preemptions where it ends).
template <class S>
LinOutcome run_bound_scenario(const model::ScenarioHooks& hooks, const Scenario<S>& sc, const LinOptions& o) {
  std::uint64_t dpor_executions = 0;
  if (o.dpor_executions) {
    ModelRequest search;
    search.execution_limit = o.dpor_executions;
    search.load_depth = o.load_depth;
    LinOutcome out = detail::run_lin(hooks, sc, o, "dpor", search);
    out.verified = out.exhaustive;
    out.exhaustive = false;
    if (std::getenv("LFCHECK_DPOR_STATS"))  // each scenario's search (a developer's view)
    {
      std::string shape, calls;  // calls per thread, e.g. "3+2+4"; and the calls, a thread's after '|'
      for (const auto& t : sc.threads) {
        shape += (shape.empty() ? "" : "+") + std::to_string(t.size());
        calls += calls.empty() ? "" : " |";
        for (const auto& c : t) calls += " " + S::show(c);
      }
      std::fprintf(stderr, "lin dpor: %llu executions, %s; threads %s:%s\n", static_cast<unsigned long long>(out.executions),
                   out.verified ? "verified" : out.failed ? "failed" : "not ended", shape.c_str(), calls.c_str());
    }
    if (out.failed || out.verified || out.interrupted || o.bound == 0) return out;
    dpor_executions = out.executions;
  }
  if (o.bound == 0) return {};
  ModelRequest tree;
  tree.context_bound = o.bound;
  tree.execution_limit = o.bound_executions;
  LinOutcome out = detail::run_lin(hooks, sc, o, "bound", tree);
  out.executions += dpor_executions;
  return out;
}

// Runs one scenario: its sampled run, then its search (unless the sampled run
// failed); the runner of the shrink candidates of a failure the search found.
// The outcome's table shows the failing execution's calls and results.
template <class S>
LinOutcome run_model_scenario(const model::ScenarioHooks& hooks, const Scenario<S>& sc, const LinOptions& o) {
  LinOutcome out = run_sampled_scenario<S>(hooks, sc, o);
  if (out.failed || out.interrupted) return out;
  const std::uint64_t sampled_executions = out.executions;
  const bool no_access = out.no_shared_access;
  out = run_bound_scenario<S>(hooks, sc, o);
  out.executions += sampled_executions;
  out.no_shared_access = out.no_shared_access && no_access;
  return out;
}

// Re-runs the one execution recorded in a replay file (scheduler and state).
template <class S>
LinOutcome replay_model_scenario(const model::ScenarioHooks& hooks, const Scenario<S>& sc, const LinOptions& o,
                                 const std::string& scheduler, const std::string& state) {
  ModelRequest one;
  one.initial_state = state;
  one.execution_limit = 1;
  one.context_bound = o.bound;
  one.pct_depth = o.pct_depth;
  one.load_depth = o.load_depth;
  const std::string which = scheduler == "bound" || scheduler == "pct" || scheduler == "dpor" ? scheduler : "random";
  LinOutcome out = detail::run_lin(hooks, sc, o, which, one);
  out.exhaustive = false;  // a replay runs the recorded execution alone
  out.verified = false;
  return out;
}

}  // namespace lfcheck::lin
