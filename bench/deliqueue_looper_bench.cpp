// The Looper side of DeliQueue vs the legacy LockedMessageQueue.
//
// deliqueue_vs_locked_drain/<variant>/backlog:N — sweep + delivery of a backlog.
//   N messages with random `when`s, all already due, are queued (untimed); the
//   timed part is the Looper calling poll() until the queue is empty. DeliQueue:
//   the N messages are still on the stack, unswept (the state after a burst of
//   posts), so the time includes the sweep (back-links, N heap inserts) and N heap
//   pops. Legacy: the list is already sorted (its posts paid O(N) each, measured
//   by deliqueue_vs_locked_enqueue), so each delivery is an O(1) unlink of the
//   head under the lock. This is the legacy queue's best case and DeliQueue's
//   worst: it is expected to lose here, by the log N of its heap. Reported
//   per delivered message (ns_per_op).
//
// deliqueue_vs_locked_drain_swept/<variant>/backlog:N — the same N posts (same
//   messages, same whens, same order) into both queues, and each queue has done
//   the work its posts leave for later before the clock starts: the legacy list is
//   sorted (as above), DeliQueue's Looper has swept the stack into its heaps (a
//   Looper that kept up with the posts, peek() untimed). The timed part is only
//   the N deliveries: per delivery, the legacy queue's O(1) unlink of the head
//   under its lock vs DeliQueue's claim, heap pop (O(log N)) and stack unlink.
//   Per delivered message (ns_per_op).
//
// deliqueue_vs_locked_post_and_drain/<variant>/backlog:N — the whole life of the
//   backlog on one thread: N posts with random due `when`s, then N deliveries.
//   Where the O(N) insert and the O(log N) heap meet. Per message.
//
// deliqueue_vs_locked_latency/<variant>/window:W — steady-state enqueue-to-delivery
//   latency. The queue holds 1,000 pending messages due in an hour (a busy queue;
//   they are never delivered). One producer (the benchmark thread) posts due-now
//   messages (when = the queue's clock); a Looper thread blocks in next() and, for
//   each delivery, records now - when (steady_clock, both sides). Windows:
//     window:1 (ping-pong): the producer waits for each delivery before the next post, so the
//       Looper goes to sleep between messages: latency = post + wake-up + delivery.
//     window:64: up to 64 messages in flight: a Looper that rarely sleeps, latency
//       includes queueing behind at most 63 others.
//   Counters p50_ns / p99_ns (the report compares them too); the time per
//   iteration is the producer's time per message.
//   Both queues use their production steady clock and their own park/wake paths,
//   so wake-up costs are part of what is compared, and both wake as Android does:
//   only a Looper that sleeps, and then through nativeWake's eventfd write plus a
//   notify (DeliQueue: the wake-state word tells a poster that the Looper sleeps;
//   legacy: mBlocked and needWake under its lock). Before, the legacy queue
//   notified on every post and skipped the eventfd write that Android's legacy
//   queue does on every wake (~150 ns here), which DeliQueue paid.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
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
using DeliQ = lfcheck::DeliQueue<>;
using LockedQ = lfcheck::LockedMessageQueue<>;

constexpr std::int64_t kHour = 3'600'000'000'000;

void reset(Msg* msgs, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    msgs[i].flags.store(0, std::memory_order_relaxed);
    msgs[i].next.store(nullptr, std::memory_order_relaxed);
  }
}

// Set-up of a backlog of due messages. DeliQueue: pushed, unswept. Legacy:
// inserted in descending `when` order (each insert at the head, O(1)), so the
// set-up does not take O(N^2); the resulting list is the same sorted list.
void fill(DeliQ& q, Msg* msgs, const std::vector<std::int64_t>& whens) {
  for (std::size_t i = 0; i < whens.size(); ++i) q.enqueue(&msgs[i], whens[i]);
}
void fill(LockedQ& q, Msg* msgs, const std::vector<std::int64_t>& whens) {
  std::vector<std::size_t> order(whens.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return whens[a] > whens[b]; });
  for (std::size_t i : order) q.enqueue(&msgs[i], whens[i]);
}

std::vector<std::int64_t> due_whens(std::size_t n) {
  // Due: anywhere in the second before now (steady clock), in random order.
  Rng rng(7);
  const std::int64_t now = now_ns();
  std::vector<std::int64_t> w(n);
  for (auto& x : w) x = now - 1'000'000'000 + static_cast<std::int64_t>(rng.below(1'000'000'000));
  return w;
}

// kSwept: DeliQueue's sweep is done before the clock starts (drain_swept).
template <class Q, bool kSwept = false>
void drain(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::unique_ptr<Msg[]> msgs(new Msg[n]);
  const auto whens = due_whens(n);
  double seconds = 0;
  for (auto _ : state) {
    reset(msgs.get(), n);
    auto q = std::make_unique<Q>();
    fill(*q, msgs.get(), whens);
    if constexpr (kSwept && std::is_same_v<Q, DeliQ>) q->peek();  // the Looper's sweep, untimed
    const std::int64_t t0 = now_ns();
    std::size_t got = 0;
    while (q->poll()) ++got;
    const std::int64_t t1 = now_ns();
    if (got != n) state.SkipWithError("drain lost messages");
    state.SetIterationTime(static_cast<double>(t1 - t0) * 1e-9);
    seconds += static_cast<double>(t1 - t0) * 1e-9;
  }
  state.counters["ns_per_op"] = seconds * 1e9 / static_cast<double>(n * state.iterations());
}

template <class Q>
void post_and_drain(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::unique_ptr<Msg[]> msgs(new Msg[n]);
  const auto whens = due_whens(n);
  double seconds = 0;
  for (auto _ : state) {
    reset(msgs.get(), n);
    auto q = std::make_unique<Q>();
    const std::int64_t t0 = now_ns();
    for (std::size_t i = 0; i < n; ++i) q->enqueue(&msgs[i], whens[i]);
    std::size_t got = 0;
    while (q->poll()) ++got;
    const std::int64_t t1 = now_ns();
    if (got != n) state.SkipWithError("lost messages");
    state.SetIterationTime(static_cast<double>(t1 - t0) * 1e-9);
    seconds += static_cast<double>(t1 - t0) * 1e-9;
  }
  state.counters["ns_per_op"] = seconds * 1e9 / static_cast<double>(n * state.iterations());
}

template <class Q>
void latency(benchmark::State& state) {
  const long window = state.range(0);  // 1 = ping-pong
  constexpr std::size_t kPending = 1000, kRing = 128;
  std::unique_ptr<Msg[]> pending(new Msg[kPending]);
  std::unique_ptr<Msg[]> ring(new Msg[kRing]);
  Q q;
  Rng rng(3);
  const std::int64_t base = now_ns() + kHour;
  for (std::size_t i = 0; i < kPending; ++i) q.enqueue(&pending[i], base + static_cast<std::int64_t>(rng.below(kHour)));
  if constexpr (std::is_same_v<Q, DeliQ>) q.peek();  // the Looper has swept them (it runs from here on)

  std::atomic<std::uint64_t> delivered{0};
  std::vector<std::int64_t> samples;
  samples.reserve(1 << 20);
  std::thread looper([&] {
    while (Msg* m = q.next()) {
      const std::int64_t lat = now_ns() - m->when.load();
      if (samples.size() < samples.capacity()) samples.push_back(lat);
      delivered.fetch_add(1, std::memory_order_release);  // the producer may reuse m
      delivered.notify_one();
    }
  });

  std::uint64_t posted = 0;
  for (auto _ : state) {
    // Wait until fewer than `window` messages are in flight.
    // It sleeps (futex) rather than spins: on a loaded 2-core machine a spinning or
    // yielding producer would steal the Looper's core and time the scheduler instead.
    for (std::uint64_t d = delivered.load(std::memory_order_acquire);
         posted - d >= static_cast<std::uint64_t>(window); d = delivered.load(std::memory_order_acquire))
      delivered.wait(d, std::memory_order_acquire);
    Msg* m = &ring[posted % kRing];
    q.enqueue(m, q.now());
    ++posted;
  }
  for (std::uint64_t d = delivered.load(std::memory_order_acquire); d != posted;
       d = delivered.load(std::memory_order_acquire))
    delivered.wait(d, std::memory_order_acquire);
  q.quit(false);
  looper.join();
  state.counters["p50_ns"] = percentile(samples, 0.50);
  state.counters["p99_ns"] = percentile(samples, 0.99);
}

void register_all() {
  for (auto* b : {benchmark::RegisterBenchmark("deliqueue_vs_locked_drain/locked", drain<LockedQ>),
                  benchmark::RegisterBenchmark("deliqueue_vs_locked_drain/deli", drain<DeliQ>)})
    b->ArgName("backlog")->Arg(1000)->Arg(10000)->Arg(100000)->UseManualTime()->Unit(benchmark::kMicrosecond);
  for (auto* b : {benchmark::RegisterBenchmark("deliqueue_vs_locked_drain_swept/locked", drain<LockedQ, true>),
                  benchmark::RegisterBenchmark("deliqueue_vs_locked_drain_swept/deli", drain<DeliQ, true>)})
    b->ArgName("backlog")->Arg(1000)->Arg(10000)->Arg(100000)->UseManualTime()->Unit(benchmark::kMicrosecond);
  for (auto* b : {benchmark::RegisterBenchmark("deliqueue_vs_locked_post_and_drain/locked", post_and_drain<LockedQ>),
                  benchmark::RegisterBenchmark("deliqueue_vs_locked_post_and_drain/deli", post_and_drain<DeliQ>)})
    b->ArgName("backlog")->Arg(1000)->Arg(10000)->UseManualTime()->Unit(benchmark::kMicrosecond);
  for (auto* b : {benchmark::RegisterBenchmark("deliqueue_vs_locked_latency/locked", latency<LockedQ>),
                  benchmark::RegisterBenchmark("deliqueue_vs_locked_latency/deli", latency<DeliQ>)})
    b->ArgName("window")->Arg(1)->Arg(64)->UseRealTime()->Unit(benchmark::kNanosecond);
}

}  // namespace

// Registered during static initialization; main is Google Benchmark's (benchmark_main).
[[maybe_unused]] static const bool registered = (register_all(), true);
