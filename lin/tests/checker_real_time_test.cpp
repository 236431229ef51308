// Hand-made real_time histories with known answers: register, FIFO queue, LIFO stack,
// the tie rule, overlaps that only one order explains, a partitioned set, a
// non-deterministic spec through step(), and malformed input.
#include <gtest/gtest.h>

#include "lin/checker.hpp"
#include "lin/tests/example_specs.hpp"
#include "lin/tests/test_support.hpp"

namespace {

using namespace lfcheck::lin;
using namespace lfcheck::lin::examples;
using namespace lfcheck::lin::testing_support;

using Reg = RegisterSpec;

TEST(RealTimeRegister, ReadSeesAConcurrentWrite) {
  // write(1) overlaps both reads: it can fall between them.
  expect_verdict(real_time<Reg>({timed<Reg>(0, write(1), 0, 0, 10), timed<Reg>(1, read(), 0, 1, 2),
                                 timed<Reg>(1, read(), 1, 3, 4)}),
                 Verdict::linearizable);
}

TEST(RealTimeRegister, StaleReadAfterTheWriteReturned) {
  expect_verdict(real_time<Reg>({timed<Reg>(0, write(1), 0, 0, 1), timed<Reg>(1, read(), 0, 2, 3)}),
                 Verdict::not_linearizable);
}

TEST(RealTimeRegister, NewOldInversion) {
  // A read sees 1, a later read (by another thread) sees 0 again: the write cannot be
  // both before the first and after the second.
  expect_verdict(real_time<Reg>({timed<Reg>(0, write(1), 0, 0, 10), timed<Reg>(1, read(), 1, 1, 2),
                                 timed<Reg>(2, read(), 0, 3, 4)}),
                 Verdict::not_linearizable);
}

TEST(RealTimeRegister, EqualStampsOverlap) {
  // x precedes y only if x.response < y.invoke: a read invoked at the write's response
  // stamp may still come first; one stamp later it may not.
  expect_verdict(real_time<Reg>({timed<Reg>(0, write(1), 0, 0, 5), timed<Reg>(1, read(), 0, 5, 6)}),
                 Verdict::linearizable);
  expect_verdict(real_time<Reg>({timed<Reg>(0, write(1), 0, 0, 5), timed<Reg>(1, read(), 0, 6, 7)}),
                 Verdict::not_linearizable);
}

TEST(RealTimeQueue, ConcurrentEnqueuesInEitherOrder) {
  using Q = QueueSpec;
  expect_verdict(real_time<Q>({timed<Q>(0, put(1), kVoid, 0, 10), timed<Q>(1, put(2), kVoid, 1, 11),
                               timed<Q>(2, take(), some(2), 12, 13), timed<Q>(2, take(), some(1), 14, 15)}),
                 Verdict::linearizable);
}

TEST(RealTimeQueue, FifoViolated) {
  using Q = QueueSpec;
  expect_verdict(real_time<Q>({timed<Q>(0, put(1), kVoid, 0, 1), timed<Q>(0, put(2), kVoid, 2, 3),
                               timed<Q>(1, take(), some(2), 4, 5)}),
                 Verdict::not_linearizable);
}

TEST(RealTimeQueue, EmptyWhileAValueWaited) {
  using Q = QueueSpec;
  expect_verdict(real_time<Q>({timed<Q>(0, put(1), kVoid, 0, 1), timed<Q>(1, take(), kEmpty, 2, 3),
                               timed<Q>(1, take(), some(1), 4, 5)}),
                 Verdict::not_linearizable);
}

TEST(RealTimeQueue, DequeueOfAConcurrentEnqueue) {
  using Q = QueueSpec;
  expect_verdict(real_time<Q>({timed<Q>(0, take(), some(1), 0, 10), timed<Q>(1, put(1), kVoid, 1, 2)}),
                 Verdict::linearizable);
}

TEST(RealTimeRegister, OnlyOneOrderOfTheOverlapWorks) {
  // write(1) is invoked first, so the search tries it first and must back out: only
  // write(2), read()->2, write(1), read()->1 explains the results.
  const History<Reg> h = real_time<Reg>({timed<Reg>(0, write(1), 0, 0, 10), timed<Reg>(1, write(2), 0, 1, 3),
                                         timed<Reg>(1, read(), 2, 4, 5), timed<Reg>(2, read(), 1, 11, 12)});
  const Report r = expect_verdict(h, Verdict::linearizable);
  EXPECT_EQ(r.best, (std::vector<std::size_t>{1, 2, 0, 3}));
}

TEST(RealTimeStack, PopEmptyWhileAValueWasThereTheWholeTime) {
  // push(1) returned before anything else began and 1 is never popped, so the stack is
  // never empty after it, whatever the overlapping push(2)/pop() did.
  using St = StackSpec;
  const History<St> h = real_time<St>({timed<St>(0, put(1), kVoid, 0, 1), timed<St>(0, put(2), kVoid, 2, 5),
                                       timed<St>(0, take(), some(2), 6, 7), timed<St>(1, take(), kEmpty, 3, 8)});
  const Report r = expect_verdict(h, Verdict::not_linearizable);
  EXPECT_EQ(r.blocked, (std::vector<std::size_t>{3})) << render_table(h, r);
}

TEST(RealTimeStack, PopEmptyBeforeAConcurrentPush) {
  using St = StackSpec;
  expect_verdict(real_time<St>({timed<St>(0, put(1), kVoid, 0, 10), timed<St>(1, take(), kEmpty, 1, 2),
                                timed<St>(1, take(), some(1), 11, 12)}),
                 Verdict::linearizable);
}

TEST(RealTimeStack, LifoViolated) {
  using St = StackSpec;
  expect_verdict(real_time<St>({timed<St>(0, put(1), kVoid, 0, 1), timed<St>(0, put(2), kVoid, 2, 3),
                                timed<St>(1, take(), some(1), 4, 5)}),
                 Verdict::not_linearizable);
}

TEST(RealTimeStack, ConcurrentPushesInTheOrderThePopsNeed) {
  using St = StackSpec;
  expect_verdict(real_time<St>({timed<St>(0, put(1), kVoid, 0, 10), timed<St>(1, put(2), kVoid, 1, 11),
                                timed<St>(2, take(), some(1), 12, 13), timed<St>(2, take(), some(2), 14, 15)}),
                 Verdict::linearizable);
}

TEST(RealTimeStack, DuplicatedPop) {
  using St = StackSpec;
  expect_verdict(real_time<St>({timed<St>(0, put(1), kVoid, 0, 1), timed<St>(1, take(), some(1), 2, 4),
                                timed<St>(2, take(), some(1), 3, 5)}),
                 Verdict::not_linearizable);
}

using Set = SetSpec;
Set::Call add(int k) { return {Set::Call::add, static_cast<std::uint8_t>(k)}; }
Set::Call remove(int k) { return {Set::Call::remove, static_cast<std::uint8_t>(k)}; }
Set::Call contains(int k) { return {Set::Call::contains, static_cast<std::uint8_t>(k)}; }

TEST(RealTimeSet, PartitionsPassAndMergeIntoOneWitness) {
  const History<Set> h = real_time<Set>({timed<Set>(0, add(1), true, 0, 10), timed<Set>(1, add(2), true, 1, 3),
                                         timed<Set>(1, contains(1), true, 4, 6), timed<Set>(2, remove(2), true, 5, 12),
                                         timed<Set>(0, contains(2), false, 13, 14), timed<Set>(2, add(1), false, 13, 15)});
  const Report r = expect_verdict(h, Verdict::linearizable);
  EXPECT_EQ(r.partition, "");
}

TEST(RealTimeSet, TheFailingPartitionIsNamed) {
  const History<Set> h = real_time<Set>({timed<Set>(0, add(1), true, 0, 1), timed<Set>(1, add(3), true, 0, 2),
                                         timed<Set>(0, contains(1), true, 3, 4), timed<Set>(1, remove(3), true, 3, 5),
                                         timed<Set>(2, contains(3), true, 6, 7),  // 3 was removed before
                                         timed<Set>(2, add(5), true, 8, 9)});
  const Report r = expect_verdict(h, Verdict::not_linearizable);
  EXPECT_EQ(r.partition, "key=3");
  EXPECT_EQ(r.words(), "no sequential order of these operations gives these results (partition key=3)");
  for (std::size_t i : r.best) EXPECT_EQ(h.ops[i].call.key, 3);
  EXPECT_EQ(r.blocked, (std::vector<std::size_t>{4}));
}

TEST(RealTimeRegisters, ADefaultPartitionNameIsNotSaidTwice) {
  // RegistersSpec has no show_partition: the key is shown as "partition N".
  using R2 = RegistersSpec;
  const History<R2> h = real_time<R2>({timed<R2>(0, R2::Call{1, true, 1}, 0, 0, 1), timed<R2>(1, R2::Call{1, false, 0}, 0, 2, 3)});
  const Report r = expect_verdict(h, Verdict::not_linearizable);
  EXPECT_EQ(r.partition, "partition 1");
  EXPECT_EQ(r.words(), "no sequential order of these operations gives these results (partition 1)");
}

TEST(RealTimeBag, NonDeterministicTakeThroughStep) {
  // take() may return any value held: 2 before 1 is fine, though apply() would take 1.
  using B = BagSpec;
  expect_verdict(real_time<B>({timed<B>(0, put(1), kVoid, 0, 1), timed<B>(0, put(2), kVoid, 2, 3),
                               timed<B>(1, take(), some(2), 4, 5), timed<B>(1, take(), some(1), 6, 7)}),
                 Verdict::linearizable);
  expect_verdict(real_time<B>({timed<B>(0, put(1), kVoid, 0, 1), timed<B>(1, take(), some(3), 2, 3)}),
                 Verdict::not_linearizable);
  expect_verdict(real_time<B>({timed<B>(0, put(1), kVoid, 0, 1), timed<B>(1, take(), kEmpty, 2, 3)}),
                 Verdict::not_linearizable);
}

TEST(RealTimeInput, EmptyHistoryIsLinearizable) { expect_verdict(real_time<Reg>({}), Verdict::linearizable); }

TEST(RealTimeInput, ResponseBeforeInvokeIsRejected) {
  EXPECT_THROW(check(real_time<Reg>({timed<Reg>(0, write(1), 0, 5, 4)})), std::invalid_argument);
}

}  // namespace
