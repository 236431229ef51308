// The FIFO queue monitor: O(n log n) for n operations, every enqueued value distinct.
//
// Facts it rests on (each proved in the comments below, and held to the exact search by
// lin/tests/monitor_differential_test.cpp):
//  1. With the empty dequeues set aside, a legal order puts the values in one FIFO order
//     p: enqueues in p's order, dequeues in p's order, each enqueue before its dequeue,
//     never-dequeued values last. Value a must come before b in p when
//        enq(a) returned before enq(b) was invoked, or
//        deq(a) returned before deq(b) was invoked, or
//        deq(a) returned before enq(b) was invoked
//     (a never-dequeued value's dequeue is the extension's, after everything). Conversely
//     any p that respects these ("a before b") has a linearization: give each enqueue and
//     dequeue, in p's order, the latest invocation so far; a point after the response of an
//     operation it follows would need a pair the rules forbid. So the history without its
//     empty dequeues is linearizable iff "before" has no cycle.
//  2. Kahn's algorithm finds p or a cycle. b is ready (nothing remaining must come before
//     it) iff enq(b) was invoked no later than every remaining enqueue's and dequeue's
//     response and deq(b) no later than every remaining dequeue's response. When none is
//     ready, take a = the remaining value whose enqueue responds first and b = the one whose
//     dequeue does: every remaining value waits for a or b, a waits for b and b for a (a
//     value never waits for itself once collect() rejected a dequeue before its enqueue).
//     So the core is always two values: a before b and b before a, in the history's own
//     words.
//  3. Empty dequeues: lin/monitor/empties.hpp. Each gets a free slot; a value belongs to
//     the window between the empty points around its last invocation, "before" never goes
//     from a later window to an earlier one (a value of a later window responds after the
//     empty point, at or after which the other's last invocation lies), so Kahn's algorithm,
//     taking ready values of the lowest window first, gives p window by window, and each
//     window's points start after its empty point.
// The linearization is replayed through the spec before it is believed (lin/monitor.hpp).
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

namespace queue_detail {

// Why value a must leave the queue before value b (a "before" rule that holds), or "".
inline std::string before_reason(const CollectionHistory& c, const ValueOps& a, const ValueOps& b) {
  const Span ea = c.span[a.insert], eb = c.span[b.insert], da = c.remove_span(a), db = c.remove_span(b);
  if (precedes(ea, eb))
    return op_ref(a.insert) + " returned before " + op_ref(b.insert) + " was invoked, so its value is ahead";
  if (precedes(da, db))
    return b.remove == kNoOp ? "the value of " + op_ref(a.insert) + " was dequeued (by " + op_ref(a.remove) +
                                   ") and the value of " + op_ref(b.insert) + " never was"
                             : op_ref(a.remove) + " returned before " + op_ref(b.remove) + " was invoked";
  if (precedes(da, eb)) return op_ref(a.remove) + " returned before " + op_ref(b.insert) + " was invoked";
  return "";
}

}  // namespace queue_detail

inline MonitorOutcome check_queue(const CollectionHistory& c, detail::BudgetMeter& meter) {
  const std::uint32_t n = static_cast<std::uint32_t>(c.values.size());
  std::vector<Span> critical;
  critical.reserve(n);
  for (const ValueOps& v : c.values) critical.push_back(c.critical(v));
  const Coverage coverage(c.slots, critical);
  std::vector<std::uint32_t> empty_slot;
  if (auto failed = place_empties(c, coverage, empty_slot)) return *failed;

  // Each value's window: how many empty points lie before its last invocation.
  std::vector<std::uint32_t> sorted_empty(empty_slot);
  std::sort(sorted_empty.begin(), sorted_empty.end());
  std::vector<std::uint32_t> window(n);
  for (std::uint32_t v = 0; v < n; ++v)
    window[v] = static_cast<std::uint32_t>(
        std::lower_bound(sorted_empty.begin(), sorted_empty.end(), c.last_invoke(c.values[v])) - sorted_empty.begin());

  const auto E = [&](std::uint32_t v) { return c.span[c.values[v].insert]; };
  const auto D = [&](std::uint32_t v) { return c.remove_span(c.values[v]); };
  // Remaining values by enqueue response and by dequeue response: the first remaining one
  // of each gives mE and mD.
  std::vector<std::uint32_t> by_e_hi(n), by_d_hi(n), by_e_lo(n);
  for (std::uint32_t v = 0; v < n; ++v) by_e_hi[v] = by_d_hi[v] = by_e_lo[v] = v;
  std::sort(by_e_hi.begin(), by_e_hi.end(), [&](auto a, auto b) { return E(a).hi < E(b).hi; });
  std::sort(by_d_hi.begin(), by_d_hi.end(), [&](auto a, auto b) { return D(a).hi < D(b).hi; });
  std::sort(by_e_lo.begin(), by_e_lo.end(), [&](auto a, auto b) { return E(a).lo < E(b).lo; });
  std::vector<char> done(n, 0);
  std::size_t e_first = 0, d_first = 0, e_next = 0;
  const auto skip_done = [&](const std::vector<std::uint32_t>& order, std::size_t& at) {
    while (at < order.size() && done[order[at]]) ++at;
  };
  constexpr std::uint32_t kAll = UINT32_MAX;
  // Values whose enqueue is ready, by dequeue invocation; values ready, lowest window first.
  using Keyed = std::pair<std::uint32_t, std::uint32_t>;
  std::priority_queue<Keyed, std::vector<Keyed>, std::greater<>> enq_ready, ready;
  std::vector<std::uint32_t> order;  // p
  order.reserve(n);
  while (order.size() < n) {
    if (!meter.tick()) return out_of_time();
    skip_done(by_e_hi, e_first);
    skip_done(by_d_hi, d_first);
    const std::uint32_t m_e = e_first < n ? E(by_e_hi[e_first]).hi : kAll;
    const std::uint32_t m_d = d_first < n ? D(by_d_hi[d_first]).hi : kAll;
    for (; e_next < n && E(by_e_lo[e_next]).lo <= std::min(m_e, m_d); ++e_next)
      enq_ready.push({D(by_e_lo[e_next]).lo, by_e_lo[e_next]});
    while (!enq_ready.empty() && enq_ready.top().first <= m_d) {
      ready.push({window[enq_ready.top().second], enq_ready.top().second});
      enq_ready.pop();
    }
    if (ready.empty()) {  // a cycle: the first enqueue response and the first dequeue response
      const ValueOps& a = c.values[by_e_hi[e_first]];
      const ValueOps& b = c.values[by_d_hi[d_first]];
      std::vector<std::uint32_t> core{a.insert, b.insert};
      for (const ValueOps* v : {&a, &b})
        if (v->remove != kNoOp) core.push_back(v->remove);
      return not_linearizable(std::move(core),
                              "two values leave the queue in no order: " + queue_detail::before_reason(c, a, b) +
                                  "; but " + queue_detail::before_reason(c, b, a));
    }
    const std::uint32_t v = ready.top().second;
    ready.pop();
    done[v] = 1;
    order.push_back(v);
  }

  // The linearization: window by window (each after its empty point), every enqueue and
  // dequeue at the latest invocation so far, in p's order.
  struct Placed {
    std::uint32_t slot, rank, op;
  };
  std::vector<std::uint32_t> empties_by_slot(c.empties.size());
  for (std::uint32_t k = 0; k < empties_by_slot.size(); ++k) empties_by_slot[k] = k;
  std::sort(empties_by_slot.begin(), empties_by_slot.end(),
            [&](auto x, auto y) { return empty_slot[x] < empty_slot[y]; });
  MonitorOutcome out = linearizable({});
  out.order.reserve(c.span.size());
  std::vector<Placed> placed;
  std::size_t next_value = 0, next_empty = 0;
  for (std::uint32_t w = 0; w <= empties_by_slot.size(); ++w) {
    const std::uint32_t floor = w == 0 ? 0 : empty_slot[empties_by_slot[w - 1]];
    if (w > 0) out.order.push_back(c.empties[empties_by_slot[next_empty++]]);
    placed.clear();
    std::uint32_t e_at = floor, d_at = floor, rank = 0;
    for (; next_value < n && window[order[next_value]] == w; ++next_value) {
      const ValueOps& v = c.values[order[next_value]];
      e_at = std::max(e_at, E(order[next_value]).lo);
      d_at = std::max({d_at, D(order[next_value]).lo, e_at});
      if (e_at > E(order[next_value]).hi || (v.remove != kNoOp && d_at > D(order[next_value]).hi))
        return does_not_apply("the queue monitor built no linearization from its order (a monitor bug)");
      placed.push_back({e_at, rank++, v.insert});
      if (v.remove != kNoOp) placed.push_back({d_at, rank++, v.remove});
    }
    std::sort(placed.begin(), placed.end(),
              [](const Placed& a, const Placed& b) { return a.slot != b.slot ? a.slot < b.slot : a.rank < b.rank; });
    for (const Placed& p : placed) out.order.push_back(p.op);
  }
  if (next_value != n)
    return does_not_apply("the queue monitor's order left values out of every window (a monitor bug)");
  return out;
}

}  // namespace lfcheck::lin::monitors
