// lfcheck's own Relacy simulate: runs one scenario under one scheduler and says
// what ran, never more.
//
// Why not rl::simulate (relacy/context.hpp): after a failure it re-runs the failing
// iteration to collect its history, and that re-run overwrites params.test_result;
// its check that the re-run failed the same way (RL_VERIFY(res == res2)) is compiled
// out under -DNDEBUG, and a re-run that does not fail goes on into later iterations.
// A scenario that failed once could so be reported as a pass.
//
// Guarantees of run_model<Test, Scheduler>():
//  - The verdict is the first run's. The failing execution is re-run alone, from
//    the scheduler state the first run stopped at, only to record its history.
//  - A failure the re-run does not reproduce (another verdict, another iteration,
//    or a pass) is its own outcome: `reproduced == false` — the runner reports it
//    as NONDETERMINISTIC SCENARIO (exit 1).
//  - `executions` is counted where executions happen: ExecutionTick, the first
//    member of the test suite object Relacy builds at the start of every execution
//    (RelacyModel in harness/model/relacy_registry.hpp). It is harness bookkeeping, invisible to
//    Relacy (Relacy runs every thread of a simulation as a fiber of one OS thread,
//    and one simulation at a time per process: its context is a global).
//  - An execution limit stops a run after N executions (the history re-run: 1; a
//    replay: 1) even under the tree schedulers, whose iteration_end() would go on
//    through the rest of the tree: the next execution's ExecutionTick ends the
//    simulation at once (Relacy's "until" exit, before any scenario code runs).
//  - A wall-clock budget (ModelRequest::deadline, `--max-seconds`) ends a run the
//    same way, at the start of the first execution past the deadline: the run is
//    `stopped == Stop::budget`, which the runner reports as "stopped at budget" —
//    never as a pass, never exhaustive.
//  - A tree search stopped by the limit or the budget leaves `resume_state`:
//    Relacy's state of the execution it did not run (no runner resumes from it
//    yet: slicing a search that way is untested, nothing relies on it), and
//    `search_fraction`: its explored fraction (an estimate, harness/model/tree_estimate.hpp).
//  - `whole_space`: the scheduler ended on its own, after a search that started at
//    its root (no initial state) — only then may a tree search be called exhaustive.
//  - Progress: ModelRequest::observer is called after every execution starts
//    (harness-side, from inside the simulation: it must not allocate); a tree
//    search publishes its explored fraction (harness/model/tree_estimate.hpp) for it.
//  - The PCT scheduler (harness/model/pct_scheduler.hpp) needs the length of an execution: a
//    few calibration executions at depth 1, uncounted and unreported, measure it
//    before the run (pct_calibrate), unless the initial state names it.
//
// Iteration numbers: Relacy numbers iterations from 1 (start_iteration_ = 1 unless
// the initial state names one) and the random scheduler stops after the iteration
// equal to params.iteration_count. ModelRequest says where sampling starts and how
// many executions to run (at least 1); the wrapper derives iteration_count from
// them, so it can never lie below the start (that looped forever, and Relacy's
// progress output divided by zero).
//
// Scheduler: any Relacy scheduler class (random_scheduler<N>, context_bound_
// scheduler<N>, full_search_scheduler<N>, or one of lfcheck's own deriving from
// rl::scheduler), passed to rl::run_test<Test, Scheduler> — the extension point for
// other search strategies.
//
//  - A signal in scenario code (SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGABRT) ends its
//    execution as a failure like any other (harness/model/crash.hpp): `crash` says
//    which, failure_words() gives "CRASH: SIGFPE", and the re-run must crash alike.
//
// Cost: one simulation; on a failure, one more execution.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "harness/model/pct_scheduler.hpp"
#include "harness/model/tree_estimate.hpp"
#include "harness/model/crash.hpp"
#include "sync/relacy_sync.hpp"  // Relacy, with its macros put away

namespace lfcheck {

using Clock = std::chrono::steady_clock;

// Called after each execution starts, with the executions of this simulation so far.
struct ExecutionObserver {
  void (*on_execution)(void* self, std::uint64_t executions) = nullptr;
  void* self = nullptr;
};

// Executions of the current simulation, counted by ExecutionTick. Plain fields:
// one simulation at a time per process, all its fibers on one OS thread.
struct ExecutionLedger {
  std::uint64_t executions = 0;
  std::uint64_t limit = UINT64_MAX;  // executions allowed; the next one ends the run
  bool limit_hit = false;
  Clock::time_point deadline = Clock::time_point::max();  // the next execution past it ends the run
  bool budget_hit = false;
  ExecutionObserver observer;
};

inline ExecutionLedger& execution_ledger() {
  static ExecutionLedger ledger;
  return ledger;
}

// First member of every test suite object: runs when Relacy starts an execution.
struct ExecutionTick {
  ExecutionTick() {
    ExecutionLedger& l = execution_ledger();
    if (l.executions == l.limit) {
      l.limit_hit = true;
      rl::ctx().rl_until("lfcheck: execution limit reached", RL_INFO);  // does not return
    }
    if (l.deadline != Clock::time_point::max() && Clock::now() >= l.deadline) {
      l.budget_hit = true;
      rl::ctx().rl_until("lfcheck: time budget reached", RL_INFO);  // does not return
    }
    ++l.executions;
    if (l.observer.on_execution) l.observer.on_execution(l.observer.self, l.executions);
  }
};

// How the scheduler explores, as Relacy's context must know it: it reads
// params.search_type (only as "is it the random scheduler?") to decide whether
// spurious CAS failures, deferred frees and the store a load reads (2 back vs 1)
// are drawn at random or enumerated as tree branches.
enum class SearchKind { sampled, tree };

struct ModelRequest {
  // Sampled schedulers (random, pct): the first iteration sampled (>= 1) and how many (>= 1).
  std::uint64_t first_iteration = 1;
  std::uint64_t iterations = 1;
  unsigned context_bound = 2;       // context-bound scheduler
  unsigned pct_depth = 3;           // pct scheduler: d
  // Replay, or a tree search resumed: Relacy's "ITERATION scheduler-state"
  // (names the first iteration).
  std::string initial_state;
  std::uint64_t execution_limit = UINT64_MAX;  // replay: 1; a slice of a tree search
  Clock::time_point deadline = Clock::time_point::max();  // --max-seconds
  ExecutionObserver observer;                  // progress
};

// Why a run ended before its scheduler did.
enum class Stop { none, limit, budget };

struct ModelOutcome {
  rl::test_result_e result = rl::test_result_success;  // the first run's verdict
  std::uint64_t executions = 0;      // executions the first run performed
  std::uint64_t failing_iteration = 0;  // Relacy's number of the failing iteration
  bool whole_space = false;          // ended by the scheduler, from the root
  Stop stopped = Stop::none;         // passed so far, but ended by the execution limit or the budget
  std::string resume_state;          // a stopped tree search: where to go on from
  double search_fraction = 0;        // a tree search: explored fraction at its end (harness/model/tree_estimate.hpp)
  bool reproduced = true;            // failing: the re-run failed the same way
  rl::test_result_e rerun_result = rl::test_result_success;
  std::string history;               // Relacy's history of the failing execution
  std::string state;                 // the failing execution's state (replay file)
  CrashReport crash;                 // a crash (signal != 0): what and where
};

// The checker's words for a failing outcome: Relacy's, or "CRASH: SIGFPE".
inline std::string failure_words(const ModelOutcome& o) {
  return o.crash.signal ? o.crash.words : rl::test_result_str(o.result);
}

namespace detail {

// One call of rl::run_test with a fresh ledger; returns its verdict.
template <class Test, class Scheduler>
rl::test_result_e simulate_once(rl::test_params& params, std::ostream& state_out, bool history,
                                std::uint64_t limit, Clock::time_point deadline = Clock::time_point::max(),
                                ExecutionObserver observer = {}) {
  ExecutionLedger& ledger = execution_ledger();
  ledger = ExecutionLedger{};
  ledger.limit = limit;
  ledger.deadline = deadline;
  ledger.observer = observer;
  tree_search_fraction() = 0;
  params.collect_history = history;
  CrashGuard crash_guard;  // a signal in scenario code fails the execution (harness/model/crash.hpp)
  return rl::run_test<Test, Scheduler>(params, state_out, history);
}

template <class Scheduler>
struct is_pct : std::false_type {};
template <rl::thread_id_t n>
struct is_pct<pct_scheduler<n>> : std::true_type {};

// PCT's k: the longest of a few uncounted executions at depth 1 (no change
// points), numbered far from any run's iterations. Their verdicts are not kept:
// they only measure; the run that follows is what checks.
constexpr std::uint64_t kPctCalibrationExecutions = 8;
constexpr std::uint64_t kPctCalibrationFirst = 4'290'000'000ull;

template <class Test, class Scheduler>
std::uint64_t pct_calibrate() {
  PctSettings& pct = pct_settings();
  const PctSettings keep = pct;
  pct.depth = 1;
  pct.steps = 0;
  pct.max_steps_seen = 0;
  rl::test_params params;
  rl::ostringstream sink, state;
  params.output_stream = &sink;
  params.progress_stream = &sink;
  params.search_type = rl::random_scheduler_type;
  const std::string first = std::to_string(kPctCalibrationFirst);
  params.initial_state = first.c_str();
  params.iteration_count = kPctCalibrationFirst + kPctCalibrationExecutions - 1;
  simulate_once<Test, Scheduler>(params, state, false, kPctCalibrationExecutions);
  const std::uint64_t steps = pct.max_steps_seen > 0 ? pct.max_steps_seen : 1;
  pct = keep;
  return steps;
}

}  // namespace detail

template <class Test, class Scheduler, SearchKind kind>
ModelOutcome run_model(const ModelRequest& request) {
  rl::test_params params;
  rl::ostringstream history_text;  // raw allocator: Relacy writes it from inside the simulation
  rl::ostringstream null_progress;  // Relacy's own "P% (i/total)" lines: progress comes from the observer
  params.output_stream = &history_text;
  params.progress_stream = &null_progress;
  params.context_bound = request.context_bound;
  params.search_type = kind == SearchKind::sampled ? rl::random_scheduler_type
                                                   : rl::fair_context_bound_scheduler_type;
  if constexpr (kind == SearchKind::sampled) {
    // The first iteration is the one the state names, else the requested one.
    std::uint64_t first = request.initial_state.empty()
                              ? request.first_iteration
                              : std::strtoull(request.initial_state.c_str(), nullptr, 10);
    if (first == 0) first = 1;
    const std::uint64_t count = request.iterations ? request.iterations : 1;
    params.initial_state = request.initial_state.empty() ? std::to_string(first).c_str()
                                                         : request.initial_state.c_str();
    params.iteration_count = first + count - 1;
  } else {
    params.initial_state = request.initial_state.c_str();
  }

  if constexpr (detail::is_pct<Scheduler>::value) {
    // d and k: a replayed state names both (set_state); else the request's d and a calibrated k.
    pct_settings().depth = request.pct_depth;
    pct_settings().steps = request.initial_state.empty() ? detail::pct_calibrate<Test, Scheduler>() : 1;
  }

  ModelOutcome o;
  rl::ostringstream state;
  o.result = detail::simulate_once<Test, Scheduler>(params, state, false, request.execution_limit,
                                                    request.deadline, request.observer);
  const ExecutionLedger first_run = execution_ledger();
  const CrashRecord first_crash = crash_record();
  o.search_fraction = tree_search_fraction();
  o.executions = first_run.executions;
  if (first_run.limit_hit || first_run.budget_hit) {
    // Ended by the execution limit or the budget after executions that passed.
    o.result = rl::test_result_success;
    o.stopped = first_run.limit_hit ? Stop::limit : Stop::budget;
    if constexpr (kind == SearchKind::tree) {
      const auto where = state.str();
      o.resume_state.assign(where.begin(), where.end());
    }
  } else {
    o.whole_space = o.result == rl::test_result_success && request.initial_state.empty() &&
                    kind == SearchKind::tree;
  }
  if (o.result == rl::test_result_success) return o;

  // The failing execution alone, again, for its history.
  o.failing_iteration = params.stop_iteration;
  const auto failing_state = state.str();
  o.state.assign(failing_state.begin(), failing_state.end());
  rl::ostringstream unused;
  params.initial_state = o.state.c_str();
  if constexpr (kind == SearchKind::sampled) params.iteration_count = o.failing_iteration;
  o.rerun_result = detail::simulate_once<Test, Scheduler>(params, unused, true, 1);
  const CrashRecord rerun_crash = crash_record();
  o.reproduced = !execution_ledger().limit_hit && o.rerun_result == o.result &&
                 params.stop_iteration == o.failing_iteration && rerun_crash.signal == first_crash.signal &&
                 rerun_crash.pc == first_crash.pc;
  o.crash = resolve_crash(first_crash.signal ? (rerun_crash.signal ? rerun_crash : first_crash) : CrashRecord{});
  const auto text = history_text.str();
  o.history = crash_history(std::string(text.begin(), text.end()), o.crash);
  return o;
}

// The schedulers by lfcheck's names: Relacy's random, context-bound (bound) and
// full search — the tree searches with their progress estimate — and lfcheck's pct.
template <class Test>
ModelOutcome run_model(const std::string& scheduler, const ModelRequest& request) {
  constexpr auto n = Test::params::thread_count;
  if (scheduler == "random") return run_model<Test, rl::random_scheduler<n>, SearchKind::sampled>(request);
  if (scheduler == "pct") return run_model<Test, pct_scheduler<n>, SearchKind::sampled>(request);
  if (scheduler == "bound")
    return run_model<Test, estimating_scheduler<rl::context_bound_scheduler<n>>, SearchKind::tree>(request);
  return run_model<Test, estimating_scheduler<rl::full_search_scheduler<n>>, SearchKind::tree>(request);
}

}  // namespace lfcheck
