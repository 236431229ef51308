// Removal stress: removal storms on a DeliQueue. Thread 0 is the Looper; every
// other thread posts and removes (with one thread, it does both). Real
// threads, the production SteadyClock.
//
// Workers post heap-allocated records of one of 4 classes (`what`), due now or
// up to 200 µs ahead, and call remove_messages(class) (6%) and
// has_messages(class) (6%) — so several threads traverse and claim while
// others push and the Looper sweeps, delivers, drains the free-list and
// unlinks. The Looper polls, recycles every delivered message (the contract
// when traversals run) and deletes each record only when take_reclaimed() hands
// it back, so a traversal that could still reach a freed record is a use after
// free (ASan) or a race with the delete (TSan).
//
// Checks
//   at each delivery: the record was not delivered before, and it was not
//     posted before the start of a remove_messages(its class) that had returned
//     before this next() began (stamps: a post takes a ticket after enqueue
//     returns; a remover reads the ticket counter when it starts and publishes
//     it, as done[class], when it returns; the Looper reads done[] before polling);
//   at each hand-back: a removed record was never delivered, a recycled one was
//     delivered once;
//   at every quiescent point: check_invariants(); the reclamation backlog drains
//     to 0 (no traversal is inside); claims reported by remove_messages ==
//     records handed back as removed; accepted == delivered + removed + queued;
//   at the end: quit(unsafe), and delivered + removed + discarded == accepted.
#include <atomic>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "harness/stress_registry.hpp"
#include "structures/deliqueue/deliqueue.hpp"

namespace lfcheck {
namespace {

constexpr int kClasses = 4;

struct Rec {
  Message<> m;  // m.target points back to the Rec
  unsigned producer = 0;
  std::uint64_t seq = 0;           // per producer, from 1; written before enqueue
  int delivered = 0, removed = 0;  // Looper only
};

// Post tickets of one producer, by seq modulo kStamps. The ticket is taken after
// enqueue returned, when the Looper may already have freed the record, so it is
// kept here, not in the record. The Looper checks `seq` to know the slot is
// still this record's (a slot reused by a later post is simply not checked).
constexpr std::uint64_t kStamps = 1u << 14;
struct Stamp {
  std::atomic<std::uint64_t> seq{0}, ticket{0};
};

template <RemovalFault F>
struct RemovalStorm {
  static constexpr const char* name = "removal_storm";
  static constexpr const char* description =
      "workers post 4 classes and remove_messages/has_messages by class while 1 Looper delivers";

  static void run(StressRun& run) {
    using Queue = DeliQueue<StdSync, DeliFault::none, SteadyClock, F>;
    const unsigned n = run.options().threads;
    const bool solo = n == 1;
    auto q = std::make_unique<Queue>();

    struct alignas(64) Worker {
      std::uint64_t posted = 0, accepted = 0, claims = 0, found = 0;
      bool refused = false;
    };
    std::vector<Worker> workers(n);
    std::vector<std::unique_ptr<Stamp[]>> stamps(n);
    for (auto& s : stamps) s.reset(new Stamp[kStamps]);
    // Post tickets (from 1) and, per class, the highest ticket counter value
    // read at the start of a remove_messages(class) that has returned.
    std::atomic<std::uint64_t> tickets{1};
    std::atomic<std::uint64_t> done[kClasses] = {};
    // Looper only (and the quiescent check, ordered by the round barrier).
    std::uint64_t delivered = 0, removed = 0, looper_ops = 0;
    std::string error;

    auto collect = [&] {
      for (Message<>* r = q->take_reclaimed(); r;) {
        Message<>* nx = r->free_next.load(std::memory_order_relaxed);  // ours now
        auto* rec = static_cast<Rec*>(r->target.load());
        // Relaxed: handed back to this thread by take_reclaimed.
        if (r->flags.load(std::memory_order_relaxed) & msg_flags::removed) {
          ++rec->removed;
          ++removed;
          if (rec->delivered) error = "a message was both delivered and removed";
        } else if (rec->delivered != 1) {
          error = "a recycled message was not delivered exactly once";
        }
        if (rec->removed > 1) error = "a message was removed twice";
        if (r->in_use()) error = "a reclaimed message is still marked in use";
        delete rec;
        r = nx;
      }
    };

    auto worker = [&](unsigned t, std::mt19937_64& rng) {
      Worker& me = workers[t];
      Stamp* my_stamps = stamps[t].get();
      const unsigned dice = static_cast<unsigned>(rng() % 100);
      const auto cls = static_cast<std::int32_t>(rng() % kClasses);
      if (dice < 6) {
        // Acquire: pairs with the posts' release fetch_add: every post with a
        // smaller ticket returned from enqueue before this call began.
        const std::uint64_t start = tickets.load(std::memory_order_acquire);
        me.claims += q->remove_messages(cls);
        // Release: pairs with the Looper's acquire load of done[] (our claims
        // happen-before its next poll). Relaxed failure: retry with the value read.
        std::uint64_t d = done[cls].load(std::memory_order_relaxed);
        while (d < start && !done[cls].compare_exchange_weak(d, start, std::memory_order_release,
                                                             std::memory_order_relaxed)) {
        }
        run.describe(t, "remove_messages", static_cast<std::uint64_t>(cls));
      } else if (dice < 12) {
        me.found += q->has_messages(cls);
        run.describe(t, "has_messages", static_cast<std::uint64_t>(cls));
      } else {
        auto* r = new Rec;
        const std::uint64_t seq = ++me.posted;
        r->producer = t;
        r->seq = seq;
        r->m.what.store(cls);
        r->m.target.store(r);
        const std::int64_t now = q->now();
        const std::int64_t when = rng() % 4 ? now - static_cast<std::int64_t>(rng() % 1000)
                                            : now + static_cast<std::int64_t>(rng() % 200000);
        if (q->enqueue(&r->m, when)) {  // r may be delivered and freed from here on
          ++me.accepted;
          // Release: pairs with a remover's acquire load of the counter.
          const std::uint64_t ticket = tickets.fetch_add(1, std::memory_order_release);
          Stamp& st = my_stamps[seq % kStamps];
          // Relaxed ticket, release seq: pairs with the Looper's acquire load of
          // seq, which then reads this ticket.
          st.ticket.store(ticket, std::memory_order_relaxed);
          st.seq.store(seq, std::memory_order_release);
        } else {
          me.refused = true;
          delete r;
        }
        run.describe(t, "post", static_cast<std::uint64_t>(cls));
      }
    };

    auto looper = [&](unsigned t) {
      ++looper_ops;
      std::uint64_t d[kClasses];
      // Acquire: pairs with the removers' release publication of done[].
      for (int c = 0; c < kClasses; ++c) d[c] = done[c].load(std::memory_order_acquire);
      for (int k = 0; k < 8; ++k) {
        Message<>* m = q->poll();
        if (!m) break;
        if (const char* e = q->health()) {
          error = std::string("DeliQueue corrupt: ") + e;
          return;
        }
        auto* rec = static_cast<Rec*>(m->target.load());
        if (++rec->delivered != 1) error = "a message was delivered twice";
        const std::int32_t cls = m->what.load();
        // No ticket yet (or the slot was reused): the post returned after every
        // remover we know of started, or we cannot tell — not checked.
        std::uint64_t stamp = UINT64_MAX;
        if (rec->producer < n) {
          Stamp& st = stamps[rec->producer][rec->seq % kStamps];
          // Acquire: pairs with the producer's release store of seq.
          if (st.seq.load(std::memory_order_acquire) == rec->seq) stamp = st.ticket.load(std::memory_order_relaxed);
        }
        if (cls >= 0 && cls < kClasses && stamp < d[cls])
          error = "a message matching a returned remove_messages, posted before it began, was delivered";
        ++delivered;
        q->recycle(m);
      }
      collect();
      if (q->reclaim_stalled()) error = "reclamation stalled: a traversal holds the grace period back";
      if (looper_ops % 64 == 0)
        if (const char* e = q->check_invariants()) error = std::string("check_invariants (Looper): ") + e;
      run.describe(t, "looper");
    };

    auto op = [&](unsigned t, std::mt19937_64& rng) {
      if (solo) {
        worker(t, rng);
        looper(t);
      } else if (t == 0) {
        looper(t);
      } else {
        worker(t, rng);
      }
    };

    auto totals = [&](std::uint64_t& accepted, std::uint64_t& claims) {
      accepted = claims = 0;
      for (auto& w : workers) {
        accepted += w.accepted;
        claims += w.claims;
      }
    };

    auto at_quiescence = [&] {
      if (!error.empty()) return run.fail(error);
      for (auto& w : workers)
        if (w.refused) return run.fail("enqueue refused on a live queue");
      collect();  // no traversal is inside: everything retired comes back now
      if (!error.empty()) return run.fail(error);
      if (q->reclaim_backlog() != 0)
        return run.fail("reclamation backlog of " + std::to_string(q->reclaim_backlog()) +
                        " messages with no traversal inside");
      if (const char* e = q->check_invariants()) return run.fail(std::string("check_invariants: ") + e);
      std::uint64_t accepted, claims;
      totals(accepted, claims);
      if (claims != removed)
        return run.fail("remove_messages reported " + std::to_string(claims) + " claims but " +
                        std::to_string(removed) + " messages came back removed");
      const std::uint64_t queued = q->size_quiescent();
      if (accepted != delivered + removed + queued)
        return run.fail("accounting: " + std::to_string(accepted) + " accepted != " + std::to_string(delivered) +
                        " delivered + " + std::to_string(removed) + " removed + " + std::to_string(queued) +
                        " queued");
    };

    run.run_rounds(op, at_quiescence, 1024);

    // End: quit(unsafe); what is still queued comes back through take_discarded.
    if (!run.failed()) {
      if (!q->quit(false)) run.fail("quit() refused");
      while (Message<>* m = q->next()) {  // a quit(unsafe) queue delivers nothing more
        run.fail("next() delivered after quit(unsafe)");
        static_cast<Rec*>(m->target.load())->delivered = 1;
        q->recycle(m);
      }
      std::uint64_t discarded = 0;
      for (Message<>* d = q->take_discarded(); d;) {
        Message<>* nx = d->free_next.load(std::memory_order_relaxed);
        delete static_cast<Rec*>(d->target.load());  // every thread has stopped: no traversal
        ++discarded;
        d = nx;
      }
      collect();
      if (!error.empty()) run.fail(error);
      std::uint64_t accepted, claims;
      totals(accepted, claims);
      if (delivered + removed + discarded != accepted)
        run.fail("at quit: " + std::to_string(accepted) + " accepted but " + std::to_string(delivered) +
                 " delivered + " + std::to_string(removed) + " removed + " + std::to_string(discarded) +
                 " discarded");
      if (q->reclaim_backlog() != 0) run.fail("reclamation backlog left at the end");
      std::uint64_t found = 0;
      for (auto& w : workers) found += w.found;
      std::printf("removal: %" PRIu64 " delivered, %" PRIu64 " removed, %" PRIu64
                  " discarded at quit, has_messages true %" PRIu64 " times, max reclamation backlog %" PRIu64 "\n",
                  delivered, removed, discarded, found, q->reclaim_max_backlog());
    }
  }
};

LFCHECK_STRESS(RemovalFault, RemovalStorm);

}  // namespace
}  // namespace lfcheck
