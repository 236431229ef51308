// Helpers for relaxed specs (lin/relaxed.hpp): k-out-of-order FIFO and LIFO.
//
// A k-out-of-order FIFO (quasi-linearizable, Afek, Korland and Yanovsky, OPODIS
// 2010; a k-relaxed queue in Henzinger et al., POPL 2013): a pop may return any of
// the k oldest values; k = 1 is a strict FIFO. With within_first a spec writes its
// step() and its out_of_order():
//
//   static bool step(State& s, const Call& c, const Result& r) {
//     if (c.op == Op::pop) {
//       const int at = lfcheck::spec::within_first(s, r.value, kK);   // s: oldest first
//       return at >= 0 && (s.erase(s.begin() + at), true);
//     }
//     ...
//   }
//   static unsigned out_of_order(const State& s, const Call& c, const Result& r) {
//     return c.op == Op::pop && r.ok ? lfcheck::spec::within_first(s, r.value, kK) : 0;
//   }
//   static constexpr unsigned out_of_order_bound = kK - 1;
//
// Exact with repeated values too: when v occurs more than once among the k oldest,
// removing any of those occurrences leaves the same multiset of the k oldest values
// and the same sequence behind them, and which later pops are allowed depends only
// on those two (a pop takes from the k oldest; the oldest value behind them moves
// up). So step() may remove the first occurrence and reject nothing another choice
// would accept. A k-out-of-order LIFO has no such property (which value drops out
// of the k newest when a push comes depends on their order), so its state is the
// set of stacks the history may have left (LifoStates below): a pop keeps every
// stack it can come from, and fails only when none can. The checker, which steps
// one state at a time, is then exact for it as well.
//
// A result exempt from checking (a documented non-linearizable empty()): step()
// returns true for it whatever it is, and leaves the state alone.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace lfcheck::spec {

// The position of the first v among the first k elements of seq (0: the front), or -1.
template <class Seq, class T>
int within_first(const Seq& seq, const T& v, unsigned k) {
  std::size_t i = 0;
  for (auto it = seq.begin(); it != seq.end() && i < k; ++it, ++i)
    if (*it == v) return static_cast<int>(i);
  return -1;
}

// The stacks (oldest first) a k-out-of-order LIFO may hold after a history: a pop
// of a value repeated among the k newest may have taken any of its copies, and the
// copies' places decide later pops. Kept sorted and without repeats, so two equal
// sets compare equal (the checker's memo), with hash() for the spec's hash. Every
// stack of the set has the same size (pushes and pops change all of them alike).
//   static State initial() { return {}; }                       // State = LifoStates<int>
//   step:  push: s.push(v); pop of v: return s.pop(v, kK);  pop of "empty": return s.empty();
//   out_of_order: s.depth_of(v, kK)   (call it on the state before the pop)
template <class T>
struct LifoStates {
  std::vector<std::vector<T>> stacks{std::vector<T>{}};

  bool operator==(const LifoStates&) const = default;
  bool empty() const { return stacks.front().empty(); }
  void push(const T& v) {
    for (auto& st : stacks) st.push_back(v);
    normalize();
  }
  // Takes v from among the k newest values of each stack that has it there, in every
  // way it can; false (the set unchanged) if no stack has it there.
  bool pop(const T& v, unsigned k) {
    std::vector<std::vector<T>> next;
    for (const auto& st : stacks)
      for (std::size_t i = 0; i < k && i < st.size(); ++i)
        if (st[st.size() - 1 - i] == v) {
          std::vector<T> taken = st;
          taken.erase(taken.end() - 1 - static_cast<std::ptrdiff_t>(i));
          next.push_back(std::move(taken));
        }
    if (next.empty()) return false;
    stacks = std::move(next);
    normalize();
    return true;
  }
  // How far below the top the least deep copy of v among the k newest is (0: the
  // top), over the stacks of the set; 0 if none has it there.
  unsigned depth_of(const T& v, unsigned k) const {
    unsigned best = k;
    for (const auto& st : stacks)
      for (std::size_t i = 0; i < k && i < st.size() && i < best; ++i)
        if (st[st.size() - 1 - i] == v) best = static_cast<unsigned>(i);
    return best == k ? 0 : best;
  }
  std::size_t hash() const {
    std::size_t h = 0x9e3779b97f4a7c15ull;
    for (const auto& st : stacks)
      for (const T& v : st) h = (h ^ std::hash<T>{}(v)) * 0x100000001b3ull;
    return h ^ stacks.size();
  }

 private:
  void normalize() {
    std::sort(stacks.begin(), stacks.end());
    stacks.erase(std::unique(stacks.begin(), stacks.end()), stacks.end());
  }
};

}  // namespace lfcheck::spec
