// Helpers of the checker's tests: short builders for operations, gtest printing of
// verdicts, and the independent validation of a witness (Report::best of a
// linearizable verdict must be an order of every op that the history's order allows
// and in which the spec gives every op its result).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "lin/checker.hpp"
#include "lin/history.hpp"
#include "lin/permutation_search.hpp"
#include "lin/table.hpp"

namespace lfcheck::lin {

inline std::ostream& operator<<(std::ostream& os, Verdict v) {
  return os << (v == Verdict::linearizable ? "linearizable" : v == Verdict::not_linearizable ? "not_linearizable" : "unknown");
}

namespace testing_support {

// An op of a real_time history.
template <class S>
Operation<S> timed(std::uint32_t thread, typename S::Call call, typename S::Result result, std::uint64_t invoke,
                   std::uint64_t response) {
  return {call, result, thread, Phase::parallel, invoke, response};
}

// An op of a program_order history.
template <class S>
Operation<S> placed(Phase phase, std::uint32_t thread, typename S::Call call, typename S::Result result) {
  return {call, result, thread, phase, 0, 0};
}

template <class S>
History<S> real_time(std::vector<Operation<S>> ops) {
  return History<S>{Order::real_time, std::move(ops)};
}
template <class S>
History<S> program_order(std::vector<Operation<S>> ops) {
  return History<S>{Order::program_order, std::move(ops)};
}

// "" if order is a linearization of h (every op once, the order respected, every result
// the model's); else what is wrong with it.
template <class S>
std::string witness_problem(const History<S>& h, const std::vector<std::size_t>& order) {
  if (order.size() != h.ops.size()) return "the witness has " + std::to_string(order.size()) + " of " +
                                             std::to_string(h.ops.size()) + " ops";
  std::vector<bool> seen(h.ops.size(), false);
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (order[k] >= h.ops.size() || seen[order[k]]) return "op " + std::to_string(order[k]) + " repeated or invalid";
    seen[order[k]] = true;
    for (std::size_t x = 0; x < h.ops.size(); ++x)
      if (!seen[x] && precedes(h, x, order[k]))
        return "op " + std::to_string(order[k]) + " placed before op " + std::to_string(x) + ", which precedes it";
  }
  typename S::State state = S::initial();
  for (std::size_t i : order)
    if (!spec_step<S>(state, h.ops[i].call, h.ops[i].result))
      return "the model rejects the result of op " + std::to_string(i) + " where the witness places it";
  return "";
}

// Checks h, expects `expected`, validates a witness, and (for small h) asks the
// permutation search for the same verdict. Returns the report.
template <class S>
Report expect_verdict(const History<S>& h, Verdict expected) {
  const Report r = check(h);
  EXPECT_EQ(r.verdict, expected) << render_table(h, r);
  if (r.verdict == Verdict::linearizable) {
    EXPECT_EQ(witness_problem(h, r.best), "") << render_table(h, r);
  }
  if (h.ops.size() <= 10) {
    const Report reference = permutation_search(h);
    EXPECT_EQ(reference.verdict, expected) << "permutation search disagrees\n" << render_table(h, r);
  }
  return r;
}

}  // namespace testing_support
}  // namespace lfcheck::lin
