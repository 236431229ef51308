// Timers properties.
//
// 1. The spec's state machine (specs/timers_spec.hpp is the one reference model):
//    add, stop, reset, modify, shutdown_worker and run (advance the virtual clock,
//    run every worker) on 6 timers against the sequential model (armed, when,
//    period; the clock; worker 1 shut down). Every call's result must be the
//    model's — Go's Stop/Reset values, the errors, and for run exactly which timers
//    fired at which when (once per due arm; periodic ones re-armed past the clock)
//    — and check_invariants() must hold after every call. Run against the Go-style
//    4-ary TimerSet (with the selected seeded fault), the binary-heap baseline and
//    the global-lock baseline.
// 2. One run over a mixed heap (stopped and reset timers throughout it) fires
//    exactly the due timers: a directed shape the state machine rarely builds.
// 3. The transition table of timers.hpp, pair by pair: every stable status
//    (NoStatus, Waiting, Deleted, Removed, ModifiedEarlier, ModifiedLater) under
//    every operation (add, stop, reset, run not due, run due, shutdown move), and
//    every transient status (Running, Removing, Moving, Modifying) under the
//    operations that must wait for it (or, for Removing under stop, must not).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <tuple>
#include <vector>

#include "property_tests/fault_selection.hpp"
#include "property_tests/spec_state_machine.hpp"
#include "specs/timers_spec.hpp"
#include "property_tests/timed_wait_checks.hpp"
#include "structures/timers/global_lock_timers.hpp"
#include "structures/timers/timers.hpp"

namespace lfcheck {
namespace {

using Clock = VirtualClock<StdSync>;
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

struct FireEvent {
  int id;
  std::int64_t when, now;
  bool operator<(const FireEvent& o) const { return std::tie(id, when, now) < std::tie(o.id, o.when, o.now); }
  bool operator==(const FireEvent& o) const { return id == o.id && when == o.when && now == o.now; }
};
void showValue(const FireEvent& f, std::ostream& os) {
  os << "t" << f.id << " due " << f.when << " ran at " << f.now;
}

// The spec's state machine (LFCHECK_SPEC_PROPS's test, with a watchdog: a run_due
// that never returns — a periodic timer due again and again at the clock's last
// instant — fails here instead of hanging the suite): the Go-style 4-ary TimerSet
// with the fault LFCHECK_FAULT selects, and the baselines (no seeded faults).
TEST(timers, state_machine_matches_spec) {
  Watchdog watchdog(120, "the timers spec's state machine");
  EXPECT_TRUE(props::check_spec_state_machine<specs::TimersSpecOf<6>>());
}

template <class S>
bool baseline_matches_spec(const char* what) {
  return rc::check(what, [] { props::sequence_matches_model<S, TimerFault::none>(*props::gen_sequence<S>()); });
}

TEST(timers, binary_heap_baseline_matches_spec) {
  Watchdog watchdog(120, "the binary-heap timers against the spec");
  EXPECT_TRUE((baseline_matches_spec<specs::TimersSpecOf<6, specs::BinaryHeapTimersImpl>>(
      "binary-heap timers agree with the spec after every call")));
}

TEST(timers, global_lock_baseline_matches_spec) {
  Watchdog watchdog(120, "the global-lock timers against the spec");
  EXPECT_TRUE((baseline_matches_spec<specs::TimersSpecOf<6, specs::GlobalLockTimersImpl>>(
      "global-lock timers agree with the spec after every call")));
}

// One worker's heap with stopped and reset timers mixed through it: one run at
// `now` fires exactly the armed timers whose (new) when has come, each at that
// when — so adjust's scan must see every entry, including ones it moves around.
template <class Set>
void heap_scan_property() {
  const int n = *rc::gen::inRange(2, 13);
  const auto whens = *rc::gen::container<std::vector<std::int64_t>>(n, rc::gen::inRange<std::int64_t>(10, 100));
  const auto actions = *rc::gen::container<std::vector<int>>(n, rc::gen::inRange(0, 3));  // keep, stop, reset
  const auto new_whens = *rc::gen::container<std::vector<std::int64_t>>(n, rc::gen::inRange<std::int64_t>(0, 100));
  const std::int64_t now = *rc::gen::inRange<std::int64_t>(0, 100);
  Clock clock{0};
  Set set{clock, 2};
  std::vector<typename Set::Timer> timers(n);
  std::vector<FireEvent> fires, expected;
  struct Arg {
    std::vector<FireEvent>* fires;
    int id;
  };
  std::vector<Arg> args(n);
  auto on_fire = [](void* a, std::uint64_t, std::int64_t when, std::int64_t at) {
    auto* arg = static_cast<Arg*>(a);
    arg->fires->push_back({arg->id, when, at});
  };
  for (int i = 0; i < n; ++i) {
    args[i] = {&fires, i};
    timers[i].init(on_fire, &args[i]);
    RC_ASSERT(set.add(0, timers[i], whens[i]) == TimerError::ok);
  }
  for (int i = 0; i < n; ++i) {
    if (actions[i] == 1) {
      RC_ASSERT(set.stop(timers[i]));
    } else {
      std::int64_t when = whens[i];
      if (actions[i] == 2) {
        RC_ASSERT(set.reset(1, timers[i], new_whens[i]));
        when = new_whens[i];
      }
      if (when <= now) expected.push_back({i, when, now});
    }
  }
  set.advance(now);
  set.run_due(0);
  std::sort(fires.begin(), fires.end());
  std::sort(expected.begin(), expected.end());
  RC_ASSERT(fires == expected);
  std::vector<typename Set::Timer*> all;
  for (auto& t : timers) all.push_back(&t);
  RC_ASSERT(set.check_invariants(all.data(), all.size()) == nullptr);
}

TEST(timers, one_run_fires_exactly_the_due_timers_of_a_mixed_heap) {
  with_selected_fault<TimerFault>([](auto fault) {
    constexpr TimerFault F = decltype(fault)::value;
    // RapidCheck uses one seed per process, so repeating rc::check would repeat
    // the same cases: each case checks 20 heaps instead. The shape that matters
    // (a stopped timer mid-heap, a timer reset earlier in the last slot, due now
    // but not before) comes up in about one large heap in a few hundred.
    EXPECT_TRUE(rc::check("one run fires exactly the due timers of a heap with stopped and reset timers", [] {
      for (int k = 0; k < 20; ++k) heap_scan_property<TimerSet<StdSync, Clock, 4, F>>();
    }));
    EXPECT_TRUE(rc::check("the same for the binary-heap baseline", [] {
      for (int k = 0; k < 20; ++k) heap_scan_property<TimerSet<StdSync, Clock, 2, F>>();
    }));
  });
}

// ---- the transition table, pair by pair ------------------------------------------
template <TimerFault F>
struct Table {
  using Set = TimerSet<StdSync, Clock, 4, F>;
  using Timer = typename Set::Timer;
  using Access = TimerTestAccess<Set>;

  Clock clock{0};
  Set set{clock, 2};
  Timer t, other;
  int fired = 0;
  static void on_fire(void* a, std::uint64_t, std::int64_t, std::int64_t) { ++*static_cast<int*>(a); }
  Table() {
    t.init(&on_fire, &fired);
    other.init(&on_fire, &fired);
  }

  // Puts t into a stable status the legitimate way; t sits on worker 1.
  void make(TimerStatus s) {
    switch (s) {
      case TimerStatus::no_status: break;
      case TimerStatus::waiting: ASSERT_EQ(set.add(1, t, 50), TimerError::ok); break;
      case TimerStatus::deleted:
        ASSERT_EQ(set.add(1, t, 50), TimerError::ok);
        ASSERT_TRUE(set.stop(t));
        break;
      case TimerStatus::removed:
        ASSERT_EQ(set.add(1, t, 50), TimerError::ok);
        ASSERT_TRUE(set.stop(t));
        set.run_due(1);  // clean the head
        break;
      case TimerStatus::modified_earlier:
        ASSERT_EQ(set.add(1, t, 50), TimerError::ok);
        ASSERT_TRUE(set.reset(0, t, 40));
        break;
      case TimerStatus::modified_later:
        ASSERT_EQ(set.add(1, t, 50), TimerError::ok);
        ASSERT_TRUE(set.reset(0, t, 60));
        break;
      default: FAIL() << "not a stable status";
    }
    ASSERT_EQ(t.status(), s);
  }
  void invariants() {
    Timer* all[2] = {&t, &other};
    const char* e = set.check_invariants(all, 2);
    EXPECT_EQ(e, nullptr) << e;
  }
};

constexpr TimerStatus kStable[] = {TimerStatus::no_status, TimerStatus::waiting,          TimerStatus::deleted,
                                   TimerStatus::removed,   TimerStatus::modified_earlier, TimerStatus::modified_later};

bool armed(TimerStatus s) {
  return s == TimerStatus::waiting || s == TimerStatus::modified_earlier || s == TimerStatus::modified_later;
}
bool on_heap(TimerStatus s) { return armed(s) || s == TimerStatus::deleted; }

TEST(timers, transition_table_stable_states) {
  with_selected_fault<TimerFault>([](auto fault) {
    constexpr TimerFault F = decltype(fault)::value;
    using T = Table<F>;
    for (TimerStatus s : kStable) {
      SCOPED_TRACE(timer_status_name(s));
      {  // add: NoStatus/Removed -> Waiting; Deleted -> ModifiedXX in place; armed -> error
        T x;
        x.make(s);
        const TimerError e = x.set.add(0, x.t, 45);
        if (armed(s)) {
          EXPECT_EQ(e, TimerError::already_armed);
          EXPECT_EQ(x.t.status(), s);
        } else {
          EXPECT_EQ(e, TimerError::ok);
          EXPECT_EQ(x.t.status(), s == TimerStatus::deleted ? TimerStatus::modified_earlier : TimerStatus::waiting);
        }
        x.invariants();
      }
      {  // stop: armed -> Deleted (true); otherwise unchanged (false)
        T x;
        x.make(s);
        EXPECT_EQ(x.set.stop(x.t), armed(s));
        EXPECT_EQ(x.t.status(), armed(s) ? TimerStatus::deleted : s);
        x.invariants();
      }
      {  // reset: on a heap -> ModifiedXX (true iff armed); on no heap -> Waiting (false)
        T x;
        x.make(s);
        EXPECT_EQ(x.set.reset(0, x.t, 70), armed(s));
        EXPECT_EQ(x.t.status(), on_heap(s) ? TimerStatus::modified_later : TimerStatus::waiting);
        x.invariants();
        T y;
        y.make(s);
        y.set.reset(0, y.t, 30);
        EXPECT_EQ(y.t.status(), on_heap(s) ? TimerStatus::modified_earlier : TimerStatus::waiting);
        y.invariants();
      }
      {  // run, nothing due: clean/adjust settle Deleted -> Removed, ModifiedXX -> Waiting
        T x;
        x.make(s);
        x.set.run_due(1);
        const TimerStatus want = s == TimerStatus::deleted ? TimerStatus::removed
                                 : armed(s)                ? TimerStatus::waiting
                                                           : s;
        EXPECT_EQ(x.t.status(), want);
        EXPECT_EQ(x.fired, 0);
        x.invariants();
      }
      {  // run, due: armed -> Running -> NoStatus and the callback runs once
        T x;
        x.make(s);
        x.set.advance(100);
        x.set.run_due(1);
        const TimerStatus want = s == TimerStatus::deleted ? TimerStatus::removed
                                 : armed(s)                ? TimerStatus::no_status
                                                           : s;
        EXPECT_EQ(x.t.status(), want);
        EXPECT_EQ(x.fired, armed(s) ? 1 : 0);
        x.invariants();
      }
      {  // shutdown of worker 1: armed -> Moving -> Waiting on worker 0; Deleted -> Removed
        T x;
        x.make(s);
        ASSERT_EQ(x.set.shutdown_worker(1, 0), TimerError::ok);
        const TimerStatus want = s == TimerStatus::deleted ? TimerStatus::removed
                                 : armed(s)                ? TimerStatus::waiting
                                                           : s;
        EXPECT_EQ(x.t.status(), want);
        if (armed(s)) {
          EXPECT_EQ(x.set.worker_of_quiescent(x.t), 0);
        }
        EXPECT_EQ(x.set.add(1, x.other, 5), TimerError::worker_shut_down);
        x.invariants();
      }
    }
  });
}

// A transient status is held by "the test" (forced); the operation must wait for
// it, then act on the status the holder leaves behind.
TEST(timers, transition_table_transient_states) {
  with_selected_fault<TimerFault>([](auto fault) {
    constexpr TimerFault F = decltype(fault)::value;
    using T = Table<F>;
    using Access = typename T::Access;
    struct Case {
      TimerStatus transient;
      TimerStatus left;  // what the holder leaves behind
      bool stop_waits;
    };
    // Running -> Waiting (periodic re-armed), Moving -> Waiting, Modifying -> Waiting:
    // stop and reset wait. Removing -> Removed: stop returns false at once, reset waits.
    const Case cases[] = {{TimerStatus::running, TimerStatus::waiting, true},
                          {TimerStatus::moving, TimerStatus::waiting, true},
                          {TimerStatus::modifying, TimerStatus::waiting, true},
                          {TimerStatus::removing, TimerStatus::waiting, false}};
    for (const Case& c : cases) {
      SCOPED_TRACE(timer_status_name(c.transient));
      for (int op = 0; op < 3; ++op) {  // 0 stop, 1 reset, 2 add
        auto x = std::make_unique<T>();
        x->make(TimerStatus::waiting);
        Access::force_status(x->t, c.transient);
        std::atomic<bool> done{false};
        bool result = false;
        TimerError add_error = TimerError::ok;
        std::thread th([&] {
          if (op == 0) result = x->set.stop(x->t);
          else if (op == 1) result = x->set.reset(1, x->t, 70);
          else add_error = x->set.add(1, x->t, 70);
          done.store(true);
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const bool waited = !done.load();
        const TimerStatus left = c.transient == TimerStatus::removing && op != 0 ? TimerStatus::waiting : c.left;
        if (c.transient == TimerStatus::removing && op == 0) {
          th.join();
          EXPECT_FALSE(waited) << "stop must not wait for Removing";
          EXPECT_FALSE(result);
          Access::force_status(x->t, TimerStatus::waiting);  // the holder's view: undo
        } else {
          EXPECT_TRUE(waited) << "the operation did not wait for the transient status";
          Access::force_status(x->t, left);
          th.join();
          if (op == 2) {
            EXPECT_EQ(add_error, TimerError::already_armed);
          } else {
            EXPECT_TRUE(result) << "stop/reset of a timer left Waiting must return true";
          }
        }
      }
    }
    {  // the owner's run waits for a Modifying head (Go's runtimer)
      auto x = std::make_unique<T>();
      x->make(TimerStatus::waiting);
      x->set.advance(100);
      Access::force_status(x->t, TimerStatus::modifying);
      std::atomic<bool> done{false};
      std::thread th([&] {
        x->set.run_due(1);
        done.store(true);
      });
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      EXPECT_TRUE(!done.load()) << "run did not wait for a Modifying head";
      Access::force_status(x->t, TimerStatus::waiting);
      th.join();
      EXPECT_EQ(x->fired, 1);
    }
  });
}

// Production configuration: the steady clock and real run loops (timed sleeps).
// Timers added from another thread, reset earlier and stopped all behave.
template <class Impl>
void steady_clock_run_loops() {
  SteadyClock clock;
  Impl set(clock, 2);
  std::atomic<int> fired{0};
  auto on_fire = [](void* a, std::uint64_t, std::int64_t when, std::int64_t now) {
    EXPECT_GE(now, when);
    static_cast<std::atomic<int>*>(a)->fetch_add(1);
  };
  std::vector<std::unique_ptr<typename Impl::Timer>> timers;
  for (int i = 0; i < 8; ++i) timers.push_back(std::make_unique<typename Impl::Timer>(on_fire, &fired));
  std::thread loops[2] = {std::thread([&] { set.run(0); }), std::thread([&] { set.run(1); })};
  const std::int64_t ms = 1'000'000;
  const std::int64_t t0 = clock.now();
  for (int i = 0; i < 8; ++i) ASSERT_EQ(set.add(i % 2, *timers[i], t0 + (100 + i) * ms), TimerError::ok);
  // On a loaded machine any of these may come after the timer fired; the
  // expected count follows from what they returned (Go's contract).
  const bool stopped7 = set.stop(*timers[7]);                // true: never fires
  const bool armed6 = set.reset(1, *timers[6], t0 + 2 * ms);  // earlier: the sleeping owner is woken
  const bool armed5 = set.reset(0, *timers[5], t0 + 10'000 * ms);  // later: still armed at the end
  const int expected = 5 + (armed5 ? 0 : 1) + (armed6 ? 1 : 2) + (stopped7 ? 0 : 1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (fired.load() < expected && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(fired.load(), expected);
  EXPECT_TRUE(set.stop(*timers[5]));
  set.request_exit(0);
  set.request_exit(1);
  for (auto& l : loops) l.join();
  EXPECT_EQ(fired.load(), expected);
}

TEST(timers, steady_clock_run_loops) {
  steady_clock_run_loops<GoTimers<StdSync, SteadyClock>>();
  steady_clock_run_loops<BinaryHeapTimers<StdSync, SteadyClock>>();
  steady_clock_run_loops<GlobalLockTimers<StdSync, SteadyClock>>();
}

// ---- timed sleeps at the int64 limit (issue 16) ---------------------------------
// A worker thread in its run loop on a real clock (OffsetSteadyClock: readings
// near 0, below 0 or near INT64_MAX) holds one timer due near INT64_MAX. Once it
// has made its first timed wait the test gives it a few milliseconds and asks it
// to exit. It must have slept — at most kSpinLimit timed waits and run_once
// rounds (a correct one makes one or two) — not burnt a core on waits that return
// at once; request_exit must end its loop; the timer must still be armed.
template <class Impl>
void worker_far_sleep_then_exit(std::int64_t when, std::int64_t clock_offset) {
  OffsetSteadyClock::offset().store(clock_offset, std::memory_order_relaxed);  // before the set exists
  SpinCount::reset();
  Watchdog watchdog(20, "a timer worker sleeping towards a timer due near INT64_MAX, then request_exit()");
  OffsetSteadyClock clock;
  Impl set(clock, 1);
  int fired = 0;
  typename Impl::Timer timer([](void* a, std::uint64_t, std::int64_t, std::int64_t) { ++*static_cast<int*>(a); },
                             &fired);
  RC_ASSERT(set.add(0, timer, when) == TimerError::ok);
  std::uint64_t rounds = 0;
  std::thread worker([&] {
    while (set.run_once(0)) ++rounds;
  });
  const bool slept = wait_for_first_timed_wait();
  std::this_thread::sleep_for(std::chrono::milliseconds(3));  // a spinning worker spins now
  set.request_exit(0);
  worker.join();
  const std::uint64_t waits = SpinCount::get();
  RC_ASSERT(slept);
  RC_ASSERT(fired == 0);
  if (waits > kSpinLimit || rounds > kSpinLimit)
    RC_FAIL("the worker's timed wait towards a far timer returned at once, again and again: it spun (" +
            std::to_string(waits) + " timed waits, " + std::to_string(rounds) + " rounds before the test braked it) instead of sleeping");
  RC_ASSERT(set.stop(timer));
}

TEST(timers, far_timed_sleep_sleeps_and_exit_ends_it) {
  EXPECT_TRUE(rc::check("a worker sleeping towards a timer due near INT64_MAX sleeps, and request_exit ends it", [] {
    const std::int64_t when = *rc::gen::weightedOneOf<std::int64_t>(
        {{2, rc::gen::just(kMax - 1)}, {1, rc::gen::inRange<std::int64_t>(kMax - 1000000, kMax - 1)}});
    const std::int64_t offset = *rc::gen::elementOf(std::vector<std::int64_t>{0, -(std::int64_t{1} << 62), kMax / 2});
    switch (*rc::gen::inRange(0, 3)) {
      case 0: worker_far_sleep_then_exit<GoTimers<CountingSync, OffsetSteadyClock>>(when, offset); break;
      case 1: worker_far_sleep_then_exit<BinaryHeapTimers<CountingSync, OffsetSteadyClock>>(when, offset); break;
      default: worker_far_sleep_then_exit<GlobalLockTimers<CountingSync, OffsetSteadyClock>>(when, offset); break;
    }
  }));
}

// The production configuration (SteadyClock, StdSync): a timer at INT64_MAX - 1,
// a worker in its run loop, then request_exit returns and the loop ends promptly
// (a hang fails through the watchdog), after a round or two — not the tens of
// thousands of empty rounds a wait that returns at once makes in 20 ms.
TEST(timers, request_exit_returns_with_a_timer_at_int64_max_minus_1) {
  Watchdog watchdog(20, "a worker in its run loop with a timer at INT64_MAX - 1, then request_exit()");
  SteadyClock clock;
  GoTimers<StdSync, SteadyClock> set(clock, 1);
  GoTimers<StdSync, SteadyClock>::Timer timer([](void*, std::uint64_t, std::int64_t, std::int64_t) {}, nullptr);
  ASSERT_EQ(set.add(0, timer, kMax - 1), TimerError::ok);
  std::uint64_t rounds = 0;
  std::thread worker([&] {
    while (set.run_once(0)) ++rounds;  // run(0), counting its rounds
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let it sleep
  set.request_exit(0);
  worker.join();
  EXPECT_LE(rounds, kSpinLimit) << "the worker spun through empty rounds instead of sleeping";
  EXPECT_TRUE(set.stop(timer));
}

}  // namespace
}  // namespace lfcheck
