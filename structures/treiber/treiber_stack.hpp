// TreiberStack — a lock-free LIFO of small trivially copyable values.
//
// Guarantees
//   push, pop, take_all: lock-free (a thread retries only when another thread's
//   CAS on the same head succeeded). Linearizable as a stack; take_all removes
//   the whole stack at one instant. Multi-producer, multi-consumer.
//   for_each (traversal from the top) may run concurrently with everything:
//     - it visits every value that stays in the stack for the whole traversal;
//     - every value it visits was written by some push (never invented; it may be
//       a value popped, or being pushed, while the traversal ran);
//     - it ends once pushes stop (each push that reuses the node it stands on can
//       send it back to the top once); it never reads freed memory.
//
// Design
//   Nodes live in a pool allocated once by the constructor and freed only by the
//   destructor, so a node is type-stable for the stack's whole life: a thread
//   may read a node after another thread popped it (its CAS then fails). Unused
//   nodes sit in a second lock-free list, the free pool. Both lists are the same
//   tagged index list (TaggedIndexList below) over the shared node array; each
//   list has its own link field, so a node in the pool keeps the live link it had
//   when it was popped — a traverser standing on it walks on down the stack.
//
//   Head word (64 bits), one per list, each alone on its cache line:
//     bits  0..31  index of the first node in the pool array; 0xFFFFFFFF = empty
//     bits 32..63  ABA tag: +1 on every successful push or pop of that list
//   A pop that read head (A, t) and A's link can only succeed if the head is
//   still (A, t): if A was popped and pushed again meanwhile the tag moved on.
//   The tag wraps after 2^32 operations; a thread would have to stay descheduled
//   between its head load and its CAS across exactly a multiple of 2^32 of them.
//   take_all sets the index bits to "empty" and keeps the tag; every later push
//   raises it, so a stale (A, t) can never match again.
//
// Memory
//   capacity nodes of sizeof(T) + 8 bytes (rounded up) each, allocated once;
//   push fails (returns false) when all are in use. Nodes are returned to the
//   pool by pop and take_all and freed by the destructor.
//
// Cost
//   push: one pool pop + one CAS; pop: one CAS + one pool push; take_all: one
//   RMW + one pool CAS for the whole chain. Two cache lines are written per
//   operation besides the node's.
//
// Ownership
//   A value is copied in by push and copied out by pop/take_all: the stack owns
//   only its nodes. T must be trivially copyable and lock-free as an atomic,
//   because a traversal may read a node's value while it is being reused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "structures/treiber/treiber_faults.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck {

template <class T, class Sync = StdSync, TreiberFault Fault = TreiberFault::none>
class TreiberStack {
  static_assert(std::is_trivially_copyable_v<T>, "TreiberStack stores trivially copyable values");

 public:
  static constexpr std::uint32_t kNil = 0xFFFFFFFFu;

  explicit TreiberStack(std::uint32_t capacity)
      : capacity_(capacity), nodes_(Sync::template create_array<Node>(capacity)) {
    // Chain every node into the pool: node i -> i+1. Single-threaded: the
    // constructor publishes the stack to other threads by whatever hands it over.
    for (std::uint32_t i = 0; i < capacity; ++i) {
      nodes_[i].pool_next.store(i + 1 < capacity ? i + 1 : kNil, std::memory_order_relaxed);
    }
    pool_.reset(capacity == 0 ? kNil : 0);
    Sync::label(live_.head, "stack.head");
    Sync::label(pool_.head, "pool.head");
  }
  ~TreiberStack() { Sync::destroy_array(nodes_); }
  TreiberStack(const TreiberStack&) = delete;
  TreiberStack& operator=(const TreiberStack&) = delete;

  // Returns false (and stores nothing) when all `capacity` nodes are in use.
  bool push(T value) {
    typename Sync::operation op("push");
    const std::uint32_t i = pool_.pop(nodes_);
    if (i == kNil) return false;
    // Relaxed: published by the release CAS in live_.push (pairs with the acquire
    // loads of pop, take_all and for_each).
    nodes_[i].value.store(value, std::memory_order_relaxed);
    live_.push(nodes_, i);
    return true;
  }

  // Pops the top value into `out`; false if the stack was empty.
  bool pop(T& out) {
    typename Sync::operation op("pop");
    const std::uint32_t i = live_.pop(nodes_);
    if (i == kNil) return false;
    // Relaxed: ordered after the push that wrote it by pop's acquire on the head.
    out = nodes_[i].value.load(std::memory_order_relaxed);
    pool_.push(nodes_, i);  // release: our read happens-before the node's reuse
    return true;
  }

  // Detaches the whole stack at once and calls consume(value) for each value,
  // top to bottom; returns how many. The nodes go back to the pool in one CAS.
  template <class Consume>
  std::size_t take_all(Consume&& consume) {
    typename Sync::operation op("take_all");
    std::uint32_t first = live_.detach_all();
    if (first == kNil) return 0;
    std::size_t n = 0;
    std::uint32_t last = first;
    for (std::uint32_t i = first; i != kNil;
         i = nodes_[i].live_next.load(std::memory_order_relaxed)) {
      // Relaxed: the detaching acquire RMW synchronized with every push of the
      // chain; nobody else can reach these nodes through the head any more.
      // Rebuild the chain in the pool's link field so it is pushed in one CAS.
      const std::uint32_t next = nodes_[i].live_next.load(std::memory_order_relaxed);
      if (Fault != TreiberFault::take_all_drops_last || next != kNil)  // FAULT when skipped
        consume(nodes_[i].value.load(std::memory_order_relaxed));
      nodes_[i].pool_next.store(next, std::memory_order_relaxed);
      last = i;
      ++n;
    }
    pool_.push_chain(nodes_, first, last);
    return n;
  }

  bool empty() const {
    // Acquire: pairs with push's release CAS, so a false answer means the top
    // node's contents are visible to the caller.
    return TaggedIndexList<&Node::live_next>::index(live_.head.load(std::memory_order_acquire)) ==
           kNil;
  }

  // Walks from the top; see the guarantee in the header comment.
  template <class Visit>
  void for_each(Visit&& visit) const {
    typename Sync::operation op("for_each");
    // Acquire pairs with the release CAS of every push before it (release sequence
    // of the head), so the nodes reachable from this top hold their pushed values.
    std::uint32_t i =
        TaggedIndexList<&Node::live_next>::index(live_.head.load(std::memory_order_acquire));
    while (i != kNil) {
      visit(nodes_[i].value.load(std::memory_order_relaxed));
      // Acquire pairs with the release store of the link in push: if the node was
      // reused, we see the new chain it was pushed onto.
      i = nodes_[i].live_next.load(std::memory_order_acquire);
    }
  }

  std::uint32_t capacity() const { return capacity_; }

  // Quiescent check (no operation in flight). Returns nullptr when the stack is
  // well formed, otherwise what is wrong: each node is on exactly one of the two
  // lists, neither list has a cycle, and together they hold all capacity nodes.
  const char* check_invariants() const {
    std::uint32_t seen_live = 0, seen_pool = 0;
    auto walk = [&](std::uint32_t i, bool live, std::uint32_t& count) -> const char* {
      while (i != kNil) {
        if (i >= capacity_) return "link points outside the node pool";
        if (++count > capacity_) return "cycle in a list";
        i = live ? nodes_[i].live_next.load(std::memory_order_relaxed)
                 : nodes_[i].pool_next.load(std::memory_order_relaxed);
      }
      return nullptr;
    };
    // Relaxed loads throughout: the caller guarantees quiescence (it joined or
    // synchronized with every thread that used the stack).
    if (const char* e = walk(live_.index(live_.head.load(std::memory_order_relaxed)), true, seen_live))
      return e;
    if (const char* e = walk(pool_.index(pool_.head.load(std::memory_order_relaxed)), false, seen_pool))
      return e;
    if (seen_live + seen_pool != capacity_) return "nodes lost or duplicated between stack and pool";
    return nullptr;
  }

  // Number of values in the stack; quiescent use only.
  std::uint32_t size_quiescent() const {
    std::uint32_t n = 0;
    for (std::uint32_t i = live_.index(live_.head.load(std::memory_order_relaxed)); i != kNil;
         i = nodes_[i].live_next.load(std::memory_order_relaxed))
      ++n;
    return n;
  }

 private:
  struct Node {
    typename Sync::template atomic<T> value{T()};
    typename Sync::template atomic<std::uint32_t> live_next{kNil};  // link in the stack
    typename Sync::template atomic<std::uint32_t> pool_next{kNil};  // link in the pool
  };

  // A Treiber list of node indices with a tagged head (layout in the header comment).
  template <typename Sync::template atomic<std::uint32_t> Node::*Link>
  struct alignas(64) TaggedIndexList {
    static constexpr std::uint64_t kIndexMask = 0xFFFFFFFFull;
    static constexpr std::uint32_t index(std::uint64_t head) {
      return static_cast<std::uint32_t>(head & kIndexMask);
    }
    static constexpr std::uint64_t next_head(std::uint64_t old, std::uint32_t new_index) {
      if constexpr (Fault == TreiberFault::no_aba_tag) {
        return (old & ~kIndexMask) | new_index;  // FAULT: tag never changes
      } else {
        return ((old & ~kIndexMask) + (1ull << 32)) | new_index;
      }
    }
    static constexpr std::memory_order publish_order() {
      return Fault == TreiberFault::relaxed_publish ? std::memory_order_relaxed  // FAULT
                                                    : std::memory_order_release;
    }
    static constexpr std::memory_order claim_order() {
      return Fault == TreiberFault::relaxed_pop ? std::memory_order_relaxed  // FAULT
                                                : std::memory_order_acquire;
    }

    // Constructor only: relaxed, published with the whole stack by whatever hands
    // the stack to other threads (a thread start, a release store of its address).
    void reset(std::uint32_t first) { head.store(first, std::memory_order_relaxed); }

    void push(Node* nodes, std::uint32_t i) { push_chain(nodes, i, i); }

    // Pushes the chain first..last (already linked through Link) with one CAS.
    void push_chain(Node* nodes, std::uint32_t first, std::uint32_t last) {
      std::uint64_t old = head.load(std::memory_order_relaxed);
      for (;;) {
        // Release: pairs with for_each's acquire load of the link (a traverser on
        // a reused node then sees the chain it now leads to).
        (nodes[last].*Link).store(index(old), std::memory_order_release);
        // Success release: pairs with the acquire head loads of pop, take_all,
        // empty and for_each — the node's value and link are visible to them.
        // Failure relaxed: we only retry with the fresher head.
        if (head.compare_exchange_weak(old, next_head(old, first), publish_order(),
                                       std::memory_order_relaxed))
          return;
        Sync::spin_hint();
      }
    }

    std::uint32_t pop(Node* nodes) {
      // Acquire: pairs with push's release CAS (the top's link is visible).
      std::uint64_t old = head.load(claim_order());
      for (;;) {
        const std::uint32_t i = index(old);
        if (i == kNil) return kNil;
        // Relaxed: if the node was popped and reused meanwhile this may be any
        // link; then the tag has moved and the CAS below fails.
        const std::uint32_t next = (nodes[i].*Link).load(std::memory_order_relaxed);
        // Success acquire: we now own node i and read its value after this.
        // Failure acquire: the retry reads the new top's link.
        if (head.compare_exchange_weak(old, next_head(old, next), claim_order(), claim_order()))
          return i;
        if constexpr (Fault == TreiberFault::pop_gives_up && Link == &Node::live_next) {
          // FAULT: a push that landed on the node we tried to pop is taken for "the
          // stack is busy": reported as empty. (Relaxed: any value of the link will do.)
          const std::uint32_t top = index(old);
          if (top != kNil && (nodes[top].*Link).load(std::memory_order_relaxed) == i) return kNil;
        }
        Sync::spin_hint();
      }
    }

    // Empties the list in one RMW and returns the old first index.
    std::uint32_t detach_all() {
      // Acquire: pairs with every push's release CAS (release sequence of the
      // head), so the whole detached chain is visible. Setting the index bits to
      // all ones keeps the tag (see the header comment).
      constexpr std::memory_order mo = Fault == TreiberFault::relaxed_take_all
                                           ? std::memory_order_relaxed  // FAULT
                                           : std::memory_order_acquire;
      return index(head.fetch_or(kIndexMask, mo));
    }

    typename Sync::template atomic<std::uint64_t> head{kNil};
  };

  const std::uint32_t capacity_;
  Node* const nodes_;
  TaggedIndexList<&Node::live_next> live_;  // the stack
  TaggedIndexList<&Node::pool_next> pool_;  // unused nodes
};

}  // namespace lfcheck
