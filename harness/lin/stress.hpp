// Linearizability on real threads: a spec's generated scenarios as litmus tests
// (the threads released together from a start line, execution after execution,
// as for every real_threads scenario: harness/stress/litmus_registry.hpp), under TSan, ASan or
// no sanitizer, in the stress layer as the workload "lin.scenarios".
//
// Every execution's calls are stamped on one monotonic clock (invoke; response
// after a seq_cst fence) and its results checked in real-time order: a call must
// take effect after every call that returned before it was invoked (under Relacy,
// which has no clock, the order is program order: harness/lin/execution.hpp). The first
// failing scenario is shrunk (harness/lin/driver.hpp) and printed as a per-thread table;
// the run fails with the checker's words and the seed's replay line.
//
// Budget: --lin-scenarios N scenarios, else one execution counts as 100
// operations of the stress budget (--ops N runs N/100 executions in all, at least
// one), or the --duration; each scenario runs up to kExecutionsPerScenario of them.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>
#include <atomic>

#include "harness/cli/interrupt.hpp"
#include "harness/fault_catalogue.hpp"
#include "harness/fault_registry.hpp"
#include "harness/lin/history_pacing.hpp"
#include "harness/lin/driver.hpp"
#include "harness/lin/execution.hpp"
#include "harness/lin/outcome.hpp"
#include "harness/stress/litmus_registry.hpp"
#include "harness/stress/sanitizer.hpp"
#include "harness/lin/spec_hooks.hpp"
#include "harness/lin/spec_subject.hpp"
#include "harness/stress_registry.hpp"
#include "lin/checker.hpp"
#include "lin/table.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck::lin {

constexpr std::uint64_t kExecutionsPerScenario = 1000;

// The execution's bookkeeping (harness/lin/execution.hpp) and the first rejected outcome.
template <class S>
struct StressShared : ExecutionBook<S> {
  StressRun* run = nullptr;  // this scenario's run: a rejected history fails it
  std::string rejection;     // the checker's words for the rejected execution
  Results<S> rejected;
  Stamps rejected_stamps;
  bool has_rejected = false;
};

// One execution of the scenario, in the shape run_litmus drives. Its bookkeeping
// is race-free: thread t writes only current.threads[t] and returned.threads[t],
// and run_litmus orders every thread's writes before after() (its finished
// counter: release by each thread, acquire by the driver).
// Per spec, not per seeded fault: the fault's Subject comes through its port
// (spec_subject.hpp), bound with the shared state for one scenario's run.
template <class S>
struct LinLitmus {
  static constexpr unsigned threads = kMaxThreads;
  static inline StressShared<S>* shared = nullptr;
  static inline const spec::SubjectPort<S>* port = nullptr;
  spec::PortedSubject<S> subject{*port};

  void before() { run_prefix(subject, *shared); }
  void thread(unsigned t) { run_thread(subject, *shared, t); }
  void after() {
    // The check ends by its budget's seconds: no heartbeat is due until then.
    const StressRun::BoundedWork checking(*shared->run, shared->check_budget.max_seconds);
    const Judgement j = finish_execution(subject, *shared);
    if (j.words) reject(j.invariant ? std::string("check_invariants: ") + j.words : std::string(j.words));
  }
  void reject(const std::string& words) {
    StressShared<S>& sh = *shared;
    if (!sh.has_rejected) {
      sh.has_rejected = true;
      sh.rejection = words;
      sh.rejected = sh.current;
      sh.rejected_stamps = sh.stamps;
    }
    sh.run->fail(words);
  }
};

// A relaxed spec's figure in the run's record (and on the terminal): the largest
// out_of_order of the linearizations found (lin/relaxed.hpp) and the spec's bound.
template <class S>
void note_out_of_order(StressRun& run, int worst) {
  if constexpr (HasOutOfOrder<S>) {
    if (worst < 0) return;  // nothing was accepted, so nothing was measured
    run.note("worst_out_of_order", static_cast<std::uint64_t>(worst));
    run.note("out_of_order_bound", S::out_of_order_bound);
    if (run.failed()) return;  // the record keeps the figure; the terminal shows the failure
    std::printf("lin %s (real threads, %s): relaxed spec: the worst result of the linearizations found was %d "
                "place%s out of order (the spec allows %u)\n",
                S::name, kSanitizerName, worst, worst == 1 ? "" : "s", static_cast<unsigned>(S::out_of_order_bound));
  }
}

// Runs one scenario for up to `executions` executions on real threads.
template <class S>
LinOutcome run_stress_scenario(const spec::SubjectPort<S>& port, const Scenario<S>& sc, StressRun& outer,
                               std::uint64_t executions, const Budget& budget) {
  auto shared = std::make_unique<StressShared<S>>();
  shared->scenario = &sc;
  shared->check_budget = budget;
  shared->real_time = true;  // real threads: checked in real-time order (execution.hpp)
  StressOptions options = outer.options();
  options.ops = executions * 100;  // run_litmus: 100 operations per execution
  options.duration = 0;
  options.progress = false;
  StressRun run(options, "lin scenario");
  run.beat_for(&outer);  // the outer run's hang watchdog sees every execution
  run.set_thread_hooks(spec::thread_hooks_of<S>());  // every team member: thread_begin/thread_end
  shared->run = &run;
  LinLitmus<S>::shared = shared.get();
  LinLitmus<S>::port = &port;
  run_litmus<LinLitmus<S>>(run);
  LinLitmus<S>::shared = nullptr;
  LinLitmus<S>::port = nullptr;
  LinOutcome out;
  out.executions = run.ops_done();
  out.worst_out_of_order = shared->worst_out_of_order;
  out.scheduler = "real threads";
  out.interrupted = cli::interrupted();
  // The scenario's run failed: the checker rejected an execution, or the code under
  // test failed a check (a Sync::check goes to this, the innermost run in progress).
  // Its failure is the run's first: a check that failed during the execution the
  // checker then rejected is the failure reported, as it is what happened first.
  if (run.failed()) {
    out.failed = true;
    out.failure = run.failure();
    if (shared->has_rejected && out.failure == shared->rejection &&
        shared->rejection.rfind("check_invariants", 0) != 0) {
      const History<S> h = to_history(sc, shared->rejected, &shared->rejected_stamps);
      out.table = render_table(h, check(h, budget));
    } else {
      out.table = scenario_listing(sc, shared->current, shared->returned);
    }
  }
  return out;
}

template <class S>
struct LinScenariosWorkload {
  static void run(StressRun& run, const spec::SubjectPort<S>& port) {
    const StressOptions& o = run.options();
    // This thread builds every execution's Subject and runs its prefix and suffix.
    const spec::ThreadScope<S> driver(spec::kDriverThread);
    // The budget: --lin-scenarios N scenarios, else --ops (100 per execution) or --duration.
    const std::uint64_t total = o.lin_scenarios ? UINT64_MAX
                                : o.ops         ? std::max<std::uint64_t>(o.ops / 100, 1)
                                                : UINT64_MAX;
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(o.ops || o.lin_scenarios ? 1e9 : o.duration));
    LinOptions lin;
    lin.seed = o.seed;
    lin.quiet = true;
    lin.scenarios = 1;
    lin.shape.threads = o.lin_threads;
    lin.shape.ops = o.lin_ops;
    std::uint64_t done = 0, scenarios = 0;
    int worst_out_of_order = -1;  // a relaxed spec's, over every accepted execution
    run.set_ops_done(0, "executions");
    for (std::uint64_t index = 0;
         done < total && (o.lin_scenarios ? index < o.lin_scenarios : std::chrono::steady_clock::now() < deadline) &&
         !cli::interrupted();
         ++index) {
      const std::uint64_t executions = std::min(kExecutionsPerScenario, total - done);
      // drive() generates scenario `index` of the seed and shrinks it if it fails.
      LinOptions one = lin;
      one.first_scenario = index;
      LinSummary sum = drive<S>(one, "lin", [&](const Scenario<S>& sc) {
        LinOutcome out = run_stress_scenario<S>(port, sc, run, executions, lin.check_budget);
        worst_out_of_order = std::max(worst_out_of_order, out.worst_out_of_order);
        return out;
      });
      done += sum.executions;
      ++scenarios;
      run.heartbeat();
      run.show_progress(done, o.ops && !o.lin_scenarios ? total : 0);
      if (sum.failed) {
        std::printf("\nlin %s (real threads, %s) FAILED: %s\nscenario %llu of seed %llu, shrunk in %llu runs to: %s\n\n%s",
                    S::name, kSanitizerName, sum.outcome.failure.c_str(), static_cast<unsigned long long>(index),
                    static_cast<unsigned long long>(o.seed), static_cast<unsigned long long>(sum.shrink_runs),
                    sum.scenario.c_str(), sum.outcome.table.c_str());
        run.fail(sum.outcome.failure + " (scenario: " + sum.scenario + ")");
        break;
      }
    }
    run.end_progress();
    run.set_ops_done(done, "executions");
    run.note("scenarios", scenarios);
    note_out_of_order<S>(run, worst_out_of_order);
  }
};

// Long histories: T threads (--threads) run random calls from the spec on one
// fresh Subject, kHistoryCalls calls in all; every call's invoke and response are
// stamped by one monotonic clock (a seq_cst fence before the response stamp: on
// x86 it drains the store buffer, so what the call did is visible to every thread
// by then), kept in per-thread buffers, and at the quiescent point after the round
// the whole history is checked in real-time order (lin/search_real_time.hpp), then
// the next history starts on a new Subject. A spec may name a HistorySpec, an
// instance sized for histories this long (specs/treiber_spec.hpp).
//
// A HistorySpec that declares its collection type and with_value (lin/collection.hpp)
// is checked by the type's polynomial monitor (lin/monitor.hpp), so its histories are
// kCollectionHistoryCalls long (at most the --ops budget): each thread cycles through
// kCollectionDraws calls the spec's generator made for the history, and every call gets
// with_value(call, its serial number), so every inserted value is distinct (the
// monitors' data independence; a history with a value inserted twice is searched). The
// threads beat the hang watchdog every kBeatCalls calls: such a round is longer than the
// watchdog's window.
constexpr std::uint64_t kHistoryCalls = 10000;
constexpr std::uint64_t kCollectionHistoryCalls = 100000;
constexpr std::uint64_t kCollectionDraws = 512;
constexpr std::uint64_t kBeatCalls = 4096;

// Whether lin.history checks spec S's histories with its collection monitor.
template <class S>
concept monitored_history = HasCollection<S> && HasWithValue<S>;

template <class S>
struct history_spec { using type = S; };
template <class S>
  requires requires { typename S::HistorySpec; }
struct history_spec<S> { using type = typename S::HistorySpec; };

// A spec may switch long histories off with the reason, e.g.
//   static constexpr const char* long_histories_off = "why";
// its lin.history workload is then not registered (`--list` shows it missing).
template <class S>
concept long_histories_on = !requires { S::long_histories_off; };

template <class Outer>
struct LinHistoryWorkload {
  using S = typename history_spec<Outer>::type;
  static void run(StressRun& run, const spec::SubjectPort<S>& port) {
    const unsigned n = run.options().threads;
    constexpr bool monitored = monitored_history<S>;
    const std::uint64_t ops_budget = run.options().ops;
    const std::uint64_t history_calls =
        monitored ? std::min(kCollectionHistoryCalls, ops_budget ? ops_budget : kCollectionHistoryCalls) : kHistoryCalls;
    const std::uint64_t per_thread = (history_calls + n - 1) / n;
    const std::uint64_t draws = monitored ? std::min(per_thread, kCollectionDraws) : per_thread;
    using Subject = spec::PortedSubject<S>;
    // Declared first, so destroyed last: after the last Subject (spec_hooks.hpp).
    const spec::ThreadScope<S> driver(spec::kDriverThread);
    run.set_thread_hooks(spec::thread_hooks_of<S>());
    auto subject = std::make_unique<Subject>(port);
    std::vector<std::vector<typename S::Call>> calls(n);
    std::vector<std::vector<Operation<S>>> done(n);
    std::uint64_t history = 0, checked = 0, check_us = 0, monitored_histories = 0, searched_histories = 0;
    int worst_out_of_order = -1;  // a relaxed spec's, over every history checked
    // The calls of history h, thread t: a pure function of (seed, h, t).
    auto prepare = [&] {
      for (unsigned t = 0; t < n; ++t) {
        const auto gen = S::gen_call(spec::Slot{spec::Where::parallel, t, n});
        calls[t].clear();
        done[t].clear();
        done[t].reserve(per_thread);
        rc::Random random(rc::Random::Key{run.options().seed, history, t, 0x6869737472ull});
        for (std::uint64_t i = 0; i < draws; ++i) calls[t].push_back(gen(random.split(), rc::kNominalSize).value());
      }
    };
    // The call thread t makes i-th in this history.
    auto call_of = [&](unsigned t, std::uint64_t i) {
      if constexpr (monitored) {
        // The serial number: distinct over the history's calls (thread t's i-th is t + n*i + 1).
        const auto serial = static_cast<std::uint32_t>(t + static_cast<std::uint64_t>(n) * i + 1);
        return S::with_value(calls[t][i % draws], serial);
      } else {
        return calls[t][i];
      }
    };
    HistoryPacing<S> pacing;  // used only when the spec opts in (harness/lin/history_pacing.hpp)
    prepare();
    if constexpr (paced_history<S>) pacing.start_round(n);
    auto op = [&](unsigned t, std::mt19937_64&) {
      Operation<S> rec;
      rec.call = call_of(t, done[t].size());
      rec.thread = t;
      if constexpr (paced_history<S>) pacing.before(t, rec.call);
      rec.result = stamped([&] { return subject->run(rec.call, t); }, rec.invoke, rec.response);
      if constexpr (paced_history<S>) pacing.after(t, rec.call, rec.result, run.last_of_round(t));
      done[t].push_back(rec);
      run.describe(t, "call", static_cast<std::uint64_t>(done[t].size()), 0);
      if (monitored && done[t].size() % kBeatCalls == 0) run.heartbeat();  // a long round is progress too
    };
    auto at_quiescence = [&] {
      if (const char* broken = subject->check_invariants()) return run.fail(std::string("check_invariants: ") + broken);
      History<S> h;
      h.order = Order::real_time;
      for (auto& d : done) h.ops.insert(h.ops.end(), d.begin(), d.end());
      const Budget budget{20'000'000, 60};
      const auto check_start = std::chrono::steady_clock::now();
      const Report report = [&] {
        const StressRun::BoundedWork checking(run, budget.max_seconds);  // the check beats no heartbeat
        return check(h, budget);
      }();
      check_us += static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - check_start).count());
      checked += h.ops.size();
      if (report.algorithm == "search") {
        ++searched_histories;
        if (monitored && searched_histories == 1)  // the monitor declined: say why, once
          std::printf("\nlin %s (real threads, %s): history %llu was searched, not monitored: %s\n", S::name,
                      kSanitizerName, static_cast<unsigned long long>(history), report.note.c_str());
      } else {
        ++monitored_histories;
      }
      if constexpr (HasOutOfOrder<S>) {
        const OutOfOrder o = worst_out_of_order(h, report);
        if (o.measured) worst_out_of_order = std::max(worst_out_of_order, static_cast<int>(o.worst));
      }
      if (report.verdict != Verdict::linearizable) {
        std::printf("\nlin %s (real threads, %s): history %llu of %zu calls FAILED: %s\n\n%s",
                    S::name, kSanitizerName, static_cast<unsigned long long>(history), h.ops.size(),
                    report.words().c_str(), render_table(h, report).c_str());
        return run.fail(report.verdict == Verdict::unknown ? "LINEARIZABILITY UNKNOWN: " + report.words()
                                                           : "NOT LINEARIZABLE: " + report.words());
      }
      ++history;
      subject = std::make_unique<Subject>(port);  // every thread waits at the barrier
      prepare();
      if constexpr (paced_history<S>) pacing.start_round(n);
    };
    run.run_rounds(op, at_quiescence, per_thread);
    run.note("histories", history);
    run.note("calls_checked", checked);
    run.note("check_ms", check_us / 1000);
    run.note("histories_monitored", monitored_histories);
    run.note("histories_searched", searched_histories);
    note_out_of_order<S>(run, worst_out_of_order);
    if constexpr (paced_history<S>) run.note("most_queued", static_cast<std::uint64_t>(pacing.most_queued()));
  }
};

// Only the Subjects' ports depend on the seeded fault; the workloads, the checker
// and the generators are compiled once per spec.
template <class S>
struct LinStressRegistrar {
  LinStressRegistrar() {
    using Fault = spec::FaultOf<S>;
    register_faults<Fault>();
    stress_registry().push_back(
        {S::name, "lin.scenarios",
         "linearizability of generated scenarios from the spec, on real threads from a start line",
         [](StressRun& run, std::string_view fault) {
           const spec::SubjectPort<S>* port = nullptr;
           with_fault<Fault>(fault, [&](auto f) { port = &spec::port_of<S, spec::SubjectOf<S, StdSync, decltype(f)::value>>(); });
           if (port) LinScenariosWorkload<S>::run(run, *port);
           return port != nullptr;
         },
         kMaxThreads, "executions"});
    if constexpr (long_histories_on<S>)
      stress_registry().push_back(
          {S::name, "lin.history",
           monitored_history<typename history_spec<S>::type>
               ? "linearizability of 100,000-call histories on real threads, in real-time order (the collection monitor)"
               : "linearizability of 10,000-call histories on real threads, in real-time order",
           [](StressRun& run, std::string_view fault) {
             using H = typename history_spec<S>::type;
             const spec::SubjectPort<H>* port = nullptr;
             with_fault<Fault>(fault, [&](auto f) { port = &spec::port_of<H, spec::SubjectOf<H, StdSync, decltype(f)::value>>(); });
             if (port) LinHistoryWorkload<S>::run(run, *port);
             return port != nullptr;
           }});
  }
};

}  // namespace lfcheck::lin
