// The removes that found a queue, stack or priority queue empty.
//
// An empty remove X is explained iff some slot of X has no value certainly present
// (lin/monitor/coverage.hpp) and the history without its empty removes is linearizable
// (Lee & Mathur, "Efficient Decrease-and-Conquer Linearizability Monitoring", the lemma on
// empty operations: the values then split at that slot into those entirely before it and
// those entirely after, each part linearizable on its own side). So each empty remove is
// checked on its own, against the coverage of every value, and gets that slot; the
// monitors then keep every value on one side of it (their windows).
//
// When no slot of X is free, the core is X and a fewest set of values whose critical
// ranges cover X (greedy interval cover): those alone already hold something throughout X.
// Cost: O(log m) per empty remove; a failure O(v log v) for the v values.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lin/monitor/coverage.hpp"
#include "lin/monitor/outcome.hpp"
#include "lin/monitor/values.hpp"

namespace lfcheck::lin::monitors {

// `coverage` holds every value's critical range. Fills slot[k] for c.empties[k]; returns
// the failure, if one is not explained.
inline std::optional<MonitorOutcome> place_empties(const CollectionHistory& c, const Coverage& coverage,
                                                   std::vector<std::uint32_t>& slot) {
  slot.assign(c.empties.size(), 0);
  for (std::size_t k = 0; k < c.empties.size(); ++k) {
    const std::uint32_t x = c.empties[k];
    if (const auto free = coverage.first_zero(c.span[x])) {
      slot[k] = *free;
      continue;
    }
    // A fewest cover of X's slots by critical ranges.
    struct Range {
      Span span;
      std::uint32_t value;
    };
    std::vector<Range> ranges;
    for (std::uint32_t v = 0; v < c.values.size(); ++v) {
      const Span r = c.critical(c.values[v]);
      if (!empty(r) && r.hi >= c.span[x].lo && r.lo <= c.span[x].hi) ranges.push_back({r, v});
    }
    std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.span.lo < b.span.lo; });
    std::vector<std::uint32_t> core{x};
    std::string held;
    std::size_t next = 0;
    const Range* best = nullptr;  // of the ranges starting at or before `at`, the one reaching furthest
    for (std::uint32_t at = c.span[x].lo; at <= c.span[x].hi;) {
      for (; next < ranges.size() && ranges[next].span.lo <= at; ++next)
        if (!best || ranges[next].span.hi > best->span.hi) best = &ranges[next];
      if (!best || best->span.hi < at) break;  // cannot happen: no slot of X is free
      const ValueOps& v = c.values[best->value];
      core.push_back(v.insert);
      held += std::string(held.empty() ? "" : ", then ") + "the value inserted by " + op_ref(v.insert) +
              (v.remove == kNoOp ? " (never removed)" : " (removed by " + op_ref(v.remove) + ")");
      if (v.remove != kNoOp) core.push_back(v.remove);
      at = best->span.hi + 1;
    }
    return not_linearizable(std::move(core), op_ref(x) + " found the " + collection_name(c.type) +
                                                 " empty, but throughout it the " + collection_name(c.type) +
                                                 " certainly held " + held);
  }
  return std::nullopt;
}

}  // namespace lfcheck::lin::monitors
