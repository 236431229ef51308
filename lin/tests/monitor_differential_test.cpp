// The monitors (lin/monitor/*.hpp) held to the exact search (lin/search.hpp), which is
// itself held to the plain permutation search (random_selfcheck_test.cpp): on random small
// real-time histories of every collection type (collection_history.hpp: linearizable and
// not, empty removes, heavy overlap, values removed before their insert returns, refused
// duplicate adds), the monitor's own answer — not lin::monitor()'s, which would hide a
// monitor's mistake behind its fallbacks — must be the search's:
//   - linearizable: the search agrees, and the monitor's order is a linearization
//     (lin/witness.hpp: real-time order and the spec's model);
//   - not linearizable: the search agrees, and finds the monitor's core not linearizable
//     on its own;
//   - does_not_apply only where the history inserts a value twice (sets: re-adds).
// lin::check() (the monitor with its fallbacks) must agree with the search too.
//
// Histories per type: LFCHECK_LIN_DIFFERENTIAL_HISTORIES (default 20,000; the nightly's
// ctest test lin.monitor_differential runs 1,000,000), and a twentieth of that many
// medium ones (MonitorDifferentialMedium: up to 200 calls, 8 threads). Each test prints its seed first;
// LFCHECK_LIN_SEED=S replays it; a disagreement prints the history and the replay line.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "lin/checker.hpp"
#include "lin/monitor.hpp"
#include "lin/search.hpp"
#include "lin/table.hpp"
#include "lin/tests/collection_history.hpp"
#include "lin/tests/collection_specs.hpp"
#include "lin/tests/random_history.hpp"
#include "lin/tests/test_support.hpp"
#include "lin/witness.hpp"

namespace {

using namespace lfcheck::lin;
using namespace lfcheck::lin::examples;
namespace mon = lfcheck::lin::monitors;

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v ? std::strtoull(v, nullptr, 10) : fallback;
}

using testing_support::replay;
using testing_support::test_seed;

const char* outcome_name(mon::Outcome o) {
  switch (o) {
    case mon::Outcome::linearizable:
      return "linearizable";
    case mon::Outcome::not_linearizable:
      return "not linearizable";
    case mon::Outcome::does_not_apply:
      return "does not apply";
    case mon::Outcome::out_of_time:
      return "out of time";
  }
  return "?";
}

template <class S>
std::string describe(const History<S>& h, const mon::MonitorOutcome& m) {
  std::string out = "the monitor says " + std::string(outcome_name(m.outcome)) + ": " +
                    mon::render_refs(m.why, [&](std::uint32_t i) { return monitor_detail::op_name(h, i); }) + "\n";
  Report exact = search(h, Budget{2'000'000, 20});
  out += "the search says:\n" + render_table(h, exact);
  return out;
}

struct Tally {
  std::uint64_t histories = 0, linearizable = 0, not_linearizable = 0, declined = 0, with_empty = 0;
};

// Small histories (random_shape: up to 9 calls, 2-5 threads), or medium ones: 20-200 calls
// from 2-8 threads, containers holding a few values at a time, so that the search still
// decides them while the monitors work through many windows, peels and frees.
template <class S>
History<S> differential_history(Rng& rng, bool medium) {
  CollectionShape shape = random_shape(rng);
  if (medium) {
    shape.threads = 2 + static_cast<std::uint32_t>(rng() % 7);
    shape.ops = 20 + rng() % 181;
    shape.keys = 2 + static_cast<int>(rng() % 60);
  }
  History<S> h;
  if constexpr (std::is_same_v<typename S::Call, ContainerCall>) {
    if (medium) {
      h = random_real_time_history<S>(rng, shape.threads, shape.ops,
                                      bounded_container_calls(1 + static_cast<int>(rng() % 4)));
    }
  }
  if (h.ops.empty()) h = linearizable_collection_history<S>(rng, shape);
  if constexpr (std::is_same_v<S, IdleQueue>) {
    // Small: half the empty removes made idle, and a quarter more calls that are idle,
    // anywhere. Medium: a sixteenth more (each idle call the search must place
    // multiplies its states: with a quarter, some medium histories took it 20 s).
    if (!medium)
      for (auto& op : h.ops)
        if (!op.call.put && op.result.kind == Value::empty && rng() % 2 == 0) {
          op.call = IdleQueue::kIdle;
          op.result = kVoid;
        }
    const std::size_t idle = h.ops.size() / (medium ? 16 : 4);
    for (std::size_t i = 0; i < idle; ++i) {
      Operation<S> op;
      op.call = IdleQueue::kIdle;
      op.result = kVoid;
      op.thread = static_cast<std::uint32_t>(rng() % 4);
      const std::uint64_t end = h.ops.empty() ? 1 : h.ops.back().response + 1;
      op.invoke = rng() % end;
      op.response = op.invoke + rng() % 4;
      h.ops.push_back(op);
    }
  }
  if (rng() % 2 == 0)
    for (int attempt = 0; attempt < 8 && !mutate_collection_history(h, rng); ++attempt) {
    }
  return h;
}

template <class S>
void differential(std::uint64_t cases, bool medium = false) {
  const std::uint64_t seed = test_seed();
  Rng rng(seed);
  Tally t;
  for (std::uint64_t c = 0; c < cases && !::testing::Test::HasFailure(); ++c) {
    const History<S> h = differential_history<S>(rng, medium);
    const Report exact = search(h, Budget{2'000'000, 20});
    if (exact.verdict == Verdict::unknown) continue;  // beyond the search: no reference
    ++t.histories;
    mon::Collected collected = mon::collect(h);
    const mon::MonitorOutcome m = collected.answer ? *collected.answer : [&] {
      detail::BudgetMeter meter(Budget{});
      return monitor_detail::run(collected.history, meter);
    }();
    for (const auto& op : h.ops)
      if (S::abstract(op.call, op.result).kind == Abstract::remove_empty) {
        ++t.with_empty;
        break;
      }
    switch (m.outcome) {
      case mon::Outcome::linearizable: {
        ++t.linearizable;
        ASSERT_EQ(exact.verdict, Verdict::linearizable) << replay(seed, c) << describe(h, m);
        std::vector<std::uint32_t> placed(m.order);  // with the no_effect calls, as lin::monitor() does
        mon::place_no_effect(collected.history, placed);
        const std::vector<std::size_t> order(placed.begin(), placed.end());
        ASSERT_EQ(witness_problem(h, order), "") << replay(seed, c) << describe(h, m);
        break;
      }
      case mon::Outcome::not_linearizable: {
        ++t.not_linearizable;
        ASSERT_EQ(exact.verdict, Verdict::not_linearizable) << replay(seed, c) << describe(h, m);
        History<S> core;
        core.order = h.order;
        std::vector<std::uint32_t> ops(m.core);
        std::sort(ops.begin(), ops.end());
        ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
        for (std::uint32_t i : ops) core.ops.push_back(h.ops[i]);
        ASSERT_EQ(search(core).verdict, Verdict::not_linearizable)
            << replay(seed, c) << "the monitor's core is linearizable on its own\n"
            << describe(h, m);
        break;
      }
      case mon::Outcome::does_not_apply:
        ++t.declined;
        break;
      case mon::Outcome::out_of_time:
        FAIL() << replay(seed, c) << "out of time with no time budget";
    }
    const Report glued = check(h, Budget{2'000'000, 20});
    ASSERT_EQ(glued.verdict, exact.verdict) << replay(seed, c) << "check() disagrees with the search\n"
                                            << render_table(h, glued);
  }
  std::printf(
      "%llu histories: the monitor decided %llu linearizable and %llu not, declined %llu; %llu had an empty remove\n",
      static_cast<unsigned long long>(t.histories), static_cast<unsigned long long>(t.linearizable),
      static_cast<unsigned long long>(t.not_linearizable), static_cast<unsigned long long>(t.declined),
      static_cast<unsigned long long>(t.with_empty));
  // Not vacuous: both verdicts, mostly decided by the monitor.
  EXPECT_GT(t.linearizable, t.histories / 5);
  EXPECT_GT(t.not_linearizable, t.histories / 10);
  EXPECT_LT(t.declined, t.histories / 2);
}

std::uint64_t histories() { return env_or("LFCHECK_LIN_DIFFERENTIAL_HISTORIES", 20000); }
std::uint64_t medium_histories() { return histories() / 20; }

TEST(MonitorDifferential, Queue) { differential<QueueCollection>(histories()); }
TEST(MonitorDifferential, Stack) { differential<StackCollection>(histories()); }
TEST(MonitorDifferential, PriorityQueue) { differential<PriorityQueueSpec>(histories()); }
TEST(MonitorDifferential, Set) { differential<SetCollection>(histories()); }
TEST(MonitorDifferential, Multiset) { differential<MultisetSpec>(histories()); }
TEST(MonitorDifferential, QueueWithIdleCalls) { differential<IdleQueue>(histories()); }

}  // namespace

TEST(MonitorDifferentialMedium, Queue) { differential<QueueCollection>(medium_histories(), true); }
TEST(MonitorDifferentialMedium, Stack) { differential<StackCollection>(medium_histories(), true); }
TEST(MonitorDifferentialMedium, PriorityQueue) { differential<PriorityQueueSpec>(medium_histories(), true); }
TEST(MonitorDifferentialMedium, Set) { differential<SetCollection>(medium_histories(), true); }
TEST(MonitorDifferentialMedium, Multiset) { differential<MultisetSpec>(medium_histories(), true); }
TEST(MonitorDifferentialMedium, QueueWithIdleCalls) { differential<IdleQueue>(medium_histories(), true); }
