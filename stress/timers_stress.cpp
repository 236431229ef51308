// Timers stress: W workers (threads 0..W-1 each own one and run it) plus every
// thread doing a seeded mix of add / modify (re-arm) / stop on 48 shared timers,
// on a virtual clock that the threads advance. Halfway through the budget (ops or
// duration: StressRun::half_spent), the last worker is shut down (its timers move
// to worker 0) while everything else goes on; the run's JSON counts it as
// "worker_shutdowns".
//
// Extreme arms now and then: a when at the end of time (INT64_MAX - k, INT64_MAX,
// INT64_MAX / 2: armed, never due), huge periods (INT64_MAX / 4, / 2), and
// negative whens, which add and modify must refuse with bad_argument.
//
// Every arm gets a unique seq (thread, counter) and is logged with its when and
// period. Checks:
//   in the callback      now >= when;
//   at quiescent points  (all threads stopped, then the checker advances the
//                        clock by 30 and runs every worker once itself)
//     - check_invariants() (heaps ordered, index == position, owners, counters,
//       no timer left in a transient status);
//     - no armed timer is still due: every due arm fired (a skipped or lost
//       timer stays due);
//     - per timer: arms started - arms ended == 1 if armed, else 0, where an arm
//       ends by firing (one-shot), by stop() == true or by modify's was_armed;
//     - every firing belongs to an arm: a one-shot fires at exactly its when and
//       at most once, a periodic one at when + k*period.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "harness/stress_registry.hpp"
#include "structures/timers/timers.hpp"

namespace lfcheck {
namespace {

constexpr unsigned kTimers = 48;
constexpr std::int64_t kSpread = 100;  // a new when is now + [0, kSpread)

struct Fire {
  std::uint64_t seq;
  std::int64_t when, now;
};
struct Arm {
  std::int64_t when, period;
};

// The firings of the callbacks a thread runs (set before it calls run_due).
thread_local std::vector<Fire>* t_fires = nullptr;

template <TimerFault F>
struct TimersStress {
  static constexpr const char* name = "add_modify_stop_run";
  static constexpr const char* description =
      "W=threads/2 workers running their heaps + every thread add/modify/stop on 48 shared timers, "
      "virtual clock, one worker shut down halfway";

  using Clock = VirtualClock<StdSync>;
  using Set = TimerSet<StdSync, Clock, 4, F>;

  struct Rec {
    typename Set::Timer timer;
    std::atomic<std::int64_t> started{0}, ended{0};
    std::atomic<unsigned> early{0};
  };

  static void on_fire(void* arg, std::uint64_t seq, std::int64_t when, std::int64_t now) {
    auto* r = static_cast<Rec*>(arg);
    if (now < when) r->early.fetch_add(1, std::memory_order_relaxed);
    if ((seq & 1) == 0) r->ended.fetch_add(1, std::memory_order_relaxed);  // one-shot arm ends
    if (t_fires) t_fires->push_back({seq, when, now});
  }

  static void run(StressRun& run) {
    const unsigned n = run.options().threads;
    const unsigned workers = std::max(1u, n / 2);
    Clock clock(0);
    Set set(clock, workers);
    std::vector<Rec> recs(kTimers);
    std::vector<typename Set::Timer*> all;
    for (auto& r : recs) all.push_back(&r.timer);

    struct alignas(64) PerThread {
      std::uint64_t next_arm = 0;
      std::vector<std::pair<std::uint64_t, Arm>> arms;  // this round
      std::vector<Fire> fires;                          // this round
    };
    std::vector<PerThread> threads(n);
    std::vector<Fire> checker_fires;
    std::unordered_map<std::uint64_t, Arm> arms;         // seq -> arm, pruned at quiescence
    std::unordered_set<std::uint64_t> fired_one_shots;   // pruned likewise
    std::atomic<bool> shutdown_started{false};
    std::atomic<bool> shutdown_done{false};

    auto live_caller = [&](unsigned t) -> unsigned {
      const unsigned w = t % workers;
      return shutdown_done.load(std::memory_order_acquire) && w == workers - 1 ? 0 : w;
    };

    auto op = [&](unsigned t, std::mt19937_64& rng) {
      PerThread& me = threads[t];
      t_fires = &me.fires;
      // shutdown_started is read and written by thread workers-1 only (relaxed);
      // the release store publishes the shutdown's start to the other threads.
      if (workers >= 2 && t == workers - 1 && !shutdown_started.load(std::memory_order_relaxed) &&
          run.half_spent(t)) {
        shutdown_started.store(true, std::memory_order_release);
        if (set.shutdown_worker(workers - 1, 0) != TimerError::ok) run.fail("shutdown_worker failed");
        shutdown_done.store(true, std::memory_order_release);
        return;
      }
      const unsigned dice = static_cast<unsigned>(rng() % 100);
      if (t < workers && dice < 15) {
        set.run_due(t);
        return;
      }
      Rec& r = recs[rng() % kTimers];
      const unsigned caller = live_caller(t);
      const std::int64_t now = clock.now();
      std::int64_t when = now + static_cast<std::int64_t>(rng() % kSpread);
      const bool periodic = rng() % 5 == 0;
      std::int64_t period = periodic ? 5 + static_cast<std::int64_t>(rng() % 45) : 0;
      const unsigned extreme = static_cast<unsigned>(rng() % 64);
      if (extreme == 0) when = kTimerNever - static_cast<std::int64_t>(rng() % 3);
      else if (extreme == 1) when = kTimerNever / 2;
      else if (extreme == 2 && periodic) period = kTimerNever / (2 + static_cast<std::int64_t>(rng() % 3));
      else if (extreme == 3 && dice < 70) {  // refused, whatever the timer's state
        const std::int64_t bad = rng() % 2 ? -1 : std::numeric_limits<std::int64_t>::min();
        const TimerError e = dice < 50 ? set.add(caller, r.timer, bad, period, &on_fire, &r, 0)
                                       : set.modify(caller, r.timer, bad, period, &on_fire, &r, 0).error;
        if (e != TimerError::bad_argument) run.fail("a negative when was not refused with bad_argument");
        return;
      }
      // seq: bit 0 = periodic, then (thread, counter).
      const std::uint64_t seq = ((std::uint64_t(t + 1) << 40 | ++me.next_arm) << 1) | (periodic ? 1 : 0);
      if (dice < 50) {
        const TimerError e = set.add(caller, r.timer, when, period, &on_fire, &r, seq);
        if (e == TimerError::ok) {
          r.started.fetch_add(1, std::memory_order_relaxed);
          me.arms.push_back({seq, {when, period}});
        } else if (e != TimerError::already_armed &&
                   !(e == TimerError::worker_shut_down && shutdown_started.load(std::memory_order_acquire))) {
          run.fail(std::string("add failed: ") + timer_error_name(e));
        }
      } else if (dice < 70) {
        const TimerModifyResult m = set.modify(caller, r.timer, when, period, &on_fire, &r, seq);
        if (m.error == TimerError::ok) {
          r.started.fetch_add(1, std::memory_order_relaxed);
          if (m.was_armed) r.ended.fetch_add(1, std::memory_order_relaxed);
          me.arms.push_back({seq, {when, period}});
        } else if (!(m.error == TimerError::worker_shut_down && shutdown_started.load(std::memory_order_acquire))) {
          run.fail(std::string("modify failed: ") + timer_error_name(m.error));
        }
      } else if (dice < 95) {
        if (set.stop(r.timer)) r.ended.fetch_add(1, std::memory_order_relaxed);
      } else {
        clock.advance_by(1 + static_cast<std::int64_t>(rng() % 8));
      }
    };

    auto at_quiescence = [&] {
      // Settle: time moves on, and the checker runs every worker once.
      t_fires = &checker_fires;
      set.advance(clock.now() + kSpread * 3 / 10);
      for (unsigned w = 0; w < workers; ++w) set.run_due(w);
      const std::int64_t now = clock.now();
      if (const char* e = set.check_invariants(all.data(), all.size()))
        return run.fail(std::string("check_invariants: ") + e);
      for (auto& th : threads)
        for (auto& a : th.arms) arms[a.first] = a.second;
      auto check_fire = [&](const Fire& f) -> bool {
        auto it = arms.find(f.seq);
        if (it == arms.end()) return run.fail("a timer fired for an arm nobody started"), false;
        const Arm& a = it->second;
        if (f.now < f.when) return run.fail("a timer fired before its when"), false;
        if (a.period == 0) {
          if (f.when != a.when) return run.fail("a one-shot timer fired at a when other than its arm's"), false;
          if (!fired_one_shots.insert(f.seq).second) return run.fail("a one-shot arm fired twice"), false;
        } else if (f.when < a.when || (f.when - a.when) % a.period != 0) {
          return run.fail("a periodic timer fired off its schedule"), false;
        }
        return true;
      };
      for (auto& th : threads)
        for (auto& f : th.fires)
          if (!check_fire(f)) return;
      for (auto& f : checker_fires)
        if (!check_fire(f)) return;
      std::unordered_set<std::uint64_t> current;
      for (auto& r : recs) {
        if (r.early.load(std::memory_order_relaxed)) return run.fail("a timer fired before its when (callback)");
        const std::int64_t armed_when = set.armed_when_quiescent(r.timer);
        const TimerStatus st = r.timer.status();  // armed at INT64_MAX too (armed_when says kTimerNever)
        const bool armed = st == TimerStatus::waiting || st == TimerStatus::modified_earlier ||
                           st == TimerStatus::modified_later;
        if (armed && armed_when <= now)
          return run.fail("an armed timer is still due after its worker ran (skipped or lost timer)");
        const std::int64_t open = r.started.load(std::memory_order_relaxed) - r.ended.load(std::memory_order_relaxed);
        if (open != (armed ? 1 : 0))
          return run.fail("arm accounting: started - ended = " + std::to_string(open) + " but the timer is " +
                          (armed ? "armed" : "not armed") + " (an arm fired and was stopped, or was lost)");
        current.insert(set.seq_quiescent(r.timer));
      }
      // Only each timer's current arm can fire from now on: forget the rest.
      for (auto it = arms.begin(); it != arms.end();) it = current.count(it->first) ? std::next(it) : arms.erase(it);
      for (auto it = fired_one_shots.begin(); it != fired_one_shots.end();)
        it = current.count(*it) ? std::next(it) : fired_one_shots.erase(it);
      for (auto& th : threads) {
        th.arms.clear();
        th.fires.clear();
      }
      checker_fires.clear();
    };

    run.run_rounds(op, at_quiescence, /*round_ops=*/256);
    t_fires = nullptr;
    // Relaxed: every thread was joined by run_rounds.
    run.note("worker_shutdowns", shutdown_done.load(std::memory_order_relaxed) ? 1 : 0);
  }
};

LFCHECK_STRESS(TimerFault, TimersStress);

}  // namespace
}  // namespace lfcheck
