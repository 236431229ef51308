// timers_perworker_vs_global: Go's per-worker timers with CAS status words
// (GoTimers: TimerSet, 4-ary heaps, one per worker) vs the global-lock baseline
// (GlobalLockTimers: one lock, one 4-ary heap), with reset and stop called in
// parallel from every thread (T = 1, the core count, twice the core count).
//
// Set-up (untimed, the same for both): 1,024 timers per thread, armed far in the
// future (virtual clock at 0, whens in [1 s, 2 s)), timer i on worker i % T (one
// worker per thread). Neighbouring timers thus belong to different workers: a
// per-worker timer fills one cache line of its own (timers.hpp), so they share
// none; the global lock's timers (48 bytes) may, but all of them are touched
// under its one lock anyway. Each iteration of each thread: one timer is reset to a
// random when in the same range (half earlier, half later) or stopped, 50/50.
// Which timer, two mixes:
//   own: the per-P case Go's design is for (a goroutine's timers live on its P):
//        15 of 16 operations are on a random timer of the thread's own worker;
//        the 16th stops a random timer of any worker (a cross-worker stop, which
//        never moves a timer to another heap, so the mix stays what it says).
//   any: every operation on a random timer of the whole set, so with T threads
//        (T-1)/T of them touch another worker's timers: every timer's cache line
//        and every worker's counters move between cores in both designs.
// Every R operations (run_every:R, 64 or 4096) each thread runs its own worker's
// run_due, as a worker's run loop would between its other work: for the
// per-worker design this is where the deferred heap work happens (Deleted timers
// removed, ModifiedEarlier/Later re-sited when they reach the head or when the
// adjust scan runs), so that cost is in the measurement, amortized over R
// operations; for the global lock, run_due takes the one lock and finds nothing
// due (its heap work was done inside each reset/stop). Nothing fires (nothing is
// due), so callbacks cost nothing.
// Reported: time per operation over all threads (GB's multi-thread real time);
// at the end the set's check_invariants() must pass.
// Go's figures (DESIGN §5): the global lock's StartStop went 214 ns -> 804 ns from
// 1 to 8 CPUs; this machine has far fewer cores, so expect a smaller gap.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <thread>

#include "bench/bench_util.hpp"
#include "structures/timers/global_lock_timers.hpp"
#include "structures/timers/timers.hpp"

namespace {

using lfcheck::bench::Rng;
using Clock = lfcheck::VirtualClock<lfcheck::StdSync>;
using PerWorker = lfcheck::GoTimers<lfcheck::StdSync, Clock>;
using Global = lfcheck::GlobalLockTimers<lfcheck::StdSync, Clock>;

constexpr std::size_t kPerThread = 1024;
constexpr std::int64_t kSecond = 1'000'000'000;

template <class Set>
struct Shared {
  explicit Shared(unsigned threads)
      : set(clock, threads), n(kPerThread * threads), timers(new typename Set::Timer[n]) {}
  Clock clock{0};
  Set set;
  std::size_t n;
  std::unique_ptr<typename Set::Timer[]> timers;
};

template <class Set>
Shared<Set>* g_shared = nullptr;

enum class Mix { own, any };

template <class Set, Mix kMix>
void reset_stop(benchmark::State& state) {
  const auto threads = static_cast<unsigned>(state.threads());
  const auto me = static_cast<unsigned>(state.thread_index());
  const auto run_every = static_cast<unsigned>(state.range(0));
  if (me == 0) {
    auto* s = new Shared<Set>(threads);
    Rng rng(9);
    for (std::size_t i = 0; i < s->n; ++i)
      if (s->set.add(static_cast<unsigned>(i % threads), s->timers[i],
                     kSecond + static_cast<std::int64_t>(rng.below(kSecond))) != lfcheck::TimerError::ok)
        std::abort();
    g_shared<Set> = s;
  }
  // Google Benchmark starts every thread's loop together (a barrier), after the set-up above.
  Rng rng(100 + me);
  Shared<Set>* s = nullptr;
  unsigned k = 0;
  for (auto _ : state) {
    if (!s) s = g_shared<Set>;
    const std::uint64_t r = rng.next();
    if (kMix == Mix::own && (r & 0x1e) == 0) {  // 1 in 16: stop a timer of any worker
      s->set.stop(s->timers[rng.below(s->n)]);
    } else {
      auto& t = kMix == Mix::own ? s->timers[me + threads * rng.below(kPerThread)] : s->timers[rng.below(s->n)];
      if (r & 1)
        s->set.reset(me, t, kSecond + static_cast<std::int64_t>((r >> 5) % kSecond));
      else
        s->set.stop(t);
    }
    if (++k == run_every) {
      k = 0;
      s->set.run_due(me);
    }
  }
  if (me == 0) {  // Google Benchmark ends every thread's loop together (a barrier), before this.
    if (const char* e = g_shared<Set>->set.check_invariants()) state.SkipWithError(e);
    delete g_shared<Set>;
    g_shared<Set> = nullptr;
  }
}

void register_all() {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::vector<int> counts{1, static_cast<int>(cores), static_cast<int>(2 * cores)};
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  for (auto* b : {benchmark::RegisterBenchmark("timers_perworker_vs_global/global/own", reset_stop<Global, Mix::own>),
                  benchmark::RegisterBenchmark("timers_perworker_vs_global/perworker/own", reset_stop<PerWorker, Mix::own>),
                  benchmark::RegisterBenchmark("timers_perworker_vs_global/global/any", reset_stop<Global, Mix::any>),
                  benchmark::RegisterBenchmark("timers_perworker_vs_global/perworker/any", reset_stop<PerWorker, Mix::any>)}) {
    b->ArgName("run_every")->Arg(64)->Arg(4096)->UseRealTime()->Unit(benchmark::kNanosecond);
    for (int t : counts) b->Threads(t);
  }
}

}  // namespace

// Registered during static initialization; main is Google Benchmark's (benchmark_main).
[[maybe_unused]] static const bool registered = (register_all(), true);
