// A single-producer single-consumer ring of capacity 2 with waiting ends (structure
// "algorithms", scenario "spsc_ring"): the producer pushes 1, 2, 3, spinning while
// the ring is full; the consumer pops three times, spinning while it is empty, and
// must get 1, 2, 3 in that order. The slots are plain shared data (Sync::cell): a
// slot read or refilled without the synchronization of head and tail is a DATA RACE.
//
//   tail: written by the producer only (release: publishes the slot it filled)
//   head: written by the consumer only (release: hands the slot it read back)
//
// outcome(): got[0] * 16 + got[1] * 4 + got[2], the values popped in order
// (always 1*16 + 2*4 + 3 = 27 for a correct ring).
#include "harness/model_registry.hpp"
#include "models/selftest/algorithms/algorithm_faults.hpp"

namespace lfcheck::algorithms {

template <class Sync, AlgorithmFault F>
struct SpscRingScenario : ScenarioBase {
  static constexpr const char* name = "spsc_ring";
  static constexpr const char* description =
      "SPSC ring of capacity 2: producer pushes 3 (waits while full), consumer pops 3 (waits while empty)";
  static constexpr unsigned threads = 2;
  static constexpr unsigned kCapacity = 2;
  static constexpr int kItems = 3;

  typename Sync::template cell<int> slot[kCapacity];
  typename Sync::template atomic<unsigned> head{0}, tail{0};  // counts of pops and pushes
  int got[kItems] = {0, 0, 0};  // values popped, in order (harness-side)

  void push(int v) {
    const unsigned t = tail.load(std::memory_order_relaxed);  // relaxed: the producer is tail's only writer
    // acquire: pairs with pop()'s release of head: the consumer's read of the slot is done.
    while (t - head.load(std::memory_order_acquire) == kCapacity) Sync::spin_hint();
    slot[t % kCapacity].store(v);
    // FAULT spsc_ring_relaxed_publish breaks when the consumer reads the new tail and then
    // the slot: its read is unordered with this store of the slot (DATA RACE).
    tail.store(t + 1, F == AlgorithmFault::spsc_ring_relaxed_publish
                          ? std::memory_order_relaxed
                          : std::memory_order_release);  // release: pairs with pop()'s acquire load of tail
  }

  int pop() {
    const unsigned h = head.load(std::memory_order_relaxed);  // relaxed: the consumer is head's only writer
    // FAULT spsc_ring_relaxed_tail_load breaks when this load reads push()'s new tail: no
    // synchronization with push(), so the slot read below races with its store (DATA RACE).
    constexpr auto tail_order = F == AlgorithmFault::spsc_ring_relaxed_tail_load
                                    ? std::memory_order_relaxed
                                    : std::memory_order_acquire;  // acquire: pairs with push()'s release of tail
    while (tail.load(tail_order) == h) Sync::spin_hint();
    const int v = slot[h % kCapacity].load();
    // FAULT spsc_ring_relaxed_free breaks at the third push: the producer reads this head
    // and refills slot 0 while the consumer's read of item 1 from it is unordered with
    // that store (DATA RACE).
    head.store(h + 1, F == AlgorithmFault::spsc_ring_relaxed_free
                          ? std::memory_order_relaxed
                          : std::memory_order_release);  // release: pairs with push()'s acquire load of head
    return v;
  }

  void thread(unsigned i) {
    if (i == 0)
      for (int v = 1; v <= kItems; ++v) push(v);
    else
      for (int k = 0; k < kItems; ++k) got[k] = pop();
  }

  void after() {
    for (int k = 0; k < kItems; ++k) Sync::check(got[k] == k + 1, "the ring lost, invented or reordered an item");
  }

  std::uint64_t outcome() const { return static_cast<std::uint64_t>(got[0] * 16 + got[1] * 4 + got[2]); }
};

template <class Sync, AlgorithmFault F>
using SpscRing = SpscRingScenario<Sync, own_fault<AlgorithmFault::spsc_ring_relaxed_publish,
                                                  AlgorithmFault::spsc_ring_relaxed_tail_load,
                                                  AlgorithmFault::spsc_ring_relaxed_free>(F)>;
LFCHECK_MODEL(AlgorithmFault, SpscRing);

}  // namespace lfcheck::algorithms
