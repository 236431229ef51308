// DeliQueue properties (RapidCheck on GoogleTest), all on a virtual clock:
//  - the (when, insertSeq) comparator's laws over all of int64, extremes included;
//  - (the spec's state machine, on DeliQueue and on LockedMessageQueue, is in
//    deliqueue_spec_props.cpp);
//  - identical observable behaviour of DeliQueue and LockedMessageQueue on the
//    same random sequential scenarios;
//  - the wake protocol with a real Looper thread: a post due before the Looper's
//    deadline wakes it, a post due after it does not;
//  - (quit's contract and timed sleeps at the int64 limit: deliqueue_quit_props.cpp).
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


}  // namespace
}  // namespace lfcheck
