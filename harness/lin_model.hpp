// Linearizability under the C++ memory model as Relacy explores it: one
// generated scenario (lin_scenario.hpp) run by Relacy, its Subject instantiated
// with RelacySync, every execution's results checked by lin::check in after().
//
// Each scenario runs with the random scheduler (LinOptions::random_iterations
// executions) and then with the context-bound search (bound K), which is
// exhaustive up to K preemptions when it finishes within bound_executions; a
// search the budget stopped is reported as not exhaustive (search_budget.hpp).
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
#include "lin/checker.hpp"
#include "lin/table.hpp"
// Relacy last: everything above includes its standard headers first.
#include "harness/model_registry.hpp"
#include "harness/search_budget.hpp"
#include "sync/relacy_sync.hpp"

namespace lfcheck::lin {

// State shared by the runner and the per-execution test objects of one search.
template <class S>
struct ModelShared {
  static constexpr std::size_t kCacheSize = 512;
  const Scenario<S>* scenario = nullptr;
  Budget check_budget;
  std::uint64_t executions = 0;     // counted where they happen: before()
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

template <class S, typename S::Fault F>
struct LinModelTest : rl::test_suite<LinModelTest<S, F>, kMaxThreads> {
  static inline ModelShared<S>* shared = nullptr;

  LabelReset reset_labels;  // first member: runs before the subject labels its variables
  typename S::template Subject<RelacySync, F> subject;

  void before() {
    ModelShared<S>& sh = *shared;
    ++sh.executions;
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

// One search with Relacy's scheduler Sched; on failure, the failing execution is
// re-run with history collection, and its verdict must be the same.
// `from_state`: replay — start at that recorded execution.
template <class Test, class Sched>
LinOutcome relacy_search(rl::test_params params, std::uint64_t max_executions, const char* scheduler_name,
                         const std::string& from_state = "") {
  LinOutcome out;
  out.scheduler = scheduler_name;
  if (!from_state.empty()) {
    params.initial_state = from_state.c_str();
    params.iteration_count = std::strtoull(from_state.c_str(), nullptr, 10);
  }
  rl::ostringstream stream;  // Relacy's allocator: it is written inside the simulation
  params.output_stream = &stream;
  params.progress_stream = &stream;
  SearchBudget budget;
  budget.max_executions = max_executions;
  active_search_budget() = &budget;
  // Relacy writes the failing execution's state while its context is alive, so
  // with its own allocator too (a std::ostringstream would be freed by the wrong one).
  rl::ostringstream state_stream;
  const rl::test_result_e first = rl::run_test<Test, budgeted<Sched>>(params, state_stream, false);
  out.exhaustive = first == rl::test_result_success && !budget.stopped_early;
  active_search_budget() = nullptr;
  if (first == rl::test_result_success) return out;

  out.failed = true;
  out.failure = rl::test_result_str(first);
  const auto state = state_stream.str();
  out.state.assign(state.begin(), state.end());
  // The history: re-run exactly the failing execution (one execution's budget).
  rl::test_params again = params;
  again.collect_history = true;
  again.initial_state = out.state.c_str();
  again.iteration_count = std::strtoull(out.state.c_str(), nullptr, 10);
  rl::ostringstream history;
  again.output_stream = &history;
  again.progress_stream = &history;
  SearchBudget one;
  one.max_executions = 1;
  active_search_budget() = &one;
  rl::ostringstream ignored;
  const rl::test_result_e second = rl::run_test<Test, budgeted<Sched>>(again, ignored, true);
  active_search_budget() = nullptr;
  const auto text = history.str();
  out.history.assign(text.begin(), text.end());
  if (second != first) {
    out.failure = std::string("NONDETERMINISTIC SCENARIO (") + rl::test_result_str(first) +
                  ", then on re-run " + rl::test_result_str(second) + ")";
  } else if (again.test_result == rl::test_result_user_assert_failed) {
    // Relacy's words with the check's own text, e.g. "USER ASSERT FAILED (NOT LINEARIZABLE: ...)".
    const auto first_line = out.history.substr(0, out.history.find('\n'));
    if (!first_line.empty()) out.failure = first_line;
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
template <class S, typename S::Fault F>
LinOutcome run_model_scenario(const Scenario<S>& sc, const LinOptions& o) {
  using Test = LinModelTest<S, F>;
  auto shared = std::make_unique<ModelShared<S>>();
  shared->scenario = &sc;
  shared->check_budget = o.check_budget;
  Test::shared = shared.get();

  rl::test_params params;
  params.search_type = rl::random_scheduler_type;
  params.iteration_count = o.random_iterations;
  LinOutcome out = detail::relacy_search<Test, rl::random_scheduler<kMaxThreads>>(params, o.random_iterations, "random");
  std::uint64_t executions = shared->executions;
  if (!out.failed && o.bound > 0) {
    rl::test_params bound;
    bound.search_type = rl::fair_context_bound_scheduler_type;
    bound.context_bound = o.bound;
    shared->executions = 0;
    out = detail::relacy_search<Test, rl::context_bound_scheduler<kMaxThreads>>(bound, o.bound_executions, "bound");
    executions += shared->executions;
  }
  out.executions = executions;  // the history re-run counted too; it is a real execution
  if (out.failed) out.table = detail::failing_table(sc, *shared, o);
  Test::shared = nullptr;
  return out;
}

// Re-runs the one execution recorded in a replay file (scheduler and state).
template <class S, typename S::Fault F>
LinOutcome replay_model_scenario(const Scenario<S>& sc, const LinOptions& o, const std::string& scheduler,
                                 const std::string& state) {
  using Test = LinModelTest<S, F>;
  auto shared = std::make_unique<ModelShared<S>>();
  shared->scenario = &sc;
  shared->check_budget = o.check_budget;
  Test::shared = shared.get();
  rl::test_params params;
  LinOutcome out;
  if (scheduler == "bound") {
    params.search_type = rl::fair_context_bound_scheduler_type;
    params.context_bound = o.bound;
    out = detail::relacy_search<Test, rl::context_bound_scheduler<kMaxThreads>>(params, 1, "bound", state);
  } else {
    params.search_type = rl::random_scheduler_type;
    out = detail::relacy_search<Test, rl::random_scheduler<kMaxThreads>>(params, 1, "random", state);
  }
  out.executions = shared->executions;
  if (out.failed) out.table = detail::failing_table(sc, *shared, o);
  Test::shared = nullptr;
  return out;
}

}  // namespace lfcheck::lin
