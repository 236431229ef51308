// relacy_shim_overhead: what the Sync policy costs inside the model checker.
// One message-passing scenario (a plain payload published by a release store,
// read after an acquire load, plus a CAS-incremented counter) written twice:
// once against RelacySync (as every lfcheck structure is), once directly against
// rl::atomic / rl::var with Relacy's `$` macro. Each benchmark iteration runs
// rl::simulate for kIterations random-scheduler iterations; the ratio of the two
// times is the shim's overhead (1.0 = none).
#include <benchmark/benchmark.h>

#include "sync/relacy_sync.hpp"

namespace {

constexpr int kIterations = 2000;
using Sync = lfcheck::RelacySync;

struct ViaSync : rl::test_suite<ViaSync, 2> {
  Sync::atomic<int> flag{0};
  Sync::atomic<int> counter{0};
  Sync::cell<int> payload{0};
  void thread(unsigned index) {
    for (int round = 0; round < 2; ++round) {
      int c = counter.load(std::memory_order_relaxed);
      while (!counter.compare_exchange_strong(c, c + 1, std::memory_order_relaxed, std::memory_order_relaxed)) {
      }
    }
    if (index == 0) {
      payload.store(42);
      flag.store(1, std::memory_order_release);
    } else if (flag.load(std::memory_order_acquire) == 1) {
      Sync::check(payload.load() == 42, "payload visible");
    }
  }
};

struct Direct : rl::test_suite<Direct, 2> {
  rl::atomic<int> flag{0};
  rl::atomic<int> counter{0};
  rl::var<int> payload{0};
  void thread(unsigned index) {
    for (int round = 0; round < 2; ++round) {
      int c = counter.load(rl::mo_relaxed, $);
      while (!counter.compare_exchange_strong(c, c + 1, rl::mo_relaxed, $, rl::mo_relaxed, $)) {
      }
    }
    if (index == 0) {
      payload($) = 42;
      flag.store(1, rl::mo_release, $);
    } else if (flag.load(rl::mo_acquire, $) == 1) {
      RL_ASSERT(payload($) == 42);
    }
  }
};

template <class Test>
void simulate(benchmark::State& state) {
  rl::ostringstream sink;
  for (auto _ : state) {
    rl::test_params params;
    params.iteration_count = kIterations - 1;
    params.output_stream = &sink;
    params.progress_stream = &sink;
    if (!rl::simulate<Test>(params)) state.SkipWithError("the scenario failed");
  }
  state.counters["relacy_iterations_per_s"] =
      benchmark::Counter(static_cast<double>(kIterations) * state.iterations(), benchmark::Counter::kIsRate);
}

void relacy_shim_overhead_direct(benchmark::State& state) { simulate<Direct>(state); }
void relacy_shim_overhead_sync(benchmark::State& state) { simulate<ViaSync>(state); }
BENCHMARK(relacy_shim_overhead_direct)->Name("relacy_shim_overhead/direct")->Unit(benchmark::kMillisecond);
BENCHMARK(relacy_shim_overhead_sync)->Name("relacy_shim_overhead/sync")->Unit(benchmark::kMillisecond);

}  // namespace

// main is Google Benchmark's (benchmark_main).
