// Treiber stack properties: a RapidCheck state machine against a sequential
// model (a bounded vector used as a stack). RapidCheck shrinks a failure to a
// minimal command sequence and prints how to reproduce it (RC_PARAMS).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "property_tests/fault_selection.hpp"
#include "structures/treiber/treiber_stack.hpp"

namespace lfcheck {
namespace {

constexpr std::uint32_t kCapacity = 6;

struct StackModel {
  std::vector<std::uint64_t> values;  // bottom first
  std::vector<std::uint64_t> top_down() const { return {values.rbegin(), values.rend()}; }
};

template <TreiberFault F>
using Stack = TreiberStack<std::uint64_t, StdSync, F>;

template <TreiberFault F>
using Command = rc::state::Command<StackModel, Stack<F>>;

template <TreiberFault F>
struct Push : Command<F> {
  std::uint64_t value = *rc::gen::arbitrary<std::uint64_t>();
  void apply(StackModel& m) const override {
    if (m.values.size() < kCapacity) m.values.push_back(value);
  }
  void run(const StackModel& m, Stack<F>& s) const override {
    RC_ASSERT(s.push(value) == (m.values.size() < kCapacity));
    RC_ASSERT(s.check_invariants() == nullptr);
  }
  void show(std::ostream& os) const override { os << "push(" << value << ")"; }
};

template <TreiberFault F>
struct Pop : Command<F> {
  void apply(StackModel& m) const override {
    if (!m.values.empty()) m.values.pop_back();
  }
  void run(const StackModel& m, Stack<F>& s) const override {
    std::uint64_t v = 0;
    const bool got = s.pop(v);
    RC_ASSERT(got == !m.values.empty());
    if (got) RC_ASSERT(v == m.values.back());
    RC_ASSERT(s.check_invariants() == nullptr);
  }
  void show(std::ostream& os) const override { os << "pop()"; }
};

template <TreiberFault F>
struct TakeAll : Command<F> {
  void apply(StackModel& m) const override { m.values.clear(); }
  void run(const StackModel& m, Stack<F>& s) const override {
    std::vector<std::uint64_t> got;
    RC_ASSERT(s.take_all([&](std::uint64_t v) { got.push_back(v); }) == m.values.size());
    RC_ASSERT(got == m.top_down());
    RC_ASSERT(s.check_invariants() == nullptr);
  }
  void show(std::ostream& os) const override { os << "take_all()"; }
};

template <TreiberFault F>
struct Traverse : Command<F> {
  void run(const StackModel& m, Stack<F>& s) const override {
    std::vector<std::uint64_t> got;
    s.for_each([&](std::uint64_t v) { got.push_back(v); });
    RC_ASSERT(got == m.top_down());
    RC_ASSERT(s.empty() == m.values.empty());
  }
  void show(std::ostream& os) const override { os << "for_each()"; }
};

TEST(treiber, state_machine_matches_sequential_stack) {
  with_selected_fault<TreiberFault>([](auto fault) {
    constexpr TreiberFault F = decltype(fault)::value;
    const bool ok = rc::check("treiber stack agrees with a sequential stack", [] {
      StackModel model;
      Stack<F> stack(kCapacity);
      rc::state::check(model, stack,
                       rc::state::gen::execOneOfWithArgs<Push<F>, Pop<F>, TakeAll<F>, Traverse<F>>());
    });
    EXPECT_TRUE(ok);
  });
}

}  // namespace
}  // namespace lfcheck
