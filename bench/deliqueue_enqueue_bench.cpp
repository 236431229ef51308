// deliqueue_vs_locked_enqueue: multi-producer posts into a busy queue.
//
// What is measured: the cost of one enqueue (post) when the queue already holds
// N pending messages (N = 1k, 10k, 100k) with random `when`s, from T producer
// threads at once (T = 1, the core count, twice the core count). Candidate:
// DeliQueue::enqueue (one Treiber push + one fetch_add on the wake word, O(1)).
// Baseline: LockedMessageQueue::enqueue (the legacy queue: one mutex, a walk of
// the sorted list to the insertion point, O(N) under the lock).
//
// What "busy with N pending" means for each, and why the comparison is fair:
//   * Both queues get the same N messages, with the same random `when`s (an hour
//     or two in the future, so nothing is due), allocated in one array in the same
//     order. The `when`s are random with respect to memory order, so the legacy
//     list is in a random memory order, as in an app whose messages were
//     allocated at different times (a list laid out in memory order would let the
//     prefetcher hide the walk and flatter the baseline unrealistically).
//   * DeliQueue: the N pending messages have already been swept into the Looper's
//     heap (set-up pushes them and then calls peek(), the Looper-side call that
//     sweeps), i.e. a queue whose Looper keeps up. The posts under measurement then
//     land on the stack above them; no Looper runs during the measurement, so the
//     posts are not slowed by a concurrent sweep (a push never depends on how many
//     messages are below it, swept or not).
//   * LockedMessageQueue: the N messages are in its sorted list; each post walks it.
//     Its condition-variable notify finds no waiter (no Looper), as DeliQueue's
//     wake check finds no sleeping Looper: neither pays for a wake-up.
//   * The queue is rebuilt (untimed) before every batch of posts, so the pending
//     count during a batch stays between N and N + batch. The legacy batch is
//     min(N/4, 4e6/N) posts (250, 400, 40: its posts cost O(N), so a batch must
//     stay small for N to stay N and for the run to end; pending stays within
//     N..1.25N). DeliQueue's batch is
//     32,768 posts, long enough that starting the threads costs nothing next to it;
//     its post costs the same at any depth of the stack, so its larger batch
//     does not favour it.
//   * Time of a batch: from the earliest first post to the latest last post, as
//     read by the producers themselves (the threads' wake-up latency is not timed).
//     Reported: ns_per_op = that time / posts, i.e. the inverse of the aggregate
//     throughput (the report's ratio uses it), enqueues_per_s, and p50/p99 latency
//     of a single post. Latency is sampled cheaply: every 32nd post (DeliQueue) or
//     every post (legacy, whose posts take microseconds) is bracketed by two
//     steady_clock reads; sampling adds a few percent at most to either.
//   * cpu_per_real: the producers' CPU time (each thread's own clock, summed) over the
//     batches' time: how many producers were on a core at once. Google Benchmark's
//     cpu_time is the main thread's (it waits at the barriers and rebuilds the queue
//     untimed), so tools/bench_report.py takes this counter instead.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

#include "bench/bench_util.hpp"
#include "structures/deliqueue/deliqueue.hpp"
#include "structures/deliqueue/locked_message_queue.hpp"

namespace {

using lfcheck::bench::now_ns;
using lfcheck::bench::percentile;
using lfcheck::bench::Rng;
using Msg = lfcheck::Message<>;

constexpr std::int64_t kHour = 3'600'000'000'000;

struct Deli {
  static constexpr const char* name = "deli";
  static constexpr std::size_t batch(std::size_t) { return 32768; }
  static constexpr unsigned sample_every = 32;
  std::unique_ptr<lfcheck::DeliQueue<>> q;
  void build(Msg* msgs, const std::int64_t* whens, std::size_t n) {
    q = std::make_unique<lfcheck::DeliQueue<>>();
    for (std::size_t i = 0; i < n; ++i) q->enqueue(&msgs[i], whens[i]);
    q->peek();  // the Looper-side sweep: all N pending messages are now in the heap
    if (q->size_looper() != static_cast<std::int32_t>(n)) std::abort();
  }
  bool enqueue(Msg* m, std::int64_t when) { return q->enqueue(m, when); }
};

struct Locked {
  static constexpr const char* name = "locked";
  static constexpr std::size_t batch(std::size_t n) {
    return std::clamp<std::size_t>(std::min(n / 4, 4'000'000 / n), 32, 1024);
  }
  static constexpr unsigned sample_every = 1;
  std::unique_ptr<lfcheck::LockedMessageQueue<>> q;
  std::vector<std::size_t> order;  // pending messages by descending when: each set-up insert is at the head
  void build(Msg* msgs, const std::int64_t* whens, std::size_t n) {
    q = std::make_unique<lfcheck::LockedMessageQueue<>>();
    if (order.size() != n) {
      order.resize(n);
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return whens[a] > whens[b]; });
    }
    for (std::size_t i : order) q->enqueue(&msgs[i], whens[i]);
  }
  bool enqueue(Msg* m, std::int64_t when) { return q->enqueue(m, when); }
};

template <class Q>
void enqueue_into_busy_queue(benchmark::State& state) {
  const auto pending = static_cast<std::size_t>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  const std::size_t batch = Q::batch(pending);
  const std::size_t total = pending + batch;

  // Messages 0..N-1 are the pending ones, N..N+batch-1 are posted by the batch.
  std::unique_ptr<Msg[]> msgs(new Msg[total]);
  std::vector<std::int64_t> whens(total);
  Rng rng(42);
  const std::int64_t base = now_ns() + kHour;
  for (auto& w : whens) w = base + static_cast<std::int64_t>(rng.below(kHour));

  Q queue;
  struct PerThread {
    std::int64_t start = 0, end = 0;
    std::int64_t cpu_ns = 0;  // this thread's CPU time in the timed batches
    std::vector<std::int64_t> samples;
  };
  std::vector<PerThread> per(threads);
  for (auto& p : per) p.samples.reserve(1 << 16);
  std::barrier start(threads + 1), done(threads + 1);
  bool stop = false;  // written before `start`; the barrier orders it

  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const std::size_t lo = pending + batch * t / threads, hi = pending + batch * (t + 1) / threads;
      PerThread& me = per[t];
      for (;;) {
        start.arrive_and_wait();
        if (stop) return;
        me.start = now_ns();
        const std::int64_t cpu_start = lfcheck::bench::thread_cpu_ns();
        unsigned k = 0;
        for (std::size_t i = lo; i < hi; ++i) {
          if (++k == Q::sample_every) {
            k = 0;
            const std::int64_t t0 = now_ns();
            queue.enqueue(&msgs[i], whens[i]);
            if (me.samples.size() < me.samples.capacity()) me.samples.push_back(now_ns() - t0);
          } else {
            queue.enqueue(&msgs[i], whens[i]);
          }
        }
        me.end = now_ns();
        me.cpu_ns += lfcheck::bench::thread_cpu_ns() - cpu_start;
        done.arrive_and_wait();
      }
    });

  double seconds = 0;
  std::size_t ops = 0;
  for (auto _ : state) {
    queue.q.reset();  // destroy the previous queue; the messages are ours
    for (std::size_t i = 0; i < total; ++i) {
      msgs[i].flags.store(0, std::memory_order_relaxed);
      msgs[i].next.store(nullptr, std::memory_order_relaxed);
    }
    queue.build(msgs.get(), whens.data(), pending);
    start.arrive_and_wait();
    done.arrive_and_wait();
    std::int64_t lo = per[0].start, hi = per[0].end;
    for (auto& p : per) lo = std::min(lo, p.start), hi = std::max(hi, p.end);
    const double s = static_cast<double>(hi - lo) * 1e-9;
    state.SetIterationTime(s);
    seconds += s;
    ops += batch;
  }
  stop = true;
  start.arrive_and_wait();
  for (auto& th : pool) th.join();
  queue.q.reset();

  std::vector<std::int64_t> all;
  for (auto& p : per) all.insert(all.end(), p.samples.begin(), p.samples.end());
  state.counters["ns_per_op"] = seconds * 1e9 / static_cast<double>(ops);
  state.counters["enqueues_per_s"] = static_cast<double>(ops) / seconds;
  state.counters["p50_ns"] = percentile(all, 0.50);
  state.counters["p99_ns"] = percentile(all, 0.99);
  state.counters["batch"] = static_cast<double>(batch);
  std::int64_t cpu_ns = 0;
  for (auto& p : per) cpu_ns += p.cpu_ns;
  state.counters["cpu_per_real"] = static_cast<double>(cpu_ns) * 1e-9 / seconds;
  state.SetLabel(std::to_string(threads) + " producers on " + std::to_string(std::thread::hardware_concurrency()) +
                 " cores");
}

void register_all() {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> counts{1, cores, 2 * cores};
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  for (auto* b : {benchmark::RegisterBenchmark("deliqueue_vs_locked_enqueue/locked", enqueue_into_busy_queue<Locked>),
                  benchmark::RegisterBenchmark("deliqueue_vs_locked_enqueue/deli", enqueue_into_busy_queue<Deli>)}) {
    b->ArgNames({"pending", "threads"})->UseManualTime()->Unit(benchmark::kMicrosecond);
    for (long n : {1000, 10000, 100000})
      for (unsigned t : counts) b->Args({n, static_cast<long>(t)});
  }
}

}  // namespace

// Registered during static initialization; main is Google Benchmark's (benchmark_main).
[[maybe_unused]] static const bool registered = (register_all(), true);
