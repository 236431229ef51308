// Every execution starts with Relacy's deferred frees handed back: an execution's
// allocator behaviour then depends on its own choices only (internal to the runner
// library, harness/model/run.cpp).
//
// Why: Relacy's allocator (rl::memory_mgr, relacy/memory.hpp) keeps one free list per
// block size, and a free that the scheduler chooses to defer goes into a ring of 64
// slots instead; the block it displaces from the ring — the one deferred 64 deferrals
// earlier — goes on its free list then. The ring lives as long as the simulation, not
// the execution. So once a search had made 64 deferrals, a deferral in one execution
// pushes a block of an *earlier* execution onto the free list, and the next allocation
// of that size gets it instead of a block this execution freed: whether an allocation
// reuses a block freed in its own execution (ABA, a `freed == allocated` check)
// depended on how many executions came before. Two searches of one scenario then
// differed in outcomes through their order alone (the DPOR fuzzer's finding F8),
// a replayed execution could take other blocks than the one it replays (a failure re-
// run alone starts with an empty ring), and DPOR's reuse-pool rule (a deferral keeps
// the block from this execution's later allocations) was only true in a search's first
// 64 deferrals.
//
// Flushed at each execution's start, a deferral keeps its block out of reuse for the
// rest of the execution (unless the execution itself defers 64 more), and a block on a
// free list at an execution's start is one no pointer of the execution holds: fresh.
//
// Relacy keeps the ring private and offers no way to empty it; its members are reached
// as the standard allows for names in an explicit instantiation ([temp.spec.general]:
// access is not checked there), and a C-style cast reaches Relacy's context through
// its private base. If Relacy's layout changed (another ring size, a renamed member),
// this would not compile: nothing here can silently do nothing.
#pragma once

#include <cstddef>

#include "sync/relacy_sync.hpp"

namespace lfcheck::model::relacy_allocator {

constexpr std::size_t kDeferredSlots = 64;  // rl::memory_mgr::deferred_count

// reached(Tag{}) returns the pointer to member the explicit instantiation below names.
template <class Tag, typename Tag::type Member>
struct Reach {
  friend typename Tag::type reached(Tag) { return Member; }
};
struct DeferredBlocks {
  using type = void* (rl::memory_mgr::*)[kDeferredSlots];
  friend type reached(DeferredBlocks);
};
struct DeferredSizes {
  using type = std::size_t (rl::memory_mgr::*)[kDeferredSlots];
  friend type reached(DeferredSizes);
};
struct DeferredIndex {
  using type = std::size_t rl::memory_mgr::*;
  friend type reached(DeferredIndex);
};
struct FreeBlock {
  using type = void (rl::memory_mgr::*)(void*, std::size_t);
  friend type reached(FreeBlock);
};
template struct Reach<DeferredBlocks, &rl::memory_mgr::deferred_free_>;
template struct Reach<DeferredSizes, &rl::memory_mgr::deferred_free_size_>;
template struct Reach<DeferredIndex, &rl::memory_mgr::deferred_index_>;
template struct Reach<FreeBlock, &rl::memory_mgr::rl_free_impl>;

// The allocator of the context type Context (rl::context_impl<Test, Scheduler>).
template <class Context>
struct ContextMemory {
  using type = rl::memory_mgr Context::*;
  friend type reached(ContextMemory);
};

// Hands every block waiting in the ring back to its free list and empties the ring.
// Call between executions (or at an execution's start, before the scenario
// allocates): `Context` must be the type of rl::ctx(), with ContextMemory<Context>
// reached by an explicit instantiation of Reach in the runner (run.cpp).
//
// Which slots wait: deferral number i (from 0) goes into slot i % 64, and then
// hands back the block in slot (i + 1) % 64 without clearing the slot. So after k
// deferrals the slot k % 64 holds a block already handed back (or nothing, while
// k < 64): it is skipped — handing it back again would put one block twice on its
// free list, and two allocations would get it (a DOUBLE FREE later; seen when this
// flush first handed back every slot: lin.model.removal under pct).
template <class Context>
void flush_deferred_frees() {
  Context& context = (Context&)rl::ctx();  // C-style: Relacy's context derives privately from rl::context
  rl::memory_mgr& memory = context.*reached(ContextMemory<Context>{});
  void* (&blocks)[kDeferredSlots] = memory.*reached(DeferredBlocks{});
  std::size_t (&sizes)[kDeferredSlots] = memory.*reached(DeferredSizes{});
  std::size_t& deferrals = memory.*reached(DeferredIndex{});
  const std::size_t handed_back = deferrals % kDeferredSlots;
  for (std::size_t i = 0; i < kDeferredSlots; ++i) {
    if (blocks[i] && i != handed_back) (memory.*reached(FreeBlock{}))(blocks[i], sizes[i]);
    blocks[i] = nullptr;
    sizes[i] = 0;
  }
  deferrals = 0;
}

}  // namespace lfcheck::model::relacy_allocator
