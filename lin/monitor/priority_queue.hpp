// The priority queue monitor (remove takes the smallest value held): every inserted value
// distinct; O(n log n).
//
// The verdict (Lee & Mathur, "Efficient Decrease-and-Conquer Linearizability Monitoring",
// the priority queue section): the history is linearizable iff every remove of a value v
// can take effect in a slot where no smaller value is certainly present
// (lin/monitor/coverage.hpp), and every empty remove in a slot where no value is. So the
// values are checked smallest first, each against the critical ranges of the smaller ones
// (the coverage grows by each value's range after its own check). A failing remove's core
// is its value and a fewest set of smaller values whose ranges cover its slots.
//
// The linearization comes from a forward simulation with a safe rule at every step (each
// keeps some linearization of the rest possible, by exchange: moving the chosen operation
// earlier in any linearization that follows the steps so far keeps it legal):
//   1. an empty remove that may take effect now, when nothing is held;
//   2. the remove of the smallest value held, when it may take effect now;
//   3. insert-then-remove of a value whose insert and remove may both take effect now, when
//      it is smaller than everything held (it is gone again before anything else happens);
//   4. otherwise the operation whose response comes first must take effect before anything
//      invoked after it; if it is an insert it goes now (only inserts can go in such a
//      state: every remove and empty remove that may go is blocked by what is held, and an
//      insert only blocks more), else nothing can go and the history is not linearizable.
// "May take effect now": invoked no later than the first response still to come. The two
// halves are independent algorithms; lin/monitor.hpp falls back to the search, and says
// so, if they ever disagree.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "lin/monitor/coverage.hpp"
#include "lin/monitor/empties.hpp"
#include "lin/monitor/outcome.hpp"
#include "lin/monitor/values.hpp"
#include "lin/search_support.hpp"

namespace lfcheck::lin::monitors {

namespace pq_detail {

// The forward simulation: a linearization, or an empty order if it gets stuck.
inline std::vector<std::uint32_t> simulate(const CollectionHistory& c, detail::BudgetMeter& meter, bool& ok) {
  ok = true;
  // The operations simulated: every insert, remove and empty remove (not no_effect ones).
  std::vector<std::uint32_t> by_lo;
  for (const ValueOps& v : c.values) {
    by_lo.push_back(v.insert);
    if (v.remove != kNoOp) by_lo.push_back(v.remove);
  }
  by_lo.insert(by_lo.end(), c.empties.begin(), c.empties.end());
  const auto nops = static_cast<std::uint32_t>(by_lo.size());
  // What each operation is: the value it inserts or removes (index into c.values), or an empty remove.
  constexpr std::uint32_t kEmpty = UINT32_MAX;
  std::vector<std::uint32_t> value_of(c.span.size(), kEmpty);
  std::vector<char> is_insert(c.span.size(), 0);
  for (std::uint32_t v = 0; v < c.values.size(); ++v) {
    value_of[c.values[v].insert] = v;
    is_insert[c.values[v].insert] = 1;
    if (c.values[v].remove != kNoOp) value_of[c.values[v].remove] = v;
  }
  std::vector<std::uint32_t> by_hi(by_lo);
  std::sort(by_lo.begin(), by_lo.end(), [&](auto a, auto b) { return c.span[a].lo < c.span[b].lo; });
  std::sort(by_hi.begin(), by_hi.end(), [&](auto a, auto b) { return c.span[a].hi < c.span[b].hi; });
  std::vector<char> placed(c.span.size(), 0), ins_ready(c.values.size(), 0), rem_ready(c.values.size(), 0),
      inserted(c.values.size(), 0);
  using Keyed = std::pair<std::uint64_t, std::uint32_t>;  // (value, index into c.values)
  std::priority_queue<Keyed, std::vector<Keyed>, std::greater<>> held, pairs;
  std::vector<std::uint32_t> empties_ready, order;
  order.reserve(nops);
  std::size_t lo_next = 0, hi_first = 0;
  const auto place = [&](std::uint32_t op) {
    placed[op] = 1;
    order.push_back(op);
  };
  const auto pair_ready = [&](std::uint32_t v) {
    if (ins_ready[v] && rem_ready[v] && !inserted[v]) pairs.push({c.values[v].value, v});
  };
  while (order.size() < nops) {
    if (!meter.tick()) {
      ok = false;
      return {};
    }
    while (hi_first < nops && placed[by_hi[hi_first]]) ++hi_first;
    const std::uint32_t frontier = c.span[by_hi[hi_first]].hi;
    for (; lo_next < nops && c.span[by_lo[lo_next]].lo <= frontier; ++lo_next) {
      const std::uint32_t op = by_lo[lo_next];
      if (value_of[op] == kEmpty) {
        empties_ready.push_back(op);
      } else if (is_insert[op]) {
        ins_ready[value_of[op]] = 1;
        pair_ready(value_of[op]);
      } else {
        rem_ready[value_of[op]] = 1;
        pair_ready(value_of[op]);
      }
    }
    bool progressed = false;
    if (held.empty() && !empties_ready.empty()) {  // rule 1
      for (std::uint32_t op : empties_ready) place(op);
      empties_ready.clear();
      progressed = true;
    }
    if (!held.empty() && rem_ready[held.top().second]) {  // rule 2
      place(c.values[held.top().second].remove);
      held.pop();
      progressed = true;
    }
    while (!pairs.empty() && inserted[pairs.top().second]) pairs.pop();
    if (!pairs.empty() && (held.empty() || pairs.top().first < held.top().first)) {  // rule 3
      const std::uint32_t v = pairs.top().second;
      pairs.pop();
      inserted[v] = 1;
      place(c.values[v].insert);
      place(c.values[v].remove);
      progressed = true;
    }
    if (progressed) continue;
    const std::uint32_t f = by_hi[hi_first];  // rule 4
    if (!is_insert[f]) return {};
    const std::uint32_t v = value_of[f];
    inserted[v] = 1;
    place(f);
    held.push({c.values[v].value, v});
  }
  return order;
}

}  // namespace pq_detail

inline MonitorOutcome check_priority_queue(const CollectionHistory& c, detail::BudgetMeter& meter) {
  std::vector<std::uint32_t> by_value(c.values.size());
  for (std::uint32_t v = 0; v < by_value.size(); ++v) by_value[v] = v;
  std::sort(by_value.begin(), by_value.end(), [&](auto a, auto b) { return c.values[a].value < c.values[b].value; });
  Coverage smaller(c.slots);
  for (std::size_t k = 0; k < by_value.size(); ++k) {
    if (!meter.tick()) return out_of_time();
    const ValueOps& v = c.values[by_value[k]];
    const Span remove = c.remove_slots(v);
    if (!smaller.first_zero(remove)) {
      // A fewest cover of its remove's slots by the critical ranges of smaller values.
      struct Range {
        Span span;
        std::uint32_t value;
      };
      std::vector<Range> ranges;
      for (std::size_t j = 0; j < k; ++j) {
        const Span r = c.critical(c.values[by_value[j]]);
        if (!empty(r) && r.hi >= remove.lo && r.lo <= remove.hi) ranges.push_back({r, by_value[j]});
      }
      std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.span.lo < b.span.lo; });
      std::vector<std::uint32_t> core{v.insert, v.remove};
      std::string held;
      std::size_t next = 0;
      const Range* best = nullptr;
      for (std::uint32_t at = remove.lo; at <= remove.hi;) {
        for (; next < ranges.size() && ranges[next].span.lo <= at; ++next)
          if (!best || ranges[next].span.hi > best->span.hi) best = &ranges[next];
        if (!best || best->span.hi < at) break;
        const ValueOps& s = c.values[best->value];
        core.push_back(s.insert);
        if (s.remove != kNoOp) core.push_back(s.remove);
        held += std::string(held.empty() ? "" : ", then ") + "the value inserted by " + op_ref(s.insert) +
                (s.remove == kNoOp ? " (never removed)" : " (removed by " + op_ref(s.remove) + ")");
        at = best->span.hi + 1;
      }
      return not_linearizable(std::move(core), op_ref(v.remove) +
                                                   " took out a value while a smaller one was "
                                                   "certainly held throughout it: " +
                                                   held);
    }
    smaller.add(c.critical(v), +1);
  }
  std::vector<std::uint32_t> empty_slot;
  if (auto failed = place_empties(c, smaller, empty_slot)) return *failed;

  bool ok = true;
  MonitorOutcome out = linearizable({});
  out.order = pq_detail::simulate(c, meter, ok);
  if (!ok) return out_of_time();
  if (out.order.size() != c.span.size() - c.no_effect.size())
    return does_not_apply(
        "the priority queue monitor's simulation got stuck on a history its check passed "
        "(a monitor bug)");
  return out;
}

}  // namespace lfcheck::lin::monitors
