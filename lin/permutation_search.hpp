// The plain permutation search: depth-first over every order of the ops that the
// history's order allows, replaying each prefix through the spec, with no memo and no
// partitions. It is the reference the checker is tested against (it shares only
// precedes() with it) and the baseline of the lin_checker benchmark.
//
// Guarantees: the same verdicts as check() (linearizable with a witness in best /
// not_linearizable / unknown when the Budget runs out), with best = the longest
// sequence reached. Report::blocked stays empty.
// Cost: up to n! nodes (the number of linear extensions of the order, pruned only where
// the model rejects a result); O(n) per node to find the ops that may come next.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "lin/history.hpp"
#include "lin/report.hpp"
#include "lin/search_support.hpp"
#include "lin/spec.hpp"

namespace lfcheck::lin {

template <Spec S>
Report permutation_search(const History<S>& h, const Budget& budget = {}) {
  validate(h);
  const std::size_t n = h.ops.size();
  std::vector<std::size_t> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = i;
  const std::vector<std::uint64_t> pred =
      h.order == Order::program_order ? predecessor_masks(h, all) : std::vector<std::uint64_t>{};
  detail::BudgetMeter meter(budget);
  std::vector<bool> placed(n, false);
  std::uint64_t placed_mask = 0;  // program_order
  std::vector<std::size_t> path;
  detail::LongestPath longest(n);
  Report report;

  // true: a complete order was found (path holds it); false: none below this node,
  // or the budget ran out (meter.exhausted() then says so).
  const auto dfs = [&](auto& self, const typename S::State& state) -> bool {
    if (path.size() == n) return true;
    // real_time: an op may come next iff it was invoked no later than every response
    // still unplaced (x precedes it iff x.response < its invoke).
    std::uint64_t first_response = ~std::uint64_t{0};
    if (h.order == Order::real_time)
      for (std::size_t x = 0; x < n; ++x)
        if (!placed[x] && h.ops[x].response < first_response) first_response = h.ops[x].response;
    for (std::size_t i = 0; i < n; ++i) {
      if (placed[i]) continue;
      if (h.order == Order::program_order ? (pred[i] & ~placed_mask) != 0 : h.ops[i].invoke > first_response) continue;
      typename S::State next = state;
      if (!spec_step<S>(next, h.ops[i].call, h.ops[i].result)) continue;
      if (!meter.visit()) return false;
      placed[i] = true;
      placed_mask |= i < 64 ? std::uint64_t{1} << i : 0;
      path.push_back(i);
      longest.pushed(path.size() - 1, static_cast<std::uint32_t>(i), [&](std::size_t k) {
        return static_cast<std::uint32_t>(path[k]);
      });
      if (self(self, next)) return true;
      path.pop_back();
      longest.popped(path.size());
      placed[i] = false;
      placed_mask &= i < 64 ? ~(std::uint64_t{1} << i) : ~std::uint64_t{0};
      if (!meter.exhausted().empty()) return false;
    }
    return false;
  };

  bool found = false;
  if (meter.visit()) found = dfs(dfs, S::initial());
  if (found)
    report.verdict = Verdict::linearizable;
  else if (!meter.exhausted().empty()) {
    report.verdict = Verdict::unknown;
    report.exhausted = meter.exhausted();
  } else
    report.verdict = Verdict::not_linearizable;
  report.best.assign(longest.best().begin(), longest.best().end());
  report.states = meter.states();
  report.seconds = meter.seconds();
  return report;
}

}  // namespace lfcheck::lin
