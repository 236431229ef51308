// Treiber stack stress: N threads run a seeded mix of push / pop / take_all /
// traversal on one small stack (64 nodes, so nodes are reused constantly).
//
// Accounting, at every quiescent point (between rounds, all threads stopped):
//   S_prev ∪ P  ==  O ⊎ S_now   (as sets, with no value twice)
// where S_prev is what the stack held at the last quiescent point, P the values
// pushed this round (producer t pushes (t+1)<<40 | 1, 2, 3, ... and counts only
// pushes that succeeded), O what came out (pop, take_all) and S_now what the stack
// holds now. So nothing is lost, duplicated or invented, with memory bounded by
// one round. check_invariants() runs at the same points.
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "harness/stress_registry.hpp"
#include "structures/treiber/treiber_stack.hpp"

namespace lfcheck {
namespace {

constexpr std::uint32_t kCapacity = 64;
constexpr int kProducerShift = 40;

template <TreiberFault F>
struct TreiberStress {
  static constexpr const char* name = "push_pop_take_all";
  static constexpr const char* description =
      "seeded mix: 45% push, 40% pop, 5% take_all, 10% traversal on a 64-node stack";

  static void run(StressRun& run) {
    const unsigned n = run.options().threads;
    TreiberStack<std::uint64_t, StdSync, F> stack(kCapacity);
    // Per-thread state, touched only by its thread during a round and by the
    // quiescent check between rounds (the round barrier orders the two).
    struct alignas(64) PerThread {
      std::uint64_t pushed = 0;        // successful pushes so far
      std::uint64_t pushed_before = 0; // at the previous quiescent point
      std::vector<std::uint64_t> out;  // values popped or taken this round
      std::string error;
    };
    std::vector<PerThread> threads(n);
    std::unordered_set<std::uint64_t> in_stack;  // S_prev

    auto producer_of = [](std::uint64_t v) { return (v >> kProducerShift) - 1; };
    auto sequence_of = [](std::uint64_t v) { return v & ((1ull << kProducerShift) - 1); };

    auto op = [&](unsigned t, std::mt19937_64& rng) {
      PerThread& me = threads[t];
      const unsigned dice = static_cast<unsigned>(rng() % 100);
      if (dice < 45) {
        const std::uint64_t v = (std::uint64_t(t + 1) << kProducerShift) | (me.pushed + 1);
        const bool ok = stack.push(v);
        if (ok) ++me.pushed;
        run.describe(t, "push", v, ok);
      } else if (dice < 85) {
        std::uint64_t v = 0;
        const bool ok = stack.pop(v);
        if (ok) me.out.push_back(v);
        run.describe(t, "pop", v, ok);
      } else if (dice < 90) {
        const std::size_t n_taken = stack.take_all([&](std::uint64_t v) { me.out.push_back(v); });
        run.describe(t, "take_all", 0, static_cast<std::int64_t>(n_taken));
      } else {
        std::size_t steps = 0;
        stack.for_each([&](std::uint64_t v) {
          if (producer_of(v) >= n || sequence_of(v) == 0)
            me.error = "traversal saw a value nobody pushed";
          ++steps;
        });
        run.describe(t, "for_each", 0, static_cast<std::int64_t>(steps));
      }
    };

    auto at_quiescence = [&] {
      if (const char* e = stack.check_invariants()) return run.fail(std::string("check_invariants: ") + e);
      auto pushed_this_round = [&](std::uint64_t v) {
        const std::uint64_t p = producer_of(v), s = sequence_of(v);
        return p < n && s > threads[p].pushed_before && s <= threads[p].pushed;
      };
      std::unordered_set<std::uint64_t> accounted;  // O ⊎ S_now, must not repeat
      std::size_t expected = in_stack.size();
      for (auto& th : threads) {
        if (!th.error.empty()) return run.fail(th.error);
        expected += th.pushed - th.pushed_before;
      }
      auto account = [&](std::uint64_t v, const char* where) -> bool {
        if (!pushed_this_round(v) && !in_stack.count(v)) {
          run.fail(std::string("a value came out ") + where + " that was not in the stack");
          return false;
        }
        if (!accounted.insert(v).second) {
          run.fail(std::string("a value came out twice (") + where + ")");
          return false;
        }
        return true;
      };
      for (auto& th : threads)
        for (std::uint64_t v : th.out)
          if (!account(v, "of pop/take_all")) return;
      std::unordered_set<std::uint64_t> now;
      bool ok = true;
      stack.for_each([&](std::uint64_t v) {
        if (ok && !account(v, "in the stack")) ok = false;
        now.insert(v);
      });
      if (!ok) return;
      if (accounted.size() != expected)
        return run.fail("values lost: " + std::to_string(expected - accounted.size()) +
                        " pushed values are neither in the stack nor came out");
      in_stack = std::move(now);
      for (auto& th : threads) {
        th.out.clear();
        th.pushed_before = th.pushed;
      }
    };

    run.run_rounds(op, at_quiescence);
  }
};

LFCHECK_STRESS(TreiberFault, TreiberStress);

}  // namespace
}  // namespace lfcheck
