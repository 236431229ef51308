// heap4_vs_heap2: the same timer design (TimerSet, structures/timers/timers.hpp)
// on a 4-ary heap (GoTimers, production, as in Go since 2013) vs a binary heap
// (BinaryHeapTimers), with N = 1k, 10k, 100k, 1M armed timers on one worker.
//
// One iteration is one round of a steady-state mix; every round, on both heaps
// the same way (same seed, same virtual clock steps):
//   run:   the virtual clock moves by 1,000 ns (the armed timers' whens are spread
//          over N x 1,000 ns, so about one timer is due per round); run_due fires
//          what is due (the head leaves the heap: a sift-down), and each fired
//          timer is added again at a random later time (a push: a sift-up);
//   stop:  a random timer is stopped and added again later than it was due
//          (TimerSet marks it Deleted, then re-arms it in place as ModifiedLater;
//          the owner re-sites it when it reaches the head: set_when + sift-down);
//   reset: a random timer is reset to later than it was due (ModifiedLater, the same
//          deferred re-siting).
// New whens are always later than the old ones, so the mix never triggers the
// O(N) adjust scan that a ModifiedEarlier timer causes: that scan costs the same
// for both arities and would only hide the heaps' difference. The count of armed
// timers stays N. Times are per round; the callback only records the timer.
// The 1M case runs a fixed 20,000 rounds (its set-up of 1M adds dominates otherwise).
//
// heap4_vs_heap2/<heapD>/heap_only/timers:N — the heap alone (timers_detail::TimerHeap,
// the DaryHeap under every worker), without the status machine and lock around it: a
// round is one stop done the old, eager way (Go 2013's deltimer: remove_at of a
// random timer, then a push of it with a new random when) plus one run (the head
// leaves by remove_at(0) and is pushed again). This is the setting of Go's
// published "4-ary heap made Stop 18-37% faster than binary".
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "bench/bench_util.hpp"
#include "structures/timers/timers.hpp"

namespace {

using lfcheck::bench::Rng;
using Clock = lfcheck::VirtualClock<lfcheck::StdSync>;

std::vector<void*>* g_fired = nullptr;  // the benchmark thread's list (single-threaded)
void on_fire(void* arg, std::uint64_t, std::int64_t, std::int64_t) { g_fired->push_back(arg); }

template <unsigned Arity>
void timer_mix(benchmark::State& state) {
  using Set = lfcheck::TimerSet<lfcheck::StdSync, Clock, Arity>;
  using Timer = typename Set::Timer;
  const auto n = static_cast<std::size_t>(state.range(0));
  constexpr std::int64_t kStep = 1000;
  const auto horizon = static_cast<std::uint64_t>(n) * kStep;
  Clock clock(0);
  Set set(clock, 1);
  std::unique_ptr<Timer[]> timers(new Timer[n]);
  std::vector<void*> fired;
  fired.reserve(64);
  g_fired = &fired;
  Rng rng(5);
  for (std::size_t i = 0; i < n; ++i) {
    timers[i].init(on_fire, &timers[i]);
    if (set.add(0, timers[i], 1 + static_cast<std::int64_t>(rng.below(horizon))) != lfcheck::TimerError::ok)
      state.SkipWithError("add failed");
  }
  std::int64_t now = 0;
  std::uint64_t ran = 0;
  for (auto _ : state) {
    now += kStep;
    clock.advance_to(now);
    ran += set.run_due(0);
    for (void* p : fired)
      (void)set.add(0, *static_cast<Timer*>(p), now + 1 + static_cast<std::int64_t>(rng.below(horizon)));
    fired.clear();
    Timer& s = timers[rng.below(n)];
    const std::int64_t ws = set.armed_when_quiescent(s);
    if (ws != lfcheck::kTimerNever && set.stop(s))
      (void)set.add(0, s, ws + 1 + static_cast<std::int64_t>(rng.below(horizon)));
    Timer& r = timers[rng.below(n)];
    const std::int64_t wr = set.armed_when_quiescent(r);
    if (wr != lfcheck::kTimerNever) set.reset(0, r, wr + 1 + static_cast<std::int64_t>(rng.below(horizon)));
  }
  if (const char* e = set.check_invariants()) state.SkipWithError(e);
  state.counters["fired_per_round"] = static_cast<double>(ran) / static_cast<double>(state.iterations());
  g_fired = nullptr;
}

struct HeapNode {
  lfcheck::StdSync::cell<std::int32_t> index_{-1};
};

template <unsigned Arity>
void heap_only(benchmark::State& state) {
  using Heap = lfcheck::timers_detail::TimerHeap<lfcheck::StdSync, Arity, HeapNode>;
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto horizon = static_cast<std::uint64_t>(n) * 1000;
  std::unique_ptr<HeapNode[]> nodes(new HeapNode[n]);
  Heap heap(static_cast<std::uint32_t>(n));
  Rng rng(5);
  for (std::size_t i = 0; i < n; ++i) heap.push(static_cast<std::int64_t>(rng.below(horizon)), &nodes[i]);
  std::int64_t now = 0;
  for (auto _ : state) {
    now += 1000;
    HeapNode& s = nodes[rng.below(n)];  // stop: eager removal, then re-arm
    heap.remove_at(static_cast<std::uint32_t>(s.index_.load()));
    heap.push(now + static_cast<std::int64_t>(rng.below(horizon)), &s);
    HeapNode* head = heap.at(0).node;  // run the head, re-arm it
    heap.remove_at(0);
    heap.push(now + static_cast<std::int64_t>(rng.below(horizon)), head);
  }
  if (const char* e = heap.check()) state.SkipWithError(e);
}

void register_all() {
  for (auto* b : {benchmark::RegisterBenchmark("heap4_vs_heap2/heap2", timer_mix<2>),
                  benchmark::RegisterBenchmark("heap4_vs_heap2/heap4", timer_mix<4>)}) {
    b->ArgName("timers")->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kNanosecond);
  }
  for (auto* b : {benchmark::RegisterBenchmark("heap4_vs_heap2/heap2", timer_mix<2>),
                  benchmark::RegisterBenchmark("heap4_vs_heap2/heap4", timer_mix<4>)}) {
    b->ArgName("timers")->Arg(1000000)->Iterations(20000)->Unit(benchmark::kNanosecond);
  }
  for (auto* b : {benchmark::RegisterBenchmark("heap4_vs_heap2/heap2/heap_only", heap_only<2>),
                  benchmark::RegisterBenchmark("heap4_vs_heap2/heap4/heap_only", heap_only<4>)}) {
    b->ArgName("timers")->Arg(1000)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kNanosecond);
  }
}

}  // namespace

// Registered during static initialization; main is Google Benchmark's (benchmark_main).
[[maybe_unused]] static const bool registered = (register_all(), true);
