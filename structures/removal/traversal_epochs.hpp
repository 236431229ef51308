// TraversalEpochs — safe memory reclamation for lock-free traversals with a
// single reclaimer (DESIGN §2 item 3; issue 4). Two reader epochs in one word.
//
// Roles
//   Traversers (any thread): enter() before reading the first shared pointer,
//   exit(e) after the last read of any node. Between the two they may read any
//   node reachable from the structure's roots, including nodes being unlinked.
//   The reclaimer (one thread; DeliQueue's Looper): retire(n) a node once it is
//   unlinked (no longer reachable from the roots by a traversal that starts
//   now), and poll() to get back the retired nodes no traversal can reach any
//   more. poll() and retire() are reclaimer-only and never wait.
//
// Guarantee
//   A node that poll() returns was retired before some epoch flip F, and every
//   traversal that entered before F has exited: its reads happen-before poll()
//   returns. A traversal that enters after F is ordered after every unlink done
//   before F (it acquires F), so it reaches only nodes still linked at F or
//   unlinked later. Hence (given that an unlinked node is never linked again
//   while it is retired, and that an unlinked node's links only point to nodes
//   unlinked no earlier than itself — true for the DeliQueue stack, whose
//   unlinked nodes keep their `next`) no traversal can reach a returned node.
//
// State word (64 bits, alone on its cache line):
//   bits  0..30  traversals that entered in epoch 0 and have not exited
//   bit   31     always 0 (guard: a count can never carry into the other field)
//   bits 32..62  traversals that entered in epoch 1 and have not exited
//   bit   63     the current epoch
//   enter(): CAS +1 on the current epoch's count (the epoch read and the count
//   raised in one step, so a traversal is always counted in the epoch it saw).
//   exit(e): fetch_sub 1 on epoch e's count. Flip: fetch_add of bit 63 (toggles it).
//   At most 2^31 - 1 traversals may be inside one epoch at once: enter() checks
//   it (Sync::check) rather than letting the count carry into the guard bit.
//
// Reclaimer state (plain fields, reclaimer only)
//   pending_: nodes retired since the last flip; waiting_: nodes retired before
//   the last flip, waiting for the old epoch's count to reach 0. The reclaimer
//   flips only when waiting_ has been handed back, so at a flip the new epoch's
//   count is 0: its traversals were all waited for by the previous grace period.
//   Both lists are chained through the node's `free_next` (reclaimer only).
//
// Cost
//   enter: one load + one CAS (retried only if another traversal entered or
//   exited, or the reclaimer flipped, between the two); exit: one fetch_sub.
//   Both write the one shared word: traversals contend on its cache line.
//   poll: one load or one fetch_add (the flip), plus O(1) list splices; nodes come back in
//   chains (O(k) for the caller to walk). Memory: the word and two list heads.
//
// Progress
//   enter is lock-free, exit and the reclaimer's operations wait-free. Reclamation
//   itself is blocking: a traversal that stalls inside (preempted, or a slow
//   predicate) holds back every node retired from its epoch on, so the backlog
//   grows as long as it stalls. That is reported, never silent: backlog() counts
//   the nodes retired and not yet handed back, max_backlog() its high-water mark,
//   and stalled_polls() the polls that found the current grace period still
//   blocked; stalled() is true once that reaches kStallPolls. The owner (DeliQueue)
//   exposes these, and the stress and model layers check that the backlog drains
//   to 0 once the traversals have exited.
#pragma once

#include <cstdint>

#include "structures/removal/removal_faults.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck {

template <class Node, class Sync = StdSync, RemovalFault Fault = RemovalFault::none>
class TraversalEpochs {
 public:
  static constexpr std::uint64_t kEpochBit = 1ull << 63;
  static constexpr std::uint64_t kCountMask = (1ull << 31) - 1;
  static constexpr std::uint64_t kStallPolls = 1u << 20;

  static constexpr std::uint64_t unit(unsigned epoch) { return epoch ? (1ull << 32) : 1ull; }
  static constexpr std::uint64_t count(std::uint64_t word, unsigned epoch) {
    return (word >> (epoch ? 32 : 0)) & kCountMask;
  }

  TraversalEpochs() { Sync::label(word_.v, "epochs.word"); }
  TraversalEpochs(const TraversalEpochs&) = delete;
  TraversalEpochs& operator=(const TraversalEpochs&) = delete;

  // ---- traversers (any thread) --------------------------------------------------
  // Joins the current epoch; returns it (pass it to exit).
  unsigned enter() {
    typename Sync::operation op("traversal_enter");
    // Relaxed: only a guess for the CAS, which re-reads the word.
    std::uint64_t w = word_.v.load(std::memory_order_relaxed);
    for (;;) {
      const unsigned e = static_cast<unsigned>(w >> 63);
      Sync::check(count(w, e) < kCountMask, "more than 2^31 - 1 traversals inside one epoch");
      // Success acquire: pairs with the reclaimer's acq_rel flip, so this
      // traversal sees every unlink made before that flip (its release half);
      // all writes of the word are RMWs, so it also pairs with every earlier flip.
      // Failure relaxed: retry with the value read.
      constexpr std::memory_order success =
          Fault == RemovalFault::relaxed_enter ? std::memory_order_relaxed  // FAULT
                                               : std::memory_order_acquire;
      if (word_.v.compare_exchange_strong(w, w + unit(e), success, std::memory_order_relaxed)) return e;
      Sync::spin_hint();
    }
  }
  // Leaves epoch e (the value enter returned).
  void exit(unsigned e) {
    typename Sync::operation op("traversal_exit");
    // Release: pairs with the reclaimer's acquire load / acq_rel flip that reads
    // the count this leaves: every read of this traversal happens-before the
    // hand-back of any node it could have reached.
    word_.v.fetch_sub(unit(e), std::memory_order_release);
  }

  // ---- the reclaimer -------------------------------------------------------------
  // n is unlinked: no traversal that starts from now on can reach it.
  void retire(Node* n) {
    // Relaxed: free_next is reclaimer-only while the node is retired.
    n->free_next.store(pending_, std::memory_order_relaxed);
    pending_ = n;
    ++backlog_;
    if (backlog_ > max_backlog_) max_backlog_ = backlog_;
  }

  // Advances reclamation; returns the nodes no traversal can reach any more,
  // chained through free_next (nullptr if none).
  Node* poll() {
    typename Sync::operation op("reclaim_poll");
    if constexpr (Fault == RemovalFault::free_without_grace) {
      // FAULT: hands back everything retired, ignoring the traversals.
      Node* out = waiting_ ? waiting_ : pending_;
      if (waiting_) append(waiting_, pending_);
      waiting_ = pending_ = nullptr;
      backlog_ = 0;
      return out;
    }
    Node* out = nullptr;
    if (waiting_) {
      // Acquire: pairs with exit()'s release fetch_sub of the old epoch.
      const std::uint64_t w = word_.v.load(std::memory_order_acquire);
      if (count(w, old_epoch_) == 0) {
        out = take(waiting_);
        stalled_polls_ = 0;
      } else {
        ++stalled_polls_;
        return nullptr;
      }
    }
    if (pending_) {
      // Acq_rel: the release half pairs with enter()'s acquire CAS (traversals
      // of the new epoch see every unlink retired before this); the acquire half
      // pairs with exit()'s release when the old count read is already 0.
      // Adding bit 63 toggles it (the carry leaves the word): the policy's fetch_xor.
      const std::uint64_t w = word_.v.fetch_add(kEpochBit, std::memory_order_acq_rel);
      old_epoch_ = static_cast<unsigned>(w >> 63);
      waiting_ = pending_;
      pending_ = nullptr;
      if (count(w, old_epoch_) == 0) {
        Node* more = take(waiting_);
        if (out) append(out, more);
        else out = more;
      }
    }
    return out;
  }

  std::uint64_t backlog() const { return backlog_; }          // retired, not handed back
  std::uint64_t max_backlog() const { return max_backlog_; }  // high-water mark
  std::uint64_t stalled_polls() const { return stalled_polls_; }
  bool stalled() const { return stalled_polls_ >= kStallPolls; }
  // Quiescent only: traversals inside (both epochs).
  std::uint64_t inside() const {
    // Relaxed: a quiescent statistic.
    const std::uint64_t w = word_.v.load(std::memory_order_relaxed);
    return count(w, 0) + count(w, 1);
  }
  // Quiescent (destructor of the owner): every node still retired, chained.
  Node* take_all_unsafe() {
    Node* out = pending_;
    if (waiting_) {
      if (out) append(out, waiting_);
      else out = waiting_;
    }
    pending_ = waiting_ = nullptr;
    backlog_ = 0;
    return out;
  }

 private:
  template <class T>
  struct alignas(64) Line {
    typename Sync::template atomic<T> v{T()};
  };

  Node* take(Node*& list) {
    Node* out = list;
    list = nullptr;
    for (Node* n = out; n; n = n->free_next.load(std::memory_order_relaxed)) --backlog_;  // reclaimer only
    return out;
  }
  static void append(Node* list, Node* more) {
    while (Node* nx = list->free_next.load(std::memory_order_relaxed)) list = nx;  // reclaimer only
    list->free_next.store(more, std::memory_order_relaxed);
  }

  Line<std::uint64_t> word_;  // the state word (layout above)
  // Reclaimer only.
  alignas(64) Node* pending_ = nullptr;
  Node* waiting_ = nullptr;
  unsigned old_epoch_ = 0;
  std::uint64_t backlog_ = 0, max_backlog_ = 0, stalled_polls_ = 0;
};

}  // namespace lfcheck
