// DeliQueue properties, quit and timed sleeps (the rest: deliqueue_props.cpp, the spec's
// state machine: deliqueue_spec_props.cpp; apart so that no translation unit is a
// monster):
//  - quit's contract with an on_dropped callback: every accepted post comes back
//    exactly once (delivered or reported dropped), refused ones untouched;
//  - timed sleeps at the int64 limit, on a real clock: a Looper sleeping towards a
//    message due near INT64_MAX (or in next_until(INT64_MAX - 1)) sleeps — a handful
//    of timed waits, not a spin — and quit() ends it at once.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "property_tests/fault_selection.hpp"
#include "property_tests/timed_wait_checks.hpp"
#include "structures/deliqueue/deliqueue.hpp"

namespace lfcheck {
namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

// Quit reporting with an on_dropped callback: posts (due now or later, on a
// clock at 0), polls in between, quit(safe or unsafe) at a random point, then
// next() until nullptr. Every post before quit is accepted and comes back exactly
// once — by next()/poll() or through the callback (never take_discarded()) —
// following the quit rules; every post after quit is refused and untouched; the
// wake resource is destroyed exactly once.
TEST(deliqueue, quit_reports_every_accepted_post) {
  with_selected_fault<DeliFault>([](auto fault) {
    constexpr DeliFault F = decltype(fault)::value;
    EXPECT_TRUE(rc::check("every accepted post is delivered or reported dropped at quit", [] {
      using Q = DeliQueue<StdSync, F, VirtualClock<>>;
      const auto whens = *rc::gen::container<std::vector<std::int64_t>>(rc::gen::weightedOneOf<std::int64_t>(
          {{8, rc::gen::inRange<std::int64_t>(-3, 4)},
           {1, rc::gen::elementOf(std::vector<std::int64_t>{kMin, kMin + 1, kMax - 1, kMax})}}));
      const auto poll_after = *rc::gen::container<std::vector<bool>>(whens.size(), rc::gen::arbitrary<bool>());
      const auto quit_at = *rc::gen::inRange<std::size_t>(0, whens.size() + 1);
      const bool safe = *rc::gen::arbitrary<bool>();
      std::vector<int> outcome(whens.size(), 0);  // +1 per delivery, +2 per drop
      std::vector<std::unique_ptr<Message<>>> msgs;
      Q q;
      q.set_on_dropped([](Message<>& m, void* out) { (*static_cast<std::vector<int>*>(out))[m.what.load()] += 2; },
                       &outcome);
      auto took = [&](Message<>* m) {
        if (m) outcome[m->what.load()] += 1;
        return m != nullptr;
      };
      for (std::size_t i = 0; i < whens.size(); ++i) {
        if (i == quit_at) RC_ASSERT(q.quit(safe));
        msgs.push_back(std::make_unique<Message<>>());
        msgs[i]->what.store(static_cast<std::int32_t>(i));
        RC_ASSERT(q.enqueue(msgs[i].get(), whens[i]) == (i < quit_at));
        if (poll_after[i]) took(q.poll());
      }
      if (quit_at == whens.size()) RC_ASSERT(q.quit(safe));
      while (took(q.next())) {
      }
      RC_ASSERT(q.take_discarded() == nullptr);
      RC_ASSERT(q.wake_resource_destroyed());
      RC_ASSERT(q.wake_resource_report().closes == 1u);
      RC_ASSERT(q.check_invariants() == nullptr);
      for (std::size_t i = 0; i < whens.size(); ++i) {
        if (i >= quit_at) {
          RC_ASSERT(outcome[i] == 0);
          RC_ASSERT(!msgs[i]->in_use() && msgs[i]->when.load() == 0);
        } else if (whens[i] > 0) {
          RC_ASSERT(outcome[i] == 2);  // never due: dropped by either quit
        } else {
          RC_ASSERT(outcome[i] == 1 || (!safe && outcome[i] == 2));  // due: a safe quit delivers it
        }
      }
    }));
  });
}

// ---- timed sleeps at the int64 limit (issue 16) ---------------------------------
// A real Looper thread on a real clock (OffsetSteadyClock: its readings may sit
// below 0 or near INT64_MAX) sleeps towards a deadline near INT64_MAX: a message
// due then, with next(), or next_until(that deadline) on an empty queue. Once it
// has made its first timed wait the test gives it a few milliseconds and quits.
// The Looper must have slept — at most kSpinLimit timed waits (a correct one
// makes one): a wait from now until the deadline that overflowed into the past
// returns at once and the Looper spins, re-taking the park mutex, so quit() and
// every waker starve (CountingSync then brakes it, so the test ends and says so).
// quit() must return, next()/next_until() must return nullptr and the message
// come back as dropped; a hang fails through the watchdog instead of hanging.
template <DeliFault F>
void far_sleep_then_quit(std::int64_t deadline, std::int64_t clock_offset, bool use_next_until) {
  using Q = DeliQueue<CountingSync, F, OffsetSteadyClock>;
  OffsetSteadyClock::offset().store(clock_offset, std::memory_order_relaxed);  // before the queue exists
  SpinCount::reset();
  Watchdog watchdog(20, "a Looper sleeping towards a deadline near INT64_MAX, then quit()");
  auto q = std::make_unique<Q>();
  auto m = std::make_unique<typename Q::Msg>();
  m->what.store(1);
  if (!use_next_until) RC_ASSERT(q->enqueue(m.get(), deadline));
  typename Q::Msg* got = nullptr;
  std::thread looper([&] { got = use_next_until ? q->next_until(deadline) : q->next(); });
  const bool slept = wait_for_first_timed_wait();
  std::this_thread::sleep_for(std::chrono::milliseconds(3));  // a spinning Looper spins now
  RC_ASSERT(q->quit(false));
  looper.join();
  const std::uint64_t waits = SpinCount::get();
  RC_ASSERT(slept);  // it reached its timed wait
  RC_ASSERT(got == nullptr);
  if (waits > kSpinLimit) RC_FAIL("the Looper's timed wait towards a far deadline returned at once, again and again: "
                                  "it spun (" + std::to_string(waits) + " timed waits before the test braked it) instead of sleeping");
  if (q->next() != nullptr) RC_FAIL("next() after quit returned a message");
  typename Q::Msg* dropped = q->take_discarded();
  RC_ASSERT(dropped == (use_next_until ? nullptr : m.get()));
  RC_ASSERT(q->wake_resource_destroyed());
  RC_ASSERT(q->check_invariants() == nullptr);
}

TEST(deliqueue, far_timed_sleep_sleeps_and_quit_ends_it) {
  with_selected_fault<DeliFault>([](auto fault) {
    constexpr DeliFault F = decltype(fault)::value;
    EXPECT_TRUE(rc::check("a Looper sleeping towards a deadline near INT64_MAX sleeps, and quit() ends it", [] {
      const std::int64_t deadline = *rc::gen::weightedOneOf<std::int64_t>(
          {{2, rc::gen::just(kMax - 1)}, {1, rc::gen::inRange<std::int64_t>(kMax - 1000000, kMax - 1)}});
      // The clock's epoch: steady_clock's own (readings ~ uptime), readings below 0
      // (the wait until `deadline` then exceeds INT64_MAX ns), or near the limit.
      const std::int64_t offset = *rc::gen::elementOf(
          std::vector<std::int64_t>{0, -(std::int64_t{1} << 62), kMin / 2, kMax / 2});
      const bool use_next_until = *rc::gen::arbitrary<bool>();
      far_sleep_then_quit<F>(deadline, offset, use_next_until);
    }));
  });
}

// The issue's own case on the production configuration (SteadyClock, StdSync):
// enqueue(m, INT64_MAX - 1), a Looper in next(), then quit() returns promptly;
// the same for next_until(INT64_MAX - 1) on an empty queue. A hang fails
// through the watchdog (ctest's timeout is only the backstop).
TEST(deliqueue, quit_returns_after_a_post_at_int64_max_minus_1) {
  for (const bool use_next_until : {false, true}) {
    using Q = DeliQueue<StdSync, DeliFault::none, SteadyClock>;
    Watchdog watchdog(20, use_next_until ? "next_until(INT64_MAX - 1), then quit()"
                                         : "enqueue(m, INT64_MAX - 1), next(), then quit()");
    auto q = std::make_unique<Q>();
    Message<> m;
    if (!use_next_until) {
      ASSERT_TRUE(q->enqueue(&m, kMax - 1));
    }
    Message<>* got = &m;
    std::thread looper([&] { got = use_next_until ? q->next_until(kMax - 1) : q->next(); });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let it park
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_TRUE(q->quit(false));
    looper.join();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("quit() and the Looper's return took %.2f ms (%s)\n", ms, use_next_until ? "next_until" : "next");
    EXPECT_EQ(got, nullptr);
    EXPECT_EQ(q->take_discarded(), use_next_until ? nullptr : &m);
  }
}

}  // namespace
}  // namespace lfcheck

