// The heap behind branchless_vs_branchy_heap: a binary min-heap of (when, seq)
// keys, written once and instantiated with two comparators that differ only in
// how they compute the order:
//   Branchless: lfcheck::compare_keys (structures/deliqueue/message.hpp), the
//     comparator DeliQueue uses: sign(Δwhen)*2 + sign(Δseq) from comparisons only.
//   Branchy: the obvious comparator with early returns (what a Java
//     compareTo usually looks like): when first, then seq, a branch per test.
// The heap's own code is the same for both and follows DeliQueue's sift loops
// (structures/deliqueue/deliqueue.hpp): a sift still branches on the result of
// each comparison; only the comparator's internal branches differ. Keys live in
// the array (no pointer chasing), as in DeliQueue's heap entries.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/bench_util.hpp"
#include "structures/deliqueue/message.hpp"

namespace lfcheck::bench {

struct Key {
  std::int64_t when;
  std::int64_t seq;
};

struct Branchless {
  static constexpr const char* name = "branchless";
  static int cmp(const Key& a, const Key& b) { return compare_keys(a.when, a.seq, b.when, b.seq); }
};

struct Branchy {
  static constexpr const char* name = "branchy";
  static int cmp(const Key& a, const Key& b) {
    if (a.when < b.when) return -1;
    if (a.when > b.when) return 1;
    if (a.seq < b.seq) return -1;
    if (a.seq > b.seq) return 1;
    return 0;
  }
};

template <class Cmp>
class KeyHeap {
 public:
  explicit KeyHeap(std::size_t cap) { a_.resize(cap); }
  std::size_t size() const { return n_; }
  void push(const Key& e) {
    std::size_t i = n_++;
    while (i > 0) {
      const std::size_t p = (i - 1) / 2;
      if (Cmp::cmp(e, a_[p]) >= 0) break;
      a_[i] = a_[p];
      i = p;
    }
    a_[i] = e;
  }
  Key pop() {
    const Key top = a_[0];
    const Key e = a_[--n_];
    std::size_t i = 0;
    for (;;) {
      std::size_t c = 2 * i + 1;
      if (c >= n_) break;
      if (c + 1 < n_ && Cmp::cmp(a_[c + 1], a_[c]) < 0) ++c;
      if (Cmp::cmp(a_[c], e) >= 0) break;
      a_[i] = a_[c];
      i = c;
    }
    a_[i] = e;
    return top;
  }

 private:
  std::vector<Key> a_;
  std::size_t n_ = 0;
};

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
    k[i] = {p == Pattern::random ? static_cast<std::int64_t>(rng.below(1ull << 40))
            : p == Pattern::ties ? static_cast<std::int64_t>(rng.below(16))
                                 : s,
            s};
  }
  return k;
}

// Pushes every key, then pops them all; returns a checksum of the pop order.
template <class Cmp>
[[gnu::flatten]] inline std::uint64_t push_all_pop_all(KeyHeap<Cmp>& h, const std::vector<Key>& keys) {
  for (const Key& k : keys) h.push(k);
  std::uint64_t sum = 0;
  while (h.size()) {
    const Key k = h.pop();
    sum = sum * 31 + static_cast<std::uint64_t>(k.seq);
  }
  return sum;
}

}  // namespace lfcheck::bench
