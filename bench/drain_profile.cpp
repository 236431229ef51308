// lfcheck-drain-profile VARIANT N: one drain of an N-message backlog, the work of
// deliqueue_vs_locked_drain (deliqueue_looper_bench.cpp), for valgrind's
// callgrind with its cache and branch simulation (these VMs have no hardware
// counters). tools/drain_profile.py runs it and attributes every instruction to
// a step of the drain through the debug information's inline chains.
//   deli    N due messages pushed and not yet swept: the drain is the sweep (back-
//           links, N heap inserts), then per delivery the claim, the heap pop and
//           the unlink from the stack.
//   locked  the legacy list, already sorted (its posts paid for that): per
//           delivery the lock, the head, its unlink, the unlock.
// Only the drain is measured: it is one non-inlined function per queue, with
// everything it calls inlined into it (gnu::flatten), and callgrind collects
// inside it only (--toggle-collect=lfcheck_drain_*). The set-up (messages,
// whens, posts) runs outside. flatten inlines a little more than the release
// build does; the instructions are the same code.
//   valgrind --tool=callgrind --collect-atstart=no --toggle-collect='lfcheck_drain_*'
//            --cache-sim=yes --branch-sim=yes --dump-instr=yes lfcheck-drain-profile deli 1000
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "bench/bench_util.hpp"
#include "structures/deliqueue/deliqueue.hpp"
#include "structures/deliqueue/locked_message_queue.hpp"

using Msg = lfcheck::Message<>;
using DeliQ = lfcheck::DeliQueue<>;
using LockedQ = lfcheck::LockedMessageQueue<>;

extern "C" [[gnu::noinline, gnu::flatten]] std::size_t lfcheck_drain_deli(DeliQ& q) {
  std::size_t got = 0;
  while (q.poll()) ++got;
  return got;
}
extern "C" [[gnu::noinline, gnu::flatten]] std::size_t lfcheck_drain_locked(LockedQ& q) {
  std::size_t got = 0;
  while (q.poll()) ++got;
  return got;
}

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[1], "deli") != 0 && std::strcmp(argv[1], "locked") != 0) ||
      std::atol(argv[2]) <= 0) {
    std::fprintf(stderr, "usage: %s deli|locked N   (N > 0 messages)\n", argv[0]);
    return 2;
  }
  const auto n = static_cast<std::size_t>(std::atol(argv[2]));
  // Due whens in random order, as the benchmark draws them: the second before now.
  lfcheck::bench::Rng rng(7);
  const std::int64_t now = lfcheck::bench::now_ns();
  std::vector<std::int64_t> whens(n);
  for (auto& w : whens) w = now - 1'000'000'000 + static_cast<std::int64_t>(rng.below(1'000'000'000));
  std::unique_ptr<Msg[]> msgs(new Msg[n]);
  std::size_t got = 0;
  if (argv[1][0] == 'd') {
    auto q = std::make_unique<DeliQ>();
    for (std::size_t i = 0; i < n; ++i) q->enqueue(&msgs[i], whens[i]);
    got = lfcheck_drain_deli(*q);
  } else {
    // Inserted in descending `when` order (each at the head): the same sorted list
    // N posts leave, without the O(N^2) set-up.
    auto q = std::make_unique<LockedQ>();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return whens[a] > whens[b]; });
    for (std::size_t i : order) q->enqueue(&msgs[i], whens[i]);
    got = lfcheck_drain_locked(*q);
  }
  if (got != n) {
    std::fprintf(stderr, "drain delivered %zu of %zu messages\n", got, n);
    return 1;
  }
  std::printf("%zu delivered\n", got);
  return 0;
}
