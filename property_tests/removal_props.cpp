// Removal properties (RapidCheck on GoogleTest), on a virtual clock:
//  - the spec's state machine (specs/removal_spec.hpp, the one reference model):
//    posts, polls, remove(m), remove_messages and has_messages by what, by what
//    and target, by callback; check_invariants() after every call;
//  - contract checks: with no traversal running, take_reclaimed() hands back
//    everything retired, each message once, removed ones with the removed bit;
//    a claimed message is never delivered; a stalled traversal holds
//    reclamation back and is reported.
// Every message comes back exactly once: by poll() (then recycled) or as
// removed, through take_reclaimed().
// `./lfcheck props removal --fault F` (LFCHECK_FAULT) runs the variant with
// seeded fault F.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "property_tests/fault_selection.hpp"
#include "property_tests/spec_state_machine.hpp"
#include "specs/removal_spec.hpp"
#include "structures/deliqueue/deliqueue.hpp"

namespace lfcheck {
namespace {

// With no traversal running, one take_reclaimed() hands back everything
// retired — removed messages (removed bit set) and recycled ones — each exactly
// once, and the backlog is 0 (TraversalEpochs: no reader holds a grace period).
// A contract check, not a model: what was delivered and what was removed comes
// from the queue's own answers (the spec's state machine checks the answers).
TEST(removal, reclamation_hands_everything_back_when_no_traversal_runs) {
  with_selected_fault<RemovalFault>([](auto fault) {
    constexpr RemovalFault F = decltype(fault)::value;
    using Q = DeliQueue<StdSync, DeliFault::none, VirtualClock<>, F>;
    EXPECT_TRUE(rc::check("every retired message comes back once, with the removed bit iff removed", [] {
      constexpr int kN = 24;
      auto q = std::make_unique<Q>();
      std::vector<Message<>> msgs(kN);
      std::vector<int> delivered(kN, 0), came_back(kN, 0), came_back_removed(kN, 0);
      std::size_t claims = 0;  // removals the queue reported: remove() true, remove_messages' counts
      const auto take_back = [&] {
        for (Message<>* r = q->take_reclaimed(); r; r = r->free_next.load(std::memory_order_relaxed)) {
          const auto i = r - msgs.data();
          RC_ASSERT(i >= 0 && i < kN);
          RC_ASSERT(!r->in_use());
          ++came_back[i];
          if (r->flags.load(std::memory_order_relaxed) & msg_flags::removed) {
            ++came_back_removed[i];
            RC_ASSERT(delivered[i] == 0);
          } else {
            RC_ASSERT(delivered[i] == 1);  // recycled after its one delivery
          }
        }
        RC_ASSERT(q->reclaim_backlog() == 0u);
      };
      int posted = 0;
      const auto ops = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 6));
      for (int op : ops) {
        if (op <= 1 && posted < kN) {
          msgs[posted].what.store(posted % 3);
          RC_ASSERT(q->enqueue(&msgs[posted], posted % 4));
          ++posted;
        } else if (op == 2 && posted > 0) {
          claims += q->remove(&msgs[*rc::gen::inRange(0, posted)]);
        } else if (op == 3) {
          claims += q->remove_messages(std::int32_t{*rc::gen::inRange(0, 3)});
        } else {
          q->advance_clock(*rc::gen::inRange(0, 5));
          if (Message<>* m = q->poll()) {
            ++delivered[m - msgs.data()];
            q->recycle(m);
          }
        }
        take_back();
      }
      // Take back what is still queued, so the messages outlive nothing queued.
      for (int i = 0; i < posted; ++i) claims += q->remove(&msgs[i]);
      take_back();
      RC_ASSERT(q->size_quiescent() == 0u);
      std::size_t removed = 0;
      for (int i = 0; i < posted; ++i) {
        RC_ASSERT(came_back[i] == 1);
        RC_ASSERT(delivered[i] + came_back_removed[i] == 1);
        removed += came_back_removed[i];
      }
      RC_ASSERT(removed == claims);
    }));
  });
}

// The claim is exclusive also sequentially: a message claimed by remove() is
// never delivered, and one delivered cannot be removed.
TEST(removal, claimed_message_is_never_delivered) {
  with_selected_fault<RemovalFault>([](auto fault) {
    constexpr RemovalFault F = decltype(fault)::value;
    using Q = DeliQueue<StdSync, DeliFault::none, VirtualClock<>, F>;
    EXPECT_TRUE(rc::check("remove then poll delivers nothing; poll then remove is refused", [] {
      auto q = std::make_unique<Q>();
      Message<> a, b;
      const bool swept_first = *rc::gen::arbitrary<bool>();
      RC_ASSERT(q->enqueue(&a, 0));
      RC_ASSERT(q->enqueue(&b, 0));
      if (swept_first) RC_ASSERT(!q->is_idle());
      RC_ASSERT(q->remove(&a));
      RC_ASSERT(!q->remove(&a));
      RC_ASSERT(q->poll() == &b);
      RC_ASSERT(!q->remove(&b));
      RC_ASSERT(q->poll() == nullptr);
      q->recycle(&b);
      int n = 0;
      for (Message<>* r = q->take_reclaimed(); r; r = r->free_next.load(std::memory_order_relaxed)) ++n;
      RC_ASSERT(n == 2);
      RC_ASSERT(q->check_invariants() == nullptr);
    }));
  });
}

// A stalled traversal: has_messages() whose predicate blocks. While it stands
// in the stack, nothing retired after it entered comes back (its memory must
// stay valid), the backlog grows and is reported, and once it leaves, one
// take_reclaimed() hands everything back. Real threads, correct queue only.
TEST(removal, stalled_traversal_holds_reclamation_and_is_reported) {
  using Q = DeliQueue<StdSync, DeliFault::none, VirtualClock<>>;
  auto q = std::make_unique<Q>();
  constexpr int kN = 64;
  std::vector<Message<>> msgs(kN + 1);
  msgs[0].what.store(1);  // the message the traverser stops on
  ASSERT_TRUE(q->enqueue(&msgs[0], 100));
  std::atomic<int> state{0};  // 1: the traverser is inside; 2: let it go
  std::thread traverser([&] {
    q->has_messages([&](const Message<>&) {
      // Release/acquire: pairs with the test thread's loads and store of state.
      state.store(1, std::memory_order_release);
      while (state.load(std::memory_order_acquire) != 2) std::this_thread::yield();
      return true;
    });
  });
  while (state.load(std::memory_order_acquire) != 1) std::this_thread::yield();
  for (int i = 1; i <= kN; ++i) {
    msgs[i].what.store(2);
    ASSERT_TRUE(q->enqueue(&msgs[i], 0));
  }
  int delivered = 0;
  while (Message<>* m = q->poll()) {
    ++delivered;
    q->recycle(m);
  }
  EXPECT_EQ(delivered, kN);
  EXPECT_EQ(q->remove_messages(std::int32_t{1}), 1u);
  std::uint64_t polls = 0;
  while (!q->reclaim_stalled() && polls < (1u << 22)) {
    EXPECT_EQ(q->take_reclaimed(), nullptr) << "a message came back while a traversal could reach it";
    ++polls;
  }
  EXPECT_TRUE(q->reclaim_stalled()) << "a stalled traversal was not reported";
  EXPECT_EQ(q->reclaim_backlog(), static_cast<std::uint64_t>(kN + 1));
  state.store(2, std::memory_order_release);
  traverser.join();
  int back = 0;
  for (Message<>* r = q->take_reclaimed(); r; r = r->free_next.load(std::memory_order_relaxed)) ++back;
  EXPECT_EQ(back, kN + 1);
  EXPECT_EQ(q->reclaim_backlog(), 0u);
  EXPECT_FALSE(q->reclaim_stalled());
  EXPECT_EQ(q->check_invariants(), nullptr);
}

}  // namespace
}  // namespace lfcheck

// The spec's state machine (LFCHECK_FAULT selects the variant).
LFCHECK_SPEC_PROPS(lfcheck::specs::RemovalSpec, removal)
