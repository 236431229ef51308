// lfcheck's linearizability checker: is there a sequential order of the operations of a
// concurrent history, consistent with the history's order (history.hpp), in which the
// spec's sequential model (spec.hpp) gives every operation the result it returned?
//
//   Report r = lfcheck::lin::check(history, Budget{.max_states = 1'000'000, .max_seconds = 5});
//   if (r.verdict != Verdict::linearizable) std::puts(render_table(history, r).c_str());
//
// Which algorithm decides (Report::algorithm names it):
//   - a spec that declares a collection type (lin/collection.hpp: queue, stack, priority
//     queue, set, multiset), on a real_time history: its polynomial monitor
//     (lin/monitor.hpp), which falls back to the search where it does not apply (a value
//     inserted twice, an operation that is not of the type) and says why in Report::note;
//   - every other spec, and every program_order history: the general search
//     (lin/search.hpp: Wing & Gong with Lowe's memo, exponential in the worst case).
// Both give the same verdicts (lin/tests/monitor_differential_test.cpp); their guarantees
// (linearizable with a witness, not_linearizable only when no order exists, unknown when
// the budget runs out, never a verdict then) are in those headers.
#pragma once

#include "lin/collection.hpp"
#include "lin/history.hpp"
#include "lin/monitor.hpp"
#include "lin/report.hpp"
#include "lin/search.hpp"
#include "lin/spec.hpp"

namespace lfcheck::lin {

template <Spec S>
Report check(const History<S>& h, const Budget& budget = {}) {
  if constexpr (HasCollection<S>)
    return monitor(h, budget);
  else
    return search(h, budget);
}

}  // namespace lfcheck::lin
