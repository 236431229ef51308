// Model scenarios on real threads: the StdSync instantiation of every scenario
// that declares `real_threads = true`, run as a litmus test (like jcstress): the
// scenario's threads start together from a start line (a HandOff: they sleep on a
// condition variable until the driver wakes them all, harness/stress/hand_off.hpp),
// over and over, each execution with a fresh scenario object, and after() checks
// each outcome.
// Compiled into lfcheck-stress (LFCHECK_REAL_THREADS), so the same scenarios run
// under TSan and ASan+UBSan, as workloads named "litmus.<scenario>".
//
// A failed Sync::check in a scenario is recorded as the run's failure by the
// stress runner's check handler (harness/stress/main.cpp), as for any workload.
//
// Budget: one execution counts as 100 operations of the stress budget (--ops N
// runs N/100 executions, at least 1), or the --duration. Either way at least one
// execution runs (as run_rounds runs at least one round): a budget too small for
// any work would otherwise be a pass that checked nothing. An interrupted command
// (harness/cli/interrupt.hpp) ends the run after the execution in progress.
//
// What a failure shows: each thread's execution is one entry of its ring of recent
// operations ("execution N", timed), so the failure table and trace show each
// thread's last executions; every execution counts as the run's work when it starts
// (StressRun::count_work), so a process that dies in one still records it; the
// record names the scenario's threads and the unit "executions" (StressEntry).
#pragma once

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "harness/cli/interrupt.hpp"
#include "harness/fault_catalogue.hpp"
#include "harness/fault_registry.hpp"
#include "harness/registration.hpp"
#include "harness/stress/hand_off.hpp"
#include "harness/scenario.hpp"
#include "harness/stress_registry.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck {

template <class Scenario>
void run_litmus(StressRun& run) {
  constexpr unsigned n = Scenario::threads;
  const auto& o = run.options();
  const std::uint64_t executions = o.ops ? std::max<std::uint64_t>(o.ops / 100, 1) : UINT64_MAX;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(o.ops ? 1e9 : o.duration));

  std::unique_ptr<Scenario> scenario;
  // start: execution number the threads may begin (0: none yet; UINT64_MAX: stop).
  // Published by the driver after it built the scenario and ran before(); each
  // thread waits for it before it touches the scenario (the HandOff's mutex orders them).
  HandOff start;
  // finished: threads done with the current execution. Published by each thread
  // after its last access to the scenario; the driver waits for n before after().
  HandOff finished;
  run.track_threads(n);
  run.set_ops_done(0, "executions");
  std::vector<std::thread> team;
  for (unsigned t = 0; t < n; ++t) {
    team.emplace_back([&, t] {
      run.note_thread_id(t);
      const HookedThread hooked(run.thread_hooks(), t);  // the spec's thread_begin/thread_end
      std::uint64_t seen = 0;
      for (;;) {
        const std::uint64_t e = start.wait_until([&](std::uint64_t v) { return v != seen; });
        if (e == UINT64_MAX) return;
        seen = e;
        run.begin_op(t);
        run.describe(t, "execution", e, RecordedOp::kNoResult);
        scenario->thread(t);
        run.end_op(t);
        finished.publish([](std::uint64_t v) { return v + 1; });
      }
    });
  }
  std::uint64_t done = 0;
  while (done < executions && (done == 0 || std::chrono::steady_clock::now() < deadline) && !run.failed() &&
         !(done > 0 && cli::interrupted())) {
    scenario = std::make_unique<Scenario>();
    run.count_work(1);
    scenario->before();
    finished.publish([](std::uint64_t) { return 0; });  // no thread runs: they wait for start
    start.publish([&](std::uint64_t) { return done + 1; });
    finished.wait_until([](std::uint64_t v) { return v == n; });
    scenario->after();
    ++done;
    run.heartbeat();
    run.show_progress(done, o.ops ? executions : 0);
  }
  start.publish([](std::uint64_t) { return UINT64_MAX; });
  for (auto& t : team) t.join();
  run.end_progress();
  scenario.reset();
  run.set_ops_done(done, "executions");
}

template <class E, template <class, E> class Scenario>
struct LitmusRegistrar {
  explicit LitmusRegistrar(const char* structure) {
    using Correct = Scenario<StdSync, E::none>;
    register_faults<E>();
    if constexpr (Correct::real_threads) {
      stress_registry().push_back(
          {registration_name<E>(structure), std::string("litmus.") + Correct::name,
           std::string("litmus test on real threads: ") + Correct::description,
           [](StressRun& run, std::string_view fault) {
             return with_fault<E>(fault, [&](auto f) {
               run_litmus<Scenario<StdSync, decltype(f)::value>>(run);
             });
           },
           Correct::threads, "executions"});
    }
  }
};

// The registrar LFCHECK_MODEL (model_registry.hpp) uses in this backend.
template <class E, template <class, E> class Scenario>
using ScenarioRegistrar = LitmusRegistrar<E, Scenario>;

}  // namespace lfcheck
