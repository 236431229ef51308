// The plain permutation search: depth-first over every order of the ops that the
// history's order allows, replaying each prefix through the spec, with no memo and no
// partitions. It is the reference the checker is tested against (it shares only
// precedes() with it) and the baseline of the lin_checker benchmark.
//
// Guarantees: the same verdicts as check() (linearizable with a witness in best /
// not_linearizable / unknown when the Budget runs out), with best = the longest
// sequence reached. Report::blocked stays empty.
// Cost: up to n! nodes (the number of linear extensions of the order, pruned only where
// the model rejects a result); O(n) per node to find the ops that may come next. Memory:
// one frame (a model state and two words) per op on the path, on the heap: the call
// stack's depth does not grow with the history (lin/tests/deep_history_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
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

  // Depth-first, one frame per op on the path, kept on the heap (not the call stack: a
  // 10,000-op history is 10,000 frames deep). A frame holds the model state after the
  // path so far, the first response still unplaced (real_time), and the next op to try.
  struct Frame {
    typename S::State state;
    std::uint64_t first_response = ~std::uint64_t{0};
    std::size_t next = 0;
  };
  std::vector<Frame> frames;
  frames.reserve(n + 1);
  // real_time: an op may come next iff it was invoked no later than every response
  // still unplaced (x precedes it iff x.response < its invoke).
  const auto enter = [&](typename S::State state) {
    Frame f{std::move(state)};
    if (h.order == Order::real_time)
      for (std::size_t x = 0; x < n; ++x)
        if (!placed[x] && h.ops[x].response < f.first_response) f.first_response = h.ops[x].response;
    frames.push_back(std::move(f));
  };

  bool found = false;
  if (meter.visit()) enter(S::initial());
  while (!frames.empty() && meter.exhausted().empty()) {
    if (path.size() == n) {
      found = true;
      break;
    }
    Frame& top = frames.back();
    bool descended = false;
    for (; top.next < n; ++top.next) {
      const std::size_t i = top.next;
      if (placed[i]) continue;
      if (h.order == Order::program_order ? (pred[i] & ~placed_mask) != 0 : h.ops[i].invoke > top.first_response) continue;
      typename S::State next = top.state;
      if (!spec_step<S>(next, h.ops[i].call, h.ops[i].result)) continue;
      if (!meter.visit()) break;
      ++top.next;  // resumes after i when the search comes back here
      placed[i] = true;
      placed_mask |= i < 64 ? std::uint64_t{1} << i : 0;
      path.push_back(i);
      longest.pushed(path.size() - 1, static_cast<std::uint32_t>(i), [&](std::size_t k) {
        return static_cast<std::uint32_t>(path[k]);
      });
      enter(std::move(next));  // `top` is not used after this
      descended = true;
      break;
    }
    if (descended || !meter.exhausted().empty()) continue;
    frames.pop_back();  // every op was tried from here: back to the op before
    if (path.empty()) break;
    const std::size_t i = path.back();
    path.pop_back();
    longest.popped(path.size());
    placed[i] = false;
    placed_mask &= i < 64 ? ~(std::uint64_t{1} << i) : ~std::uint64_t{0};
  }
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
