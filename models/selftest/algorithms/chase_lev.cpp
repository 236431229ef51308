// A Chase-Lev work-stealing deque (structure "algorithms", scenario "chase_lev"),
// the fixed-size version of Lê, Pop, Cohen, Zappa Nardelli, "Correct and efficient
// work-stealing for weak memory models" (PPoPP 2013, figure 1, without resize):
// the owner pushes 1 and 2 and takes twice; one thief steals twice (an ABORT, a
// lost CAS race, counts as one of its attempts: no retry loop, so the scenario is
// loop-free). Every pushed item must be taken exactly once, and nothing else.
//
// Indices are signed (int), as in Chase and Lev's original: with the paper's size_t,
// take() on an empty deque at bottom 0 computes b = SIZE_MAX and reads a slot.
// Slots are relaxed atomics, as in the paper, with no initial store: a slot read
// before the owner's store of it is Relacy's ACCESS TO UNINITIALIZED VARIABLE.
//
// outcome(): taken[0] * 64 + taken[1] * 16 + stolen[0] * 4 + stolen[1], each 0
// (empty), 1 or 2 (the item), or 3 (abort).
#include "harness/model_registry.hpp"
#include "models/selftest/algorithms/algorithm_faults.hpp"

namespace lfcheck::algorithms {

template <class Sync, AlgorithmFault F>
struct ChaseLevScenario : ScenarioBase {
  static constexpr const char* name = "chase_lev";
  static constexpr const char* description =
      "Chase-Lev deque (Le et al. 2013): owner pushes 2 and takes 2, one thief steals twice";
  static constexpr unsigned threads = 2;
  static constexpr int kSize = 4;
  static constexpr int kEmpty = 0, kAbort = 3;

  typename Sync::template atomic<int> top{0}, bottom{0};
  typename Sync::template atomic<int> buffer[kSize];  // no initial store: see above
  int taken[2] = {-1, -1}, stolen[2] = {-1, -1};      // results (harness-side)

  void push(int x) {
    const int b = bottom.load(std::memory_order_relaxed);  // relaxed: the owner is bottom's only writer
    const int t = top.load(std::memory_order_acquire);     // acquire: pairs with the CAS that freed slots
    Sync::check(b - t < kSize, "deque full (the scenario is sized never to fill it)");
    buffer[b % kSize].store(x, std::memory_order_relaxed);  // relaxed: published by the fence below
    // FAULT chase_lev_relaxed_publish breaks when a thief's acquire load reads b + 1: with
    // no release fence it is not ordered after the slot store, and reads the slot from
    // before it (uninitialized).
    if constexpr (F != AlgorithmFault::chase_lev_relaxed_publish)
      Sync::fence(std::memory_order_release);  // release: pairs with steal()'s acquire load of bottom
    bottom.store(b + 1, std::memory_order_relaxed);  // relaxed: ordered by the fence above
  }

  int take() {
    const int b = bottom.load(std::memory_order_relaxed) - 1;  // relaxed: the owner is bottom's only writer
    bottom.store(b, std::memory_order_relaxed);  // relaxed: ordered before the top load by the fence
    // FAULT chase_lev_take_fence_missing breaks when the thief has stolen item 1 (top 1) and
    // begun a second steal whose bottom load read 2 before this store: the owner, not
    // ordered after the first steal's CAS, reads top as 0, sees two items and takes slot 1
    // without a CAS while the thief's CAS 1 -> 2 succeeds: item 2 taken twice.
    if constexpr (F != AlgorithmFault::chase_lev_take_fence_missing)
      Sync::fence(std::memory_order_seq_cst);  // seq_cst: against steal()'s fence (store buffering)
    int t = top.load(std::memory_order_relaxed);  // relaxed: ordered by the fence
    int x = kEmpty;
    if (t <= b) {
      x = buffer[b % kSize].load(std::memory_order_relaxed);  // relaxed: the owner's own store
      if (t == b) {
        // seq_cst: the race for the last item against steal()'s CAS; failure relaxed: x is dropped.
        if (!top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed))
          x = kEmpty;
        bottom.store(b + 1, std::memory_order_relaxed);  // relaxed: the deque is empty either way
      }
    } else {
      bottom.store(b + 1, std::memory_order_relaxed);  // relaxed: undoes the decrement; empty
    }
    return x;
  }

  int steal() {
    int t = top.load(std::memory_order_acquire);  // acquire: pairs with an earlier CAS of top
    // FAULT chase_lev_steal_fence_missing breaks when the thief, having stolen item 1, reads
    // top 1 and then bottom as 2, although the owner's take already stored 1 and read top
    // as 0 (nothing orders the thief's loads against take's fence): both take slot 1.
    if constexpr (F != AlgorithmFault::chase_lev_steal_fence_missing)
      Sync::fence(std::memory_order_seq_cst);  // seq_cst: against take()'s fence (store buffering)
    const int b = bottom.load(std::memory_order_acquire);  // acquire: pairs with push()'s release fence
    if (t >= b) return kEmpty;
    const int x = buffer[t % kSize].load(std::memory_order_relaxed);  // relaxed: ordered by the bottom load
    // seq_cst: the race for item t against take()'s CAS and other steals; failure relaxed.
    if (!top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed)) return kAbort;
    return x;
  }

  void thread(unsigned i) {
    if (i == 0) {
      push(1);
      push(2);
      taken[0] = take();
      taken[1] = take();
    } else {
      stolen[0] = steal();
      stolen[1] = steal();
    }
  }

  void after() {
    const int got[] = {taken[0], taken[1], stolen[0], stolen[1]};
    int count[3] = {0, 0, 0};
    for (int x : got) {
      Sync::check(x == kEmpty || x == kAbort || x == 1 || x == 2, "a take or steal returned a value never pushed");
      if (x == 1 || x == 2) ++count[x];
    }
    Sync::check(count[1] == 1 && count[2] == 1, "a pushed item was taken twice or never");
  }

  std::uint64_t outcome() const {
    return static_cast<std::uint64_t>(taken[0] * 64 + taken[1] * 16 + stolen[0] * 4 + stolen[1]);
  }
};

template <class Sync, AlgorithmFault F>
using ChaseLev = ChaseLevScenario<Sync, own_fault<AlgorithmFault::chase_lev_take_fence_missing,
                                                  AlgorithmFault::chase_lev_steal_fence_missing,
                                                  AlgorithmFault::chase_lev_relaxed_publish>(F)>;
LFCHECK_MODEL(AlgorithmFault, ChaseLev);

}  // namespace lfcheck::algorithms
