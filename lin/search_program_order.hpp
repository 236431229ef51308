// Wing–Gong search with Lowe's memoisation for Order::program_order (one partition of
// at most 64 ops).
//
// Design: op i may be linearized next once every op that precedes it (history.hpp) is
// linearized: with the predecessors of op i in the mask pred[i] and the linearized set in
// `done`, i is ready iff (pred[i] & ~done) == 0. This is the readiness rule of a general
// partial order; an interval rule ("invoked before the first pending response") would be
// wrong here, because the order of generated scenarios is not an interval order (2+2).
// The search is depth-first over ready ops, lowest index first; a (done, state) pair that
// was reached before is not explored again (it failed then: a success ends the search).
// Cost: per node, one copy and one step of the model state, one memo lookup and O(n) to
// find the ready ops; at most (number of order ideals) x (distinct states) nodes, far
// fewer than the n! orders of a permutation search.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "lin/history.hpp"
#include "lin/search_support.hpp"
#include "lin/spec.hpp"

namespace lfcheck::lin::detail {

template <Spec S>
SearchOutcome search_program_order(const History<S>& h, std::span<const std::size_t> members, BudgetMeter& meter) {
  using State = typename S::State;
  const std::size_t n = members.size();
  const std::vector<std::uint64_t> pred = predecessor_masks(h, members);
  const std::uint64_t all = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  const auto ready = [&](std::uint64_t done) {
    std::uint64_t r = 0;
    for (std::uint64_t rest = all & ~done; rest != 0; rest &= rest - 1) {
      const int i = std::countr_zero(rest);
      if ((pred[i] & ~done) == 0) r |= std::uint64_t{1} << i;
    }
    return r;
  };

  struct Frame {
    std::uint64_t done;     // the linearized set
    std::uint64_t untried;  // ready ops not tried yet from here
    std::uint32_t entry;    // memo entry holding the model state after `done`
    std::uint32_t op;       // the op this frame linearized (unused in the root)
  };
  std::vector<Frame> path;
  path.reserve(n + 1);
  MemoTable<State, std::uint64_t> memo(4 * n + 8);
  LongestPath longest(n);
  SearchOutcome out;
  State s;  // the candidate state: assigned, not constructed, so its storage is reused

  if (!meter.visit()) return out;
  {
    s = S::initial();
    const std::uint64_t hash = pair_hash(mix64(0), spec_state_hash<S>(s));
    const auto [slot, found] = memo.find(hash, [](const auto&) { return false; });
    (void)found;
    path.push_back({0, ready(0), static_cast<std::uint32_t>(memo.insert(slot, hash, 0, std::move(s))), 0});
  }
  const auto path_op = [&](std::size_t i) { return path[i + 1].op; };

  while (!path.empty()) {
    Frame& top = path.back();
    if (top.done == all) {
      out.verdict = Verdict::linearizable;
      for (std::size_t i = 1; i < path.size(); ++i) out.best.push_back(path[i].op);
      return out;
    }
    if (top.untried == 0) {
      path.pop_back();
      if (!path.empty()) longest.popped(path.size() - 1);
      continue;
    }
    const auto i = static_cast<std::uint32_t>(std::countr_zero(top.untried));
    top.untried &= top.untried - 1;
    const Operation<S>& op = h.ops[members[i]];
    s = memo[top.entry].state;
    if (!spec_step<S>(s, op.call, op.result)) continue;
    const std::uint64_t done = top.done | (std::uint64_t{1} << i);
    const std::uint64_t hash = pair_hash(mix64(done), spec_state_hash<S>(s));
    const auto [at, found] = memo.find(hash, [&](const auto& e) { return e.key == done && e.state == s; });
    if (found) continue;
    if (!meter.visit()) {
      out.best = longest.best();
      return out;
    }
    const auto entry = static_cast<std::uint32_t>(memo.insert(at, hash, done, std::move(s)));
    path.push_back({done, ready(done), entry, i});  // `top` is not used after this
    longest.pushed(path.size() - 2, i, path_op);
  }

  out.verdict = Verdict::not_linearizable;
  out.best = longest.best();
  std::uint64_t done = 0;
  for (std::uint32_t i : out.best) done |= std::uint64_t{1} << i;
  for (std::uint64_t r = ready(done); r != 0; r &= r - 1) out.blocked.push_back(std::countr_zero(r));
  return out;
}

}  // namespace lfcheck::lin::detail
