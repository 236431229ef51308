// DeliQueue stress: thread 0 is the Looper, the others are producers (with one
// thread, it does both). Real threads, the production SteadyClock.
//
// Producers post heap-allocated records with a random `when`: in the past, in
// the future (up to 300 µs), on a shared 64 µs grid (so many messages have
// equal when, within and across producers), far in the past (INT64_MIN + k,
// INT64_MIN itself as an ordinary post), at the end of time (INT64_MAX - k,
// INT64_MAX: never due, discarded at quit), or at front; a quarter are async. The Looper delivers with next_until (it
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
#include <thread>
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
      std::uint64_t posted = 0, accepted = 0;
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
        if (dice < 13) r->when = kWhenFront + static_cast<std::int64_t>(rng() % 5);  // far past
        else if (dice < 15) r->when = kNever - static_cast<std::int64_t>(rng() % 4);  // end of time
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
      if (!solo && run.last_of_round(t)) busy.fetch_sub(1, std::memory_order_relaxed);
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

// ---- quit_races: queues created and quit while producers hammer them ---------
//
// Every round (kQuitRoundOps operations per thread) has kQuitQueues fresh
// queues, each with its own Looper thread (std::thread, not a round worker)
// looping on next() until it returns nullptr. Worker threads post records to a
// random queue of the round (due now, due within 50 µs, due in 1 s, due at the
// end of time — INT64_MAX - k, so a Looper left with only those sleeps a timed
// wait that does not fit in an int64 until quit wakes it —, at front)
// and, once in kQuitOneIn operations, quit one (safe or unsafe, at random; the
// first claimant quits). At the quiescent point every queue not yet quit is quit
// by the checking thread, its Looper is joined, the round's accounting is
// checked, and new queues and Loopers start. Half the queues report drops
// through set_on_dropped, the other half through take_discarded() (drained by
// the Looper after next() returned nullptr).
//
// Checks
//   at once: a post that started after quit() returned (quit_done read first)
//     is refused; a refused record is untouched (not in use, when unchanged);
//     a delivered record was due; a record dropped by a safe quit was due after
//     the quit (when > the clock read before quit()); nothing is handed back
//     twice (the record is deleted at its outcome: ASan/TSan see a second one);
//   per queue, after its Looper is joined: accepted == delivered + dropped
//     (no post that returned true is silently lost), nothing left on the stack,
//     the wake resource destroyed exactly once, its uses == wake-ups == what the
//     eventfd counted, no eventfd error, check_invariants();
//   a Looper that never returns from next() stops the rounds: the runner's hang
//     watchdog fails the run; leaks (a record never handed back, a resource
//     never freed) fail the ASan run through LSan.
// Noise: QuitNoisySync yields or spins now and then at the marked race windows
// (DeliQueue::wake between the fetch_add and the reference; RefcountedShutdown's).
struct QuitNoisySync : StdSync {
  static void noise() {
    thread_local std::uint64_t x = 0x9e3779b97f4a7c15ull ^ reinterpret_cast<std::uintptr_t>(&x);
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    switch (x & 15) {
      case 0: std::this_thread::yield(); break;
      case 1:
        for (int i = 0; i < 64; ++i) spin_hint();
        break;
      default: break;
    }
  }
};

constexpr unsigned kQuitQueues = 2;
constexpr std::uint64_t kQuitRoundOps = 256;
constexpr unsigned kQuitOneIn = 256;

template <DeliFault F>
struct DeliQuitStress {
  static constexpr const char* name = "quit_races";
  static constexpr const char* description =
      "queues (each with its own Looper) created and quit (safe/unsafe) mid-round while producers post";

  using Queue = DeliQueue<QuitNoisySync, F, SteadyClock>;
  using Msg = Message<QuitNoisySync>;
  struct Rec {
    Msg m;  // m.target points back to the Rec
    std::int64_t when = 0;
  };
  struct alignas(64) Slot {
    std::unique_ptr<Queue> q;
    std::thread looper;
    bool use_callback = false;
    std::atomic<bool> quit_claimed{false};
    // Release/acquire: a producer that reads true knows quit() has returned.
    std::atomic<bool> quit_done{false};
    // Written by the one quitter before quit(); read by the Looper after its sweep
    // found the sentinel (ordered by the sentinel push's release CAS and the sweep's
    // acquire) and at the quiescent point (after the join).
    bool safe = false;
    std::int64_t quit_t0 = 0;
    // The Looper's (read after the join).
    std::uint64_t delivered = 0, dropped = 0;
    std::string error;
  };
  struct alignas(64) Worker {
    std::uint64_t accepted[kQuitQueues] = {}, refused = 0, quits = 0;
    std::string error;
  };
  struct Totals {
    std::uint64_t queues = 0, quit_mid_round = 0, safe = 0, accepted = 0, delivered = 0, dropped = 0,
                  refused = 0, wakeups = 0;
  };

  static void drop(Slot& s, Msg* m) {
    auto* r = static_cast<Rec*>(m->target.load());
    if (m->in_use()) s.error = "a dropped message is still marked in use";
    if (s.safe && r->when <= s.quit_t0) s.error = "a safe quit dropped a message due before the quit";
    ++s.dropped;
    delete r;
  }
  static void on_dropped(Msg& m, void* slot) { drop(*static_cast<Slot*>(slot), &m); }

  static void looper(Slot& s) {
    while (Msg* m = s.q->next()) {
      auto* r = static_cast<Rec*>(m->target.load());
      if (m->in_use()) s.error = "a delivered message is still marked in use";
      if (r->when > s.q->now()) s.error = "a message was delivered before it was due";
      ++s.delivered;
      delete r;
    }
    if (!s.use_callback)
      for (Msg* d = s.q->take_discarded(); d;) {
        Msg* const next = d->free_next.load(std::memory_order_relaxed);  // Looper-only link
        drop(s, d);
        d = next;
      }
    else if (s.q->take_discarded())
      s.error = "on_dropped set, yet messages went to take_discarded";
    if (!s.q->wake_resource_destroyed()) s.error = "next() returned nullptr but the wake resource lives";
  }

  static void start(Slot& s, bool use_callback) {
    s.q = std::make_unique<Queue>();
    s.use_callback = use_callback;
    if (use_callback) s.q->set_on_dropped(&on_dropped, &s);
    s.quit_claimed.store(false, std::memory_order_relaxed);  // the round barrier orders it
    s.quit_done.store(false, std::memory_order_relaxed);
    s.safe = false;
    s.quit_t0 = 0;
    s.delivered = s.dropped = 0;
    s.error.clear();
    s.looper = std::thread(looper, std::ref(s));
  }

  // The first claimant quits; false if another thread already did.
  static bool quit(Slot& s, bool safe, std::string& error) {
    // Acq_rel: one claimant (pairs with the other claimants' exchange).
    if (s.quit_claimed.exchange(true, std::memory_order_acq_rel)) return false;
    s.safe = safe;
    s.quit_t0 = s.q->now();
    if (!s.q->quit(safe)) error = "quit() refused on a live queue";
    // Release: pairs with the producers' acquire load before they post.
    s.quit_done.store(true, std::memory_order_release);
    return true;
  }

  static void run(StressRun& run) {
    const unsigned n = run.options().threads;
    std::vector<Slot> slots(kQuitQueues);
    std::vector<Worker> workers(n);
    Totals total;
    std::uint64_t round = 0;
    for (unsigned k = 0; k < kQuitQueues; ++k) start(slots[k], (k + round) % 2 == 0);

    auto op = [&](unsigned t, std::mt19937_64& rng) {
      Worker& me = workers[t];
      const unsigned k = static_cast<unsigned>(rng() % kQuitQueues);
      Slot& s = slots[k];
      if (rng() % kQuitOneIn == 0) {
        me.quits += quit(s, rng() % 2 == 0, me.error);
        run.describe(t, "quit", k);
        return;
      }
      // Acquire: pairs with the quitter's release store after quit() returned.
      const bool after_quit = s.quit_done.load(std::memory_order_acquire);
      auto* r = new Rec;
      r->m.target.store(r);
      const std::int64_t now = s.q->now();
      const unsigned dice = static_cast<unsigned>(rng() % 100);
      bool ok;
      if (dice < 10) {
        r->when = kWhenFront;
        ok = s.q->enqueue_at_front(&r->m);
      } else {
        if (dice < 60) r->when = now - static_cast<std::int64_t>(rng() % 1000000);
        else if (dice < 90) r->when = now + static_cast<std::int64_t>(rng() % 50000);
        else if (dice < 95) r->when = now + 1000000000;  // 1 s: dropped by any quit in this round
        else r->when = kNever - 1 - static_cast<std::int64_t>(rng() % 4);  // the end of time (timed wait)
        ok = s.q->enqueue(&r->m, r->when);
      }
      run.describe(t, "post", k, ok);
      if (ok) {  // r may already be delivered and freed: not touched again
        ++me.accepted[k];
        if (after_quit) me.error = "a post after quit() returned was accepted";
      } else {
        ++me.refused;
        if (r->m.in_use() || r->m.when.load() != 0) me.error = "a refused message was not left untouched";
        delete r;
      }
    };

    // Quits what is left, joins the Loopers, checks and counts the round.
    auto finish_round = [&](std::mt19937_64& rng) -> std::string {
      std::string error;
      for (unsigned k = 0; k < kQuitQueues; ++k) {
        Slot& s = slots[k];
        const bool mid_round = s.quit_claimed.load(std::memory_order_relaxed);  // quiescent
        if (!mid_round) quit(s, rng() % 2 == 0, error);
        s.looper.join();
        std::uint64_t accepted = 0;
        for (auto& w : workers) accepted += w.accepted[k];
        const auto& rep = s.q->wake_resource_report();
        if (!s.error.empty()) error = s.error;
        else if (accepted != s.delivered + s.dropped)
          error = "queue accounting: " + std::to_string(accepted) + " accepted but " +
                  std::to_string(s.delivered) + " delivered + " + std::to_string(s.dropped) +
                  " dropped (a post that returned true was lost or handed back twice)";
        else if (s.q->size_quiescent() != 0) error = "messages left on the stack after quit";
        else if (rep.closes != 1) error = "wake resource destroyed other than exactly once";
        else if (rep.uses != s.q->wakeups() || rep.os_total != rep.uses || !rep.os_ok)
          error = "wake resource: uses, wake-ups and the eventfd's count disagree";
        else if (const char* e = s.q->check_invariants()) error = std::string("check_invariants: ") + e;
        total.queues += 1;
        total.quit_mid_round += mid_round;
        total.safe += s.safe;
        total.accepted += accepted;
        total.delivered += s.delivered;
        total.dropped += s.dropped;
        total.wakeups += s.q->wakeups();
      }
      for (auto& w : workers) {
        if (error.empty() && !w.error.empty()) error = w.error;
        total.refused += w.refused;
        w = Worker{};
      }
      return error;
    };

    std::mt19937_64 checker_rng = run.thread_rng(n);
    auto at_quiescence = [&] {
      const std::string error = finish_round(checker_rng);
      ++round;
      for (unsigned k = 0; k < kQuitQueues; ++k) start(slots[k], (k + round) % 2 == 0);
      if (!error.empty()) run.fail(error);
    };

    run.run_rounds(op, at_quiescence, kQuitRoundOps);
    const std::string error = finish_round(checker_rng);  // the queues the last check started
    if (!error.empty() && !run.failed()) run.fail(error);
    std::printf("deliqueue quit_races: %" PRIu64 " queues created and quit (%" PRIu64 " mid-round, %" PRIu64
                " safe); posts: %" PRIu64 " accepted = %" PRIu64 " delivered + %" PRIu64 " dropped, %" PRIu64
                " refused; %" PRIu64 " Looper wake-ups\n",
                total.queues, total.quit_mid_round, total.safe, total.accepted, total.delivered, total.dropped,
                total.refused, total.wakeups);
  }
};

LFCHECK_STRESS(DeliFault, DeliQuitStress);

}  // namespace
}  // namespace lfcheck
