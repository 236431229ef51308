// Helpers of the checker's tests: short builders for operations, gtest printing of
// verdicts, the seed and replay line of randomized tests, and expect_verdict (every
// witness held to lin/witness.hpp).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "lin/checker.hpp"
#include "lin/history.hpp"
#include "lin/permutation_search.hpp"
#include "lin/table.hpp"
#include "lin/witness.hpp"

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

// The seed of a randomized test: LFCHECK_LIN_SEED, else a random one; printed first.
inline std::uint64_t test_seed() {
  const char* env = std::getenv("LFCHECK_LIN_SEED");
  const std::uint64_t seed = env ? std::strtoull(env, nullptr, 10) : std::random_device{}();
  std::printf("seed: %llu\n", static_cast<unsigned long long>(seed));
  return seed;
}

// "case N; replay: LFCHECK_LIN_SEED=S lfcheck-lin-tests --gtest_filter=<this test>".
inline std::string replay(std::uint64_t seed, std::size_t case_number) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return "case " + std::to_string(case_number) + "; replay: LFCHECK_LIN_SEED=" + std::to_string(seed) +
         " lfcheck-lin-tests --gtest_filter=" + info->test_suite_name() + "." + info->name() + "\n";
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
