// lfcheck's own Relacy simulate (harness/model/run.hpp says what it guarantees):
// compiled once, in the runner library, for every thread count.
#include "harness/model/run.hpp"

// Relacy's templates at a thread count of 1 make g++ warn of array bounds it cannot
// reach (one-element arrays indexed past a thread check): not our code, not a bug.
#pragma GCC diagnostic ignored "-Warray-bounds"

#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "harness/model/any_scheduler.hpp"
#include "harness/model/crash.hpp"
#include "harness/model/pct_scheduler.hpp"
#include "harness/model/relacy_allocator.hpp"
#include "harness/model/simulation.hpp"
#include "harness/model/tree_estimate.hpp"
#include "sync/relacy_sync.hpp"

// Relacy's context for a scenario of N threads, and its allocator (relacy_allocator.hpp).
namespace lfcheck::model::relacy_allocator {
template <rl::thread_id_t N>
using Context = rl::context_impl<ErasedTest<N>, AnyScheduler<N>>;
template struct Reach<ContextMemory<Context<1>>, &Context<1>::memory_>;
template struct Reach<ContextMemory<Context<2>>, &Context<2>::memory_>;
template struct Reach<ContextMemory<Context<3>>, &Context<3>::memory_>;
template struct Reach<ContextMemory<Context<4>>, &Context<4>::memory_>;
template struct Reach<ContextMemory<Context<5>>, &Context<5>::memory_>;
template struct Reach<ContextMemory<Context<6>>, &Context<6>::memory_>;
}  // namespace lfcheck::model::relacy_allocator

namespace lfcheck {
namespace {

using model::AnyScheduler;
using model::current_run;
using model::ErasedTest;
using model::execution_ledger;
using model::ExecutionLedger;
using model::SchedulerKind;

// How Relacy's context must see the run: it reads params.search_type (only as
// "is it the random scheduler?") to decide whether spurious CAS failures,
// deferred frees and the store a load reads (2 back vs 1) are drawn at random or
// enumerated as tree branches.
enum class SearchKind { sampled, tree };

// One call of rl::run_test with a fresh ledger; returns its verdict.
template <rl::thread_id_t N>
rl::test_result_e simulate_once(rl::test_params& params, std::ostream& state_out, bool history, std::uint64_t limit,
                                Clock::time_point deadline = Clock::time_point::max(),
                                ExecutionObserver observer = {}) {
  ExecutionLedger& ledger = execution_ledger();
  ledger = ExecutionLedger{};
  ledger.limit = limit;
  ledger.deadline = deadline;
  ledger.observer = observer;
  static_assert(kMaxModelThreads == 6, "relacy_allocator::Reach is instantiated for 1..6 threads");
  ledger.start_execution = &model::relacy_allocator::flush_deferred_frees<model::relacy_allocator::Context<N>>;
  tree_search_fraction() = 0;
  current_run().outcomes.drop_pending();
  current_run().observer.harness_part = model::HarnessPart::none;
  params.collect_history = history;
  CrashGuard crash_guard;  // a signal in scenario code fails the execution (crash.hpp)
  model::access_observer() = &current_run().observer;
  const rl::test_result_e result = rl::run_test<ErasedTest<N>, AnyScheduler<N>>(params, state_out, history);
  model::access_observer() = nullptr;
  if (result == rl::test_result_success) current_run().outcomes.commit_pending();
  return result;
}

// PCT's k: measured by a few executions at depth 1 (no change points), numbered
// far from any run's iterations, before the run. They are executions of the
// scenario like any other — counted, and their verdict is kept: a failure among
// them is the run's failure (a replay re-runs it at depth 1). k is then twice the
// longest of them (a margin: executions at depth d are often longer), and the
// run counts the executions that still went past k.
constexpr std::uint64_t kPctCalibrationExecutions = 8;
constexpr std::uint64_t kPctCalibrationFirst = 4'290'000'000ull;
constexpr std::uint64_t kPctStepsMargin = 2;

template <rl::thread_id_t N, SearchKind kind>
ModelOutcome run_model(const ModelRequest& request, SchedulerKind scheduler) {
  const bool dpor = scheduler == SchedulerKind::dpor;
  rl::test_params params;
  rl::ostringstream history_text;   // raw allocator: Relacy writes it from inside the simulation
  rl::ostringstream null_progress;  // Relacy's own "P% (i/total)" lines: progress comes from the observer
  params.output_stream = &history_text;
  params.progress_stream = &null_progress;
  params.context_bound = request.context_bound;
  // DPOR and the full search at load depth 2 let loads read as far back as sampled
  // runs do (Relacy decides that by the search type; the dpor scheduler and
  // deep_full_search enumerate the choices, and narrow the search type's other
  // sampled-run draws back to the tree searches').
  const bool deep = request.load_depth >= 2 && (dpor || scheduler == SchedulerKind::full_deep);
  params.search_type = kind == SearchKind::sampled || deep ? rl::random_scheduler_type
                                                           : rl::fair_context_bound_scheduler_type;
  if (dpor) model::dpor_settings().load_depth = request.load_depth >= 2 ? 2 : 1;
  std::string initial = request.initial_state;
  if constexpr (kind == SearchKind::sampled) {
    // The first iteration is the one the state names, else the requested one.
    std::uint64_t first = initial.empty() ? request.first_iteration : std::strtoull(initial.c_str(), nullptr, 10);
    if (first == 0) first = 1;
    const std::uint64_t count = request.iterations ? request.iterations : 1;
    if (initial.empty()) initial = std::to_string(first);
    params.iteration_count = first + count - 1;
  }
  params.initial_state = initial.c_str();
  model::next_scheduler_kind() = scheduler;

  ModelOutcome o;
  rl::ostringstream state;
  rl::test_result_e result = rl::test_result_success;
  ExecutionLedger first_run;
  CrashRecord first_crash;
  bool ran = false;  // the first run happened (in calibration, when a calibration execution failed)

  if (scheduler == SchedulerKind::pct) {
    PctSettings& pct = pct_settings();
    pct.depth = request.pct_depth;
    pct.longer_than_steps = 0;
    if (request.initial_state.empty()) {
      // Calibration: depth 1, k not yet known (0).
      pct.depth = 1;
      pct.steps = 0;
      pct.max_steps_seen = 0;
      rl::test_params cal = params;
      const std::string cal_first = std::to_string(kPctCalibrationFirst);
      cal.initial_state = cal_first.c_str();
      cal.iteration_count = kPctCalibrationFirst + kPctCalibrationExecutions - 1;
      rl::ostringstream cal_state;
      result = simulate_once<N>(cal, cal_state, false, kPctCalibrationExecutions, request.deadline, request.observer);
      o.executions = execution_ledger().executions;
      const ExecutionLedger& cal_run = execution_ledger();
      if (result != rl::test_result_success && !cal_run.limit_hit && !cal_run.budget_hit && !cal_run.interrupt_hit) {
        // A calibration execution failed: that is the run's verdict, replayable at depth 1.
        first_run = execution_ledger();
        first_crash = crash_record();
        params.stop_iteration = cal.stop_iteration;
        state.str(cal_state.str());
        params.iteration_count = cal.iteration_count;
        o.failed_in_calibration = true;
        ran = true;
      } else if (cal_run.budget_hit || cal_run.interrupt_hit) {  // the run does not start
        first_run = cal_run;
        result = rl::test_result_success;
        ran = true;
      }
      pct.steps = kPctStepsMargin * (pct.max_steps_seen > 0 ? pct.max_steps_seen : 1);
      pct.depth = request.pct_depth;
    } else {
      pct.steps = 1;  // the replayed state names d and k (set_state)
    }
  }

  const std::uint64_t calibration = o.executions;
  if (!ran) {
    result = simulate_once<N>(params, state, false, request.execution_limit, request.deadline, request.observer);
    first_run = execution_ledger();
    first_crash = crash_record();
    o.executions = calibration + first_run.executions;
  }
  o.result = result;
  o.search_fraction = tree_search_fraction();
  bool diverged = false;
  if (dpor) {
    o.sleep_blocked = model::dpor_stats().sleep_blocked;
    o.races = model::dpor_stats().races;
    o.redundant = model::dpor_stats().redundant;
    o.pruned_older_loads = model::dpor_stats().pruned_loads;
    o.pruned_free_deferrals = model::dpor_stats().pruned_frees;
    o.pending = model::dpor_stats().pending;
    diverged = model::dpor_stats().diverged;
    o.diverged = diverged;
  }
  if (diverged && result == rl::test_result_success) {
    // The last execution did not follow its path (the scheduler ended the search
    // there: dpor/scheduler.hpp, iteration_end_impl): the scenario is
    // nondeterministic, and the search did not cover what it says it did.
    o.result = rl::test_result_user_assert_failed;
    o.reproduced = false;
    o.rerun_result = rl::test_result_success;
    o.failing_iteration = o.executions;
    o.no_shared_access = current_run().observer.thread_accesses == 0;
    return o;
  }
  if (scheduler == SchedulerKind::pct) {
    o.pct_steps = pct_settings().steps;
    o.pct_longer_than_steps = pct_settings().longer_than_steps;
  }
  if (first_run.limit_hit || first_run.budget_hit || first_run.interrupt_hit) {
    // Ended by the execution limit, the budget or an interrupt after executions that passed.
    o.result = rl::test_result_success;
    o.stopped = first_run.limit_hit ? Stop::limit : first_run.budget_hit ? Stop::budget : Stop::interrupt;
    if constexpr (kind == SearchKind::tree) {
      const auto where = state.str();
      o.resume_state.assign(where.begin(), where.end());
    }
  } else {
    o.whole_space = o.result == rl::test_result_success && request.initial_state.empty() && kind == SearchKind::tree;
  }
  o.no_shared_access = current_run().observer.thread_accesses == 0;
  if (o.result == rl::test_result_success) return o;

  // The failing execution alone, again, for its history.
  o.failing_iteration = params.stop_iteration;
  const auto failing_state = state.str();
  o.state.assign(failing_state.begin(), failing_state.end());
  rl::ostringstream unused;
  params.initial_state = o.state.c_str();
  if constexpr (kind == SearchKind::sampled) params.iteration_count = o.failing_iteration;
  o.rerun_result = simulate_once<N>(params, unused, true, 1);
  const CrashRecord rerun_crash = crash_record();
  o.reproduced = !diverged && !execution_ledger().limit_hit && o.rerun_result == o.result &&
                 params.stop_iteration == o.failing_iteration && rerun_crash.signal == first_crash.signal &&
                 rerun_crash.pc == first_crash.pc;
  o.crash = resolve_crash(first_crash.signal ? (rerun_crash.signal ? rerun_crash : first_crash) : CrashRecord{});
  const auto text = history_text.str();
  o.history = crash_history(std::string(text.begin(), text.end()), o.crash);
  return o;
}

template <rl::thread_id_t N>
ModelOutcome run_with(const std::string& scheduler, const ModelRequest& request) {
  if (scheduler == "random") return run_model<N, SearchKind::sampled>(request, SchedulerKind::random);
  if (scheduler == "pct") return run_model<N, SearchKind::sampled>(request, SchedulerKind::pct);
  if (scheduler == "bound") return run_model<N, SearchKind::tree>(request, SchedulerKind::bound);
  if (scheduler == "dpor") return run_model<N, SearchKind::tree>(request, SchedulerKind::dpor);
  if (request.load_depth >= 2) return run_model<N, SearchKind::tree>(request, SchedulerKind::full_deep);
  return run_model<N, SearchKind::tree>(request, SchedulerKind::full);
}

template <rl::thread_id_t... N>
ModelOutcome dispatch(unsigned threads, const std::string& scheduler, const ModelRequest& request,
                      std::integer_sequence<rl::thread_id_t, N...>) {
  ModelOutcome out;
  ((threads == N + 1 ? (out = run_with<N + 1>(scheduler, request), true) : false) || ...);
  return out;
}

// Storage for the scenario, outside the simulation (aligned as it needs).
struct Storage {
  void* p = nullptr;
  explicit Storage(const model::ScenarioHooks& h)
      : p(std::aligned_alloc(h.align, (h.size + h.align - 1) / h.align * h.align)) {
    if (!p) throw std::bad_alloc();
  }
  ~Storage() { std::free(p); }
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
};

}  // namespace

bool is_known_scheduler(const std::string& name) {
  return name == "random" || name == "pct" || name == "bound" || name == "full" || name == "dpor";
}

DporProgress current_dpor_progress() {
  const auto& st = model::dpor_stats();
  return {st.redundant, st.pending, st.open_depth, st.path_length};
}

double current_search_fraction() { return tree_search_fraction(); }

ModelOutcome run_scenario(const model::ScenarioHooks& hooks, unsigned threads, const std::string& scheduler,
                          const ModelRequest& request) {
  if (threads < 1 || threads > kMaxModelThreads) {
    std::fprintf(stderr, "lfcheck: a model scenario has 1 to %u threads, not %u\n", kMaxModelThreads, threads);
    std::exit(2);
  }
  if (!is_known_scheduler(scheduler)) {
    std::fprintf(stderr, "lfcheck: unknown scheduler '%s'\n", scheduler.c_str());
    std::exit(2);
  }
  Storage storage(hooks);
  model::CurrentRun& run = current_run();
  run.hooks = &hooks;
  run.storage = storage.p;
  run.collect_outcomes = request.collect_outcomes;
  run.outcomes.clear();
  run.observer = model::RunObserver{};
  model::scheduler_observer() = nullptr;
  ModelOutcome out = dispatch(threads, scheduler, request, std::make_integer_sequence<rl::thread_id_t, kMaxModelThreads>{});
  if (request.collect_outcomes) {
    run.outcomes.for_each([&](std::uint64_t v) { out.outcomes.push_back(v); });
    std::sort(out.outcomes.begin(), out.outcomes.end());
    out.outcomes_complete = !run.outcomes.overflow();
  }
  run.hooks = nullptr;
  run.storage = nullptr;
  return out;
}

}  // namespace lfcheck
