// A seqlock (structure "algorithms", scenario "seqlock"): one writer publishes two
// versions of a 2-word payload under a sequence counter; two readers each retry
// until they get a consistent snapshot. Orders and fences are those of Boehm, "Can
// seqlocks get along with programming language memory models?" (MSPC 2012), the
// version with an acquire fence in the reader and relaxed atomic payload words:
//
//   writer: s = seq; seq = s+1 (relaxed); fence(release); payload (relaxed);
//           seq = s+2 (release)
//   reader: s1 = seq (acquire); payload (relaxed); fence(acquire);
//           s2 = seq (relaxed); retry unless s1 == s2 and s1 is even
//
// A reader's snapshot must be exactly the payload of version s1 / 2 (version v
// writes (v, v); the initial payload is version 0): not torn, and the version its
// stable sequence names, as the fences guarantee.
//
// outcome(): reader 0's version * 3 + reader 1's version (each 0, 1 or 2).
#include "harness/model_registry.hpp"
#include "models/selftest/algorithms/algorithm_faults.hpp"

namespace lfcheck::algorithms {

template <class Sync, AlgorithmFault F>
struct SeqlockScenario : ScenarioBase {
  static constexpr const char* name = "seqlock";
  static constexpr const char* description =
      "1 writer publishing a version of a 2-word payload, 2 readers retrying until consistent (Boehm 2012)";
  static constexpr unsigned threads = 3;
  static constexpr int kVersions = 1;

  typename Sync::template atomic<unsigned> seq{0};
  typename Sync::template atomic<int> word0{0}, word1{0};
  int seen[2] = {-1, -1};  // each reader's snapshot version (harness-side bookkeeping)

  void write(int v) {
    const unsigned s = seq.load(std::memory_order_relaxed);  // relaxed: the writer is seq's only writer
    // relaxed: the release fence below orders it before the payload stores.
    seq.store(s + 1, std::memory_order_relaxed);
    // FAULT seqlock_writer_fence_missing breaks when a reader reads the old even seq, then
    // payload words of this write (both, or word0 new and word1 still old), and — nothing
    // ordering the odd seq before the payload stores — re-reads seq as the old even value:
    // it accepts version v (or a torn mix) under the sequence of version v-1.
    if constexpr (F != AlgorithmFault::seqlock_writer_fence_missing)
      Sync::fence(std::memory_order_release);  // release: pairs with the reader's acquire fence
    word0.store(v, std::memory_order_relaxed);  // relaxed: ordered by the fences and seq
    word1.store(v, std::memory_order_relaxed);
    // FAULT seqlock_relaxed_publish breaks when a reader's acquire load reads s+2 and then
    // reads payload words from before this write: (v, v-1) or (v-1, v-1) under version v.
    seq.store(s + 2, F == AlgorithmFault::seqlock_relaxed_publish
                         ? std::memory_order_relaxed
                         : std::memory_order_release);  // release: pairs with the reader's acquire load of seq
  }

  int read() {
    for (;;) {
      const unsigned s1 = seq.load(std::memory_order_acquire);  // acquire: pairs with write()'s release store
      const int a = word0.load(std::memory_order_relaxed);      // relaxed: ordered by the fences and seq
      const int b = word1.load(std::memory_order_relaxed);
      // FAULT seqlock_reader_fence_missing breaks when a write is in progress (odd seq and
      // payload stored): the reader reads the old even seq, payload words of that write
      // (both, or word0 old and word1 new), and — its loads not ordered before the re-read —
      // reads seq as the old even value again: version v (or a torn mix) accepted as v-1.
      if constexpr (F != AlgorithmFault::seqlock_reader_fence_missing)
        Sync::fence(std::memory_order_acquire);  // acquire: pairs with write()'s release fence
      const unsigned s2 = seq.load(std::memory_order_relaxed);  // relaxed: ordered by the fence above
      if (s1 % 2 == 0 && s1 == s2) {
        Sync::check(a == b, "seqlock reader returned a torn snapshot (payload words of two versions)");
        Sync::check(a == static_cast<int>(s1 / 2), "seqlock reader returned another version than its sequence names");
        return a;
      }
      Sync::spin_hint();  // a write was in progress: retry
    }
  }

  void thread(unsigned i) {
    if (i == 0)
      for (int v = 1; v <= kVersions; ++v) write(v);
    else
      seen[i - 1] = read();
  }

  std::uint64_t outcome() const { return static_cast<std::uint64_t>(seen[0] * 3 + seen[1]); }
};

template <class Sync, AlgorithmFault F>
using Seqlock = SeqlockScenario<Sync, own_fault<AlgorithmFault::seqlock_reader_fence_missing,
                                                AlgorithmFault::seqlock_writer_fence_missing,
                                                AlgorithmFault::seqlock_relaxed_publish>(F)>;
LFCHECK_MODEL(AlgorithmFault, Seqlock);

}  // namespace lfcheck::algorithms
