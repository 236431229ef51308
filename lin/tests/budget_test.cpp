// A search cut short by its budget says `unknown`, never a verdict: for every state
// budget below what the full search needs, and for a spent time budget, in both orders,
// for linearizable and non-linearizable histories alike.
#include <gtest/gtest.h>

#include "lin/checker.hpp"
#include "lin/permutation_search.hpp"
#include "lin/tests/example_specs.hpp"
#include "lin/tests/random_history.hpp"
#include "lin/tests/test_support.hpp"

namespace {

using namespace lfcheck::lin;
using namespace lfcheck::lin::examples;

// Every budget of 1..needed-1 states gives unknown; `needed` gives the full verdict.
template <class S>
void expect_unknown_below_need(const History<S>& h, Verdict full) {
  const Report complete = check(h);
  ASSERT_EQ(complete.verdict, full) << render_table(h, complete);
  ASSERT_GT(complete.states, 2u);
  for (std::uint64_t b = 1; b < complete.states; ++b) {
    const Report r = check(h, Budget{b, 60});
    EXPECT_EQ(r.verdict, Verdict::unknown) << "max_states " << b << " of " << complete.states << "\n"
                                           << render_table(h, r);
    EXPECT_EQ(r.states, b);
    EXPECT_EQ(r.exhausted, "max_states " + std::to_string(b));
  }
  EXPECT_EQ(check(h, Budget{complete.states, 60}).verdict, full);
  EXPECT_EQ(check(h, Budget{complete.states, 0}).verdict, Verdict::unknown);  // no time at all
}

// A history that needs some search: concurrent pushes, then pops in an order.
History<StackSpec> stack_history(bool linearizable) {
  using namespace testing_support;
  using St = StackSpec;
  std::vector<Operation<St>> ops;
  for (int v = 1; v <= 4; ++v) ops.push_back(timed<St>(static_cast<std::uint32_t>(v), {true, v}, kVoid, 0, 10));
  const int order[] = {2, 4, 1, 3};
  for (int k = 0; k < 4; ++k)
    ops.push_back(timed<St>(0, {false, 0}, some(order[k] == 3 && !linearizable ? 2 : order[k]), 11 + 2 * k, 12 + 2 * k));
  return real_time<St>(std::move(ops));
}

TEST(Budget, RealTimeUnknownBelowNeed) {
  expect_unknown_below_need(stack_history(true), Verdict::linearizable);
  expect_unknown_below_need(stack_history(false), Verdict::not_linearizable);
}

TEST(Budget, ProgramOrderUnknownBelowNeed) {
  Rng rng(7);
  History<QueueSpec> h = random_scenario<QueueSpec>(rng, 1, {3, 3, 3}, 1);
  expect_unknown_below_need(h, Verdict::linearizable);
  h.ops.back().result = some(9);  // the suffix deq() returns a value never enqueued
  expect_unknown_below_need(h, Verdict::not_linearizable);
}

TEST(Budget, PartitionsShareOneBudgetAndTheCutOneIsNamed) {
  using namespace testing_support;
  using Set = SetSpec;
  std::vector<Operation<Set>> ops;
  for (std::uint8_t k = 0; k < 4; ++k) {
    ops.push_back(timed<Set>(0, {Set::Call::add, k}, true, 10u * k, 10u * k + 5));
    ops.push_back(timed<Set>(1, {Set::Call::contains, k}, true, 10u * k + 1, 10u * k + 6));
  }
  const History<Set> h = real_time<Set>(ops);
  const Report complete = check(h);
  ASSERT_EQ(complete.verdict, Verdict::linearizable);
  const Report r = check(h, Budget{complete.states - 1, 60});
  EXPECT_EQ(r.verdict, Verdict::unknown);
  EXPECT_EQ(r.partition, "key=3");
  EXPECT_EQ(r.words(), "unknown: budget exhausted after " + std::to_string(complete.states - 1) +
                           " states (max_states " + std::to_string(complete.states - 1) + ", partition key=3)");
}

TEST(Budget, ASmallFailingPartitionIsFoundBeforeALargeOneSpendsTheBudget) {
  // Partition 0 (six concurrent adds) would spend the 6 states alone; partition 1 (two
  // ops, "added" twice) is checked first because it is smaller, and fails.
  using namespace testing_support;
  using Set = SetSpec;
  std::vector<Operation<Set>> ops;
  for (int i = 0; i < 6; ++i) ops.push_back(timed<Set>(static_cast<std::uint32_t>(i), {Set::Call::add, 0}, i == 0, 0, 9));
  ASSERT_GT(check(real_time<Set>(ops)).states, 6u);
  ops.push_back(timed<Set>(1, {Set::Call::add, 1}, true, 10, 11));
  ops.push_back(timed<Set>(1, {Set::Call::add, 1}, true, 12, 13));
  const History<Set> h = real_time<Set>(ops);
  const Report r = check(h, Budget{6, 60});
  EXPECT_EQ(r.verdict, Verdict::not_linearizable) << render_table(h, r);
  EXPECT_EQ(r.partition, "key=1");
}

TEST(Budget, PermutationSearchIsCutShortToo) {
  const History<StackSpec> h = stack_history(false);
  EXPECT_EQ(permutation_search(h, Budget{3, 60}).verdict, Verdict::unknown);
  EXPECT_EQ(permutation_search(h).verdict, Verdict::not_linearizable);
}

}  // namespace
