// The time line the monitors work on: a real_time history's stamps replaced by slots.
//
// The distinct stamps of the history (every invoke and response), sorted, are ranks
// 0..R-1; rank R is one more, after every stamp: the place of the calls that a history
// leaves out (a value never removed is removed there, by "the extension": all of them at
// once, after everything, in any order). Between the stamps lie the slots: slot 2r is the
// open time during stamp r (after an invoke at r, before a response at r), slot 2r+1 the
// time after stamp r and before stamp r+1. An operation invoked at rank a and returning at
// rank b may take effect in any slot 2a..2b (its Span), and
//   x precedes y (x.response < y.invoke)  iff  span(x).hi < span(y).lo,
// so equal stamps overlap, as in history.hpp. A point in time is a slot; two operations
// whose spans share a slot may take effect there in either order.
//
// Cost: O(n log n) to build (one sort of the 2n stamps with their operations), O(1) per span.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "lin/history.hpp"

namespace lfcheck::lin::monitors {

// The slots an operation may take effect in, lo..hi inclusive.
struct Span {
  std::uint32_t lo = 0, hi = 0;
};

inline bool precedes(Span x, Span y) { return x.hi < y.lo; }

class Timeline {
 public:
  template <class S>
  explicit Timeline(const History<S>& h) {
    // Every stamp with where it goes (2 op + 0 for the invoke, + 1 for the response),
    // sorted once; the ranks are then read off in one pass.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> stamps;
    stamps.reserve(2 * h.ops.size());
    for (std::size_t i = 0; i < h.ops.size(); ++i) {
      stamps.emplace_back(h.ops[i].invoke, static_cast<std::uint32_t>(2 * i));
      stamps.emplace_back(h.ops[i].response, static_cast<std::uint32_t>(2 * i + 1));
    }
    std::sort(stamps.begin(), stamps.end());
    spans_.resize(h.ops.size());
    std::uint32_t rank = 0;
    for (std::size_t k = 0; k < stamps.size(); ++k) {
      if (k > 0 && stamps[k].first != stamps[k - 1].first) ++rank;
      Span& s = spans_[stamps[k].second / 2];
      (stamps[k].second % 2 == 0 ? s.lo : s.hi) = 2 * rank;
    }
    end_rank_ = stamps.empty() ? 0 : rank + 1;
  }

  const Span& span(std::size_t op) const { return spans_[op]; }
  // Where the calls the history leaves out take effect: after every operation.
  Span extension() const { return {2 * end_rank_, 2 * end_rank_}; }
  // Slots 0 .. slots()-1 (the extension's included).
  std::uint32_t slots() const { return 2 * end_rank_ + 2; }

 private:
  std::vector<Span> spans_;
  std::uint32_t end_rank_ = 0;
};

}  // namespace lfcheck::lin::monitors
