// branchless_vs_branchy_heap: push N keys then pop all N on DeliQueue's 4-ary
// min-heap of (when, seq), with DeliQueue's branchless order vs a branchy
// comparator (see comparator_heap.hpp; same heap code, same keys, same work; the
// key set-up is outside the timed loop on both sides). Three key patterns: random, ties (16 distinct whens:
// seq decides), sorted (the predictor's best case: reported as measured, even
// where the branchy comparator wins). Reported per heap operation (2N ops per
// iteration). Branch-miss counts come from cachegrind (no hardware counters on
// these VMs): lfcheck-cachegrind-heap, run by ./lfcheck bench.
#include <benchmark/benchmark.h>

#include <string>

#include "bench/comparator_heap.hpp"

namespace {

using namespace lfcheck::bench;

template <class Cmp>
void heap_ops(benchmark::State& state, Pattern p) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto keys = make_keys(p, n);
  KeyHeap<Cmp> h(KeyOnly<Cmp>(), static_cast<std::uint32_t>(n));
  std::uint64_t check = 0;
  for (auto _ : state) {
    const std::uint64_t s = push_all_pop_all(h, keys);
    if (check && s != check) state.SkipWithError("pop order changed");
    check = s;
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(2 * n) * state.iterations());  // heap operations
}

template <class Cmp>
void register_for(Pattern p) {
  const std::string name = std::string("branchless_vs_branchy_heap/") + Cmp::name + "/" + pattern_name(p);
  benchmark::RegisterBenchmark(name.c_str(), [p](benchmark::State& s) { heap_ops<Cmp>(s, p); })
      ->ArgName("n")
      ->Arg(1024)
      ->Arg(65536)
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace

// Registered during static initialization; main is Google Benchmark's (benchmark_main).
[[maybe_unused]] static const bool registered = [] {
  for (Pattern p : {Pattern::random, Pattern::ties, Pattern::sorted}) {
    register_for<Branchy>(p);
    register_for<Branchless>(p);
  }
  return true;
}();
