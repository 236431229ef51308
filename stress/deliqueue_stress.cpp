// DeliQueue stress: thread 0 is the Looper, the others are producers (with one
// thread, it does both). Real threads, the production SteadyClock.
//
// Producers post heap-allocated records with a random `when`: in the past, in
// the future (up to 300 µs), on a shared 64 µs grid (so many messages have
// equal when, within and across producers), far in the past (INT64_MIN + k),
// or at front; a quarter are async. The Looper delivers with next_until (it
// really parks and is woken by the wake protocol), posts a sync barrier now and
// then and removes it after a few rounds of deliveries (then removing the token
// again must be refused), and runs check_invariants() every 64 of its ops.
//
// Checks
//   at each delivery: the message is in no other delivery (exactly once), it
//     was due (when <= the clock after next returned), a sync message passed
//     no barrier (while our barrier at time B is queued, every sync message
//     delivered has when <= B), and FIFO: two ordinary posts of one producer
//     with the same when and the same async-ness come out in posting order;
//   at every quiescent point: check_invariants(), and accepted - delivered ==
//     messages on the stack (nothing lost, nothing invented);
//   at the end: quit(unsafe), and delivered + discarded == accepted.
#include <cinttypes>
#include <cstdint>
#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "harness/stress_registry.hpp"
#include "structures/deliqueue/deliqueue.hpp"

namespace lfcheck {
namespace {

struct Rec {
  Message<> m;  // m.target points back to the Rec
  unsigned producer = 0;
  std::uint64_t seq = 0;  // per producer, from 1
  std::int64_t when = 0;
  bool async = false, front = false;
};

// Delivered sequence numbers of one producer: a watermark below which all were
// delivered, and a set above it. Detects a second delivery in O(1).
struct Seen {
  std::uint64_t low = 1;
  std::unordered_set<std::uint64_t> above;
  bool add(std::uint64_t s) {
    if (s < low || !above.insert(s).second) return false;
    while (above.erase(low)) ++low;
    return true;
  }
};

template <DeliFault F>
struct DeliStress {
  static constexpr const char* name = "producers_looper";
  static constexpr const char* description =
      "P producers post (past/future/equal/extreme when, at front, async) to 1 Looper with barriers";

  static void run(StressRun& run) {
    using Queue = DeliQueue<StdSync, F, SteadyClock>;
    const unsigned n = run.options().threads;
    const bool solo = n == 1;
    auto q = std::make_unique<Queue>();

    struct alignas(64) Producer {
      std::uint64_t posted = 0, accepted = 0, ops_in_round = 0;
      bool refused = false;
    };
    std::vector<Producer> producers(n);
    // Producers still posting in this round: the Looper parks (next_until) only
    // while someone may still post, and polls once all are done, so a round
    // does not end with the Looper sleeping out timeouts nobody will cut short.
    constexpr std::uint64_t kRoundOps = 1024;
    std::atomic<unsigned> busy{solo ? 0u : n - 1};
    // Looper-only state (and the quiescent check, ordered by the round barrier).
    std::vector<Seen> seen(n);
    // FIFO check: per class (sync, async) and producer, when -> highest seq delivered.
    std::vector<std::unordered_map<std::int64_t, std::uint64_t>> fifo[2];
    fifo[0].resize(n);
    fifo[1].resize(n);
    std::uint64_t delivered = 0, looper_ops = 0;
    std::uint64_t barrier = 0;
    std::int64_t barrier_when = 0;
    int barrier_left = 0;
    std::string error;

    auto produce = [&](unsigned t, std::mt19937_64& rng) {
      Producer& me = producers[t];
      auto* r = new Rec;
      r->producer = t;
      r->seq = ++me.posted;
      r->async = rng() % 4 == 0;
      r->m.set_async(r->async);
      r->m.what.store(static_cast<std::int32_t>(t));
      r->m.target.store(r);
      const std::int64_t now = q->now();
      const unsigned dice = static_cast<unsigned>(rng() % 100);
      bool ok;
      if (dice < 8) {
        r->front = true;
        r->when = kWhenFront;
        ok = q->enqueue_at_front(&r->m);
      } else {
        if (dice < 13) r->when = kWhenFront + 1 + static_cast<std::int64_t>(rng() % 4);  // far past
        else if (dice < 48) r->when = (now & ~std::int64_t(65535)) + static_cast<std::int64_t>(rng() % 3) * 65536;
        else if (dice < 74) r->when = now - static_cast<std::int64_t>(rng() % 1000000);
        else r->when = now + static_cast<std::int64_t>(rng() % 300000);
        ok = q->enqueue(&r->m, r->when);
      }
      if (ok) {
        ++me.accepted;
      } else {
        me.refused = true;
        delete r;
      }
      // Relaxed: only a hint for the Looper's choice between parking and polling.
      if (!solo && ++me.ops_in_round == kRoundOps) {
        me.ops_in_round = 0;
        busy.fetch_sub(1, std::memory_order_relaxed);
      }
    };

    auto deliver = [&](Message<>* m) {
      if (const char* e = q->health()) {  // corrupt: keep the record (no delete), fail the run
        error = std::string("DeliQueue corrupt: ") + e;
        return;
      }
      auto* r = static_cast<Rec*>(m->target.load());
      const std::int64_t now = q->now();
      ++delivered;
      if (r->producer >= n || !seen[r->producer].add(r->seq)) {
        error = "a message was delivered twice (or one nobody posted)";
        return;
      }
      if (m->in_use()) error = "a delivered message is still marked in use";
      if (m->when.load() != r->when) error = "a delivered message's when changed";
      if (r->when > now) error = "a message was delivered before it was due";
      if (barrier && !r->async && r->when > barrier_when)
        error = "a sync message was delivered past a sync barrier";
      if (!r->front) {
        auto& last = fifo[r->async][r->producer][r->when];
        if (last > r->seq) error = "two equal-when posts of one producer came out LIFO";
        if (last < r->seq) last = r->seq;
      }
      delete r;
    };

    auto looper = [&](std::mt19937_64& rng) {
      ++looper_ops;
      if (!barrier && rng() % 16 == 0) {
        barrier_when = q->now();
        barrier = q->post_sync_barrier_at(barrier_when);
        barrier_left = 32 + static_cast<int>(rng() % 96);  // Looper ops it stays
        if (!barrier) error = "post_sync_barrier refused on a live queue";
      } else if (barrier && --barrier_left <= 0) {
        if (q->remove_sync_barrier(barrier) != BarrierRemoval::removed) error = "posted barrier not found";
        if (q->remove_sync_barrier(barrier) != BarrierRemoval::unknown_token)
          error = "removing a removed barrier was not refused";
        barrier = 0;
      }
      // Deliver up to 8 messages; while producers are still posting, park up to
      // 50 µs for the first one (woken early by a post due before that).
      const bool park = busy.load(std::memory_order_relaxed) > 0;
      for (int k = 0; k < 8; ++k) {
        Message<>* m = k == 0 && park ? q->next_until(q->now() + 50000) : q->poll();
        if (!m) break;
        deliver(m);
      }
      if (looper_ops % 64 == 0)
        if (const char* e = q->check_invariants()) error = std::string("check_invariants (Looper): ") + e;
    };

    auto op = [&](unsigned t, std::mt19937_64& rng) {
      if (solo) {
        produce(t, rng);
        looper(rng);
      } else if (t == 0) {
        looper(rng);
      } else {
        produce(t, rng);
      }
    };

    auto at_quiescence = [&] {
      if (!error.empty()) return run.fail(error);
      for (auto& p : producers)
        if (p.refused) return run.fail("enqueue refused on a live queue");
      if (const char* e = q->check_invariants()) return run.fail(std::string("check_invariants: ") + e);
      std::uint64_t accepted = 0;
      for (auto& p : producers) accepted += p.accepted;
      const std::uint64_t queued = q->size_quiescent() - (barrier ? 1 : 0);
      if (accepted - delivered != queued)
        return run.fail("accounting: " + std::to_string(accepted) + " accepted, " + std::to_string(delivered) +
                        " delivered, but " + std::to_string(queued) + " queued (messages lost or invented)");
      // Bound the FIFO history (a long run would otherwise grow it without end);
      // forgetting only weakens the check for messages queued across the reset.
      for (auto& per_class : fifo)
        for (auto& map : per_class)
          if (map.size() > 100000) map.clear();
      busy.store(solo ? 0u : n - 1, std::memory_order_relaxed);  // the round barrier orders it
    };

    run.run_rounds(op, at_quiescence, kRoundOps);

    // End: quit(unsafe); everything still queued comes back through take_discarded.
    if (!run.failed()) {
      if (!q->quit(false)) run.fail("quit() refused");
      Message<>* m = q->next();
      std::uint64_t discarded = 0;
      while (m) {  // a quit(unsafe) queue delivers nothing more
        run.fail("next() delivered after quit(unsafe)");
        delete static_cast<Rec*>(m->target.load());
        m = q->next();
      }
      for (Message<>* d = q->take_discarded(); d;) {
        Message<>* nx = d->free_next.load(std::memory_order_relaxed);
        delete static_cast<Rec*>(d->target.load());
        ++discarded;
        d = nx;
      }
      std::uint64_t accepted = 0;
      for (auto& p : producers) accepted += p.accepted;
      if (delivered + discarded != accepted)
        run.fail("at quit: " + std::to_string(accepted) + " accepted but " + std::to_string(delivered) +
                 " delivered + " + std::to_string(discarded) + " discarded");
      if (q->check_invariants()) run.fail(std::string("check_invariants after quit: ") + q->check_invariants());
      std::printf("deliqueue: %" PRIu64 " messages delivered, %" PRIu64 " discarded at quit, Looper woken %" PRIu64 " times\n",
                  delivered, discarded, q->wakeups());
    }
  }
};

LFCHECK_STRESS(DeliFault, DeliStress);

}  // namespace
}  // namespace lfcheck
