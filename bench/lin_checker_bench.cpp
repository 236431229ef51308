// lin_checker: the linearizability checker (lin/checker.hpp: Wing–Gong search with
// Lowe's memo, "memo") against the plain permutation search (lin/permutation_search.hpp:
// every order the history allows, no memo, "permutation"), on the same histories in the
// same run. Specs: the checker tests' StackSpec and QueueSpec (lin/tests/example_specs.hpp,
// std::vector states); histories from lin/tests/random_history.hpp, fixed seeds.
//
// lin_checker/<variant>/scenario/<spec>/<kind>
//   generated scenarios, program_order, 3 threads x 5 ops (no prefix or suffix), values
//   1..3; 512 different scenarios, one checked per iteration. kind: `linearizable` (results
//   from a random interleaving) or `mutated` (one result changed: mostly not linearizable,
//   so the whole order space is searched). Counters p50_ns / p99_ns: one check's time.
// lin_checker/<variant>/history/<spec>/<kind>/held:H/ops:N
//   real_time histories of 4 threads, unique values, a mix that keeps about H values in
//   the structure (random_history.hpp: bounded_container_calls). 16 histories per size
//   (one for ops:10000), one checked per iteration. The growth series (mutated, 16..48
//   ops) is where both searches finish; at 10,000 ops the permutation search runs out of
//   its budget (Budget{100M states, 2 s}) and reports that as an error, not a time. The
//   memo's cost grows exponentially with H (the values whose order the history leaves
//   open), not with N: held:16 shows where it stops being interactive.
// Counters: states (search nodes per check).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench_util.hpp"
#include "lin/checker.hpp"
#include "lin/permutation_search.hpp"
#include "lin/tests/example_specs.hpp"
#include "lin/tests/random_history.hpp"

namespace {

using namespace lfcheck::lin;
using namespace lfcheck::lin::examples;
using lfcheck::bench::now_ns;
using lfcheck::bench::percentile;

constexpr Budget kPermutationBudget{100'000'000, 2};

template <class S>
std::vector<History<S>> scenarios(bool mutated) {
  Rng rng(mutated ? 2 : 1);
  std::vector<History<S>> out;
  for (int i = 0; i < 512; ++i) {
    History<S> h = random_scenario<S>(rng, 0, {5, 5, 5}, 0);
    if (mutated) mutate_one_result(h, rng);
    out.push_back(std::move(h));
  }
  return out;
}

template <class S>
std::vector<History<S>> histories(bool mutated, int held, std::size_t ops) {
  Rng rng(ops * 131 + static_cast<std::size_t>(held));
  std::vector<History<S>> out;
  for (int i = 0; i < (ops >= 10000 ? 1 : 16); ++i) {
    History<S> h = random_real_time_history<S>(rng, 4, ops, bounded_container_calls(held));
    if (mutated) mutate_one_result(h, rng);
    out.push_back(std::move(h));
  }
  return out;
}

// Checks one history per iteration, cycling through the set.
template <class S, bool Memo>
void run(benchmark::State& state, const std::vector<History<S>>& set) {
  std::vector<std::int64_t> samples;
  samples.reserve(4096);
  std::uint64_t states = 0, checks = 0;
  std::size_t next = 0;
  for (auto _ : state) {
    const History<S>& h = set[next];
    next = (next + 1) % set.size();
    const std::int64_t t0 = now_ns();
    const Report r = Memo ? check(h) : permutation_search(h, kPermutationBudget);
    const std::int64_t t1 = now_ns();
    if (r.verdict == Verdict::unknown) {
      state.SkipWithError((std::string(Memo ? "memo" : "permutation") + " search did not finish: " + r.words()).c_str());
      break;
    }
    benchmark::DoNotOptimize(r.verdict);
    if (samples.size() < 100000) samples.push_back(t1 - t0);
    states += r.states;
    ++checks;
  }
  if (checks == 0) return;
  state.counters["states"] = static_cast<double>(states) / static_cast<double>(checks);
  state.counters["p50_ns"] = percentile(samples, 0.50);
  state.counters["p99_ns"] = percentile(samples, 0.99);
}

template <class S>
void register_spec(const char* spec) {
  for (const bool mutated : {false, true}) {
    const char* kind = mutated ? "mutated" : "linearizable";
    const auto set = std::make_shared<std::vector<History<S>>>();
    for (const bool memo : {true, false}) {
      const std::string name = std::string("lin_checker/") + (memo ? "memo" : "permutation") + "/scenario/" + spec + "/" + kind;
      benchmark::RegisterBenchmark(name.c_str(), [set, mutated, memo](benchmark::State& st) {
        if (set->empty()) *set = scenarios<S>(mutated);  // built once, on first use
        memo ? run<S, true>(st, *set) : run<S, false>(st, *set);
      })->Unit(benchmark::kMicrosecond);
    }
  }
  struct Series {
    bool mutated;
    int held;
    std::size_t ops;
  };
  const Series series[] = {{true, 4, 16},      {true, 4, 24},      {true, 4, 32},     {true, 4, 48},
                           {false, 4, 10000}, {false, 8, 10000}, {false, 16, 10000}};
  for (const Series& s : series) {
    const auto set = std::make_shared<std::vector<History<S>>>();
    const std::string params = std::string(spec) + "/" + (s.mutated ? "mutated" : "linearizable") +
                               "/held:" + std::to_string(s.held) + "/ops:" + std::to_string(s.ops);
    for (const bool memo : {true, false}) {
      const std::string name = std::string("lin_checker/") + (memo ? "memo" : "permutation") + "/history/" + params;
      auto* b = benchmark::RegisterBenchmark(name.c_str(), [set, s, memo](benchmark::State& st) {
        if (set->empty()) *set = histories<S>(s.mutated, s.held, s.ops);  // built once, on first use
        memo ? run<S, true>(st, *set) : run<S, false>(st, *set);
      });
      b->Unit(s.ops >= 10000 ? benchmark::kMillisecond : benchmark::kMicrosecond);
      if (s.ops >= 10000 && !memo) b->Iterations(1);  // it runs to its budget
    }
  }
}

}  // namespace

// Registered during static initialization; main is Google Benchmark's (benchmark_main).
[[maybe_unused]] static const bool registered = [] {
  register_spec<StackSpec>("stack");
  register_spec<QueueSpec>("queue");
  return true;
}();
