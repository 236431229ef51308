// The set and multiset monitor: each value added at most once (a refused add is an
// observation that it is there); O(n log n) (one sort for the linearization).
//
// A set is local on values (each value's operations are their own history), and one
// value's history is linearizable iff (Lee & Mathur, "Efficient Decrease-and-Conquer
// Linearizability Monitoring", the set section) its add, its remove and the operations
// that saw it there (the "true" ones) fit in one stretch [a, r] and every operation that
// saw it missing fits outside. In slots (lin/monitor/timeline.hpp): with m the first
// response and M the last invocation among the true operations (a value never removed
// is removed by the extension, after everything),
//   - the add must take effect by m:          add.lo <= m, else it came after a true one
//   - the remove must take effect from M on:  M <= remove.hi, else it came before one
//   - when m < M, every "missing" operation must fit before (lo <= m) or after (hi >= M);
//     when m >= M all the true ones fit in one slot and everything else around it.
// The core of a failing value: its add, its remove, the true operations that set m and M,
// and the "missing" operation that fits nowhere.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lin/monitor/outcome.hpp"
#include "lin/monitor/values.hpp"
#include "lin/search_support.hpp"

namespace lfcheck::lin::monitors {

inline MonitorOutcome check_set(const CollectionHistory& c, detail::BudgetMeter& meter) {
  struct Placed {
    std::uint32_t slot;
    std::uint8_t rank;  // at the same slot, within a value: missing-before, add, there, remove, missing-after
    std::uint32_t op;
  };
  std::vector<Placed> placed;
  placed.reserve(c.span.size());
  const std::string type = collection_name(c.type);
  for (const ValueOps& v : c.values) {
    if (!meter.tick()) return out_of_time();
    if (v.insert == kNoOp) {  // never there: every operation saw it missing
      for (std::uint32_t op : v.absent) placed.push_back({c.span[op].lo, 0, op});
      continue;
    }
    const Span add = c.span[v.insert], remove = c.remove_span(v);
    std::uint32_t m = std::min(add.hi, remove.hi), M = std::max(add.lo, remove.lo);
    std::uint32_t m_op = add.hi <= remove.hi ? v.insert : v.remove, M_op = add.lo >= remove.lo ? v.insert : v.remove;
    for (std::uint32_t op : v.present) {
      if (c.span[op].hi < m) m = c.span[op].hi, m_op = op;
      if (c.span[op].lo > M) M = c.span[op].lo, M_op = op;
    }
    const auto core_of = [&](std::uint32_t extra) {
      std::vector<std::uint32_t> core{v.insert};
      for (std::uint32_t op : {v.remove, m_op, M_op, extra})
        if (op != kNoOp && std::find(core.begin(), core.end(), op) == core.end()) core.push_back(op);
      return core;
    };
    if (add.lo > m)
      return not_linearizable(core_of(kNoOp), op_ref(m_op) + " returned before " + op_ref(v.insert) +
                                                  ", which added its value, was invoked, but needs the value there");
    if (M > remove.hi)
      return not_linearizable(core_of(kNoOp), op_ref(M_op) + " was invoked after " + op_ref(v.remove) +
                                                  ", which removed its value, returned, but needs the value there");
    const std::uint32_t a = m < M ? m : M, r = M;  // the value is there from a to r
    placed.push_back({a, 1, v.insert});
    for (std::uint32_t op : v.present) placed.push_back({std::max(c.span[op].lo, a), 2, op});
    if (v.remove != kNoOp) placed.push_back({r, 3, v.remove});
    for (std::uint32_t op : v.absent) {
      const Span s = c.span[op];
      if (s.lo <= a) {
        placed.push_back({s.lo, 0, op});
      } else if (s.hi >= r && v.remove != kNoOp) {
        placed.push_back({std::max(s.lo, r), 4, op});
      } else {
        std::string why = op_ref(op) + " saw its value missing from the " + type +
                          ", but the value was certainly there throughout it: added by " + op_ref(v.insert);
        if (m_op != v.insert) why += ", there for " + op_ref(m_op) + ", which returned before it was invoked";
        if (M_op != v.remove && M_op != kNoOp) why += ", there for " + op_ref(M_op) + ", invoked after it returned";
        why += v.remove == kNoOp ? ", never removed" : ", removed by " + op_ref(v.remove);
        return not_linearizable(core_of(op), why);
      }
    }
  }
  std::sort(placed.begin(), placed.end(), [](const Placed& x, const Placed& y) {
    return x.slot != y.slot ? x.slot < y.slot : x.rank != y.rank ? x.rank < y.rank : x.op < y.op;
  });
  MonitorOutcome out = linearizable({});
  out.order.reserve(placed.size());
  for (const Placed& p : placed) out.order.push_back(p.op);
  return out;
}

}  // namespace lfcheck::lin::monitors
