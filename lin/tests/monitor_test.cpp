// The monitors on hand-made histories: each kind of violation with the words and the table
// a user sees; where the monitor declines and the search decides (and the note says why);
// a wrong collection declaration caught by the replay; program order; budgets; and long
// histories no search could decide, with valid linearizations.
#include <gtest/gtest.h>

#include <string>

#include "lin/checker.hpp"
#include "lin/table.hpp"
#include "lin/tests/collection_specs.hpp"
#include "lin/tests/random_history.hpp"
#include "lin/tests/test_support.hpp"
#include "lin/witness.hpp"

namespace {

using namespace lfcheck::lin;
using namespace lfcheck::lin::examples;
using namespace lfcheck::lin::testing_support;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// expect_verdict (the search, and for small histories the permutation search, agree),
// decided by `algorithm`, with `words` in its explanation (or note, for the search).
template <class S>
Report decided(const History<S>& h, Verdict verdict, const std::string& algorithm, const std::string& words = "") {
  const Report r = expect_verdict(h, verdict);
  EXPECT_EQ(r.algorithm, algorithm) << r.note;
  const std::string& said = algorithm == "search" ? r.note : r.explanation;
  EXPECT_TRUE(has(said, words)) << said;
  return r;
}

using Q = QueueCollection;
using St = StackCollection;
using PQ = PriorityQueueSpec;

TEST(Monitor, QueueOrderViolationIsTwoValues) {
  // enq(1) returns before enq(2) is invoked, deq() -> 2 returns before deq() -> 1 is
  // invoked: 1 is ahead of 2, and 2 leaves first. Plus unrelated traffic.
  const auto h = real_time<Q>({timed<Q>(0, put(1), kVoid, 0, 1), timed<Q>(1, put(2), kVoid, 2, 3),
                               timed<Q>(2, put(3), kVoid, 2, 30), timed<Q>(0, take(), some(2), 4, 5),
                               timed<Q>(1, take(), some(1), 6, 7), timed<Q>(2, take(), some(3), 31, 32)});
  const Report r = expect_verdict(h, Verdict::not_linearizable);
  EXPECT_EQ(r.algorithm, "queue monitor");
  EXPECT_EQ(r.focus.size(), 4u);  // the two values' enqueues and dequeues
  const std::string table = render_table(h, r);
  EXPECT_TRUE(has(table, "(only the operations no order explains, even on their own: 4 of 6)")) << table;
  EXPECT_TRUE(has(table,
                  "queue monitor: two values leave the queue in no order: enq(1): void (thread 0) returned "
                  "before enq(2): void (thread 1) was invoked"))
      << table;
  EXPECT_FALSE(has(table, "enq(3)")) << table;
}

// The monitor's not-linearizable stands only once the search confirms its core: a search
// out of budget on the core leaves the history unknown, never a violation the search did
// not see (docs/lin.md: only the search's answer stands).
TEST(Monitor, AnUnconfirmedCoreIsUnknown) {
  const auto h = real_time<Q>({timed<Q>(0, put(1), kVoid, 0, 1), timed<Q>(1, put(2), kVoid, 2, 3),
                               timed<Q>(0, take(), some(2), 4, 5), timed<Q>(1, take(), some(1), 6, 7)});
  const Report r = check(h, Budget{1, 60});  // one search state: the core cannot be decided
  EXPECT_EQ(r.verdict, Verdict::unknown) << r.words();
  EXPECT_EQ(r.algorithm, "queue monitor");
  EXPECT_TRUE(has(r.note, "could not confirm")) << r.note;
  EXPECT_EQ(check(h, Budget{1000, 60}).verdict, Verdict::not_linearizable);  // with room: confirmed
}

// A budget that ends inside the stack monitor's core trim (found by a red team): the
// core is the one of the last peel that finished, never empty. One thread: push(1),
// push(2), 600 push/pop pairs, then pop -> 1 (wrong: 2 is on top) and pop -> 2; a time
// budget of 0 ends at the first clock check (tick 1024), inside the first reverse peel.
TEST(Monitor, ABudgetCutInsideTheStackTrimKeepsTheCore) {
  History<St> h;
  h.order = Order::real_time;
  std::uint64_t t = 0;
  const auto add = [&](bool push, int v, Value r) {
    Operation<St> o;
    o.call = {push, push ? v : 0};
    o.result = r;
    o.invoke = t++;
    o.response = t++;
    h.ops.push_back(o);
  };
  add(true, 1, kVoid);
  add(true, 2, kVoid);
  for (int i = 0; i < 600; ++i) {
    add(true, 10 + i, kVoid);
    add(false, 0, some(10 + i));
  }
  add(false, 0, some(1));
  add(false, 0, some(2));
  const monitors::Collected col = monitors::collect(h);
  detail::BudgetMeter meter(Budget{10'000'000, 0});
  const auto m = monitor_detail::run(col.history, meter);
  if (m.outcome == monitors::Outcome::not_linearizable)
    EXPECT_FALSE(m.core.empty()) << m.why;
}

TEST(Monitor, QueueEmptyWhileHeld) {
  const auto h = real_time<Q>(
      {timed<Q>(0, put(1), kVoid, 0, 1), timed<Q>(1, take(), kEmpty, 2, 3), timed<Q>(0, take(), some(1), 4, 5)});
  decided(h, Verdict::not_linearizable, "queue monitor",
          "deq(): empty (thread 1) found the queue empty, but throughout it the queue certainly "
          "held the value inserted by enq(1): void (thread 0) (removed by deq(): 1 (thread 0))");
}

TEST(Monitor, QueueEmptyConcurrentWithItsEnqueueIsFine) {
  const auto h = real_time<Q>(
      {timed<Q>(0, put(1), kVoid, 0, 10), timed<Q>(1, take(), kEmpty, 2, 3), timed<Q>(1, take(), some(1), 4, 12)});
  decided(h, Verdict::linearizable, "queue monitor");
}

TEST(Monitor, StackPopOutOfOrder) {
  // push(1) then push(2), one after the other; pops return 1 then 2, one after the other.
  const auto h = real_time<St>({timed<St>(0, put(1), kVoid, 0, 1), timed<St>(0, put(2), kVoid, 2, 3),
                                timed<St>(1, take(), some(1), 4, 5), timed<St>(1, take(), some(2), 6, 7)});
  decided(h, Verdict::not_linearizable, "stack monitor", "no order nests the pushes and pops of 2 values");
}

TEST(Monitor, StackPopEmptyWhileHeld) {
  // treiber.pop_gives_up's shape: a pop says empty while a value stays in the stack.
  const auto h = real_time<St>(
      {timed<St>(0, put(1), kVoid, 0, 1), timed<St>(1, take(), kEmpty, 2, 3), timed<St>(0, take(), some(1), 4, 5)});
  decided(h, Verdict::not_linearizable, "stack monitor", "found the stack empty");
}

TEST(Monitor, PriorityQueueSmallerHeld) {
  const auto h = real_time<PQ>({timed<PQ>(0, put(5), kVoid, 0, 1), timed<PQ>(0, put(3), kVoid, 2, 3),
                                timed<PQ>(1, take(), some(5), 4, 5), timed<PQ>(1, take(), some(3), 6, 7)});
  decided(h, Verdict::not_linearizable, "priority queue monitor",
          "remove_min(): 5 (thread 1) took out a value while a smaller one was certainly held");
}

TEST(Monitor, SetMissingWhileThere) {
  using Set = SetCollection;
  const auto h = real_time<Set>({timed<Set>(0, {Set::Call::add, 4}, true, 0, 1),
                                 timed<Set>(1, {Set::Call::contains, 4}, false, 2, 3),
                                 timed<Set>(0, {Set::Call::remove, 4}, true, 4, 5)});
  decided(h, Verdict::not_linearizable, "set monitor",
          "contains(4): false (thread 1) saw its value missing from the set");
}

TEST(Monitor, RefusedDuplicateAddIsAnObservation) {
  using Set = SetCollection;
  const auto h =
      real_time<Set>({timed<Set>(0, {Set::Call::add, 4}, true, 0, 5), timed<Set>(1, {Set::Call::add, 4}, false, 1, 6),
                      timed<Set>(1, {Set::Call::remove, 4}, true, 7, 8)});
  decided(h, Verdict::linearizable, "set monitor");
}

TEST(Monitor, DeclinesARepeatedValueAndSaysWhy) {
  const auto h = real_time<Q>({timed<Q>(0, put(1), kVoid, 0, 1), timed<Q>(1, put(1), kVoid, 2, 3),
                               timed<Q>(0, take(), some(1), 4, 5), timed<Q>(1, take(), some(1), 6, 7)});
  decided(h, Verdict::linearizable, "search",
          "the queue monitor does not apply: enq(1): void (thread 0) and enq(1): void (thread 1) "
          "insert the same value");
}

TEST(Monitor, DeclinesAnOperationOutsideTheType) {
  // A take that returned nothing (Value::none) is not a stack operation.
  const auto h = real_time<St>({timed<St>(0, put(1), kVoid, 0, 1), timed<St>(1, take(), kVoid, 2, 3)});
  const Report r = check(h);
  EXPECT_EQ(r.algorithm, "search");
  EXPECT_TRUE(has(r.note, "pop(): void (thread 1) is not a stack operation")) << r.note;
}

// A queue's model declared a stack: the stack monitor linearizes a LIFO history, the
// queue model rejects that order, and the search decides.
struct MisdeclaredQueue : QueueCollection {
  static constexpr Collection collection = Collection::stack;
};

TEST(Monitor, AWrongDeclarationIsCaughtByTheReplay) {
  using M = MisdeclaredQueue;
  const auto h = real_time<M>({timed<M>(0, put(1), kVoid, 0, 1), timed<M>(0, put(2), kVoid, 2, 3),
                               timed<M>(1, take(), some(2), 4, 5), timed<M>(1, take(), some(1), 6, 7)});
  const Report r = check(h);
  EXPECT_EQ(r.verdict, Verdict::not_linearizable);  // FIFO: 1 must leave first
  EXPECT_EQ(r.algorithm, "search");
  EXPECT_TRUE(has(r.note, "the stack monitor's linearization fails the spec's replay")) << r.note;
}

TEST(Monitor, ProgramOrderIsSearched) {
  const auto h =
      program_order<Q>({placed<Q>(Phase::parallel, 0, put(1), kVoid), placed<Q>(Phase::parallel, 1, take(), some(1))});
  const Report r = check(h);
  EXPECT_EQ(r.verdict, Verdict::linearizable);
  EXPECT_EQ(r.algorithm, "search");
  EXPECT_EQ(r.note, "");
}

// 100,000-call histories holding about 2,000 values in an order the history leaves open:
// far past what the search decides (see the lin_checker benchmark), checked here with
// linearizations that pass the replay. Not timed (speed: bench/lin_monitor_bench.cpp).
template <class S>
void long_history_passes(std::uint64_t seed) {
  Rng rng(seed);
  const History<S> h = random_real_time_history<S>(rng, 8, 100000, bounded_container_calls(2000));
  const Report r = check(h, Budget{1000, 60});
  ASSERT_EQ(r.verdict, Verdict::linearizable) << r.words() << "\n" << r.note;
  EXPECT_NE(r.algorithm, "search");
  EXPECT_EQ(witness_problem(h, r.best), "");
  History<S> broken = h;
  for (auto& op : broken.ops)
    if (op.result.kind == Value::some) {  // the first value taken is taken again
      broken.ops.back().call = take();
      broken.ops.back().result = op.result;
      break;
    }
  const Report b = check(broken, Budget{1000, 60});
  EXPECT_EQ(b.verdict, Verdict::not_linearizable) << b.words();
  EXPECT_LE(b.focus.size(), 3u);
}

TEST(Monitor, LongQueueHistory) { long_history_passes<QueueCollection>(11); }
TEST(Monitor, LongStackHistory) { long_history_passes<StackCollection>(12); }
TEST(Monitor, LongPriorityQueueHistory) { long_history_passes<PriorityQueueSpec>(13); }

TEST(Monitor, OutOfTimeIsUnknown) {
  Rng rng(5);
  const History<Q> h = random_real_time_history<Q>(rng, 8, 200000, bounded_container_calls(64));
  const Report r = check(h, Budget{1000, 0});
  EXPECT_EQ(r.verdict, Verdict::unknown);
  EXPECT_EQ(r.algorithm, "queue monitor");
  EXPECT_TRUE(has(r.words(), "max_seconds 0")) << r.words();
}

}  // namespace
