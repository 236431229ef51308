// Hand-made program_order (generated-scenario) histories with known answers: the
// prefix/parallel/suffix rules, 2+2 orders that a check through intervals gets wrong,
// stack/queue classics, partitions (and why passing partitions are not enough in this
// order), and the 64-op limit.
#include <gtest/gtest.h>

#include "lin/checker.hpp"
#include "lin/tests/example_specs.hpp"
#include "lin/tests/test_support.hpp"

namespace {

using namespace lfcheck::lin;
using namespace lfcheck::lin::examples;
using namespace lfcheck::lin::testing_support;

using Reg = RegisterSpec;
constexpr Phase kPre = Phase::prefix, kPar = Phase::parallel, kPost = Phase::suffix;

TEST(ProgramOrder, ThreadsOfTheParallelPartInterleaveFreely) {
  expect_verdict(program_order<Reg>({placed<Reg>(kPar, 0, read(), 1), placed<Reg>(kPar, 1, write(1), 0)}),
                 Verdict::linearizable);
}

TEST(ProgramOrder, OwnThreadOrderHolds) {
  expect_verdict(program_order<Reg>({placed<Reg>(kPar, 0, write(1), 0), placed<Reg>(kPar, 0, read(), 0)}),
                 Verdict::not_linearizable);
}

TEST(ProgramOrder, PrefixComesFirst) {
  // The prefix write(1) precedes the parallel read, whichever thread either ran on.
  expect_verdict(program_order<Reg>({placed<Reg>(kPre, 0, write(1), 0), placed<Reg>(kPar, 1, read(), 0)}),
                 Verdict::not_linearizable);
  expect_verdict(program_order<Reg>({placed<Reg>(kPre, 0, write(1), 0), placed<Reg>(kPre, 0, write(2), 0),
                                     placed<Reg>(kPar, 1, read(), 1)}),
                 Verdict::not_linearizable);
}

TEST(ProgramOrder, SuffixComesLast) {
  expect_verdict(program_order<Reg>({placed<Reg>(kPar, 0, write(2), 0), placed<Reg>(kPar, 1, write(3), 0),
                                     placed<Reg>(kPost, 0, read(), 3)}),
                 Verdict::linearizable);
  expect_verdict(program_order<Reg>({placed<Reg>(kPar, 0, write(2), 0), placed<Reg>(kPost, 1, read(), 0)}),
                 Verdict::not_linearizable);
}

TEST(ProgramOrder, TwoPlusTwoThatRowsWouldForbid) {
  // A: read()->2, read()->2   B: write(1), write(2). The only order is B's two writes,
  // then A's reads: A's first op comes after B's second. Any interval embedding of the
  // rows (row k of every thread before row k+1) puts A's first read before write(2).
  expect_verdict(program_order<Reg>({placed<Reg>(kPar, 0, read(), 2), placed<Reg>(kPar, 0, read(), 2),
                                     placed<Reg>(kPar, 1, write(1), 0), placed<Reg>(kPar, 1, write(2), 0)}),
                 Verdict::linearizable);
}

TEST(ProgramOrder, TwoPlusTwoWithBothThreadsEachWaitingForTheOther) {
  // A: write(1), read()->2   B: write(2), read()->1: each read needs the other thread's
  // write after its own: w1 < w2 < r->1 is impossible, and so is w2 < w1 < r->2.
  expect_verdict(program_order<Reg>({placed<Reg>(kPar, 0, write(1), 0), placed<Reg>(kPar, 0, read(), 2),
                                     placed<Reg>(kPar, 1, write(2), 0), placed<Reg>(kPar, 1, read(), 1)}),
                 Verdict::not_linearizable);
  // ...but one of them may read its own write: w1, w2, r->2 (A), then B must read 2.
  expect_verdict(program_order<Reg>({placed<Reg>(kPar, 0, write(1), 0), placed<Reg>(kPar, 0, read(), 2),
                                     placed<Reg>(kPar, 1, write(2), 0), placed<Reg>(kPar, 1, read(), 2)}),
                 Verdict::linearizable);
}

TEST(ProgramOrderStack, PopEmptyWhileAValueWasThereTheWholeTime) {
  using St = StackSpec;
  const History<St> h = program_order<St>({placed<St>(kPre, 0, put(1), kVoid), placed<St>(kPar, 0, put(2), kVoid),
                                           placed<St>(kPar, 0, take(), some(2)), placed<St>(kPar, 1, take(), kEmpty)});
  const Report r = expect_verdict(h, Verdict::not_linearizable);
  EXPECT_EQ(r.blocked, (std::vector<std::size_t>{3})) << render_table(h, r);
}

TEST(ProgramOrderStack, ConcurrentPopsSplitTheValues) {
  using St = StackSpec;
  expect_verdict(program_order<St>({placed<St>(kPre, 0, put(1), kVoid), placed<St>(kPre, 0, put(2), kVoid),
                                    placed<St>(kPar, 0, take(), some(1)), placed<St>(kPar, 1, take(), some(2)),
                                    placed<St>(kPost, 0, take(), kEmpty)}),
                 Verdict::linearizable);
  expect_verdict(program_order<St>({placed<St>(kPre, 0, put(1), kVoid), placed<St>(kPre, 0, put(2), kVoid),
                                    placed<St>(kPar, 0, take(), some(2)), placed<St>(kPar, 1, take(), some(2))}),
                 Verdict::not_linearizable);
}

TEST(ProgramOrderQueue, FifoAcrossThreads) {
  using Q = QueueSpec;
  // Each thread enqueues two values in order; a suffix drains: 1 before 2 and 3 before 4.
  const auto scenario = [](int first, int second, int third, int fourth) {
    return program_order<Q>({placed<Q>(kPar, 0, put(1), kVoid), placed<Q>(kPar, 0, put(2), kVoid),
                             placed<Q>(kPar, 1, put(3), kVoid), placed<Q>(kPar, 1, put(4), kVoid),
                             placed<Q>(kPost, 0, take(), some(first)), placed<Q>(kPost, 0, take(), some(second)),
                             placed<Q>(kPost, 0, take(), some(third)), placed<Q>(kPost, 0, take(), some(fourth))});
  };
  expect_verdict(scenario(3, 1, 4, 2), Verdict::linearizable);
  expect_verdict(scenario(1, 3, 2, 4), Verdict::linearizable);
  expect_verdict(scenario(2, 1, 3, 4), Verdict::not_linearizable);
  expect_verdict(scenario(1, 4, 3, 2), Verdict::not_linearizable);
}

using Set = SetSpec;
Set::Call add(int k) { return {Set::Call::add, static_cast<std::uint8_t>(k)}; }
Set::Call contains(int k) { return {Set::Call::contains, static_cast<std::uint8_t>(k)}; }

TEST(ProgramOrderSet, TheFailingPartitionIsNamed) {
  const History<Set> h = program_order<Set>({placed<Set>(kPre, 0, add(2), true), placed<Set>(kPre, 0, add(7), true),
                                             placed<Set>(kPar, 0, contains(2), true),
                                             placed<Set>(kPar, 1, contains(7), false),  // 7 was added before
                                             placed<Set>(kPar, 1, add(4), true)});
  const Report r = expect_verdict(h, Verdict::not_linearizable);
  EXPECT_EQ(r.partition, "key=7");
}

TEST(ProgramOrderRegisters, PassingPartitionsAreNotEnough) {
  // A: wx(1); ry()->0   B: wy(1); rx()->0. Each register alone is fine (the read before
  // the write), but no single order fits: sequential consistency is not local, so the
  // checker must fall back to the whole history.
  using R2 = RegistersSpec;
  const auto wx = R2::Call{0, true, 1}, wy = R2::Call{1, true, 1}, rx = R2::Call{0, false, 0}, ry = R2::Call{1, false, 0};
  const History<R2> h = program_order<R2>({placed<R2>(kPar, 0, wx, 0), placed<R2>(kPar, 0, ry, 0),
                                           placed<R2>(kPar, 1, wy, 0), placed<R2>(kPar, 1, rx, 0)});
  const Report r = expect_verdict(h, Verdict::not_linearizable);
  EXPECT_EQ(r.partition, "");
  EXPECT_EQ(r.words(), "no sequential order of these operations gives these results");
  // With one read seeing the other thread's write, the partitions' orders merge.
  History<R2> ok = h;
  ok.ops[3].result = 1;
  expect_verdict(ok, Verdict::linearizable);
}

TEST(ProgramOrderBag, NonDeterministicTakeThroughStep) {
  using B = BagSpec;
  // One thread takes 2 and then 1, though apply() would take 1 first.
  expect_verdict(program_order<B>({placed<B>(kPre, 0, put(1), kVoid), placed<B>(kPre, 0, put(2), kVoid),
                                   placed<B>(kPar, 0, take(), some(2)), placed<B>(kPar, 0, take(), some(1)),
                                   placed<B>(kPar, 1, take(), kEmpty)}),
                 Verdict::linearizable);
  expect_verdict(program_order<B>({placed<B>(kPre, 0, put(1), kVoid), placed<B>(kPar, 0, take(), some(1)),
                                   placed<B>(kPar, 1, take(), some(1))}),
                 Verdict::not_linearizable);
}

TEST(ProgramOrderInput, MoreThan64OpsInOnePartitionIsRejected) {
  History<Reg> h;
  for (int i = 0; i < 65; ++i) h.ops.push_back(placed<Reg>(kPar, static_cast<std::uint32_t>(i % 3), write(i), 0));
  EXPECT_THROW(check(h), std::length_error);
  h.ops.pop_back();
  EXPECT_EQ(check(h).verdict, Verdict::linearizable);
}

}  // namespace
