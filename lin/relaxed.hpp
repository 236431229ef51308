// What the checker says of a relaxed spec: how far out of order the history went.
//
// A structure whose contract is weaker than a strict FIFO or LIFO (a pop may return
// any of the k values nearest the end it pops from; a documented non-linearizable
// empty()) declares that contract with step() (spec.hpp): the checker then stays
// exact for the relaxation, as for any spec. To have it report how much of the
// freedom a history used, the spec also declares
//   static unsigned out_of_order(const State& before, const Call&, const Result& observed);
//       0 for what the strict order gives, d for a result d places from it (a pop
//       that took the value d places behind the front); called only on steps that
//       step() accepted
//   static constexpr unsigned out_of_order_bound = ...;   // the largest d allowed (k - 1)
// (specs/relaxed.hpp has the position helpers for k-out-of-order FIFO and LIFO).
//
// worst_out_of_order(h, report): the largest d over the linearization the checker
// found (Report::best; a linearizable verdict only). It is that order's figure: another
// linearization of the same history may need less, none needs more than the bound.
// Cost: one replay of the linearization, O(n) steps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lin/history.hpp"
#include "lin/report.hpp"
#include "lin/spec.hpp"

namespace lfcheck::lin {

template <class S>
concept HasOutOfOrder = requires(const typename S::State& s, const typename S::Call& c, const typename S::Result& r) {
  { S::out_of_order(s, c, r) } -> std::convertible_to<unsigned>;
  { S::out_of_order_bound } -> std::convertible_to<unsigned>;
};

struct OutOfOrder {
  bool measured = false;  // a relaxed spec and a linearizable verdict
  unsigned worst = 0;     // the largest out_of_order over the linearization found
  std::size_t op = 0;     // the op that had it (index into the history's ops)
  unsigned bound = 0;     // the spec's out_of_order_bound
  std::string words() const {
    if (!measured) return "";
    return "relaxed spec: the worst result of the linearization found is " + std::to_string(worst) +
           " place" + (worst == 1 ? "" : "s") + " out of order (the spec allows " + std::to_string(bound) + ")";
  }
};

template <class S>
OutOfOrder worst_out_of_order(const History<S>& h, const Report& report) {
  OutOfOrder out;
  if constexpr (HasOutOfOrder<S>) {
    if (report.verdict != Verdict::linearizable) return out;
    out.measured = true;
    out.bound = S::out_of_order_bound;
    // A partitioned spec's linearization is the partitions' orders merged: each
    // partition starts from initial(), so replay each key's ops on its own state.
    std::vector<std::pair<std::uint64_t, typename S::State>> states;
    for (std::size_t i : report.best) {
      const auto& op = h.ops[i];
      const std::uint64_t key = spec_partition<S>(op.call);
      auto it = states.begin();
      while (it != states.end() && it->first != key) ++it;
      if (it == states.end()) it = states.insert(states.end(), {key, S::initial()});
      const unsigned d = S::out_of_order(it->second, op.call, op.result);
      if (d > out.worst) {
        out.worst = d;
        out.op = i;
      }
      spec_step<S>(it->second, op.call, op.result);
    }
  }
  return out;
}

}  // namespace lfcheck::lin
