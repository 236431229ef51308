// A fixed set of spans of slots 0..m-1 (each with an id), asked which of them meet a given
// span.
//
// The spans are sorted by lo (a counting sort: lo is a slot), and a table gives, per slot s,
// how many spans start before s; a segment tree over that order keeps the largest hi of
// each range of it. The spans meeting [a, b] are those among the first k (lo <= b: one read
// of the table) whose hi >= a: the tree is descended only into ranges whose largest hi
// reaches a.
// Cost: O(n + m) to build; O((k+1) log n) per query for k spans reported. Memory: three
// words per span, one per slot.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lin/monitor/timeline.hpp"

namespace lfcheck::lin::monitors {

class IntervalIndex {
 public:
  struct Entry {
    Span span;
    std::uint32_t id;
  };

  // Every entry's span.lo is a slot below `slots`.
  IntervalIndex(const std::vector<Entry>& entries, std::uint32_t slots)
      : n_(static_cast<std::uint32_t>(entries.size())), starting_before_(std::size_t{slots} + 1, 0) {
    for (const Entry& e : entries) ++starting_before_[e.span.lo + 1];
    for (std::uint32_t s = 0; s < slots; ++s) starting_before_[s + 1] += starting_before_[s];
    entries_.resize(n_);
    std::vector<std::uint32_t> next(starting_before_.begin(), starting_before_.end() - 1);
    for (const Entry& e : entries) entries_[next[e.span.lo]++] = e;
    max_hi_.assign(2 * std::max<std::uint32_t>(n_, 1), 0);
    if (n_ > 0) build(1, 0, n_ - 1);
  }

  // Calls f(id) for every span that shares a slot with q.
  template <class F>
  void meeting(Span q, F&& f) const {
    if (n_ == 0 || q.lo > q.hi) return;
    // The first k entries have lo <= q.hi.
    const std::uint32_t k = starting_before_[std::min<std::size_t>(q.hi, starting_before_.size() - 2) + 1];
    if (k > 0) report(1, 0, n_ - 1, k - 1, q.lo, f);
  }

 private:
  // A tree over n leaves in 2n - 1 nodes: the node of [l, r] is 1-based in-order
  // (left subtree first), so no 4n array is needed.
  std::uint32_t build(std::uint32_t node, std::uint32_t l, std::uint32_t r) {
    if (l == r) return max_hi_[node] = entries_[l].span.hi;
    const std::uint32_t m = l + (r - l) / 2;
    const std::uint32_t left = node + 1, right = node + 2 * (m - l + 1);
    return max_hi_[node] = std::max(build(left, l, m), build(right, m + 1, r));
  }
  template <class F>
  void report(std::uint32_t node, std::uint32_t l, std::uint32_t r, std::uint32_t last, std::uint32_t at_least,
              F& f) const {
    if (l > last || max_hi_[node] < at_least) return;
    if (l == r) {
      f(entries_[l].id);
      return;
    }
    const std::uint32_t m = l + (r - l) / 2;
    report(node + 1, l, m, last, at_least, f);
    report(node + 2 * (m - l + 1), m + 1, r, last, at_least, f);
  }

  std::uint32_t n_;
  std::vector<std::uint32_t> starting_before_;  // per slot s (and one past the last): entries with lo < s
  std::vector<Entry> entries_;                  // by lo
  std::vector<std::uint32_t> max_hi_;
};

}  // namespace lfcheck::lin::monitors
