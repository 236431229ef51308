// The polynomial-time monitors for collection specs (lin/collection.hpp): queue, stack,
// priority queue, set, multiset, each for real_time histories whose inserted values are
// distinct (data independence).
//
//   Report r = lfcheck::lin::monitor(history, budget);   // S declares its collection type
//
// Which algorithm, and what each assumes:
//   queue           lin/monitor/queue.hpp           O(n log n)
//   stack           lin/monitor/stack.hpp           O(n log n) for boundedly overlapping operations
//   priority queue  lin/monitor/priority_queue.hpp  O(n log n)
//   set, multiset   lin/monitor/set.hpp             O(n log n)
// all after lin/monitor/values.hpp (the history in the type's words) and, for the first
// three, lin/monitor/empties.hpp (empty removes).
//
// Guarantees: a monitor's verdict is never taken on trust.
//  - linearizable: the monitor's linearization is replayed through the spec's own model
//    and checked against the real-time order (lin/witness.hpp) first; Report::best is it.
//  - not_linearizable: the monitor names a few operations that no order explains on
//    their own (its core); the general search (lin/search.hpp) decides that small
//    sub-history, and only its not_linearizable stands (Report::focus is the core,
//    best/blocked the search's on it, explanation the monitor's reason in the spec's words;
//    a core the search cannot decide within the budget is unknown, never not_linearizable:
//    Report::note names the monitor's finding).
//  - Anything else (the monitor declines the history: an operation not of the type, a value
//    inserted twice; its linearization fails the replay; the search finds its core
//    linearizable) and the whole history is searched; Report::note says why, and
//    Report::algorithm is "search".
//  - unknown when the budget's seconds run out, as for the search (the monitors count no
//    states: their cost is bounded by the history's length).
// The monitors are held to the search by lin/tests/monitor_differential_test.cpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lin/collection.hpp"
#include "lin/history.hpp"
#include "lin/monitor/outcome.hpp"
#include "lin/monitor/priority_queue.hpp"
#include "lin/monitor/queue.hpp"
#include "lin/monitor/set.hpp"
#include "lin/monitor/stack.hpp"
#include "lin/monitor/values.hpp"
#include "lin/report.hpp"
#include "lin/search.hpp"
#include "lin/search_support.hpp"
#include "lin/spec.hpp"
#include "lin/witness.hpp"

namespace lfcheck::lin {

namespace monitor_detail {

// How an operation is named in a monitor's explanation: in the spec's words when it has
// them ("pop(): 7 (thread 2)").
template <Spec S>
std::string op_name(const History<S>& h, std::uint32_t i) {
  if constexpr (Showable<S>)
    return std::string(S::show(h.ops[i].call)) + ": " + std::string(S::show(h.ops[i].result)) + " (thread " +
           std::to_string(h.ops[i].thread) + ")";
  else
    return "operation " + std::to_string(i);
}

inline monitors::MonitorOutcome run(const monitors::CollectionHistory& c, detail::BudgetMeter& meter) {
  switch (c.type) {
    case Collection::queue:
      return monitors::check_queue(c, meter);
    case Collection::stack:
      return monitors::check_stack(c, meter);
    case Collection::priority_queue:
      return monitors::check_priority_queue(c, meter);
    case Collection::set:
    case Collection::multiset:
      return monitors::check_set(c, meter);
  }
  return monitors::does_not_apply("unknown collection type");
}

}  // namespace monitor_detail

template <Spec S>
requires HasCollection<S> Report monitor(const History<S>& h, const Budget& budget = {}) {
  validate(h);
  const std::string name = std::string(collection_name(S::collection)) + " monitor";
  const auto searched = [&](const std::string& why) {
    Report r = search(h, budget);
    r.note = why;
    return r;
  };
  if (h.order != Order::real_time) return search(h, budget);
  detail::BudgetMeter meter(budget);
  monitors::Collected collected = monitors::collect(h);
  const monitors::MonitorOutcome out =
      collected.answer ? *collected.answer : monitor_detail::run(collected.history, meter);
  const auto words = [&](const std::string& text) {
    return monitors::render_refs(text, [&](std::uint32_t i) { return monitor_detail::op_name(h, i); });
  };
  Report report;
  report.algorithm = name;
  switch (out.outcome) {
    case monitors::Outcome::linearizable: {
      std::vector<std::uint32_t> placed(out.order);
      monitors::place_no_effect(collected.history, placed);
      std::vector<std::size_t> order(placed.begin(), placed.end());
      if (const std::string problem = witness_problem(h, order); !problem.empty())
        return searched("the " + name + "'s linearization fails the spec's replay (" + problem +
                        "): the collection declaration does not match the spec, or the monitor is wrong");
      report.verdict = Verdict::linearizable;
      report.best = std::move(order);
      break;
    }
    case monitors::Outcome::not_linearizable: {
      std::vector<std::uint32_t> core(out.core);
      std::sort(core.begin(), core.end());
      core.erase(std::unique(core.begin(), core.end()), core.end());
      History<S> sub;
      sub.order = h.order;
      for (std::uint32_t i : core) sub.ops.push_back(h.ops[i]);
      Budget rest = budget;
      rest.max_seconds = std::max(0.0, budget.max_seconds - meter.seconds());
      const Report confirmed = search(sub, rest);
      if (confirmed.verdict == Verdict::linearizable)
        return searched("the " + name + " named " + std::to_string(core.size()) +
                        " operations no order explains, but the search linearized them (a monitor bug)");
      report.focus.assign(core.begin(), core.end());
      report.explanation = words(out.why);
      if (confirmed.verdict == Verdict::not_linearizable) {
        report.verdict = Verdict::not_linearizable;
        for (std::size_t i : confirmed.best) report.best.push_back(core[i]);
        for (std::size_t i : confirmed.blocked) report.blocked.push_back(core[i]);
      } else {
        // Only the search's answer stands: a core it could not decide is no verdict.
        report.verdict = Verdict::unknown;
        report.exhausted = confirmed.exhausted.empty() ? "max_seconds" : confirmed.exhausted;
        report.note = "the " + name + " named " + std::to_string(core.size()) +
                      " operations no order explains, but the search could not confirm them within the budget (" +
                      report.exhausted + ")";
      }
      report.states = confirmed.states;
      break;
    }
    case monitors::Outcome::does_not_apply:
      return searched("the " + name + " does not apply: " + words(out.why));
    case monitors::Outcome::out_of_time:
      report.verdict = Verdict::unknown;
      report.exhausted = meter.exhausted().empty() ? "max_seconds" : meter.exhausted();
      break;
  }
  report.seconds = meter.seconds();
  return report;
}

}  // namespace lfcheck::lin
