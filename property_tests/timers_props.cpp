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
// 3. (The transition table, pair by pair, is in timers_transition_props.cpp.)
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
