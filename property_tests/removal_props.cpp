// Removal properties (RapidCheck on GoogleTest), on a virtual clock: a state
// machine of DeliQueue with removal against a sequential reference model — an
// ordered multiset by (when, insertSeq) from which remove_messages(what) and
// remove(message) take messages out, has_messages(what) reads it, and poll()
// delivers the earliest due one. Every message comes back exactly once: by
// poll() (then recycled) or as removed, through take_reclaimed(), which with no
// traversal running hands back everything retired.
// `./lfcheck props removal --fault F` (LFCHECK_FAULT) runs the variant with
// seeded fault F.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

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
#include "structures/deliqueue/deliqueue.hpp"

namespace lfcheck {
namespace {

constexpr int kPool = 120;
constexpr int kClasses = 3;

struct Item {
  int id, what;
  std::int64_t when, seq;
};

struct RemovalModel {
  std::int64_t now = 0, seq = 0;
  int next_id = 1;
  std::vector<Item> items;          // queued
  std::set<int> removed, recycled;  // retired, not yet handed back

  int count(int what) const {
    return static_cast<int>(std::count_if(items.begin(), items.end(), [&](const Item& i) { return i.what == what; }));
  }
  int remove_what(int what) {
    const int n = count(what);
    for (auto& i : items)
      if (i.what == what) removed.insert(i.id);
    items.erase(std::remove_if(items.begin(), items.end(), [&](const Item& i) { return i.what == what; }),
                items.end());
    return n;
  }
  bool remove_id(int id) {
    for (auto it = items.begin(); it != items.end(); ++it)
      if (it->id == id) {
        removed.insert(id);
        items.erase(it);
        return true;
      }
    return false;
  }
  int poll() {
    int best = -1;
    for (int i = 0; i < int(items.size()); ++i)
      if (items[i].when <= now &&
          (best < 0 || std::tie(items[i].when, items[i].seq) < std::tie(items[best].when, items[best].seq)))
        best = i;
    if (best < 0) return 0;
    const int id = items[best].id;
    items.erase(items.begin() + best);
    recycled.insert(id);
    return id;
  }
};

template <class Queue>
struct Sut {
  Message<> msgs[kPool];  // before q: still queued messages must outlive the queue
  Queue q;
};

template <class Queue>
using Cmd = rc::state::Command<RemovalModel, Sut<Queue>>;

template <class Queue>
void check(Sut<Queue>& s) {
  if (const char* e = s.q.check_invariants()) RC_FAIL(std::string("check_invariants: ") + e);
}

template <class Queue>
struct Post : Cmd<Queue> {
  std::int64_t offset = *rc::gen::inRange<std::int64_t>(-3, 6);
  int what = *rc::gen::inRange(0, kClasses);
  void checkPreconditions(const RemovalModel& m) const override { RC_PRE(m.next_id < kPool); }
  void apply(RemovalModel& m) const override {
    m.items.push_back({m.next_id, what, m.now + offset, ++m.seq});
    ++m.next_id;
  }
  void run(const RemovalModel& m, Sut<Queue>& s) const override {
    auto* msg = &s.msgs[m.next_id];
    msg->what.store(what);
    msg->arg.store(m.next_id);
    RC_ASSERT(s.q.enqueue(msg, m.now + offset));
    check(s);
  }
  void show(std::ostream& os) const override { os << "enqueue(what " << what << ", now+" << offset << ")"; }
};

template <class Queue>
struct RemoveWhat : Cmd<Queue> {
  int what = *rc::gen::inRange(0, kClasses);
  void apply(RemovalModel& m) const override { m.remove_what(what); }
  void run(const RemovalModel& m, Sut<Queue>& s) const override {
    RC_ASSERT(static_cast<int>(s.q.remove_messages(std::int32_t{what})) == m.count(what));
    check(s);
  }
  void show(std::ostream& os) const override { os << "remove_messages(" << what << ")"; }
};

template <class Queue>
struct HasWhat : Cmd<Queue> {
  int what = *rc::gen::inRange(0, kClasses);
  void run(const RemovalModel& m, Sut<Queue>& s) const override {
    RC_ASSERT(s.q.has_messages(std::int32_t{what}) == (m.count(what) > 0));
    check(s);
  }
  void show(std::ostream& os) const override { os << "has_messages(" << what << ")"; }
};

template <class Queue>
struct RemoveOne : Cmd<Queue> {
  int pick = *rc::gen::inRange(0, 1000);
  int id(const RemovalModel& m) const { return 1 + pick % m.next_id; }  // any posted id, or the next one
  void checkPreconditions(const RemovalModel& m) const override { RC_PRE(m.next_id > 1); }
  void apply(RemovalModel& m) const override { m.remove_id(id(m)); }
  void run(const RemovalModel& m, Sut<Queue>& s) const override {
    RemovalModel copy = m;
    const bool want = copy.remove_id(id(m));
    RC_ASSERT(s.q.remove(&s.msgs[id(m)]) == want);
    check(s);
  }
  void show(std::ostream& os) const override { os << "remove(message " << pick << ")"; }
};

template <class Queue>
struct Advance : Cmd<Queue> {
  std::int64_t dt = *rc::gen::inRange<std::int64_t>(0, 4);
  void apply(RemovalModel& m) const override { m.now += dt; }
  void run(const RemovalModel& m, Sut<Queue>& s) const override {
    s.q.advance_clock(m.now + dt);
    check(s);
  }
  void show(std::ostream& os) const override { os << "advance_clock(+" << dt << ")"; }
};

// poll(), recycle what it delivered, then take_reclaimed(): everything retired
// comes back (no traversal is running), removed ones with the removed bit.
template <class Queue>
struct PollAndReclaim : Cmd<Queue> {
  void apply(RemovalModel& m) const override {
    m.poll();
    m.removed.clear();
    m.recycled.clear();
  }
  void run(const RemovalModel& m, Sut<Queue>& s) const override {
    RemovalModel copy = m;
    const int want = copy.poll();
    Message<>* got = s.q.poll();
    RC_ASSERT((got ? static_cast<int>(got->arg.load()) : 0) == want);
    if (got) {
      RC_ASSERT(!got->in_use());
      s.q.recycle(got);
    }
    std::set<int> removed, recycled;
    for (Message<>* r = s.q.take_reclaimed(); r; r = r->free_next.load(std::memory_order_relaxed)) {
      const int id = static_cast<int>(r->arg.load());
      RC_ASSERT(!r->in_use());
      const bool is_removed = r->flags.load(std::memory_order_relaxed) & msg_flags::removed;
      RC_ASSERT((is_removed ? removed : recycled).insert(id).second);
    }
    RC_ASSERT(removed == copy.removed);
    RC_ASSERT(recycled == copy.recycled);
    RC_ASSERT(s.q.reclaim_backlog() == 0u);
    check(s);
  }
  void show(std::ostream& os) const override { os << "poll(); recycle; take_reclaimed()"; }
};

template <class Queue>
bool state_machine(const char* what) {
  return rc::check(what, [] {
    RemovalModel model;
    auto sut = std::make_unique<Sut<Queue>>();
    rc::state::check(model, *sut,
                     rc::state::gen::execOneOfWithArgs<Post<Queue>, Post<Queue>, Post<Queue>, RemoveWhat<Queue>,
                                                       HasWhat<Queue>, RemoveOne<Queue>, Advance<Queue>,
                                                       PollAndReclaim<Queue>, PollAndReclaim<Queue>>());
    // Take back what is still queued, so the pool outlives nothing queued.
    for (int id = 1; id < kPool; ++id) sut->q.remove(&sut->msgs[id]);  // unposted: refused
    sut->q.take_reclaimed();
    RC_ASSERT(sut->q.size_quiescent() == 0u);
  });
}

TEST(removal, state_machine_matches_reference_model) {
  with_selected_fault<RemovalFault>([](auto fault) {
    constexpr RemovalFault F = decltype(fault)::value;
    using Q = DeliQueue<StdSync, DeliFault::none, VirtualClock<>, F>;
    EXPECT_TRUE(state_machine<Q>("DeliQueue with removal agrees with the ordered-multiset model"));
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
