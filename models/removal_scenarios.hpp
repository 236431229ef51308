// Removal scenarios (structure "removal"): tombstone claims, the free-list,
// benign-race traversal and TraversalEpochs reclamation, written once against
// the Sync policy.
//
// Messages are allocated with Sync::create (so Relacy sees a use after free)
// and freed only by their owner: the scenario, after they came back from
// take_reclaimed() (removed or recycled) — in traversal_vs_free while
// traversals still run. A virtual clock stays at 0: messages posted at 0 are
// due, at 100 never. Bookkeeping of the scenario itself is plain fields:
// Relacy runs all threads on one OS thread.
#pragma once

#include "harness/scenario.hpp"
#include "structures/deliqueue/deliqueue.hpp"
#include "structures/removal/traversal_epochs.hpp"

namespace lfcheck::removal_models {

constexpr int kMax = 5;

template <class Sync, RemovalFault F>
struct Common : ScenarioBase {
  using Queue = DeliQueue<Sync, DeliFault::none, VirtualClock<Sync>, F>;
  using Msg = Message<Sync>;
  Queue q;
  Msg* m[kMax + 1] = {};
  bool accepted[kMax + 1] = {};
  bool freed[kMax + 1] = {};
  int delivered[kMax + 1] = {};
  int removed[kMax + 1] = {};   // came back from take_reclaimed with the removed bit
  int recycled[kMax + 1] = {};  // came back from take_reclaimed after delivery
  bool free_on_reclaim = false; // the Looper frees what comes back, during the run

  // before(): message i with predicate class `what`, posted at `when`.
  void post(int i, std::int32_t what, std::int64_t when) {
    m[i] = Sync::template create<Msg>();
    m[i]->what.store(what);
    m[i]->arg.store(i);
    accepted[i] = q.enqueue(m[i], when);
  }
  int id(Msg* x) {
    const auto i = static_cast<int>(x->arg.load());
    Sync::check(i >= 1 && i <= kMax && x == m[i], "the queue returned a message nobody posted");
    return i;
  }
  // The Looper: one poll (delivering and recycling what is due), then take back
  // what reclamation finished.
  void looper_step() {
    if (Msg* d = q.poll()) {
      ++delivered[id(d)];
      Sync::check(!d->in_use(), "a delivered message is still marked in use");
      q.recycle(d);
    }
    collect();
  }
  void collect() {
    for (Msg* r = q.take_reclaimed(); r;) {
      Msg* nx = r->free_next.load(std::memory_order_relaxed);  // the caller's chain now
      const int i = id(r);
      // Relaxed: the message is ours again (take_reclaimed is on this thread).
      if (r->flags.load(std::memory_order_relaxed) & msg_flags::removed) ++removed[i];
      else ++recycled[i];
      Sync::check(!r->in_use(), "a reclaimed message is still marked in use");
      if (free_on_reclaim) {
        freed[i] = true;
        Sync::destroy(r);
      }
      r = nx;
    }
  }
  // after(): invariants, then take every message back (removing what is still
  // queued), check exactly-once hand-back, free all.
  void finish() {
    Sync::check(q.check_invariants() == nullptr, "DeliQueue invariants violated");
    collect();
    for (int i = 1; i <= kMax; ++i)
      if (m[i] && !freed[i] && m[i]->in_use() && !(m[i]->flags.load(std::memory_order_relaxed) & msg_flags::removed))
        q.remove(m[i]);
    const bool keep = free_on_reclaim;
    free_on_reclaim = false;
    collect();
    free_on_reclaim = keep;
    Sync::check(q.reclaim_backlog() == 0, "reclamation backlog left after every traversal ended");
    Sync::check(q.check_invariants() == nullptr, "DeliQueue invariants violated after the final drain");
    Sync::check(q.size_quiescent() == 0, "messages left on the stack after the final drain");
    for (int i = 1; i <= kMax; ++i) {
      if (!m[i]) continue;
      Sync::check(delivered[i] + removed[i] == 1, "a message was not delivered xor removed exactly once");
      Sync::check(removed[i] + recycled[i] == 1, "a message did not come back from reclamation exactly once");
      if (!freed[i]) Sync::destroy(m[i]);
    }
  }
};

// The claim: two removers (by predicate, and by pointer) race the Looper's
// delivery of one due message. Exactly one of the three claims it, and each
// learns whether it did.
template <class Sync, RemovalFault F>
struct ClaimRace : Common<Sync, F> {
  static constexpr const char* name = "claim_race";
  static constexpr const char* description =
      "remove_messages(what) and remove(m) race the Looper delivering the same due message";
  static constexpr unsigned threads = 3;
  std::size_t by_what = 0;
  bool by_pointer = false;
  void before() { this->post(1, 1, 0); }
  void thread(unsigned i) {
    if (i == 0) by_what = this->q.remove_messages(std::int32_t{1});
    else if (i == 1) by_pointer = this->q.remove(this->m[1]);
    else {
      this->looper_step();
      this->looper_step();
    }
  }
  void after() {
    Sync::check(this->q.check_invariants() == nullptr, "DeliQueue invariants violated");
    const int claims = static_cast<int>(by_what) + (by_pointer ? 1 : 0) + this->delivered[1];
    Sync::check(claims == 1, "the message was claimed by more or fewer than one of remover, remover, Looper");
    this->finish();
    Sync::check(this->removed[1] == static_cast<int>(by_what) + (by_pointer ? 1 : 0),
                "a remover's answer differs from what came back as removed");
  }
};

// Traversal while the Looper unlinks: the stack is A B C (A on top); the
// Looper delivers B and A (unlinking the nodes a traverser may stand on) while
// remove_messages(7) walks to C below them. C must be claimed: the walk rejoins
// the live list from an unlinked node, ends, and visits what it must.
template <class Sync, RemovalFault F>
struct TraversalVsUnlink : Common<Sync, F> {
  static constexpr const char* name = "traversal_vs_unlink";
  static constexpr const char* description =
      "remove_messages(7) walks A B C while the Looper delivers and unlinks B and A; C must be removed";
  static constexpr unsigned threads = 2;
  std::size_t n = 0;
  void before() {
    this->post(3, 7, 100);  // C: bottom, never due
    this->post(2, 1, 0);    // B
    this->post(1, 1, 0);    // A: top
  }
  void thread(unsigned i) {
    if (i == 0) {
      n = this->q.remove_messages(std::int32_t{7});
    } else {
      this->looper_step();
      this->looper_step();
    }
  }
  void after() {
    Sync::check(n == 1, "remove_messages(7) did not claim the message below the unlinked ones");
    Sync::check(this->delivered[1] == 1 && this->delivered[2] == 1, "a due message was not delivered");
    this->finish();
    Sync::check(this->removed[3] == 1, "the matching message was not removed");
  }
};

// Traversal vs free: while remove_messages(1) and has_messages(2) walk the
// stack, the Looper delivers one message and frees every message the moment it
// comes back from take_reclaimed. No traversal may read a freed message (Relacy
// reports any access to freed memory); has_messages(2) sees the message of
// class 2 that nobody claims.
template <class Sync, RemovalFault F>
struct TraversalVsFree : Common<Sync, F> {
  static constexpr const char* name = "traversal_vs_free";
  static constexpr const char* description =
      "remove_messages and has_messages walk while the Looper delivers and frees reclaimed messages";
  static constexpr unsigned threads = 3;
  std::size_t n = 0;
  bool has = false;
  void before() {
    this->free_on_reclaim = true;
    this->post(3, 2, 100);  // stays: has_messages(2) must see it
    this->post(2, 3, 0);    // delivered (and recycled, then freed)
    this->post(1, 1, 100);  // removed (then freed)
  }
  void thread(unsigned i) {
    if (i == 0) {
      n = this->q.remove_messages(std::int32_t{1});
    } else if (i == 1) {
      has = this->q.has_messages(std::int32_t{2});
    } else {
      for (int k = 0; k < 2; ++k) this->looper_step();
    }
  }
  void after() {
    Sync::check(n == 1, "remove_messages(1) did not claim the message of class 1");
    Sync::check(has, "has_messages(2) missed a message that stayed queued");
    this->finish();
  }
};

// The free-list: two removers push (one by pointer, one by predicate) while the
// Looper drains it; a producer pushes meanwhile, so the drain's
// unlink of the top can fail its CAS and must sweep again for the back-link.
template <class Sync, RemovalFault F>
struct FreeListPushVsDrain : Common<Sync, F> {
  static constexpr const char* name = "freelist_push_vs_drain";
  static constexpr const char* description =
      "remove(m) and remove_messages(3) push while a producer posts and the Looper drains";
  static constexpr unsigned threads = 3;
  bool by_pointer = false;
  std::size_t by_what = 0;
  void before() {
    this->post(2, 3, 100);
    this->post(1, 1, 100);  // top
    this->q.poll();         // swept: the drain unlinks 1 through the top CAS
    this->m[5] = Sync::template create<Msg>();
    this->m[5]->what.store(5);
    this->m[5]->arg.store(5);
  }
  using Msg = typename Common<Sync, F>::Msg;
  void thread(unsigned i) {
    if (i == 0) {
      by_pointer = this->q.remove(this->m[1]);
      this->accepted[5] = this->q.enqueue(this->m[5], 100);
    } else if (i == 1) {
      by_what = this->q.remove_messages(std::int32_t{3});
    } else {
      this->looper_step();
    }
  }
  void after() {
    Sync::check(by_pointer && by_what == 1, "a remover failed to claim a queued message");
    this->finish();
  }
};

// ---- TraversalEpochs on its own -------------------------------------------------
struct EpochNode {
  template <class Sync>
  struct Of {
    typename Sync::template atomic<Of*> free_next{nullptr};
    typename Sync::template cell<int> value{0};
  };
};

// A reader enters, reads the shared node's value and exits, while the
// reclaimer replaces the node, retires the old one and frees whatever poll()
// hands back. No read of freed memory; everything is freed once the reader left.
template <class Sync, RemovalFault F>
struct EpochsReaderVsReclaim : ScenarioBase {
  static constexpr const char* name = "epochs_reader_vs_reclaim";
  static constexpr const char* description =
      "TraversalEpochs: 1 reader reads the current node while the reclaimer replaces and frees it";
  static constexpr unsigned threads = 2;
  using Node = EpochNode::Of<Sync>;
  TraversalEpochs<Node, Sync, F> epochs;
  typename Sync::template atomic<Node*> head{nullptr};
  int freed = 0, seen = 0;
  void before() {
    Node* a = Sync::template create<Node>();
    a->value.store(1);
    head.store(a, std::memory_order_relaxed);  // before the threads start
  }
  void free_returned() {
    for (Node* r = epochs.poll(); r;) {
      Node* nx = r->free_next.load(std::memory_order_relaxed);
      Sync::destroy(r);
      ++freed;
      r = nx;
    }
  }
  void thread(unsigned i) {
    if (i == 0) {
      const unsigned e = epochs.enter();
      // Acquire: pairs with the reclaimer's release exchange (b's value).
      Node* n = head.load(std::memory_order_acquire);
      seen = n->value.load();
      epochs.exit(e);
    } else {
      Node* b = Sync::template create<Node>();
      b->value.store(2);
      // Acq_rel: release publishes b; acquire orders before() 's store of a.
      Node* a = head.exchange(b, std::memory_order_acq_rel);
      epochs.retire(a);
      for (int k = 0; k < 3; ++k) free_returned();
    }
  }
  void after() {
    Sync::check(seen == 1 || seen == 2, "the reader saw a value nobody wrote");
    free_returned();
    Sync::check(freed == 1 && epochs.backlog() == 0, "a retired node was not handed back once the reader left");
    Sync::check(epochs.inside() == 0, "a traversal is still counted after it exited");
    Sync::destroy(head.load(std::memory_order_relaxed));
  }
};

// Two readers and two grace periods: the reclaimer replaces the node twice,
// polling in between, so the epoch flips while readers of both epochs are
// inside. Every node is handed back exactly once, never while a reader that
// could hold it is inside.
template <class Sync, RemovalFault F>
struct EpochsTwoGracePeriods : EpochsReaderVsReclaim<Sync, F> {
  static constexpr const char* name = "epochs_two_grace_periods";
  static constexpr const char* description =
      "TraversalEpochs: 2 readers; the reclaimer replaces the node twice, polling between";
  static constexpr unsigned threads = 3;
  using Node = typename EpochsReaderVsReclaim<Sync, F>::Node;
  int seen2 = 0;
  void thread(unsigned i) {
    if (i < 2) {
      const unsigned e = this->epochs.enter();
      // Acquire: pairs with the reclaimer's release exchanges.
      Node* n = this->head.load(std::memory_order_acquire);
      (i == 0 ? this->seen : seen2) = n->value.load();
      this->epochs.exit(e);
    } else {
      for (int v = 2; v <= 3; ++v) {
        Node* b = Sync::template create<Node>();
        b->value.store(v);
        // Acq_rel: release publishes b; acquire orders the previous node's stores.
        this->epochs.retire(this->head.exchange(b, std::memory_order_acq_rel));
        this->free_returned();
      }
      this->free_returned();
    }
  }
  void after() {
    Sync::check(this->seen >= 1 && this->seen <= 3 && seen2 >= 1 && seen2 <= 3,
                "a reader saw a value nobody wrote");
    this->free_returned();
    this->free_returned();
    Sync::check(this->freed == 2 && this->epochs.backlog() == 0,
                "retired nodes were not handed back once the readers left");
    Sync::destroy(this->head.load(std::memory_order_relaxed));
  }
};

}  // namespace lfcheck::removal_models
