// The LIFO stack monitor: every pushed value distinct; O(n log n) expected for histories
// whose operations overlap boundedly (each slot that frees up rechecks the values whose
// push or pop spans it).
//
// Facts it rests on (Lee & Mathur, "Efficient Decrease-and-Conquer Linearizability
// Monitoring", the stack section; held to the exact search by
// lin/tests/monitor_differential_test.cpp):
//  1. A bottom value: v whose push can take effect in a slot and whose pop in a later (or
//     the same) slot where no other value is certainly present (lin/monitor/coverage.hpp).
//     Every linearizable history has one (the value pushed first in a linearization's
//     last stretch ... the stack's bottom while it is pushed and popped), and removing a
//     bottom value keeps the answer: every other value is entirely before, between or after
//     its two points, and the history without v, linearizable, fits in those windows.
//  2. So: take bottom values one by one (their critical ranges leave the coverage, which
//     may free slots for others) until none is left (linearizable) or none is a bottom
//     value (not linearizable). Each value is confined to the window of the points fixed
//     before it (lin/monitor/points.hpp) and its points are fixed inside it, so the points,
//     read in order, are a linearization. A value that is a bottom value of its window's
//     history (which is linearizable within the window when the history is) is one here,
//     so taking them in any order never gets stuck on a linearizable history.
//  3. Empty pops: lin/monitor/empties.hpp; their points are fixed first.
// When it gets stuck, the values left are not linearizable on their own. They are
// trimmed to a small core: values that are bottom values of the time-reversed history
// (the top of the stack) go too (the reverse of a stack history is one), then each value
// whose removal leaves the rest stuck, while the budget allows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "lin/monitor/coverage.hpp"
#include "lin/monitor/empties.hpp"
#include "lin/monitor/interval_index.hpp"
#include "lin/monitor/outcome.hpp"
#include "lin/monitor/points.hpp"
#include "lin/monitor/slot_set.hpp"
#include "lin/monitor/values.hpp"
#include "lin/search_support.hpp"

namespace lfcheck::lin::monitors {

namespace stack_detail {

// One value as the peeling sees it.
struct Peelable {
  Span push, pop;  // the slots its push and pop may take effect in
  Span critical;   // where it is certainly present
  std::uint32_t last_invoke;
  std::uint32_t push_op, pop_op;  // operations (pop_op kNoOp: the extension's)
};

inline Peelable peelable(const CollectionHistory& c, const ValueOps& v) {
  return {c.insert_slots(v), c.remove_slots(v), c.critical(v), c.last_invoke(v), v.insert, v.remove};
}

// The same value in the time-reversed history of `slots` slots: its pop is pushed.
inline Peelable reversed(const Peelable& v, std::uint32_t slots) {
  const auto flip = [&](Span s) { return empty(s) ? s : Span{slots - 1 - s.hi, slots - 1 - s.lo}; };
  return {flip(v.pop), flip(v.push), flip(v.critical), slots - 1 - v.push.hi, v.pop_op, v.push_op};
}

// The coverage of the critical ranges of `values` (indices into vs).
inline Coverage coverage_of(const std::vector<Peelable>& vs, const std::vector<std::uint32_t>& values,
                            std::uint32_t slots) {
  std::vector<Span> critical;
  critical.reserve(values.size());
  for (std::uint32_t v : values) critical.push_back(vs[v].critical);
  return Coverage(slots, critical);
}

// Takes bottom values out of `values` (indices into vs; `coverage`: coverage_of them)
// until none is left or none is one; returns those left. With `points`, fixes each taken
// value's push and pop there (in windows of the points already fixed). False from `ok`
// when the budget ran out.
// Counts only fall here (a taken value's critical range leaves), so a slot, once free (no
// value certainly present), stays free: the free slots are a SlotSet, where the first free
// slot of a push's range and the last of a pop's are a few word reads, and only the slots
// a taken value frees are looked for in the coverage.
inline std::vector<std::uint32_t> peel(const std::vector<Peelable>& vs, const std::vector<std::uint32_t>& values,
                                       Coverage coverage, std::uint32_t slots, Points* points,
                                       detail::BudgetMeter& meter, bool& ok) {
  ok = true;
  std::vector<IntervalIndex::Entry> spans;
  spans.reserve(2 * values.size());
  for (std::uint32_t v : values) {
    spans.push_back({vs[v].push, v});
    spans.push_back({vs[v].pop, v});
  }
  const IntervalIndex index(spans, slots);
  SlotSet free(slots);
  coverage.zero_runs({0, slots - 1}, [&](Span run) { free.insert_range(run.lo, run.hi); });
  std::vector<char> taken(vs.size(), 0), queued(vs.size(), 0);
  std::deque<std::uint32_t> work(values.begin(), values.end());
  for (std::uint32_t v : values) queued[v] = 1;
  std::size_t left = values.size();
  Points scratch(points ? 0 : slots);
  Points& fixed = points ? *points : scratch;
  while (!work.empty()) {
    if (!meter.tick()) {
      ok = false;
      return {};
    }
    const std::uint32_t v = work.front();
    work.pop_front();
    queued[v] = 0;
    if (taken[v]) continue;
    const Peelable& p = vs[v];
    const auto [lo, hi] = fixed.window_slots(p.last_invoke);
    // The first free slot of the push's range and the last of the pop's, within the window.
    const std::uint32_t push_lo = std::max(p.push.lo, lo), push_hi = std::min(p.push.hi, hi);
    const std::uint32_t pop_lo = std::max(p.pop.lo, lo), pop_hi = std::min(p.pop.hi, hi);
    if (push_lo > push_hi || pop_lo > pop_hi) continue;
    const std::uint32_t push_at = free.first_at_or_after(push_lo);
    if (push_at > push_hi) continue;  // not a bottom value now (kNone is past every slot)
    const std::uint32_t pop_at = free.last_at_or_before(pop_hi);
    if (pop_at == SlotSet::kNone || pop_at < pop_lo || push_at > pop_at) continue;
    taken[v] = 1;
    --left;
    const Points::It after = fixed.window(p.last_invoke).after;
    fixed.insert_before(after, {push_at, p.push_op});
    fixed.insert_before(after, {pop_at, p.pop_op});
    coverage.add(p.critical, -1);
    // The slots that became free: the zeros of its critical range (every slot of it held
    // this value until now). Recheck the values whose push or pop meets them.
    coverage.zero_runs(p.critical, [&](Span run) {
      free.insert_range(run.lo, run.hi);
      index.meeting(run, [&](std::uint32_t u) {
        if (!taken[u] && !queued[u]) {
          queued[u] = 1;
          work.push_back(u);
        }
      });
    });
  }
  std::vector<std::uint32_t> rest;
  if (left == 0) return rest;
  for (std::uint32_t v : values)
    if (!taken[v]) rest.push_back(v);
  return rest;
}

}  // namespace stack_detail

inline MonitorOutcome check_stack(const CollectionHistory& c, detail::BudgetMeter& meter) {
  using namespace stack_detail;
  std::vector<Peelable> vs;
  vs.reserve(c.values.size());
  for (const ValueOps& v : c.values) vs.push_back(peelable(c, v));
  std::vector<std::uint32_t> every(vs.size());
  for (std::uint32_t v = 0; v < every.size(); ++v) every[v] = v;
  Coverage all = coverage_of(vs, every, c.slots);
  std::vector<std::uint32_t> empty_slot;
  if (auto failed = place_empties(c, all, empty_slot)) return *failed;

  Points points(c.slots);
  for (std::size_t k = 0; k < c.empties.size(); ++k)
    points.insert_before(points.window(empty_slot[k]).after, {empty_slot[k], c.empties[k]});
  bool ok = true;
  std::vector<std::uint32_t> stuck = peel(vs, every, std::move(all), c.slots, &points, meter, ok);
  if (!ok) return out_of_time();
  if (stuck.empty()) {
    MonitorOutcome out = linearizable({});
    out.order.reserve(c.span.size());
    points.each([&](const Points::Point& p) {
      if (p.op != kNoOp) out.order.push_back(p.op);
    });
    return out;
  }

  // Not linearizable: trim the values left to a small core. Empty pops are left out: each
  // has its free slot, so the values alone are not linearizable (empties.hpp).
  std::vector<Peelable> back;
  back.reserve(vs.size());
  for (const Peelable& p : vs) back.push_back(reversed(p, c.slots));
  // A peel the budget cut short returns nothing: the core stays the last finished one's.
  for (std::size_t before = 0; before != stuck.size();) {
    before = stuck.size();
    std::vector<std::uint32_t> tops_gone =
        peel(back, stuck, coverage_of(back, stuck, c.slots), c.slots, nullptr, meter, ok);
    if (!ok) break;
    stuck = std::move(tops_gone);
    std::vector<std::uint32_t> bottoms_gone =
        peel(vs, stuck, coverage_of(vs, stuck, c.slots), c.slots, nullptr, meter, ok);
    if (!ok) break;
    stuck = std::move(bottoms_gone);
  }
  constexpr std::size_t kTrimAtMost = 256;  // values; above that the trim would cost O(k^2 log n)
  if (ok && stuck.size() <= kTrimAtMost)
    for (std::size_t i = 0; i < stuck.size() && stuck.size() > 2;) {
      std::vector<std::uint32_t> without(stuck);
      without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
      bool fine = true;
      if (!peel(vs, without, coverage_of(vs, without, c.slots), c.slots, nullptr, meter, fine).empty() && fine)
        stuck = std::move(without);  // still stuck without it: it is not needed
      else if (!fine)
        break;
      else
        ++i;
    }
  std::vector<std::uint32_t> core;
  std::string names;
  for (std::uint32_t v : stuck) {
    core.push_back(vs[v].push_op);
    if (vs[v].pop_op != kNoOp) core.push_back(vs[v].pop_op);
    if (names.size() < 600)
      names += std::string(names.empty() ? "" : ", ") + "the value pushed by " + op_ref(vs[v].push_op) +
               (vs[v].pop_op == kNoOp ? " (never popped)" : "");
  }
  return not_linearizable(std::move(core), "no order nests the pushes and pops of " + std::to_string(stuck.size()) +
                                               " values (" + names +
                                               "): none of them can be the stack's bottom, pushed and popped "
                                               "when no other is certainly in the stack");
}

}  // namespace lfcheck::lin::monitors
