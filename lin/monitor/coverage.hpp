// How many values are certainly present in each slot (lin/monitor/timeline.hpp), and the
// slots where none is.
//
// A value is certainly present between its first response and its last invocation: an
// operation of it returned before that time and another was invoked after it, and all of a
// value's operations take effect within its life (insert first, remove last), so no
// linearization can have it absent there. Those slots are its critical range
// (critical_range below; empty when some invocation of it comes no later than its first
// response). Every monitor asks where no value, or no value but one, or no smaller value,
// is certainly present: a remove_empty must take effect in a slot where no value is; a
// stack's bottom value must be pushed and popped where no other value is (Lee & Mathur,
// "Efficient Decrease-and-Conquer Linearizability Monitoring": an empty operation needs a
// time at which the values split into those entirely before and those entirely after it).
//
// Coverage: a segment tree with range add and, per node, the minimum count:
// first_zero / last_zero / zero_runs find the uncovered slots of a range.
//  - Built from the list of ranges it will ever be given (Coverage(slots, ranges)), its
//    leaves are the stretches of slots between the ranges' ends (every slot of a stretch
//    always has the same count), not the slots: a 1,000,000-call history has 4,000,000
//    slots but about 1,000,000 stretches. add() then takes only those ranges (any other
//    throws std::logic_error); a slot's stretch is one array read.
//  - Coverage(slots) has one leaf per slot and takes any range.
// Its nodes are laid out in pre-order (a node's left child follows it, its right child
// follows the left subtree), so every subtree is one contiguous block and the last levels
// of a descent share cache lines (a tree laid out by levels missed the cache at nearly
// every one of its last levels).
// Cost: O(m + r) to build from r ranges over m slots, O(log e) per add and per first/last
// query for e leaves; zero_runs O((k+1) log e) for k zero leaves.
// Memory: 2e - 1 nodes of two ints, and (built from ranges) two ints per slot.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "lin/monitor/timeline.hpp"

namespace lfcheck::lin::monitors {

// The slots where a value whose first response is in slot `first_response` and whose
// last invocation is in slot `last_invoke` is certainly present: strictly after the one,
// strictly before the other. Empty (lo > hi) when none.
inline Span critical_range(std::uint32_t first_response, std::uint32_t last_invoke) {
  if (last_invoke < first_response + 2) return {1, 0};
  return {first_response + 1, last_invoke - 1};
}

inline bool empty(Span s) { return s.lo > s.hi; }

class Coverage {
 public:
  explicit Coverage(std::uint32_t slots) : n_(std::max<std::uint32_t>(slots, 1)), leaves_(n_), nodes_(2 * n_ - 1) {}
  // The same counts as Coverage(slots) after add(r, +1) for each of `ranges`, built in
  // O(m + r); add() then takes only these ranges.
  Coverage(std::uint32_t slots, const std::vector<Span>& ranges) : n_(std::max<std::uint32_t>(slots, 1)) {
    std::vector<int> change(n_ + 1, 0);  // +1 at a range's lo, -1 past its hi
    std::vector<char> starts(n_, 0);     // a stretch starts at slot 0 and at every range's ends
    starts[0] = 1;
    for (const Span r : ranges)
      if (!empty(r) && r.lo < n_) {
        const std::uint32_t hi = std::min(r.hi, n_ - 1);
        ++change[r.lo];
        --change[hi + 1];
        starts[r.lo] = 1;
        if (hi + 1 < n_) starts[hi + 1] = 1;
      }
    leaf_of_.resize(n_);
    std::vector<int> count;  // per stretch
    int running = 0;
    for (std::uint32_t s = 0; s < n_; ++s) {
      running += change[s];
      if (starts[s]) {
        first_slot_.push_back(s);
        count.push_back(running);
      }
      leaf_of_[s] = static_cast<std::uint32_t>(first_slot_.size() - 1);
    }
    leaves_ = static_cast<std::uint32_t>(first_slot_.size());
    nodes_.resize(2 * leaves_ - 1);
    build(0, 0, leaves_ - 1, count);
  }

  // Adds delta to every slot of r (nothing if r is empty).
  void add(Span r, int delta) {
    if (empty(r) || r.lo >= n_) return;
    const std::uint32_t hi = std::min(r.hi, n_ - 1), a = leaf(r.lo), b = leaf(hi);
    if (first_slot(a) != r.lo || last_slot(b) != hi)
      throw std::logic_error("Coverage::add: a range that was not given to the constructor");
    add(0, 0, leaves_ - 1, a, b, delta);
  }
  int at(std::uint32_t slot) const { return point(0, 0, leaves_ - 1, leaf(slot), 0); }

  // The first / last slot of r with count zero.
  std::optional<std::uint32_t> first_zero(Span r) const {
    if (empty(r) || r.lo >= n_) return std::nullopt;
    const std::uint32_t hi = std::min(r.hi, n_ - 1);
    const auto k = find(0, 0, leaves_ - 1, leaf(r.lo), leaf(hi), 0, true);
    if (!k) return std::nullopt;
    return std::max(first_slot(*k), r.lo);
  }
  std::optional<std::uint32_t> last_zero(Span r) const {
    if (empty(r) || r.lo >= n_) return std::nullopt;
    const std::uint32_t hi = std::min(r.hi, n_ - 1);
    const auto k = find(0, 0, leaves_ - 1, leaf(r.lo), leaf(hi), 0, false);
    if (!k) return std::nullopt;
    return std::min(last_slot(*k), hi);
  }
  // Calls f(run) for every maximal run of slots of r with count zero (a Span within r), in
  // order (one descent: the subtrees with no zero in them are not entered).
  template <class F>
  void zero_runs(Span r, F&& f) const {
    if (empty(r) || r.lo >= n_) return;
    const std::uint32_t hi = std::min(r.hi, n_ - 1);
    Span run{1, 0};  // the run so far (empty: none)
    zeros(0, 0, leaves_ - 1, leaf(r.lo), leaf(hi), 0, [&](std::uint32_t k) {
      const Span slots{std::max(first_slot(k), r.lo), std::min(last_slot(k), hi)};
      if (!empty(run) && run.hi + 1 == slots.lo) {
        run.hi = slots.hi;
        return;
      }
      if (!empty(run)) f(run);
      run = slots;
    });
    if (!empty(run)) f(run);
  }

 private:
  struct Node {
    int min = 0;  // min over the node's leaves, its own add included, its ancestors' not
    int add = 0;  // added to every leaf of the node
  };
  // A slot's leaf, and a leaf's slots (one leaf per slot unless built from ranges).
  std::uint32_t leaf(std::uint32_t slot) const { return leaf_of_.empty() ? slot : leaf_of_[slot]; }
  std::uint32_t first_slot(std::uint32_t k) const { return first_slot_.empty() ? k : first_slot_[k]; }
  std::uint32_t last_slot(std::uint32_t k) const { return k + 1 < leaves_ ? first_slot(k + 1) - 1 : n_ - 1; }

  // Pre-order: the node of leaves [l, r] with middle m has its left child ([l, m]) next and
  // its right child after the left subtree's 2 (m - l + 1) - 1 nodes.
  static std::uint32_t left(std::uint32_t node) { return node + 1; }
  static std::uint32_t right(std::uint32_t node, std::uint32_t l, std::uint32_t m) { return node + 2 * (m - l + 1); }
  static std::uint32_t middle(std::uint32_t l, std::uint32_t r) { return l + (r - l) / 2; }

  void build(std::uint32_t node, std::uint32_t l, std::uint32_t r, const std::vector<int>& count) {
    if (l == r) {
      nodes_[node].min = count[l];
      return;
    }
    const std::uint32_t m = middle(l, r);
    build(left(node), l, m, count);
    build(right(node, l, m), m + 1, r, count);
    nodes_[node].min = std::min(nodes_[left(node)].min, nodes_[right(node, l, m)].min);
  }
  void add(std::uint32_t node, std::uint32_t l, std::uint32_t r, std::uint32_t a, std::uint32_t b, int d) {
    if (b < l || r < a) return;
    if (a <= l && r <= b) {
      nodes_[node].min += d;
      nodes_[node].add += d;
      return;
    }
    const std::uint32_t m = middle(l, r);
    add(left(node), l, m, a, b, d);
    add(right(node, l, m), m + 1, r, a, b, d);
    nodes_[node].min = std::min(nodes_[left(node)].min, nodes_[right(node, l, m)].min) + nodes_[node].add;
  }
  int point(std::uint32_t node, std::uint32_t l, std::uint32_t r, std::uint32_t k, int above) const {
    if (l == r) return nodes_[node].min + above;
    const std::uint32_t m = middle(l, r);
    const int below = above + nodes_[node].add;
    return k <= m ? point(left(node), l, m, k, below) : point(right(node, l, m), m + 1, r, k, below);
  }
  // The first (or last) leaf in [a, b] whose count is zero; `above` is the sum of the adds
  // of this node's ancestors.
  std::optional<std::uint32_t> find(std::uint32_t node, std::uint32_t l, std::uint32_t r, std::uint32_t a,
                                    std::uint32_t b, int above, bool first) const {
    if (b < l || r < a || nodes_[node].min + above > 0) return std::nullopt;
    if (l == r) return l;
    const std::uint32_t m = middle(l, r);
    const int below = above + nodes_[node].add;
    if (first) {
      if (auto z = find(left(node), l, m, a, b, below, true)) return z;
      return find(right(node, l, m), m + 1, r, a, b, below, true);
    }
    if (auto z = find(right(node, l, m), m + 1, r, a, b, below, false)) return z;
    return find(left(node), l, m, a, b, below, false);
  }
  template <class F>
  void zeros(std::uint32_t node, std::uint32_t l, std::uint32_t r, std::uint32_t a, std::uint32_t b, int above,
             const F& f) const {
    if (b < l || r < a || nodes_[node].min + above > 0) return;
    if (l == r) {
      f(l);
      return;
    }
    const std::uint32_t m = middle(l, r);
    const int below = above + nodes_[node].add;
    zeros(left(node), l, m, a, b, below, f);
    zeros(right(node, l, m), m + 1, r, a, b, below, f);
  }

  std::uint32_t n_;                      // slots
  std::uint32_t leaves_ = 0;             // leaves of the tree
  std::vector<std::uint32_t> leaf_of_;   // per slot: its leaf (empty: the slot itself)
  std::vector<std::uint32_t> first_slot_;  // per leaf: its first slot (empty: the leaf itself)
  std::vector<Node> nodes_;
};

}  // namespace lfcheck::lin::monitors
