// A bounded MPMC queue after D. Vyukov: a ring of N cells, each with a turn saying whose it is.
// push/pop claim a position by a CAS on tail_/head_, then wait for the cell's turn; full/empty
// only when the other end says so, so both linearize. Against lfcheck's Sync policy; one CAS a call.
#pragma once
#include <lfcheck/sync/std_sync.hpp>

template <class T, std::size_t N, class Sync = lfcheck::StdSync>
class BoundedQueue {
  using Index = typename Sync::template atomic<std::size_t>;
  struct Cell { Index turn; typename Sync::template cell<T> value; } cells_[N];
  Index head_{0}, tail_{0};  // the next position to pop, to push
  // Claims position p of `end` once cells_[p % N].turn == p + lag, runs f on the cell and
  // hands it to turn p + next; false once `other` + gap <= p: full (push) or empty (pop).
  template <class F> bool claim(Index& end, Index& other, std::size_t lag, std::size_t next, std::size_t gap, F f) {
    for (std::size_t p = end.load(std::memory_order_relaxed);; Sync::spin_hint()) {  // relaxed: a guess, the CAS decides
      Cell& c = cells_[p % N];
      if (c.turn.load(std::memory_order_acquire) == p + lag) {  // acquire: pairs with the release below
        // seq_cst, as the other end's load: both ends' moves in one order, read by full/empty.
        if (!end.compare_exchange_weak(p, p + 1, std::memory_order_seq_cst, std::memory_order_relaxed)) continue;
        f(c.value);
        c.turn.store(p + next, std::memory_order_release);  // hands the cell on: pairs with the acquire
        return true;
      } else if (other.load(std::memory_order_seq_cst) + gap <= p) return false;
      else p = end.load(std::memory_order_relaxed);  // relaxed: only a position to try
    }
  }
 public:
  BoundedQueue() { for (std::size_t i = 0; i < N; ++i) cells_[i].turn.store(i, std::memory_order_relaxed); }  // relaxed: before any sharing
  bool push(T v) { return claim(tail_, head_, 0, 1, N, [&](auto& cell) { cell.store(v); }); }
  bool pop(T& v) { return claim(head_, tail_, 1, N, 0, [&](auto& cell) { v = cell.load(); }); }
};
