// DeliQueue properties (RapidCheck on GoogleTest), all on a virtual clock:
//  - the (when, insertSeq) comparator's laws over all of int64, extremes included;
//  - the spec's state machine (specs/deliqueue_spec.hpp, the one reference
//    model: a priority queue by (when, insertSeq) with the barrier, async,
//    at-front and quit rules), on DeliQueue and, through the same spec with a
//    second Subject (LockedBaselineSpec below), on LockedMessageQueue;
//  - identical observable behaviour of DeliQueue and LockedMessageQueue on the
//    same random sequential scenarios;
//  - the wake protocol with a real Looper thread: a post due before the Looper's
//    deadline wakes it, a post due after it does not;
//  - quit's contract with an on_dropped callback: every accepted post comes
//    back exactly once (delivered or reported dropped), refused ones untouched;
//  - timed sleeps at the int64 limit, on a real clock: a Looper sleeping towards
//    a message due near INT64_MAX (or in next_until(INT64_MAX - 1)) sleeps — a
//    handful of timed waits, not a spin — and quit() ends it at once.
// `./lfcheck props deliqueue --fault F` (LFCHECK_FAULT) runs all but the wake
// test and the production-configuration quit test on the variant with seeded
// fault F; those two always run the correct queue (a lost wake-up there would
// hang rather than fail; the models catch those).
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
#include <tuple>
#include <vector>

#include "property_tests/fault_selection.hpp"
#include "property_tests/spec_state_machine.hpp"
#include "specs/deliqueue_spec.hpp"
#include "property_tests/timed_wait_checks.hpp"
#include "structures/deliqueue/deliqueue.hpp"
#include "structures/deliqueue/locked_message_queue.hpp"

namespace lfcheck {
namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

rc::Gen<std::int64_t> any_int64() {
  return rc::gen::weightedOneOf<std::int64_t>(
      {{3, rc::gen::arbitrary<std::int64_t>()},
       {2, rc::gen::elementOf(std::vector<std::int64_t>{kMin, kMin + 1, kMin + 2, -2, -1, 0, 1, 2, kMax - 2, kMax - 1, kMax})},
       {1, rc::gen::inRange<std::int64_t>(-4, 5)}});
}

int sign(int x) { return (x > 0) - (x < 0); }
int reference(std::int64_t aw, std::int64_t as, std::int64_t bw, std::int64_t bs) {
  const auto a = std::tie(aw, as), b = std::tie(bw, bs);
  return a < b ? -1 : (b < a ? 1 : 0);
}

// ---- the comparator ---------------------------------------------------------------
TEST(deliqueue, comparator_laws_over_all_int64) {
  with_selected_fault<DeliFault>([](auto fault) {
    constexpr DeliFault F = decltype(fault)::value;
    using Q = DeliQueue<StdSync, F, VirtualClock<>>;
    EXPECT_TRUE(rc::check("compare agrees with the (when, insertSeq) order and is antisymmetric", [] {
      const auto aw = *any_int64(), as = *any_int64(), bw = *any_int64(), bs = *any_int64();
      const int c = Q::compare(aw, as, bw, bs);
      RC_ASSERT(sign(c) == reference(aw, as, bw, bs));
      RC_ASSERT(sign(c) == -sign(Q::compare(bw, bs, aw, as)));
      RC_ASSERT((c == 0) == (aw == bw && as == bs));
    }));
    EXPECT_TRUE(rc::check("compare is transitive", [] {
      std::int64_t w[3], s[3];
      for (int i = 0; i < 3; ++i) {
        w[i] = *any_int64();
        s[i] = *rc::gen::inRange<std::int64_t>(-2, 3);
      }
      if (Q::compare(w[0], s[0], w[1], s[1]) < 0 && Q::compare(w[1], s[1], w[2], s[2]) < 0)
        RC_ASSERT(Q::compare(w[0], s[0], w[2], s[2]) < 0);
    }));
    // The extremes pairwise, exhaustively.
    const std::int64_t ext[] = {kMin, kMin + 1, -1, 0, 1, kMax - 1, kMax};
    for (auto aw : ext)
      for (auto bw : ext)
        for (std::int64_t as = -1; as <= 1; ++as)
          for (std::int64_t bs = -1; bs <= 1; ++bs)
            EXPECT_TRUE(rc::check("extremes", [&] {
              RC_ASSERT(sign(Q::compare(aw, as, bw, bs)) == reference(aw, as, bw, bs));
            })) << aw << "," << as << " vs " << bw << "," << bs;
  });
}

// ---- DeliQueue vs LockedMessageQueue --------------------------------------------
// A differential test (no model): the same random sequential calls on both
// queues must give the same observable results. The spec's state machine is at
// the end of the file.
constexpr int kPool = 160;

template <class Queue>
struct Sut {
  Message<> msgs[kPool];  // before q: still queued messages must outlive the queue
  Queue q;
};

int id_of(Message<>* m) { return m ? static_cast<int>(m->what.load()) : 0; }

struct Op {
  int kind;  // 0..3 post, 4 at front, 5 barrier, 6 remove barrier, 7 advance, 8..10 poll
  std::int64_t arg;
  bool async;
};

template <class Queue>
std::vector<std::int64_t> replay(const std::vector<Op>& ops) {
  auto s = std::make_unique<Sut<Queue>>();
  std::vector<std::int64_t> out;  // everything observable, in order
  std::int64_t now = 0;
  int next_id = 1;
  std::vector<std::uint64_t> tokens;
  for (const Op& op : ops) {
    if (op.kind <= 4) {
      if (next_id >= kPool) continue;
      auto* m = &s->msgs[next_id];
      m->what.store(next_id++);
      m->set_async(op.async);
      out.push_back(op.kind == 4 ? s->q.enqueue_at_front(m) : s->q.enqueue(m, saturating_add(now, op.arg)));
    } else if (op.kind == 5) {
      tokens.push_back(s->q.post_sync_barrier());
    } else if (op.kind == 6) {
      const std::uint64_t t = tokens.empty() ? 77 : tokens[static_cast<std::size_t>(op.arg & 0xff) % tokens.size()];
      out.push_back(1000 + static_cast<int>(s->q.remove_sync_barrier(t)));
    } else if (op.kind == 7) {
      now = saturating_add(now, op.arg < 0 ? -op.arg : op.arg);
      s->q.advance_clock(now);
    } else {
      out.push_back(-id_of(s->q.poll()));
    }
    if (const char* e = s->q.check_invariants()) RC_FAIL(std::string("check_invariants: ") + e);
  }
  s->q.quit(false);
  s->q.poll();
  return out;
}

TEST(deliqueue, same_delivery_order_as_locked_queue) {
  with_selected_fault<DeliFault>([](auto fault) {
    constexpr DeliFault F = decltype(fault)::value;
    EXPECT_TRUE(rc::check("DeliQueue and LockedMessageQueue deliver in the same order", [] {
      const auto ops = *rc::gen::container<std::vector<Op>>(rc::gen::build<Op>(
          rc::gen::set(&Op::kind, rc::gen::inRange(0, 11)),
          rc::gen::set(&Op::arg, rc::gen::weightedOneOf<std::int64_t>(
                                     {{8, rc::gen::inRange<std::int64_t>(-3, 6)},
                                      {1, rc::gen::elementOf(std::vector<std::int64_t>{kMin, kMin + 1, kMax - 1, kMax})}})),
          rc::gen::set(&Op::async, rc::gen::arbitrary<bool>())));
      using Q = DeliQueue<StdSync, F, VirtualClock<>>;
      using L = LockedMessageQueue<StdSync, VirtualClock<>>;
      const auto deli = replay<Q>(ops);
      const auto locked = replay<L>(ops);
      RC_ASSERT(deli == locked);
    }));
  });
}

// ---- the wake protocol with a real Looper thread ---------------------------------
// Both queues wake as Android does: only a Looper that sleeps, and only for a post
// that it must deliver before its deadline (DeliQueue: due before it; the legacy
// queue: needWake, the post is now the one it would deliver next). wakeups()
// counts the wakes, each a nativeWake eventfd write.
template <class Q>
void wakes_only_for_messages_due_before_the_deadline() {
  auto q = std::make_unique<Q>();
  Message<> future, later, now_msg;
  future.what.store(1);
  later.what.store(2);
  now_msg.what.store(3);
  ASSERT_TRUE(q->enqueue(&future, 100));  // the Looper will park until 100
  std::atomic<Message<>*> got{nullptr};
  std::thread looper([&] { got.store(q->next(), std::memory_order_release); });
  // Give the Looper time to park (it parks without timeout on a virtual clock).
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(q->enqueue(&later, 200));  // due after the deadline: must not wake
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(q->wakeups(), 0u) << "a post due after the Looper's deadline woke it";
  EXPECT_EQ(got.load(std::memory_order_acquire), nullptr);
  ASSERT_TRUE(q->enqueue(&now_msg, 0));  // due before the deadline: must wake
  looper.join();
  EXPECT_EQ(got.load(std::memory_order_acquire), &now_msg);
  EXPECT_GE(q->wakeups(), 1u);
  q->advance_clock(300);
  EXPECT_EQ(q->poll(), &future);
  EXPECT_EQ(q->poll(), &later);
  EXPECT_EQ(q->check_invariants(), nullptr);
}

TEST(deliqueue, wakes_only_for_messages_due_before_the_deadline) {
  wakes_only_for_messages_due_before_the_deadline<DeliQueue<StdSync, DeliFault::none, VirtualClock<>>>();
}
TEST(deliqueue, legacy_queue_wakes_only_when_the_post_is_its_next_delivery) {
  wakes_only_for_messages_due_before_the_deadline<LockedMessageQueue<StdSync, VirtualClock<>>>();
}


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

// The spec's state machine on DeliQueue (LFCHECK_FAULT selects the variant) ...
LFCHECK_SPEC_PROPS(lfcheck::specs::DeliQueueSpec, deliqueue)

// ... and on the locked baseline: the same spec (model, generators, calls) with
// a Subject over LockedMessageQueue, which has the same API and no faults (a
// seeded DeliQueue fault leaves it unchanged).
namespace lfcheck {
struct LockedBaselineSpec : specs::DeliQueueSpec {
  static constexpr const char* name = "deliqueue (LockedMessageQueue baseline)";
  template <class Sync, DeliFault>
  struct Subject : QueueSubject<LockedMessageQueue<Sync, VirtualClock<Sync>>, Sync, specs::DeliQueueSpec::Pool<Sync>> {};
};
}  // namespace lfcheck

TEST(deliqueue, locked_baseline_matches_spec) {
  EXPECT_TRUE(lfcheck::props::check_spec_state_machine<lfcheck::LockedBaselineSpec>());
}
