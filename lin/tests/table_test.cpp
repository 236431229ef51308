// The failure table: its layout for a generated scenario (golden text), the window of a
// long real_time history around where the search stopped, and the partition note.
#include <gtest/gtest.h>

#include <string>

#include "lin/checker.hpp"
#include "lin/table.hpp"
#include "lin/tests/example_specs.hpp"
#include "lin/tests/random_history.hpp"
#include "lin/tests/test_support.hpp"

namespace {

using namespace lfcheck::lin;
using namespace lfcheck::lin::examples;
using namespace lfcheck::lin::testing_support;
using St = StackSpec;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Table, ScenarioWithPrefixSuffixBestAndBlocked) {
  const History<St> h = program_order<St>(
      {placed<St>(Phase::prefix, 0, {true, 1}, kVoid), placed<St>(Phase::parallel, 0, {true, 2}, kVoid),
       placed<St>(Phase::parallel, 0, {false, 0}, some(2)), placed<St>(Phase::parallel, 1, {false, 0}, kEmpty),
       placed<St>(Phase::suffix, 0, {false, 0}, some(1))});
  EXPECT_EQ(render_table(h, check(h)),
            "     | thread 0          | thread 1\n"
            "-----+-------------------+----------------\n"
            "init | push(1): void  #1 |\n"
            "-----+-------------------+----------------\n"
            "     | push(2): void  #2 | pop(): empty  ?\n"
            "     | pop(): 2  #3      |\n"
            "-----+-------------------+----------------\n"
            "post | pop(): 1          |\n"
            "no sequential order of these operations gives these results\n");
}

TEST(Table, LinearizableScenarioNumbersEveryOp) {
  const History<St> h = program_order<St>({placed<St>(Phase::parallel, 0, {false, 0}, some(5)),
                                           placed<St>(Phase::parallel, 1, {true, 5}, kVoid)});
  const std::string t = render_table(h, check(h));
  EXPECT_NE(t.find("pop(): 5  #2"), std::string::npos) << t;
  EXPECT_NE(t.find("push(5): void  #1"), std::string::npos) << t;
  EXPECT_EQ(t.substr(t.size() - 13), "linearizable\n") << t;
}

TEST(Table, LongRealTimeHistoryShowsTheWindowWhereTheSearchStopped) {
  Rng rng(3);
  History<St> h = random_real_time_history<St>(rng, 4, 300, bounded_container_calls(4));
  h.ops[200].result = some(100000);  // a value nobody pushed
  const Report r = check(h);
  ASSERT_EQ(r.verdict, Verdict::not_linearizable);
  ASSERT_EQ(r.blocked, (std::vector<std::size_t>{200}));
  const std::string t = render_table(h, r);
  EXPECT_NE(t.find("pop(): 100000  ?"), std::string::npos) << t;
  // header, rule, 40 rows, two elision notes, the words
  EXPECT_EQ(count(t, "\n"), 2u + kTableRows + 2 + 1) << t;
  const std::size_t before = t.find(" earlier rows elided)"), after = t.find(" later rows elided)");
  ASSERT_NE(before, std::string::npos) << t;
  ASSERT_NE(after, std::string::npos) << t;
  const auto number_before = [&](std::size_t at) {
    const std::size_t open = t.rfind('(', at);
    return std::stoul(t.substr(open + 1, at - open - 1));
  };
  EXPECT_EQ(number_before(before) + kTableRows + number_before(after), h.ops.size()) << t;
  EXPECT_NE(t.find("time "), std::string::npos) << t;
}

TEST(Table, AFailingPartitionShowsOnlyItsOps) {
  using Set = SetSpec;
  const History<Set> h = program_order<Set>(
      {placed<Set>(Phase::prefix, 0, {Set::Call::add, 2}, true), placed<Set>(Phase::prefix, 0, {Set::Call::add, 7}, true),
       placed<Set>(Phase::parallel, 0, {Set::Call::contains, 2}, true),
       placed<Set>(Phase::parallel, 1, {Set::Call::contains, 7}, false),
       placed<Set>(Phase::parallel, 1, {Set::Call::add, 4}, true)});
  const std::string t = render_table(h, check(h));
  EXPECT_EQ(t.find("add(2)"), std::string::npos) << t;
  EXPECT_NE(t.find("contains(7): false  ?"), std::string::npos) << t;
  EXPECT_NE(t.find("(only partition key=7: 2 of 5 operations)\n"
                   "no sequential order of these operations gives these results (partition key=7)\n"),
            std::string::npos)
      << t;
}

}  // namespace
