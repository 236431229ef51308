// Randomized self-check: random histories that are linearizable by construction
// (random_history.hpp) must be found linearizable, with a witness that checks out;
// the same histories with one result changed must get exactly the verdict of the plain
// permutation search (which has no memo, no partitions and no event list). Every test
// prints its seed first; LFCHECK_LIN_SEED=S replays one.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>

#include "lin/checker.hpp"
#include "lin/permutation_search.hpp"
#include "lin/tests/example_specs.hpp"
#include "lin/tests/random_history.hpp"
#include "lin/tests/test_support.hpp"

namespace {

using namespace lfcheck::lin;
using namespace lfcheck::lin::examples;

using testing_support::replay;
using testing_support::test_seed;

template <class S>
History<S> small_history(Rng& rng, Order order) {
  if (order == Order::real_time)
    return random_real_time_history<S>(rng, 2 + static_cast<std::uint32_t>(rng() % 3), 1 + rng() % 8);
  std::vector<std::size_t> per_thread(2 + rng() % 2);
  for (auto& k : per_thread) k = 1 + rng() % 4;
  return random_scenario<S>(rng, rng() % 3, per_thread, rng() % 3);
}

template <class S>
void self_check(Order order, std::size_t cases) {
  const std::uint64_t seed = test_seed();
  Rng rng(seed);
  std::size_t mutated = 0, still_linearizable = 0;
  for (std::size_t c = 0; c < cases && !::testing::Test::HasFailure(); ++c) {
    const History<S> h = small_history<S>(rng, order);
    const Report r = check(h);
    ASSERT_EQ(r.verdict, Verdict::linearizable) << replay(seed, c) << render_table(h, r);
    ASSERT_EQ(witness_problem(h, r.best), "") << replay(seed, c) << render_table(h, r);

    History<S> m = h;
    if (mutate_one_result(m, rng) == m.ops.size()) continue;
    ++mutated;
    const Report rm = check(m);
    const Report reference = permutation_search(m);
    ASSERT_NE(reference.verdict, Verdict::unknown);
    ASSERT_EQ(rm.verdict, reference.verdict) << replay(seed, c) << "the checker says:\n"
                                             << render_table(m, rm) << "the permutation search says:\n"
                                             << render_table(m, reference);
    if (rm.verdict == Verdict::linearizable) {
      ++still_linearizable;
      ASSERT_EQ(witness_problem(m, rm.best), "") << replay(seed, c) << render_table(m, rm);
    }
  }
  std::printf("%zu histories, %zu mutated: %zu still linearizable, %zu not\n", cases, mutated, still_linearizable,
              mutated - still_linearizable);
  // Not vacuous: the mutations produce both answers, and mostly "not".
  EXPECT_GT(mutated - still_linearizable, mutated / 4);
  EXPECT_GT(still_linearizable, 0u);
}

// Longer generated histories (no reference: too many orders): linearizable, witness valid.
// Containers hold few values at a time (bounded_container_calls): with many values in an
// open order the search is exponential (see the lin_checker benchmark) and a budget
// would make this test flaky.
template <class S>
History<S> long_real_time_history(Rng& rng) {
  const auto threads = 2 + static_cast<std::uint32_t>(rng() % 4);
  const std::size_t ops = 50 + rng() % 1000;
  if constexpr (std::is_same_v<typename S::Call, ContainerCall>)
    return random_real_time_history<S>(rng, threads, ops, bounded_container_calls(4));
  else
    return random_real_time_history<S>(rng, threads, ops);
}

template <class S>
void long_histories_pass(Order order, std::size_t cases) {
  const std::uint64_t seed = test_seed();
  Rng rng(seed);
  for (std::size_t c = 0; c < cases; ++c) {
    const History<S> h = order == Order::real_time
                             ? long_real_time_history<S>(rng)
                             : random_scenario<S>(rng, rng() % 4, {1 + rng() % 5, 1 + rng() % 5, 1 + rng() % 5}, rng() % 4);
    const Report r = check(h);
    ASSERT_EQ(r.verdict, Verdict::linearizable) << replay(seed, c) << render_table(h, r);
    ASSERT_EQ(witness_problem(h, r.best), "") << replay(seed, c) << render_table(h, r);
  }
}

template <class S>
class SelfCheck : public ::testing::Test {};
using Specs = ::testing::Types<RegisterSpec, QueueSpec, StackSpec, SetSpec, RegistersSpec, BagSpec, CollidingStackSpec>;
class SpecNames {
 public:
  template <class S>
  static std::string GetName(int i) {
    static const char* const names[] = {"register", "queue", "stack", "set", "registers", "bag", "colliding_stack"};
    return names[i];
  }
};
TYPED_TEST_SUITE(SelfCheck, Specs, SpecNames);

TYPED_TEST(SelfCheck, RealTimeAgreesWithPermutationSearch) { self_check<TypeParam>(Order::real_time, 10000); }
TYPED_TEST(SelfCheck, ProgramOrderAgreesWithPermutationSearch) { self_check<TypeParam>(Order::program_order, 10000); }
TYPED_TEST(SelfCheck, LongRealTimeHistoriesPass) { long_histories_pass<TypeParam>(Order::real_time, 40); }
TYPED_TEST(SelfCheck, LargestScenariosPass) { long_histories_pass<TypeParam>(Order::program_order, 300); }

}  // namespace
