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
//  - An interrupted command (SIGINT, SIGTERM: harness/cli/interrupt.hpp) ends a run
//    the same way, under every scheduler (dpor included): `stopped == Stop::interrupt`,
//    reported as "interrupted". A run of one execution (a failure's re-run, a
//    replay) runs to its end.
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
// Compiled once: run_scenario() and everything Relacy instantiates for it (its
// context over a test type and a scheduler, for every thread count up to
// kMaxModelThreads) live in the runner library (harness/model/run.cpp). A
// scenario reaches it as ScenarioHooks (scenario_hooks.hpp): a structure's
// translation unit compiles its own code against RelacySync and nothing of Relacy's
// machinery. The scheduler is picked by name at run time (AnyScheduler, run.cpp):
// Relacy's random, context-bound and full search, lfcheck's pct and dpor — each a
// class plugged into rl::run_test, no Relacy header changed.
//
//  - A signal in scenario code (SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGABRT) ends its
//    execution as a failure like any other (harness/model/crash.hpp): `crash` says
//    which, failure_words() gives "CRASH: SIGFPE", and the re-run must crash alike.
//
// Cost: one simulation; on a failure, one more execution.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/model/crash.hpp"
#include "harness/model/scenario_hooks.hpp"
#include "sync/relacy_sync.hpp"  // Relacy's result codes, with its macros put away

namespace lfcheck {

using Clock = std::chrono::steady_clock;

// The most threads a scenario may have (Relacy's thread count is a template
// argument: the runner library is compiled for 1 .. kMaxModelThreads).
constexpr unsigned kMaxModelThreads = 6;

// Called after each execution starts, with the executions of this simulation so far.
struct ExecutionObserver {
  void (*on_execution)(void* self, std::uint64_t executions) = nullptr;
  void* self = nullptr;
};

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
  bool collect_outcomes = false;               // --outcomes: the distinct outcome() values
  unsigned load_depth = 1;                     // dpor, full: stores back a load may read (1 or 2; full: deep_full_search.hpp)
};

// Why a run ended before its scheduler did.
enum class Stop { none, limit, budget, interrupt };

struct ModelOutcome {
  rl::test_result_e result = rl::test_result_success;  // the first run's verdict
  std::uint64_t executions = 0;      // executions the first run performed (pct: calibration included)
  std::uint64_t failing_iteration = 0;  // Relacy's number of the failing iteration
  bool whole_space = false;          // ended by the scheduler, from the root
  Stop stopped = Stop::none;         // passed so far, but ended by the execution limit, the budget or an interrupt
  std::string resume_state;          // a stopped tree search: where to go on from
  double search_fraction = 0;        // a tree search: explored fraction at its end (tree_estimate.hpp)
  bool reproduced = true;            // failing: the re-run failed the same way
  // dpor: an execution did not repeat the choices of the path it replayed (the
  // scenario depends on more than the schedule): reproduced is false.
  bool diverged = false;
  rl::test_result_e rerun_result = rl::test_result_success;
  std::string history;               // Relacy's history of the failing execution
  std::string state;                 // the failing execution's state (replay file)
  CrashReport crash;                 // a crash (signal != 0): what and where
  // No thread of any execution touched anything through the Sync policy: nothing
  // was checked (the runner's "NO WORK" verdict), whatever Relacy said.
  bool no_shared_access = false;
  // pct: k, the steps change points are drawn from, and how many executions ran
  // longer than k (change points never land past step k).
  std::uint64_t pct_steps = 0, pct_longer_than_steps = 0;
  bool failed_in_calibration = false;  // pct: the failing execution was a calibration one (depth 1)
  // --outcomes: the sorted distinct outcome() values of the passing executions;
  // complete == false if there were more than the runner keeps (kMaxOutcomes).
  std::vector<std::uint64_t> outcomes;
  bool outcomes_complete = true;
  // dpor: the executions that were sleep-set blocked, the races found, the
  // executions known to repeat an explored class (sleep-set blocked, or the run of
  // a pruned older load), and the data alternatives pruned (dpor/exploration.hpp).
  std::uint64_t sleep_blocked = 0, races = 0, redundant = 0, pruned_older_loads = 0, pruned_free_deferrals = 0;
  // dpor, stopped by a budget: executions it would still have run, at least.
  std::uint64_t pending = 0;
};

constexpr std::size_t kMaxOutcomes = 4096;

// The verdict of a run whose threads touched nothing through the Sync policy.
inline constexpr const char* kNoSharedAccessWords =
    "NO WORK: no shared access seen — is this code written against Sync?";

// The checker's words for a failing outcome: Relacy's, or "CRASH: SIGFPE".
inline std::string failure_words(const ModelOutcome& o) {
  return o.crash.signal ? o.crash.words : rl::test_result_str(o.result);
}

// The schedulers by lfcheck's names.
bool is_known_scheduler(const std::string& name);  // random, pct, bound, full, dpor

// dpor, after the current search's latest execution (the progress line): its
// redundant executions (sleep-set blocked, or a pruned older load's run), the
// executions it will still run at least, the depth of its shallowest open choice
// and the length of the path that execution took.
struct DporProgress {
  std::uint64_t redundant = 0, pending = 0;
  std::size_t open_depth = 0, path_length = 0;
};
DporProgress current_dpor_progress();

// Runs the scenario `hooks` describes, with `threads` threads (1 .. kMaxModelThreads),
// under the named scheduler. Compiled once, in the runner library.
ModelOutcome run_scenario(const model::ScenarioHooks& hooks, unsigned threads, const std::string& scheduler,
                          const ModelRequest& request);

// The explored fraction of the current tree search (tree_estimate.hpp), for the
// progress line: call from an ExecutionObserver.
double current_search_fraction();

}  // namespace lfcheck
