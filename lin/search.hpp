// The general linearizability search: is there a sequential order of the operations of a
// concurrent history, consistent with the history's order (history.hpp), in which the
// spec's sequential model (spec.hpp) gives every operation the result it returned? For
// any spec; exponential in the worst case. lin/checker.hpp's check() uses it for every spec
// that declares no collection type, for program_order histories, and wherever a monitor
// (lin/monitor.hpp) declines.
//
//   Report r = lfcheck::lin::search(history, Budget{.max_states = 1'000'000, .max_seconds = 5});
//
// Guarantees
//  - linearizable: a complete linearization was found; Report::best is one (a single
//    order of every op, also for a partitioned spec: the partitions' orders merged).
//  - not_linearizable: the search ran to the end and no order exists (for a partitioned
//    spec: in the partition Report::partition names). Report::best is the longest
//    linearizable sequence the search reached, Report::blocked the ops it could not place
//    after it.
//  - unknown: a budget (Budget::max_states nodes, Budget::max_seconds) ran out first.
//    Never reported as either verdict above.
//  - search() keeps no state between calls: it may run on several threads at once.
//  - Histories are checked as given: a real_time op whose response precedes its invoke
//    throws std::invalid_argument; a program_order partition of more than 64 ops throws
//    std::length_error.
//
// Design
//  Wing & Gong's depth-first search over linearizations (Wing & Gong, "Testing and
//  verifying concurrent objects", JPDC 17, 1993) with Lowe's memoisation of visited
//  (linearized set, model state) pairs (Lowe, "Testing for linearizability", Concurrency
//  and Computation: Practice and Experience 29(4), 2017): two different orders of the same
//  set of ops that reach the same model state have the same future, so the second is not
//  explored. real_time histories use the event-list formulation (search_real_time.hpp),
//  as porcupine (github.com/anishathalye/porcupine, Go) does; program_order histories use
//  predecessor masks (search_program_order.hpp), because their order is not an interval
//  order. When the spec declares S::partition, the history is split by key and each
//  sub-history is checked alone from S::initial() (P-compositionality: Horn & Kroening,
//  "Faster linearizability checking via P-compositionality", FORTE 2015; linearizability
//  is local, Herlihy & Wing 1990, so the whole is linearizable iff every part is).
//  Partitions are checked smallest first (ties: lower key first), so a failure in a small
//  partition is found before a large one can spend the budget; they share one budget, and
//  the first partition that is not linearizable, or is cut short, ends the check.
//  program_order is weaker than real time (it is sequential consistency over the
//  scenario's program order), which is not local (Herlihy & Wing 1990): threads
//  A: wx(1); ry()->0 and B: wy(1); rx()->0 pass per register and fail as a whole. So for
//  program_order a failing partition is final, but passing partitions are confirmed by
//  merging their orders into one, and when they do not merge the whole history is
//  searched unpartitioned (at most 64 ops).
//
// Cost
//  Deciding linearizability is NP-complete in general (Gibbons & Korach 1997); the memo
//  bounds the search by (sets of ops reachable in the order) x (distinct model states).
//  With few ops running at once and results that soon pin the state down (a container
//  holding a few values) that is close to linear in the history's length; a container
//  that holds many values in an order the history leaves open makes it exponential in
//  their number (bench/lin_checker_bench.cpp, held:16).
//  Memory: one model state and a few words per memo entry (a Budget of 10M states with
//  large states can take gigabytes: size the budget to the spec).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <queue>
#include <span>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "lin/history.hpp"
#include "lin/report.hpp"
#include "lin/search_program_order.hpp"
#include "lin/search_real_time.hpp"
#include "lin/search_support.hpp"
#include "lin/spec.hpp"

namespace lfcheck::lin {

namespace detail {

// The ops of each partition key, smallest partition first (ties: lower key first); one
// group without S::partition.
template <Spec S>
std::vector<std::pair<std::uint64_t, std::vector<std::size_t>>> partition_groups(const History<S>& h) {
  if constexpr (!HasPartition<S>) {
    std::vector<std::size_t> all(h.ops.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    return {{0, std::move(all)}};
  } else {
    std::map<std::uint64_t, std::vector<std::size_t>> by_key;
    for (std::size_t i = 0; i < h.ops.size(); ++i) by_key[spec_partition<S>(h.ops[i].call)].push_back(i);
    std::vector<std::pair<std::uint64_t, std::vector<std::size_t>>> groups(std::make_move_iterator(by_key.begin()),
                                                                           std::make_move_iterator(by_key.end()));
    std::stable_sort(groups.begin(), groups.end(),
                     [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
    return groups;
  }
}

// One order of every op from the partitions' linearizations (each a list of indices into
// ops), if one exists: repeatedly takes, among the next ops of the partitions, one whose
// predecessors are all placed (Kahn's algorithm on the union of the partitions' orders and
// the history's order). For real_time one always exists (locality: Herlihy & Wing 1990);
// for program_order it may not (see search()).
template <Spec S>
std::optional<std::vector<std::size_t>> merge_linearizations(const History<S>& h,
                                                             const std::vector<std::vector<std::size_t>>& parts) {
  std::vector<std::size_t> merged, head(parts.size(), 0);
  merged.reserve(h.ops.size());
  std::vector<bool> placed(h.ops.size(), false);
  // real_time: ready iff invoked no later than the earliest response still unplaced.
  using Response = std::pair<std::uint64_t, std::size_t>;
  std::priority_queue<Response, std::vector<Response>, std::greater<>> responses;
  if (h.order == Order::real_time)
    for (std::size_t i = 0; i < h.ops.size(); ++i) responses.emplace(h.ops[i].response, i);
  const auto ready = [&](std::size_t op) {
    if (h.order == Order::real_time) {
      while (!responses.empty() && placed[responses.top().second]) responses.pop();
      return responses.empty() || h.ops[op].invoke <= responses.top().first;
    }
    for (std::size_t x = 0; x < h.ops.size(); ++x)
      if (!placed[x] && precedes(h, x, op)) return false;
    return true;
  };
  while (merged.size() < h.ops.size()) {
    bool progressed = false;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      if (head[p] == parts[p].size() || !ready(parts[p][head[p]])) continue;
      const std::size_t op = parts[p][head[p]++];
      placed[op] = true;
      merged.push_back(op);
      progressed = true;
    }
    if (!progressed) return std::nullopt;
  }
  return merged;
}

}  // namespace detail

template <Spec S>
Report search(const History<S>& h, const Budget& budget = {}) {
  validate(h);
  detail::BudgetMeter meter(budget);
  Report report;
  const auto search_members = [&](std::span<const std::size_t> members) {
    detail::SearchOutcome out = h.order == Order::real_time ? detail::search_real_time<S>(h, members, meter)
                                                            : detail::search_program_order<S>(h, members, meter);
    const auto to_ops = [&](const std::vector<std::uint32_t>& local) {
      std::vector<std::size_t> ops;
      ops.reserve(local.size());
      for (std::uint32_t i : local) ops.push_back(members[i]);
      return ops;
    };
    return std::tuple{out.verdict, to_ops(out.best), to_ops(out.blocked)};
  };
  const auto finish = [&](Verdict verdict) {
    report.verdict = verdict;
    if (verdict != Verdict::unknown) report.exhausted.clear();
    report.states = meter.states();
    report.seconds = meter.seconds();
    return report;
  };

  const auto groups = detail::partition_groups(h);
  std::vector<std::vector<std::size_t>> linearizations;
  for (const auto& [key, members] : groups) {
    auto [verdict, best, blocked] = search_members(members);
    if (verdict == Verdict::linearizable) {
      linearizations.push_back(std::move(best));
      continue;
    }
    // not linearizable, or cut short (the budget is spent: the partitions left would be too)
    report.partition = HasPartition<S> ? spec_partition_name<S>(key) : std::string();
    report.partition_key = key;
    report.best = std::move(best);
    report.blocked = std::move(blocked);
    report.exhausted = meter.exhausted();
    return finish(verdict);
  }
  if (groups.size() == 1) {
    report.best = std::move(linearizations.front());
    return finish(Verdict::linearizable);
  }
  if (auto merged = detail::merge_linearizations(h, linearizations)) {
    report.best = std::move(*merged);
    return finish(Verdict::linearizable);
  }
  if (h.order == Order::real_time) throw std::logic_error("lin: real_time partitions do not merge (checker bug)");
  // program_order: the partitions' orders do not fit together; decide on the whole history.
  std::vector<std::size_t> all(h.ops.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  auto [verdict, best, blocked] = search_members(all);
  report.best = std::move(best);
  report.blocked = std::move(blocked);
  report.exhausted = meter.exhausted();
  return finish(verdict);
}

}  // namespace lfcheck::lin
