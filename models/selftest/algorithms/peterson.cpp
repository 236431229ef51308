// Peterson's lock (structure "algorithms", scenario "peterson"): two threads each
// enter the critical section once; the critical section increments a plain shared
// counter (a Sync::cell), so two threads inside at once are a DATA RACE.
//
// Peterson needs sequential consistency between a thread's stores of its flag and
// turn and its loads of the other's flag and turn (a store-buffering pattern):
// all four are seq_cst. Unlock only publishes the critical section: release.
//
// outcome(): thread 0's read of the counter * 2 + thread 1's (0 or 1 each: who
// entered first).
#include "harness/model_registry.hpp"
#include "models/selftest/algorithms/algorithm_faults.hpp"

namespace lfcheck::algorithms {

template <class Sync, AlgorithmFault F>
struct PetersonScenario : ScenarioBase {
  static constexpr const char* name = "peterson";
  static constexpr const char* description = "Peterson's lock: 2 threads each enter the critical section once";
  static constexpr unsigned threads = 2;
  // FAULT peterson_relaxed_flag breaks when both threads store flag and turn, then each
  // reads the other's flag as 0 (a release store need not be visible to an acquire load
  // of the other thread: store buffering) and both enter: the counter accesses race.
  static constexpr bool kRelaxed = F == AlgorithmFault::peterson_relaxed_flag;
  static constexpr std::memory_order kStore = kRelaxed ? std::memory_order_release : std::memory_order_seq_cst;
  static constexpr std::memory_order kLoad = kRelaxed ? std::memory_order_acquire : std::memory_order_seq_cst;

  typename Sync::template atomic<int> flag[2] = {typename Sync::template atomic<int>{0},
                                                 typename Sync::template atomic<int>{0}};
  typename Sync::template atomic<int> turn{0};
  typename Sync::template cell<int> counter{0};
  int entered_at[2] = {-1, -1};  // the counter each thread read inside (harness-side)

  void lock(unsigned me) {
    const unsigned other = 1 - me;
    flag[me].store(1, kStore);  // seq_cst: against the other thread's seq_cst load of this flag
    turn.store(static_cast<int>(other), kStore);  // seq_cst: one total order of the two turn stores and loads
    // seq_cst loads: see the other's flag and turn stores if they came first in the total order.
    while (flag[other].load(kLoad) == 1 && turn.load(kLoad) == static_cast<int>(other)) Sync::spin_hint();
  }

  void unlock(unsigned me) {
    // FAULT peterson_relaxed_unlock breaks when the other thread, waiting, reads this flag
    // as 0 from a relaxed store: it enters without synchronizing with this thread's
    // critical section, whose counter store then races with its own.
    flag[me].store(0, F == AlgorithmFault::peterson_relaxed_unlock
                          ? std::memory_order_relaxed
                          : std::memory_order_release);  // release: pairs with the other's load in lock()
  }

  void thread(unsigned me) {
    lock(me);
    const int c = counter.load();
    entered_at[me] = c;
    counter.store(c + 1);
    unlock(me);
  }

  void after() { Sync::check(counter.load() == 2, "an increment inside the critical section was lost"); }

  std::uint64_t outcome() const { return static_cast<std::uint64_t>(entered_at[0] * 2 + entered_at[1]); }
};

template <class Sync, AlgorithmFault F>
using Peterson =
    PetersonScenario<Sync, own_fault<AlgorithmFault::peterson_relaxed_flag, AlgorithmFault::peterson_relaxed_unlock>(F)>;
LFCHECK_MODEL(AlgorithmFault, Peterson);

}  // namespace lfcheck::algorithms
