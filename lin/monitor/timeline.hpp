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
// Cost: O(n log n) to build (one sort of the 2n stamps), O(1) per span.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
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
    std::vector<std::uint64_t> stamps;
    stamps.reserve(2 * h.ops.size());
    for (const auto& op : h.ops) {
      stamps.push_back(op.invoke);
      stamps.push_back(op.response);
    }
    std::sort(stamps.begin(), stamps.end());
    stamps.erase(std::unique(stamps.begin(), stamps.end()), stamps.end());
    const auto rank = [&](std::uint64_t t) {
      return static_cast<std::uint32_t>(std::lower_bound(stamps.begin(), stamps.end(), t) - stamps.begin());
    };
    spans_.reserve(h.ops.size());
    for (const auto& op : h.ops) spans_.push_back({2 * rank(op.invoke), 2 * rank(op.response)});
    end_rank_ = static_cast<std::uint32_t>(stamps.size());
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
