// What one step of one thread touched, and when two steps are dependent: the
// relation the DPOR scheduler (scheduler.hpp) reduces by. Two steps of different
// threads that are independent commute — running them in either order leads to
// the same state of Relacy's model — so only one order needs exploring.
//
// A step (an "event") is what a thread does from one scheduling point to the
// next: the operation it was about to do when it was scheduled (an atomic access,
// a seq_cst fence, a lock, a wait, a spin hint, or its start) and everything it
// did after that up to its next scheduling point (accesses of plain shared data,
// allocations, frees, other fences). Each is an Access (sync/relacy_access.hpp),
// announced by the Sync policy.
//
// Dependence of two accesses of different threads — conservative where unsure,
// never less than Relacy's model needs:
//   - the same atomic or cell, at least one of them writes (a failed
//     compare-exchange reads; a store, an exchange, a fetch_*, a successful
//     compare-exchange write). Two loads commute in Relacy's model: a load changes
//     only the loading thread's clocks and its own "first seen" mark on the store;
//   - two seq_cst fences (Relacy keeps one global seq_cst fence order). A seq_cst
//     access is ordered like any other access of its location: in Relacy's C++
//     mode a seq_cst load may not read past a seq_cst store of the same location,
//     and nothing else — no global order of seq_cst accesses (that is only with
//     RL_IMPROVED_SEQ_CST_FENCE / _RMW, defined for its Java and CLI models:
//     relacy/base.hpp). The litmus tests SB, R, IRIW with seq_cst compare this with
//     Relacy's full search (tests/dpor_truth.sh);
//   - the same mutex (lock, unlock, and a wait, which releases and re-takes it),
//     the same condition variable (wait, notify);
//   - an allocation or free against anything inside the block — an atomic, a
//     cell, a mutex, a condition variable (a wait's mutex too): destroying a held
//     mutex, or notifying a freed condition variable, is a failure whose order
//     matters — and two allocations or frees of overlapping blocks;
//   - a step that begins at a scheduling point no announcement named
//     (Op::unknown: the scheduler does not know what it does) against every step;
//   - through the allocator's reuse pool (kReusePool, a location of its own):
//     Relacy's allocator hands a freed block out again (a stack per size, shared
//     with earlier executions' blocks), so a free writes the pool, and so does an
//     allocation made while a block the code freed in this execution is waiting
//     (it may take it, and decide which later allocation does not); an
//     allocation with no such block waiting gets a block no pointer of this
//     execution ever held, and only reads the pool — it observed that no freed
//     block was waiting (scheduler.hpp, allocated). Two such fresh allocations of
//     different threads commute: each gets a block no one else can name, and the
//     search names blocks by allocator and number (scheduler.hpp), not by
//     address, so either order is the same execution. (This takes the code to use
//     a block's address as its identity only — compared for equality, never
//     ordered or hashed — as the canonical names already do.) Two frees, and a
//     free against any allocation, stay dependent: their order decides which
//     allocation reuses which block (ABA).
// Non-seq_cst fences change only the fencing thread's clocks: independent of all.
// A spin hint touches nothing (its await is handled by the scheduler).
//
// Cost: a step's footprint is a short list; dependence is O(|a|·|b|).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#include "sync/relacy_access.hpp"

namespace lfcheck::model::dpor {

constexpr unsigned kMaxThreads = 16;  // a scenario's threads, at most (ThreadMask bits)

// Everything the scheduler keeps lives outside Relacy's allocator (which would
// count it as the scenario's memory): std::malloc, as Relacy's own bookkeeping does.
template <class T>
struct RawAllocator {
  using value_type = T;
  RawAllocator() = default;
  template <class U>
  RawAllocator(const RawAllocator<U>&) {}
  T* allocate(std::size_t n) {
    if (void* p = std::malloc(n * sizeof(T))) return static_cast<T*>(p);
    throw std::bad_alloc();
  }
  void deallocate(T* p, std::size_t) { std::free(p); }
  friend bool operator==(const RawAllocator&, const RawAllocator&) { return true; }
};
template <class T>
using raw_vector = std::vector<T, RawAllocator<T>>;

// One access as the scheduler keeps it.
struct Touch {
  std::uintptr_t addr = 0;
  std::size_t size = 0;
  Op op = Op::load;
  bool seq_cst = false;
  std::uintptr_t other = 0;  // wait: its mutex

  bool writes() const {
    return op == Op::store || op == Op::rmw || op == Op::cell_store || op == Op::alloc || op == Op::free ||
           op == Op::lock || op == Op::unlock || op == Op::wait || op == Op::notify || op == Op::unknown;
  }
  // Only reads a location (an atomic's or a cell's value): everything else a step
  // may do — write, read-modify-write, lock, wait, notify, allocate, free, a
  // seq_cst fence, the unknown — changes something some thread can observe.
  bool only_reads() const { return op == Op::load || op == Op::cell_load; }
  bool memory() const { return op == Op::load || op == Op::store || op == Op::rmw || op == Op::cell_load || op == Op::cell_store; }
  bool block() const { return op == Op::alloc || op == Op::free; }
  bool sync_object() const { return op == Op::lock || op == Op::unlock || op == Op::wait || op == Op::notify; }
  bool covers(std::uintptr_t a) const { return a >= addr && a < addr + (size ? size : 1); }
};

// The allocator's reuse pool as a location (see above): bit 63 set, allocator
// field 127 — no canonical block name (allocators 0..16) and no user-space
// address has it, so no block covers it.
constexpr std::uintptr_t kReusePool = (std::uintptr_t(1) << 63) | (std::uintptr_t(0x7f) << 56);

// The pool touch an allocation or free adds to its step: a write where it may
// change what a later allocation gets (a free; an allocation made while a block
// freed in this execution was waiting), else a read.
inline Touch reuse_pool_touch(bool writes) {
  Touch t;
  t.addr = kReusePool;
  t.size = 1;
  t.op = writes ? Op::cell_store : Op::cell_load;
  return t;
}

// Whether [a, a + a_size) and [b, b + b_size) share a byte (a size 0 is 1 byte).
inline bool ranges_overlap(std::uintptr_t a, std::size_t a_size, std::uintptr_t b, std::size_t b_size) {
  return a < b + (b_size ? b_size : 1) && b < a + (a_size ? a_size : 1);
}
inline bool overlaps(const Touch& a, const Touch& b) { return ranges_overlap(a.addr, a.size, b.addr, b.size); }

// Whether a block's allocation or free `block` touches what `t` touches: its
// location, or the mutex of a wait.
inline bool inside(const Touch& block, const Touch& t) {
  return (t.addr && block.covers(t.addr)) || (t.other && block.covers(t.other));
}

inline bool dependent(const Touch& a, const Touch& b) {
  if (a.op == Op::unknown || b.op == Op::unknown) return true;
  if (a.op == Op::fence_seq_cst && b.op == Op::fence_seq_cst) return true;
  if (a.block() && b.block()) return overlaps(a, b);
  if (a.block()) return inside(a, b);
  if (b.block()) return inside(b, a);
  if (a.memory() && b.memory()) return a.addr == b.addr && (a.writes() || b.writes());
  if (a.sync_object() && b.sync_object())
    return a.addr == b.addr || (a.other && (a.other == b.addr || a.other == b.other)) ||
           (b.other && b.other == a.addr);
  return false;
}

// The accesses of one step.
struct Footprint {
  raw_vector<Touch> touches;

  void add(const Touch& t) {
    for (auto& u : touches)
      if (u.addr == t.addr && u.op == t.op && u.size == t.size && u.other == t.other) {
        u.seq_cst = u.seq_cst || t.seq_cst;
        return;
      }
    touches.push_back(t);
  }
  void merge(const Footprint& f) {
    for (auto& t : f.touches) add(t);
  }
  void clear() { touches.clear(); }
  bool empty() const { return touches.empty(); }
};

inline bool dependent(const Footprint& a, const Footprint& b) {
  for (auto& x : a.touches)
    for (auto& y : b.touches)
      if (dependent(x, y)) return true;
  return false;
}

}  // namespace lfcheck::model::dpor
