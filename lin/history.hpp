// A concurrent history: the operations that ran, each with its call, its result,
// the thread that ran it and what orders it against the others. Two orders:
//
//   Order::real_time      x precedes y iff x.response < y.invoke (the stamps come from one
//                         monotonic clock; equal stamps mean "overlapping"). Used for
//                         histories recorded on real threads. The relation is an interval
//                         order.
//   Order::program_order  generated scenarios (no clock): every prefix op precedes every op
//                         after it in ops and every parallel and suffix op; a parallel op is
//                         preceded by the prefix and by the earlier parallel ops of its own
//                         thread (by position in ops); ops of different threads in the
//                         parallel part are concurrent; every suffix op comes after every
//                         prefix and parallel op and after the earlier suffix ops. invoke
//                         and response are ignored. This order is not an interval order
//                         (threads A: a1;a2 and B: b1;b2 give a1 < a2, b1 < b2 and nothing
//                         else: the "2+2" order, which no assignment of intervals produces —
//                         interval orders are exactly the 2+2-free orders), so the checker
//                         reads it through precedes(), never through stamps.
//
// Guarantees: precedes() is the one definition of both orders (the checker and the
// permutation reference read it), and it is transitive as written, so restricting it to a
// subset of the ops (a partition) keeps every constraint between the ops of the subset.
// Cost: precedes() is O(1); predecessor_masks() is O(n²) for n <= 64 ops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace lfcheck::lin {

enum class Phase : std::uint8_t { prefix, parallel, suffix };

template <class S>
struct Operation {
  typename S::Call call{};
  typename S::Result result{};
  std::uint32_t thread = 0;              // the thread that ran it
  Phase phase = Phase::parallel;         // Order::program_order only
  std::uint64_t invoke = 0, response = 0;  // Order::real_time only: one monotonic clock (ns)
};

enum class Order : std::uint8_t { real_time, program_order };

template <class S>
struct History {
  Order order = Order::program_order;
  std::vector<Operation<S>> ops;
};

// True if ops[x] must be linearized before ops[y].
template <class S>
bool precedes(const History<S>& h, std::size_t x, std::size_t y) {
  if (x == y) return false;
  const Operation<S>& a = h.ops[x];
  const Operation<S>& b = h.ops[y];
  if (h.order == Order::real_time) return a.response < b.invoke;
  switch (a.phase) {
    case Phase::prefix: return b.phase != Phase::prefix || x < y;
    case Phase::parallel:
      return b.phase == Phase::suffix || (b.phase == Phase::parallel && a.thread == b.thread && x < y);
    case Phase::suffix: return b.phase == Phase::suffix && x < y;
  }
  return false;
}

// The most operations a program_order history (or one partition of it) may have: the
// search keeps the linearized set and each op's predecessors in one 64-bit mask.
inline constexpr std::size_t kMaxProgramOrderOps = 64;

// For the ops h.ops[members[0..n)], bit j of result[i] is set iff members[j] precedes
// members[i]. Throws std::length_error above kMaxProgramOrderOps members.
template <class S>
std::vector<std::uint64_t> predecessor_masks(const History<S>& h, std::span<const std::size_t> members) {
  if (members.size() > kMaxProgramOrderOps)
    throw std::length_error("lin: a program_order history (or partition) has " + std::to_string(members.size()) +
                            " operations; at most " + std::to_string(kMaxProgramOrderOps) + " are supported");
  std::vector<std::uint64_t> pred(members.size(), 0);
  for (std::size_t i = 0; i < members.size(); ++i)
    for (std::size_t j = 0; j < members.size(); ++j)
      if (precedes(h, members[j], members[i])) pred[i] |= std::uint64_t{1} << j;
  return pred;
}

// Throws std::invalid_argument for a real_time op that responds before it was invoked.
template <class S>
void validate(const History<S>& h) {
  if (h.order != Order::real_time) return;
  for (std::size_t i = 0; i < h.ops.size(); ++i)
    if (h.ops[i].response < h.ops[i].invoke)
      throw std::invalid_argument("lin: operation " + std::to_string(i) + " responds (" +
                                  std::to_string(h.ops[i].response) + ") before it is invoked (" +
                                  std::to_string(h.ops[i].invoke) + ")");
}

}  // namespace lfcheck::lin
