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
// Coverage: a segment tree over the slots with range add and, per node, the minimum
// count: first_zero / last_zero / each_zero find the uncovered slots of a range.
// Cost: O(log m) per add and per first/last query for m slots; each_zero O((k+1) log m)
// for k zero slots. Memory: two ints per tree node (4m).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
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
  explicit Coverage(std::uint32_t slots) : n_(std::max<std::uint32_t>(slots, 1)), min_(4 * n_, 0), add_(4 * n_, 0) {}

  // Adds delta to every slot of r (nothing if r is empty).
  void add(Span r, int delta) {
    if (!empty(r)) add(1, 0, n_ - 1, r.lo, std::min(r.hi, n_ - 1), delta);
  }
  int at(std::uint32_t slot) const { return point(1, 0, n_ - 1, slot, 0); }

  // The first / last slot of r with count zero.
  std::optional<std::uint32_t> first_zero(Span r) const {
    if (empty(r) || r.lo >= n_) return std::nullopt;
    return find(1, 0, n_ - 1, r.lo, std::min(r.hi, n_ - 1), 0, true);
  }
  std::optional<std::uint32_t> last_zero(Span r) const {
    if (empty(r) || r.lo >= n_) return std::nullopt;
    return find(1, 0, n_ - 1, r.lo, std::min(r.hi, n_ - 1), 0, false);
  }
  // Calls f(slot) for every slot of r with count zero, in order.
  template <class F>
  void each_zero(Span r, F&& f) const {
    for (std::uint32_t from = r.lo; !empty(r) && from <= r.hi;) {
      const auto z = first_zero({from, r.hi});
      if (!z) return;
      f(*z);
      from = *z + 1;
    }
  }

 private:
  static constexpr int kNone = std::numeric_limits<int>::max();

  void add(std::uint32_t node, std::uint32_t l, std::uint32_t r, std::uint32_t a, std::uint32_t b, int d) {
    if (b < l || r < a) return;
    if (a <= l && r <= b) {
      min_[node] += d;
      add_[node] += d;
      return;
    }
    const std::uint32_t m = l + (r - l) / 2;
    add(2 * node, l, m, a, b, d);
    add(2 * node + 1, m + 1, r, a, b, d);
    min_[node] = std::min(min_[2 * node], min_[2 * node + 1]) + add_[node];
  }
  int point(std::uint32_t node, std::uint32_t l, std::uint32_t r, std::uint32_t slot, int above) const {
    if (l == r) return min_[node] + above;
    const std::uint32_t m = l + (r - l) / 2;
    return slot <= m ? point(2 * node, l, m, slot, above + add_[node])
                     : point(2 * node + 1, m + 1, r, slot, above + add_[node]);
  }
  // The first (or last) slot in [a, b] whose count is zero; `above` is the sum of the adds
  // of this node's ancestors.
  std::optional<std::uint32_t> find(std::uint32_t node, std::uint32_t l, std::uint32_t r, std::uint32_t a,
                                    std::uint32_t b, int above, bool first) const {
    if (b < l || r < a || min_[node] + above > 0) return std::nullopt;
    if (l == r) return l;
    const std::uint32_t m = l + (r - l) / 2;
    const int below = above + add_[node];
    if (first) {
      if (auto z = find(2 * node, l, m, a, b, below, true)) return z;
      return find(2 * node + 1, m + 1, r, a, b, below, true);
    }
    if (auto z = find(2 * node + 1, m + 1, r, a, b, below, false)) return z;
    return find(2 * node, l, m, a, b, below, false);
  }

  std::uint32_t n_;
  std::vector<int> min_;  // min over the node's slots, its own add included, its ancestors' not
  std::vector<int> add_;  // added to every slot of the node
};

}  // namespace lfcheck::lin::monitors
