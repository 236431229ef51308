// The heap behind branchless_vs_branchy_heap: DeliQueue's own message heap
// (lfcheck::DaryHeap, structures/timers/dary_heap.hpp, 4-ary, keys stored as
// QueueKey = (when, seq biased by 2^63) exactly as DeliQueue stores them),
// instantiated with two orders that differ only in how "a before b" is computed:
//   Branchless: lfcheck::key_less (structures/deliqueue/message.hpp), the order
//     DeliQueue's heaps use: one 128-bit comparison, flag arithmetic (cmp, sbb,
//     setl/cmovl), no branch.
//   Branchy: the obvious comparator with early returns (what a Java compareTo
//     usually looks like), used as compareTo(a, b) < 0: when first, then seq, a
//     branch per test.
// Everything else is the same code for both: the heap's sifts, its
// branch-free pick of the smallest child (so each comparator's own branches are
// what differs), the keys (the same QueueKey array), the work (push all, pop all).
// Keys live in the heap (no pointer chasing), as in DeliQueue's heaps; the heap
// has no value array and no position tracking (NoValue, no-op hooks).
#pragma once

#include <cstdint>
#include <vector>

#include "bench/bench_util.hpp"
#include "structures/deliqueue/message.hpp"
#include "structures/timers/dary_heap.hpp"

namespace lfcheck::bench {

using Key = QueueKey;

struct Branchless {
  static constexpr const char* name = "branchless";
  static bool less(const Key& a, const Key& b) { return key_less(a, b); }
};

struct Branchy {
  static constexpr const char* name = "branchy";
  static int cmp(const Key& a, const Key& b) {
    if (a.when < b.when) return -1;
    if (a.when > b.when) return 1;
    if (a.seq_order < b.seq_order) return -1;
    if (a.seq_order > b.seq_order) return 1;
    return 0;
  }
  static bool less(const Key& a, const Key& b) { return cmp(a, b) < 0; }
};

// The heap policy: Cmp's order; nothing to track.
template <class Cmp>
struct KeyOnly {
  static bool less(const Key& a, const Key& b) { return Cmp::less(a, b); }
  static void placed(const Key&, NoValue, std::uint32_t) {}
  static void removed(const Key&, NoValue) {}
  static bool placed_at(const Key&, NoValue, std::uint32_t) { return true; }
};
inline constexpr unsigned kDeliQueueArity = 4;  // DeliQueue's kHeapArity
template <class Cmp>
using KeyHeap = DaryHeap<StdSync, kDeliQueueArity, Key, NoValue, KeyOnly<Cmp>>;

// Key patterns. random: random when, seq = arrival order (the usual post).
// ties: when drawn from 16 values, so most comparisons are decided by seq
// (many posts with the same when). sorted: when = arrival order (posts with
// increasing delays) — the branch predictor's best case.
enum class Pattern { random, ties, sorted };
inline const char* pattern_name(Pattern p) {
  return p == Pattern::random ? "random" : p == Pattern::ties ? "ties" : "sorted";
}
inline std::vector<Key> make_keys(Pattern p, std::size_t n) {
  Rng rng(11);
  std::vector<Key> k(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto s = static_cast<std::int64_t>(i);
    k[i] = Key::of(p == Pattern::random ? static_cast<std::int64_t>(rng.below(1ull << 40))
                   : p == Pattern::ties ? static_cast<std::int64_t>(rng.below(16))
                                        : s,
                   s);
  }
  return k;
}

// Pushes every key, then pops them all; returns a checksum of the pop order.
template <class Cmp>
[[gnu::flatten]] inline std::uint64_t push_all_pop_all(KeyHeap<Cmp>& h, const std::vector<Key>& keys) {
  for (const Key& k : keys) h.push(k, NoValue{});
  std::uint64_t sum = 0;
  while (h.size()) {
    const Key k = h.key(0);
    h.remove_at(0);
    sum = sum * 31 + k.seq_order;
  }
  return sum;
}

}  // namespace lfcheck::bench
