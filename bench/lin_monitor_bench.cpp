// lin_monitor_vs_search: a collection spec's monitor (lin::check() on a spec that declares
// its type: lin/monitor.hpp, with the replay of its linearization through the spec's model)
// against the general search (lin::search(): Wing & Gong with Lowe's memo) on the same
// histories in the same run; and lin_monitor: the monitor alone on 1,000,000-call
// histories, which no search decides.
//
// Histories: real_time, 8 simulated threads (lin/tests/random_history.hpp), every inserted
// value distinct; linearizable (both sides must say so, or the row stops with an error).
// Specs: lin/tests/collection_specs.hpp (queue on a deque, stack on a vector, priority queue
// and multiset on std::multiset, set on std::set, partitioned by key so the search checks
// one key at a time, its best case).
//   containers  calls that keep about H values held (bounded_container_calls): H = 8 for
//               lin_monitor_vs_search, where the search still ends at 10,000 calls; H = 1,000
//               for lin_monitor
//   set         adds of fresh keys, removes and contains of one of the last 64 keys
//   multiset    the same on a multiset
//
// lin_monitor_vs_search/<monitor|search>/<type>/ops:N   N = 100, 1,000, 10,000
// lin_monitor/<type>/ops:1000000                         one check per iteration
// Counters: calls_per_second (of one check).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>

#include "lin/checker.hpp"
#include "lin/search.hpp"
#include "lin/tests/collection_specs.hpp"
#include "lin/tests/random_history.hpp"

namespace {

using namespace lfcheck::lin;
using namespace lfcheck::lin::examples;

template <class S>
History<S> make_history(std::size_t ops, int held, std::uint64_t seed) {
  Rng rng(seed);
  if constexpr (std::is_same_v<typename S::Call, ContainerCall>) {
    return random_real_time_history<S>(rng, 8, ops, bounded_container_calls(held));
  } else {
    // Adds of fresh values, removes and contains of one of the last 64 values named.
    return random_real_time_history<S>(rng, 8, ops, [](Rng& r, std::uint32_t serial) {
      using K = decltype(typename S::Call{}.kind);
      const auto pick = r() % 10;
      const int recent = static_cast<int>(serial) - 1 - static_cast<int>(r() % 64);
      if (pick < 4 || recent < 0) return typename S::Call{static_cast<K>(0), static_cast<int>(serial)};  // add
      return typename S::Call{static_cast<K>(pick < 7 ? 1 : 2), recent};  // remove, contains
    });
  }
}

template <class S, bool Monitor>
void run(benchmark::State& state, const History<S>& h) {
  for (auto _ : state) {
    const Report r = Monitor ? check(h, Budget{100'000'000, 60}) : search(h, Budget{100'000'000, 30});
    if (r.verdict != Verdict::linearizable) {
      state.SkipWithError((std::string(Monitor ? "the monitor" : "the search") + " did not pass the history: " +
                           r.words() + (r.note.empty() ? "" : " (" + r.note + ")"))
                              .c_str());
      break;
    }
    if (Monitor && r.algorithm == "search") {
      state.SkipWithError(("the monitor did not decide the history: " + r.note).c_str());
      break;
    }
    benchmark::DoNotOptimize(r.verdict);
  }
  state.counters["calls_per_second"] =
      benchmark::Counter(static_cast<double>(h.ops.size()) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}

template <class S>
void register_type(const char* type) {
  for (const std::size_t ops : {std::size_t{100}, std::size_t{1000}, std::size_t{10000}}) {
    const auto h = std::make_shared<History<S>>();
    for (const bool monitor : {true, false}) {
      const std::string name = std::string("lin_monitor_vs_search/") + (monitor ? "monitor/" : "search/") + type +
                               "/ops:" + std::to_string(ops);
      benchmark::RegisterBenchmark(name.c_str(), [h, ops, monitor](benchmark::State& st) {
        if (h->ops.empty()) *h = make_history<S>(ops, 8, ops * 7 + 1);  // built once, on first use
        monitor ? run<S, true>(st, *h) : run<S, false>(st, *h);
      })->Unit(benchmark::kMicrosecond);
    }
  }
  const auto big = std::make_shared<History<S>>();
  const std::string name = std::string("lin_monitor/") + type + "/ops:1000000";
  benchmark::RegisterBenchmark(name.c_str(), [big](benchmark::State& st) {
    if (big->ops.empty()) *big = make_history<S>(1'000'000, 1000, 99);
    run<S, true>(st, *big);
  })->Unit(benchmark::kMillisecond);
}

}  // namespace

// Registered during static initialization; main is Google Benchmark's (benchmark_main).
[[maybe_unused]] static const bool registered = [] {
  register_type<QueueCollection>("queue");
  register_type<StackCollection>("stack");
  register_type<PriorityQueueSpec>("priority_queue");
  register_type<IntSetSpec>("set");
  register_type<MultisetSpec>("multiset");
  return true;
}();
