// Whether an order of a history's operations is a linearization: every operation once, no
// operation before one that precedes it (history.hpp), and the spec's model (spec_step)
// giving every operation the result it returned. The monitors' linearizations are
// believed only after this replay (lin/monitor.hpp); the checker's tests hold every
// witness to it.
// Cost: O(n) for real_time (the order is checked against the largest invocation so far),
// O(n^2) for program_order; plus n steps of the model.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lin/history.hpp"
#include "lin/spec.hpp"

namespace lfcheck::lin {

// "" if `order` is a linearization of h; else what is wrong with it.
template <Spec S>
std::string witness_problem(const History<S>& h, const std::vector<std::size_t>& order) {
  if (order.size() != h.ops.size())
    return "the order has " + std::to_string(order.size()) + " of " + std::to_string(h.ops.size()) + " operations";
  std::vector<bool> seen(h.ops.size(), false);
  std::size_t latest_invoked = 0;  // real_time: the op with the largest invoke placed so far
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t op = order[k];
    if (op >= h.ops.size() || seen[op]) return "operation " + std::to_string(op) + " repeated or invalid";
    seen[op] = true;
    if (h.order == Order::real_time) {
      if (k > 0 && h.ops[op].response < h.ops[latest_invoked].invoke)
        return "operation " + std::to_string(op) + " placed after operation " + std::to_string(latest_invoked) +
               ", which it precedes";
      if (k == 0 || h.ops[op].invoke > h.ops[latest_invoked].invoke) latest_invoked = op;
    } else {
      for (std::size_t x = 0; x < h.ops.size(); ++x)
        if (!seen[x] && precedes(h, x, op))
          return "operation " + std::to_string(op) + " placed before operation " + std::to_string(x) +
                 ", which precedes it";
    }
  }
  typename S::State state = S::initial();
  for (std::size_t i : order)
    if (!spec_step<S>(state, h.ops[i].call, h.ops[i].result))
      return "the model rejects the result of operation " + std::to_string(i) + " where the order places it";
  return "";
}

}  // namespace lfcheck::lin
