// DeliQueue — a MessageQueue whose posts are lock-free (DESIGN §2, issue 3).
//
// Threads
//   Any thread: enqueue, enqueue_at_front, post_sync_barrier, quit, advance_clock.
//   The Looper (one thread, the consumer): next, poll, next_until, peek, is_idle,
//   remove_sync_barrier, take_discarded. check_invariants: quiescent only.
//   Before the queue is shared: set_on_dropped.
//   Removal (issue 4): remove_messages, has_messages, remove from any thread;
//   recycle, take_reclaimed on the Looper. See "Removal" below.
//
// Guarantees
//   enqueue is one Treiber push (O(1), no lock, lock-free: it retries only when
//   another push or the Looper's unlink changed the top) plus one fetch_add on the
//   wake-state word. It returns false, leaving the message untouched, once quit()
//   has put its sentinel on the stack. Every message accepted is handed back
//   exactly once: by next() (delivered) or, after quit, as dropped (below).
//   No post that returned true is silently lost at quit. Every accepted message
//   was pushed below the sentinel, so the sweep that finds the sentinel has put
//   it in a heap (or it was delivered earlier); the quit rules then deliver it
//   (safe quit, due by the time of quit) or drop it. A dropped message goes to
//   the on_dropped callback if one was set (set_on_dropped: called on the Looper
//   thread, once per dropped message, with the message and the callback's
//   context; m.target still says whose it is), otherwise it is chained for
//   take_discarded(). Either way this happens inside the next()/poll() calls
//   that process quit, before the first of them returns nullptr: from then on
//   delivered + dropped == accepted, final, for every post. (Android's quit
//   recycles the pending messages it removes without telling whoever posted
//   them, and its code leaves that case as a TODO; here the poster is always
//   told: false from enqueue, or the message back through next(), on_dropped or
//   take_discarded(). A message due by the time of a safe quit but held behind
//   a sync barrier is dropped too, and reported.) Barriers are the queue's:
//   dropped ones are freed, not reported.
//   Delivery order: the earliest (when, insertSeq) among the messages that are
//   due, where insertSeq follows push order (FIFO among equal when) for ordinary
//   posts and counts down for post-at-front (LIFO among them, before everything).
//   While a sync barrier is at the head only async messages are delivered.
//
// Design
//   Stack: every queued message is on a Treiber stack (top_, link `next`). The
//   Looper sweeps from the current top down to the top it saw last time
//   (swept_top_), writing back-links (`prev`) on the way down, then walks back up
//   (oldest first) assigning insertSeq and inserting each message into one of two
//   4-ary min-heaps (sync messages and barriers; async messages; see "Heaps").
//   Removal from a heap is O(log n) through the position table. A delivered message
//   is unlinked from the stack by the Looper alone: the top by a CAS on top_
//   (if pushes arrived meanwhile the CAS fails and the Looper sweeps again, which
//   rebuilds the back-link it needs), any other node through its back-link.
//   Push is ABA-safe without tags: its CAS only needs top == the node it links to.
//
//   Wake-state word (64 bits, own cache line):
//     bit  63      sleeping: the Looper has committed to park until deadline_
//     bits 0..62   enqueue counter: +1 by every enqueue / clock advance / quit
//                  (the CAS below only needs "changed"; it would carry into
//                  bit 63 after 2^63 events: centuries at 10^9 posts/s)
//   Before sweeping the Looper reads the word (w0). Its last step before parking
//   is CAS(w0 -> w0|sleeping): it fails if any enqueue happened since w0, and the
//   Looper sweeps again. An enqueuer's fetch_add returns the old word: if the
//   sleeping bit was set and its message is due before deadline_, it takes a
//   reference on the wake resource (below), takes the park mutex, clears the bit
//   and notifies. The Looper re-checks the bit under
//   the mutex, so the wake is never lost; an enqueue due at/after the deadline
//   does not wake it (the Looper wakes at its deadline anyway).
//
//   Quit: quit() pushes the queue-owned sentinel; once it is the top every push
//   fails. The sentinel is never unlinked, so everything below it was pushed
//   before it and is seen by the sweep that sees the sentinel.
//
//   The wake resource and its shutdown. The Looper's native resource (Android's
//   mPtr: the eventfd it waits on) is a heap object owned through a
//   RefcountedShutdown (structures/shutdown): the park mutex and condition
//   variable the Looper sleeps on, and a NativeResource (heap words, and in
//   StdSync builds a real eventfd that every wake writes, as nativeWake does).
//   The Looper is the owner: it parks on the resource without a reference, which
//   is safe because it alone destroys it. Every other use — wake() by an
//   enqueuer, advance_clock or quit that found the sleeping bit — runs under a
//   Guard. The first next()/poll() whose sweep finds the sentinel processes
//   quit: request_teardown() (from then on every Guard is refused: `dead`),
//   the quit rules (safe: drop what is due after the quit time; unsafe: drop
//   all), then finish_shutdown(), which waits for the wakers still holding a
//   reference (each holds it for one lock/notify/unlock and one eventfd write)
//   and destroys the resource exactly once. The Looper never parks after that
//   (next() after quit never sleeps).
//   A waker told `dead` does nothing and its post still returns true: teardown
//   is requested only after the Looper's sweep found the sentinel, and its
//   message was pushed below the sentinel (its push CAS succeeded, so the top
//   was not the sentinel then, and the sentinel is never unlinked), so that very
//   sweep saw the message and the quit rules account for it; and a Looper that
//   is processing quit needs no wake-up, it never sleeps again.
//
// Removal (issue 4; structures/removal/)
//   Claim: every message leaves the queue through one CAS on its flags that sets
//   the `removed` bit while in_use is set and removed is clear. Removers claim
//   with it, and so do the Looper before it delivers and quit's discard before it
//   hands a message back; exactly one claimant succeeds and learns it (remove /
//   remove_messages report the messages they claimed; a Looper whose claim fails
//   takes the message out of its heap and delivers something else).
//   Free-list: a remover chains the messages it claimed (free_next) and pushes
//   the chain onto free_top_ with one release CAS. Only the Looper drains it, with
//   one acquire exchange, at the start of every sweep: each message leaves its
//   heap by index (if the sweep had put it there) and the stack through its
//   back-link; a message the sweep had not reached yet gets its back-link from a
//   sweep, which never inserts a claimed message into a heap.
//   Traversal (remove_messages, has_messages): one acquire load of top_, then
//   relaxed loads of `next`. Unlinking never changes the unlinked node's `next`,
//   so a traverser standing on it walks on into the live list. Guarantee: the
//   walk ends (each step goes to an older push); it visits every message that was
//   on the stack when it read the top and was not claimed by someone else before
//   the walk reached it; it reads no freed memory (TraversalEpochs). Hence once
//   remove_messages(p) returns, every message matching p whose enqueue returned
//   before the call began has been claimed — by this call, another remover, or
//   the Looper for delivery — and is never delivered afterwards unless the
//   Looper had claimed it. has_messages(p) is true if a matching message was
//   queued and unclaimed for the whole call, false if none was at any point.
//   Relaxed `next` loads suffice: every node a walk reaches was pushed before the
//   top it read (pushes and unlinks of top_ are all RMWs, one release sequence),
//   so the payload it reads is ordered by the (acquire half of the) load of top_.
//   Seq_cst, not only release/acquire, for what decides what a walk or a sweep
//   sees: the pushes' CAS on top_, the claims' CAS on flags, and the loads of
//   top_ and of flags by traversals and the Looper's sweep. With acquire/release
//   a thread that posts and then walks, and one that claims and then walks,
//   could each miss the other's write (store buffering): say the first sees a
//   message unclaimed that the second had claimed before, while the second's walk
//   misses the first's post — a pair of results no order of the calls explains
//   (lfcheck lin's removal spec found it under Relacy). One total order of these
//   accesses rules it out. Cost: none on x86 (loads stay plain moves, the RMWs
//   were locked already); on ARMv8 the flag loads become load-acquires.
//   Reclamation: unlinked messages are retired into TraversalEpochs and come
//   back from take_reclaimed() (removed ones with the removed bit still set)
//   only once no traversal can reach them; queue-owned barriers are freed then.
//   Delivered and discarded messages are handed back at once, so a traversal may
//   still be reading them: a program that uses traversals must not free, reuse
//   or re-post them until they come back — it passes them to recycle() (like
//   Android's Message.recycle) and takes them from take_reclaimed(). A program
//   that never traverses may free them at once. reclaim_backlog() and
//   reclaim_stalled() report a stalled traversal holding memory back.
//   Before issue 4, peek/is_idle were Looper-only because nothing else touched
//   the heaps; they still are, and now see a snapshot: a remover may claim the
//   message peek returned right after (next() then delivers something else).
//
// Heaps (Looper only; structures/timers/dary_heap.hpp)
//   Each heap is 4-ary and keeps its keys, (when, insertSeq) (16 bytes), apart
//   from its values, (message, slot): a sift compares four sibling keys in one
//   cache line, with key_less (message.hpp: one 128-bit comparison, flag
//   arithmetic) in a tournament of conditional moves, and never reads a message.
//   The pop of the head is bottom-up (the hole goes down to a leaf, the last
//   entry climbs back). Where an entry is lives in a position table indexed by
//   the message's heap_slot, written for every entry a sift moves: a dense array
//   of int32 (4 bytes per queued message, cached), not a field in each moved
//   message (that was one write to a random message per level, a cache miss
//   each once the queue outgrows the cache). A message takes a slot when it is
//   inserted and gives it back when it leaves its heap; free slots are chained
//   through the table itself.
//   Due runs: beside each heap, a ring of messages that were already due when
//   the sweep saw them and came after the run's last entry — the common post,
//   "now", in order. They go in and out in O(1) (no sift at all); the Looper's
//   front of a kind is the earlier of its run's first entry and its heap's head.
//   A message due when swept but out of order goes to the heap, as does every
//   message swept without a clock reading (peek, is_idle, a drain's or unlink's
//   re-sweep). A removed run entry becomes a hole (its key stays, so the run
//   stays in order) that the run's start skips; holes are dropped when the ring
//   grows. The sweep of next_until reads the clock once for this, and that
//   reading is the round's `now` (one reading per round, as before).
//
// Memory
//   Messages belong to the caller (the queue stores no copy); a message still
//   queued when the queue is destroyed must outlive it (the destructor walks the
//   stack to free the queue's own barriers). Barriers and the sentinel belong to
//   the queue. Heaps (keys, values), due runs and the position table are
//   arrays, doubled when full (Looper only): 36 bytes per queued message.
//   The wake resource: the RefcountedShutdown (its word alone on a cache line;
//   192 bytes with StdSync) inside the queue, and one heap object (mutex,
//   condition variable, two words, one eventfd in StdSync builds) freed when the
//   Looper processes quit, or by the destructor if it never did.
//
// Cost
//   The Looper: a sweep touches each new message twice (down, up) and puts it in
//   a due run (O(1)) or a heap (O(log_4 n), usually O(1) for random keys); a
//   delivery is one claim CAS, one unlink (a CAS on the top, or two plain link
//   writes) and a pop: O(1) from a run, about 3 log_4 n branch-free key
//   comparisons from a heap.
//   enqueue that needs no wake-up: one CAS + one fetch_add. One that wakes the
//   Looper adds one CAS + one RMW on the refcount word, the park mutex, a notify
//   and an eventfd write (StdSync). Quit processing: one CAS, the quit rules
//   (O(n log n) over what is queued), at most one park (only if a waker holds a
//   reference at that instant), one destroy.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "structures/deliqueue/deliqueue_faults.hpp"
#include "structures/deliqueue/message.hpp"
#include "structures/shutdown/native_resource.hpp"
#include "structures/shutdown/refcounted_shutdown.hpp"
#include "structures/removal/removal_faults.hpp"
#include "structures/removal/traversal_epochs.hpp"
#include "structures/timers/dary_heap.hpp"
#include "sync/clock.hpp"
#include "sync/deadline.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck {

enum class BarrierRemoval { removed, unknown_token };

// The Looper's native wake resource (header: "The wake resource and its
// shutdown"): what the Looper parks on, and the OS handle a wake writes.
template <class Sync>
struct LooperWakeResource {
  typename Sync::mutex park_mutex;
  typename Sync::condvar park_cv;
  NativeResource<Sync, 2> native;  // heap words + (StdSync) an eventfd
};

template <class Sync = StdSync, DeliFault Fault = DeliFault::none, class Clock = SteadyClock,
          RemovalFault RFault = RemovalFault::none>
class DeliQueue {
 public:
  using Msg = Message<Sync>;
  using WakeResource = LooperWakeResource<Sync>;
  using WakeShutdown = RefcountedShutdown<WakeResource, Sync>;
  using WakeReport = typename NativeResource<Sync, 2>::CloseReport;
  using DroppedFn = void (*)(Msg& m, void* ctx);
  static constexpr std::uint64_t kSleeping = 1ull << 63;

  DeliQueue() : wake_shut_(make_wake_resource(wake_report_), WakeShutdown::kMaxCount) {
    sentinel_.flags.store(msg_flags::quit, std::memory_order_relaxed);  // not shared yet
  }
  ~DeliQueue() {
    // Quiescent. Free queue-owned barriers still linked; caller messages are not ours.
    for (Msg* m = top_.v.load(std::memory_order_acquire); m;) {
      Msg* below = m->next.load(std::memory_order_relaxed);
      if (m->is_barrier()) Sync::destroy(m);
      m = below;
    }
    for (Msg* m = epochs_.take_all_unsafe(); m;) {  // retired barriers are ours too
      Msg* nx = m->free_next.load(std::memory_order_relaxed);
      if (m->is_barrier()) Sync::destroy(m);
      m = nx;
    }
  }
  DeliQueue(const DeliQueue&) = delete;
  DeliQueue& operator=(const DeliQueue&) = delete;

  Clock& clock() { return clock_; }
  std::int64_t now() const { return clock_.now(); }

  // ---- the comparator ---------------------------------------------------------
  static constexpr int compare(std::int64_t aw, std::int64_t as, std::int64_t bw, std::int64_t bs) {
    if constexpr (Fault == DeliFault::subtracting_comparator)
      return compare_keys_subtracting(aw, as, bw, bs);  // FAULT
    else
      return compare_keys(aw, as, bw, bs);
  }
  // The order the heaps use: compare(...) < 0, as key_less when correct.
  static constexpr bool before(std::int64_t aw, std::int64_t as, std::int64_t bw, std::int64_t bs) {
    if constexpr (Fault == DeliFault::subtracting_comparator)
      return compare_keys_subtracting(aw, as, bw, bs) < 0;  // FAULT
    else
      return key_less(aw, as, bw, bs);
  }

  // ---- any thread -------------------------------------------------------------
  // Posts m to be delivered at `when`. False (m untouched) once the queue quit.
  bool enqueue(Msg* m, std::int64_t when) { return push(m, when, 0); }
  // Posts m ahead of every ordinary message; the latest at-front post comes first.
  bool enqueue_at_front(Msg* m) { return push(m, kWhenFront, msg_flags::front); }

  // Posts a sync barrier at the current time; returns its token (never 0), or 0
  // if the queue has quit.
  std::uint64_t post_sync_barrier() { return post_sync_barrier_at(clock_.now()); }
  std::uint64_t post_sync_barrier_at(std::int64_t when) {
    Msg* b = Sync::template create<Msg>();
    // Relaxed: only uniqueness matters; the push below publishes the token.
    std::uint64_t token;
    if constexpr (Fault == DeliFault::barrier_token_race) {
      token = next_token_.v.load(std::memory_order_relaxed) + 1;  // FAULT: load, then a separate store
      next_token_.v.store(token, std::memory_order_relaxed);
    } else {
      token = next_token_.v.fetch_add(1, std::memory_order_relaxed) + 1;
    }
    b->arg.store(static_cast<std::int64_t>(token));
    b->flags.store(msg_flags::barrier, std::memory_order_relaxed);  // not shared yet
    if (!push(b, when, msg_flags::barrier)) {
      Sync::destroy(b);
      return 0;
    }
    return token;
  }

  // Pushes the quit sentinel: every later enqueue fails. safe: messages due at
  // the time of quit are still delivered, later ones are discarded; !safe: all
  // pending messages are discarded. Returns false if the queue had already quit.
  // A quit() that loses to another one returns only once the winner's sentinel
  // is on the stack, so "already quit" holds when it says so: every post its
  // caller makes afterwards fails (it waits while the winner runs the three
  // steps between its claim of the sentinel and its push).
  bool quit(bool safe) {
    // Acq_rel: only one quitter may write the sentinel's fields (pairs with itself).
    if (sentinel_.flags.fetch_or(msg_flags::in_use, std::memory_order_acq_rel) & msg_flags::in_use) {
      // Acquire: pairs with the winner's release push of the sentinel (which
      // stays the top for good: it is never unlinked and nothing links above it).
      while (top_.v.load(std::memory_order_acquire) != &sentinel_) Sync::spin_hint();
      return false;
    }
    sentinel_.flags.store(msg_flags::quit | msg_flags::in_use | (safe ? msg_flags::safe : 0),
                          std::memory_order_relaxed);  // published by the push's release CAS
    sentinel_.when.store(clock_.now());  // published by the push's release CAS
    return link_top(&sentinel_, kWhenFront);
  }

  // Virtual clock only: moves time to t and wakes the Looper if its deadline came.
  void advance_clock(std::int64_t t) {
    static_assert(Clock::is_virtual, "advance_clock needs a virtual clock");
    clock_.set(t);
    poke(t, /*inclusive=*/true);
  }

  // ---- the Looper -------------------------------------------------------------
  // The earliest deliverable due message; sleeps until one is. nullptr once the
  // queue has quit and nothing deliverable is left.
  Msg* next() { return next_until(kNever); }
  // Never sleeps: a due deliverable message, or nullptr.
  Msg* poll() { return next_until(std::numeric_limits<std::int64_t>::min()); }

  // Like next(), but returns nullptr once the clock reaches give_up_at.
  Msg* next_until(std::int64_t give_up_at) {
    for (;;) {
      // Acquire: pairs with the enqueuers' acq_rel fetch_add; read before the
      // sweep so that any enqueue after this point makes the pre-sleep CAS fail.
      std::uint64_t w0 = wake_.v.load(std::memory_order_acquire);
      if constexpr (Fault == DeliFault::quit_skips_sweep) quit_without_sweep();  // FAULT
      std::int64_t now;
      const bool read_clock = sweep(&now);  // one clock reading per round either way
      if (swept_claimed_ && !confirm_sweep()) continue;  // a push came since: sweep it too
      if (!read_clock) now = clock_.now();
      if (quitting_) {  // never parks from here on: the wake resource is gone
        if (!quit_processed_) process_quit();
        std::int64_t deadline;
        Msg* m = candidate(deadline);
        if (m && m->when.load() <= now) {
          if (Msg* d = deliver(m)) return d;
          continue;  // a remover claimed it first
        }
        discard_where([](Msg*) { return true; });
        report_dropped();
        return nullptr;
      }
      std::int64_t deadline;
      Msg* m = candidate(deadline);
      if (m && deadline <= now) {
        if (Msg* d = deliver(m)) return d;
        if constexpr (RFault == RemovalFault::retry_without_sweep) {
          // FAULT: the next due message of the heap as it stands, without
          // draining and sweeping what came since.
          while ((m = candidate(deadline)) && deadline <= now)
            if (Msg* d = deliver(m)) return d;
        }
        continue;  // a remover claimed it first
      }
      if (now >= give_up_at) return nullptr;
      const std::int64_t until = deadline < give_up_at ? deadline : give_up_at;
      // Relaxed: published by the CAS below (release), read by enqueuers after
      // their acq_rel fetch_add saw the sleeping bit.
      deadline_.store(until, std::memory_order_relaxed);
      if constexpr (Fault == DeliFault::presleep_store) {
        wake_.v.store(w0 | kSleeping, std::memory_order_release);  // FAULT: overwrites enqueues
      } else {
        // The pre-sleep step. Success acq_rel: publishes deadline_ to the
        // enqueuers whose fetch_add reads it; failure acquire: an enqueue
        // happened since w0 — its push is then visible to the next sweep.
        if (!wake_.v.compare_exchange_strong(w0, w0 | kSleeping, std::memory_order_acq_rel,
                                             std::memory_order_acquire)) {
          Sync::spin_hint();
          continue;
        }
      }
      park(until);
    }
  }

  // The message next() would deliver next if nothing else arrived (due or not),
  // or nullptr. Looper only.
  Msg* peek() {
    sweep();
    std::int64_t deadline;
    return candidate(deadline);
  }
  // True if nothing is deliverable now. Looper only.
  bool is_idle() {
    sweep();
    std::int64_t deadline;
    Msg* m = candidate(deadline);
    return !m || deadline > clock_.now();
  }

  // Removes the barrier with this token. Looper only (removers never claim
  // barriers). The barrier is freed through reclamation, once no traversal can
  // stand on it. unknown_token if no such barrier is queued (never posted,
  // already removed, or discarded by quit).
  [[nodiscard]] BarrierRemoval remove_sync_barrier(std::uint64_t token) {
    sweep();
    Msg* found = nullptr;
    for_each_queued([&](const Key&, Msg* m) {
      if (!found && m->is_barrier() && static_cast<std::uint64_t>(m->arg.load()) == token) found = m;
    });
    if (!found) return BarrierRemoval::unknown_token;
    order_remove(found, 0);  // barriers are sync
    unlink(found);
    epochs_.retire(found);  // freed once no traversal can stand on it
    return BarrierRemoval::removed;
  }

  // Where quit's dropped messages go: fn(m, ctx) on the Looper thread, once per
  // dropped message, inside the next()/poll() that drops it (m belongs to the
  // callee from then on). Without it they are chained for take_discarded().
  // Set before the queue is shared.
  void set_on_dropped(DroppedFn fn, void* ctx = nullptr) {
    on_dropped_ = fn;
    on_dropped_ctx_ = ctx;
  }
  // Messages discarded by quit, chained through free_next; the caller owns them.
  // Always empty when an on_dropped callback is set.
  Msg* take_discarded() {
    Msg* d = discarded_;
    discarded_ = nullptr;
    return d;
  }
  // ---- removal (issue 4) ------------------------------------------------------------
  // Predicates of the Android Handler's overloads (removeMessages(what),
  // removeMessages(what, object), removeCallbacks(r), hasMessages...). They read
  // only the payload, which is immutable while a message is queued.
  struct ByWhat {
    std::int32_t what;
    bool operator()(const Msg& m) const { return m.what.load() == what; }
  };
  struct ByWhatAndTarget {
    std::int32_t what;
    void* target;
    bool operator()(const Msg& m) const { return m.what.load() == what && m.target.load() == target; }
  };
  struct ByCallback {
    typename Msg::Fn callback;
    bool operator()(const Msg& m) const { return m.callback.load() == callback; }
  };

  // Any thread. Claims every queued message matching pred (barriers and the quit
  // sentinel never match); returns how many it claimed. They come back from
  // take_reclaimed() once drained and no traversal can reach them.
  template <class Pred>
  std::size_t remove_messages(Pred&& pred) {
    typename Sync::operation op("remove_messages");
    const unsigned e = epochs_.enter();
    Msg* first = nullptr;
    Msg* last = nullptr;
    std::size_t n = 0;
    // Seq_cst ("Removal": one order with the pushes and claims); its acquire
    // half pairs with every push's CAS (one release sequence): the payload of
    // every node reached is visible.
    for (Msg* m = top_.v.load(std::memory_order_seq_cst); m; m = load_next(m)) {
      // Seq_cst ("Removal"); the claim CAS below decides, this only filters.
      std::uint32_t f = m->flags.load(std::memory_order_seq_cst);
      if (!claimable(f) || !pred(static_cast<const Msg&>(*m))) continue;
      if (!claim(m, f)) continue;  // claimed by someone else meanwhile
      // Relaxed: the chain is published by the free-list CAS in push_removed.
      m->free_next.store(first, std::memory_order_relaxed);
      first = m;
      if (!last) last = m;
      ++n;
    }
    if (first) push_removed(first, last);
    epochs_.exit(e);
    return n;
  }
  template <class Pred>
  bool has_messages(Pred&& pred) {
    typename Sync::operation op("has_messages");
    const unsigned e = epochs_.enter();
    bool found = false;
    // Seq_cst: as in remove_messages.
    for (Msg* m = top_.v.load(std::memory_order_seq_cst); m && !found; m = load_next(m)) {
      // Seq_cst ("Removal"): whether m is still queued and unclaimed.
      found = claimable(m->flags.load(std::memory_order_seq_cst)) && pred(static_cast<const Msg&>(*m));
    }
    epochs_.exit(e);
    return found;
  }
  std::size_t remove_messages(std::int32_t what) { return remove_messages(ByWhat{what}); }
  std::size_t remove_messages(std::int32_t what, void* target) {
    return remove_messages(ByWhatAndTarget{what, target});
  }
  std::size_t remove_callbacks(typename Msg::Fn callback) { return remove_messages(ByCallback{callback}); }
  bool has_messages(std::int32_t what) { return has_messages(ByWhat{what}); }
  bool has_messages(std::int32_t what, void* target) { return has_messages(ByWhatAndTarget{what, target}); }
  bool has_callbacks(typename Msg::Fn callback) { return has_messages(ByCallback{callback}); }

  // Any thread, by the message's owner (who keeps it alive): claims m if it is
  // still queued and unclaimed. True: removed (it comes back from
  // take_reclaimed); false: already delivered, being delivered or removed.
  bool remove(Msg* m) {
    typename Sync::operation op("remove");
    // Relaxed: the claim CAS decides.
    const std::uint32_t f = m->flags.load(std::memory_order_relaxed);
    if (!claimable(f) || !claim(m, f)) return false;
    push_removed(m, m);
    return true;
  }

  // Looper. A delivered (or discarded) message the caller is done with; it comes
  // back from take_reclaimed() once no traversal can reach it.
  void recycle(Msg* m) { epochs_.retire(m); }
  // Looper. Messages whose reclamation is complete, chained through free_next:
  // removed ones (removed bit set) and recycled ones. The caller owns them.
  Msg* take_reclaimed() {
    typename Sync::operation op("take_reclaimed");
    drain_removed();
    reclaim();
    Msg* r = reclaimed_;
    reclaimed_ = nullptr;
    return r;
  }
  // Looper (or quiescent). Messages retired and not yet reclaimed, and whether a
  // traversal has held the current grace period back for kStallPolls polls.
  std::uint64_t reclaim_backlog() const { return epochs_.backlog(); }
  std::uint64_t reclaim_max_backlog() const { return epochs_.max_backlog(); }
  bool reclaim_stalled() const { return epochs_.stalled(); }

  // How many times an enqueuer (or clock advance, or quit) woke the Looper.
  std::uint64_t wakeups() const { return wakeups_.load(std::memory_order_relaxed); }  // a statistic
  bool has_quit() const { return quitting_; }  // Looper only: quit seen by a sweep
  // The wake resource: destroyed yet, and what its destructor found (closes,
  // uses, the eventfd's total). Looper, or quiescent.
  bool wake_resource_destroyed() const { return wake_shut_.resource_destroyed(); }
  const WakeReport& wake_resource_report() const { return wake_report_; }
  std::int32_t size_looper() const {
    return static_cast<std::int32_t>(heap_[0].size() + heap_[1].size() + run_[0].live + run_[1].live);
  }

  // O(1) check for the Looper: nullptr, or what the Looper found corrupt.
  const char* health() const { return broken_; }

  // Messages on the stack (swept or not, barriers included; not the sentinel).
  // Quiescent, or the Looper thread.
  std::size_t size_quiescent() const {
    std::size_t n = 0;
    // Acquire: pairs with the pushes' release CAS (their links are visible).
    for (Msg* m = top_.v.load(std::memory_order_acquire); m; m = m->next.load(std::memory_order_relaxed))
      n += !(m->flags.load(std::memory_order_relaxed) & msg_flags::quit);
    return n;
  }

  // Consistency check; nullptr when well formed, otherwise what is wrong. Call it
  // at a quiescent point, or from the Looper thread at any time (it reads the
  // unswept part of the stack only through acquired links).
  const char* check_invariants() const {
    if (broken_) return broken_;
    if (quit_processed_ != wake_shut_.resource_destroyed())
      return "wake resource destroyed before quit was processed, or not after";
    for (int k = 0; k < 2; ++k) {
      const Heap& h = heap_[k];
      for (std::uint32_t i = 0; i < h.size(); ++i) {
        const Key e = h.key(i);
        const Ref r = h.value(i);
        if (!r.m) return "null message in a heap";
        if (!h.policy().placed_at(e, r, i)) return "position table or heap slot != the entry's position";
        if (e.when != r.m->when.load() || e.seq() != r.m->insert_seq.load())
          return "heap entry key differs from its message";
        if ((k == 1) != r.m->is_async() || (r.m->is_barrier() && k == 1))
          return "message in the wrong heap";
        // The reference order (not the queue's comparator, which a fault may break).
        if (i > 0) {
          const Key p = h.key((i - 1) / kHeapArity);
          if (e.when < p.when || (e.when == p.when && e.seq() < p.seq())) return "heap order violated";
          if (e.when == p.when && e.seq() == p.seq()) return "two messages with the same insertSeq";
        }
      }
    }
    for (int k = 0; k < 2; ++k) {
      const Run& r = run_[k];
      if (r.tail - r.head > r.cap) return "due run holds more entries than it has room for";
      if (r.live && !r.refs[r.head & (r.cap - 1)].m) return "due run starts with a removed entry";
      std::uint32_t live = 0;
      const Key* prev = nullptr;
      for (std::uint32_t c = r.head; c != r.tail; ++c) {
        const std::uint32_t idx = c & (r.cap - 1);
        const Ref& e = r.refs[idx];
        if (!e.m) continue;  // removed: a hole the head skips
        ++live;
        const Key& key = r.keys[idx];
        if (static_cast<std::int32_t>(e.slot) >= slots_.cap || slots_.pos[e.slot] != static_cast<std::int32_t>(kInRun | idx) ||
            e.m->heap_slot.load() != static_cast<std::int32_t>(e.slot))
          return "position table or heap slot != the due-run entry's position";
        if (key.when != e.m->when.load() || key.seq() != e.m->insert_seq.load())
          return "due-run entry key differs from its message";
        if ((k == 1) != e.m->is_async() || (e.m->is_barrier() && k == 1)) return "message in the wrong due run";
        // The reference order (not the queue's comparator, which a fault may break).
        if (prev && !(prev->when < key.when || (prev->when == key.when && prev->seq() < key.seq())))
          return "due run out of (when, insertSeq) order";
        prev = &key;
      }
      if (live != r.live) return "due run's count differs from its entries";
    }
    if (slots_.used != size_looper()) return "position table slots in use != messages in the heaps and runs";
    // The stack: the unswept part above swept_top_, then the swept part, whose
    // nodes must be exactly the heaps' messages, with consistent back-links.
    Msg* n = top_.v.load(std::memory_order_acquire);
    std::int64_t guard = 0;
    while (n && n != swept_top_) {
      if (++guard > (1 << 24)) return "cycle in the unswept stack";
      n = n->next.load(std::memory_order_relaxed);
    }
    if (n != swept_top_) return "last swept top no longer on the stack";
    std::int32_t counted = 0;
    Msg* above = nullptr;
    for (; n; n = n->next.load(std::memory_order_relaxed)) {
      if (above && n->prev.load() != above) return "back-link does not match the stack";
      if (n->flags.load(std::memory_order_relaxed) & msg_flags::quit) {
        if (above) return "quit sentinel below the top";
      } else if ((n->flags.load(std::memory_order_relaxed) & msg_flags::removed) && n->heap_slot.load() < 0) {
        // Claimed by a remover and not in a heap: on its way through the free-list.
        if (!n->in_use()) return "claimed message on the stack not marked in use";
      } else {
        const std::int32_t s = n->heap_slot.load();
        const int k = n->is_async() ? 1 : 0;
        if (s < 0 || s >= slots_.cap || slots_.pos[s] < 0) return "swept message not in its heap";
        const auto p = static_cast<std::uint32_t>(slots_.pos[s]);
        const bool in_run = p & kInRun;
        if (in_run ? ((p & ~kInRun) >= run_[k].cap || run_[k].refs[p & ~kInRun].m != n)
                   : (p >= heap_[k].size() || heap_[k].value(p).m != n))
          return "swept message not in its heap";
        if (!n->in_use()) return "queued message not marked in use";
        if (++counted > size_looper()) return "more messages on the stack than in the heaps";
      }
      above = n;
    }
    if (counted != size_looper()) return "heap holds messages that are not on the stack";
    return nullptr;
  }

 private:
  // ---- the heaps (header: "Heaps") --------------------------------------------------
  static constexpr unsigned kHeapArity = 4;
  struct Key : QueueKey {  // what a sift compares: (when, seq) as key_less reads it
    friend std::ostream& operator<<(std::ostream& os, const Key& k) {  // model histories
      return os << "{when " << k.when << ", seq " << k.seq() << "}";
    }
  };
  struct Ref {  // what the entry is
    Msg* m;
    std::uint32_t slot;
    friend std::ostream& operator<<(std::ostream& os, const Ref& r) {
      return os << "{msg " << static_cast<const void*>(r.m) << ", slot " << r.slot << "}";
    }
  };
  // The position table: for a slot in use, the index of its message's entry in
  // the heap that holds it; for a free slot, the next free slot (-1: none).
  struct Slots {
    std::int32_t inline_pos[16];
    std::int32_t* pos = inline_pos;
    std::int32_t cap = 16;
    std::int32_t free = 0;  // first free slot
    std::int32_t used = 0;
    Slots() {
      for (std::int32_t i = 0; i < cap; ++i) inline_pos[i] = i + 1 < cap ? i + 1 : -1;
    }
    Slots(const Slots&) = delete;
    Slots& operator=(const Slots&) = delete;
    ~Slots() {
      if (pos != inline_pos) Sync::destroy_array(pos);
    }
    std::uint32_t acquire() {
      if (free < 0) grow();
      const std::int32_t s = free;
      free = pos[s];
      ++used;
      return static_cast<std::uint32_t>(s);
    }
    void release(std::uint32_t s) {
      pos[s] = free;
      free = static_cast<std::int32_t>(s);
      --used;
    }
    void grow() {  // only when every slot is in use
      const std::int32_t ncap = cap ? cap * 2 : 16;
      std::int32_t* np = Sync::template create_array<std::int32_t>(static_cast<std::size_t>(ncap));
      for (std::int32_t i = 0; i < cap; ++i) np[i] = pos[i];
      for (std::int32_t i = cap; i < ncap; ++i) np[i] = i + 1 < ncap ? i + 1 : -1;
      if (pos != inline_pos) Sync::destroy_array(pos);
      pos = np;
      free = cap;
      cap = ncap;
    }
  };
  struct HeapPolicy {
    Slots* slots;
    static bool less(const Key& a, const Key& b) {
      if constexpr (Fault == DeliFault::subtracting_comparator)
        return before(a.when, a.seq(), b.when, b.seq());  // FAULT (inside before)
      else
        return key_less(a, b);
    }
    void placed(const Key&, const Ref& r, std::uint32_t i) const { slots->pos[r.slot] = static_cast<std::int32_t>(i); }
    void removed(const Key&, const Ref& r) const {
      slots->release(r.slot);
      r.m->heap_slot.store(-1);
    }
    bool placed_at(const Key&, const Ref& r, std::uint32_t i) const {
      return r.m && static_cast<std::int32_t>(r.slot) < slots->cap &&
             slots->pos[r.slot] == static_cast<std::int32_t>(i) && r.m->heap_slot.load() == static_cast<std::int32_t>(r.slot);
    }
  };
  // Looper-only: plain arrays; the first kInline entries inside the queue (as
  // for the position table and the due runs: a small queue, e.g. in a model,
  // allocates and frees nothing of its own).
  static constexpr unsigned kInline = 16;
  using Heap = DaryHeap<Sync, kHeapArity, Key, Ref, HeapPolicy, /*kChecked=*/false, kInline>;

  // A due run (header: "Heaps"): a ring of cap (a power of two) entries, those in
  // [head, tail) (counters that wrap; index = counter & (cap - 1)) in strictly
  // increasing key order. A removed entry keeps its key and gets m = nullptr (a
  // hole); the entry at head is never a hole. Its position-table value is
  // kInRun | index (heap positions stay below 2^30).
  static constexpr std::uint32_t kInRun = 1u << 30;
  struct Run {
    Key inline_keys[kInline];
    Ref inline_refs[kInline];
    Key* keys = inline_keys;
    Ref* refs = inline_refs;
    std::uint32_t cap = kInline, head = 0, tail = 0;
    std::uint32_t live = 0;  // entries that are not holes
    Run() = default;
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;
    ~Run() { release(); }
    void release() {
      if (keys != inline_keys) Sync::destroy_array(keys);
      if (refs != inline_refs) Sync::destroy_array(refs);
    }
  };

  static int kind_of(const Msg* m) { return m->is_async() ? 1 : 0; }

  // A swept message enters its kind's due run if it was due when swept and
  // comes after the run's last entry (posts due now, in order: O(1) in and out),
  // otherwise its heap.
  void order_insert(int k, Msg* m, std::int64_t seq, bool due) {
    const std::uint32_t slot = slots_.acquire();
    m->heap_slot.store(static_cast<std::int32_t>(slot));
    const Key key{QueueKey::of(m->when.load(), seq)};
    Run& r = run_[k];
    if (due && (!r.live || HeapPolicy::less(r.keys[(r.tail - 1) & (r.cap - 1)], key))) {
      if (!r.live) r.head = r.tail;  // empty: drop any holes
      if (r.tail - r.head == r.cap) run_grow(r);
      const std::uint32_t idx = r.tail & (r.cap - 1);
      r.keys[idx] = key;
      r.refs[idx] = Ref{m, slot};
      slots_.pos[slot] = static_cast<std::int32_t>(kInRun | idx);
      ++r.tail;
      ++r.live;
      return;
    }
    heap_[k].push(key, Ref{m, slot});
  }
  // Doubles r, dropping its holes; every entry's position changes.
  void run_grow(Run& r) {
    const std::uint32_t ncap = r.cap * 2;
    Key* nk = Sync::template create_array<Key>(ncap);
    Ref* nr = Sync::template create_array<Ref>(ncap);
    std::uint32_t j = 0;
    for (std::uint32_t c = r.head; c != r.tail; ++c) {
      const std::uint32_t idx = c & (r.cap - 1);
      if (!r.refs[idx].m) continue;
      nk[j] = r.keys[idx];
      nr[j] = r.refs[idx];
      slots_.pos[nr[j].slot] = static_cast<std::int32_t>(kInRun | j);
      ++j;
    }
    r.release();
    r.keys = nk;
    r.refs = nr;
    r.cap = ncap;
    r.head = 0;
    r.tail = j;
  }
  // Takes m, of kind k, out of its heap or due run (m is in one). The kind is
  // passed in: reading it is an atomic load of m's flags (a step the model
  // checker schedules around), so each caller reads it once.
  void order_remove(Msg* m, int k) {
    const std::uint32_t slot = static_cast<std::uint32_t>(m->heap_slot.load());
    const auto p = static_cast<std::uint32_t>(slots_.pos[slot]);
    if (!(p & kInRun)) return heap_[k].remove_at(p);
    Run& r = run_[k];
    r.refs[p & ~kInRun].m = nullptr;
    --r.live;
    while (r.head != r.tail && !r.refs[r.head & (r.cap - 1)].m) ++r.head;
    slots_.release(slot);
    m->heap_slot.store(-1);
  }
  // The earliest queued message of kind k (due or not): false if none.
  bool front(int k, Key& key, Msg*& m) const {
    const Heap& h = heap_[k];
    const Run& r = run_[k];
    const bool in_heap = h.size() != 0;
    if (r.live) {
      const std::uint32_t idx = r.head & (r.cap - 1);
      if (!in_heap || HeapPolicy::less(r.keys[idx], h.key(0))) {
        key = r.keys[idx];
        m = r.refs[idx].m;
        return true;
      }
    }
    if (!in_heap) return false;
    key = h.key(0);
    m = h.value(0).m;
    return true;
  }
  // fn(key, message) for every queued message of both kinds (heaps, then runs).
  template <class Fn>
  void for_each_queued(Fn&& fn) const {
    for (int k = 0; k < 2; ++k) {
      for (std::uint32_t i = 0; i < heap_[k].size(); ++i) fn(heap_[k].key(i), heap_[k].value(i).m);
      const Run& r = run_[k];
      for (std::uint32_t c = r.head; c != r.tail; ++c)
        if (Msg* m = r.refs[c & (r.cap - 1)].m) fn(r.keys[c & (r.cap - 1)], m);
    }
  }
  template <class T>
  struct alignas(64) Line {  // a hot atomic alone on its cache line
    typename Sync::template atomic<T> v{T()};
  };

  static constexpr std::memory_order publish_order() {
    return Fault == DeliFault::relaxed_publish ? std::memory_order_relaxed  // FAULT
                                               : std::memory_order_seq_cst;
  }

  bool push(Msg* m, std::int64_t when, std::uint32_t extra) {
    // Relaxed: m still belongs to the caller.
    const std::uint32_t f = m->flags.load(std::memory_order_relaxed);
    Sync::check(!(f & msg_flags::in_use), "enqueue of a message that is already queued");
    const std::int64_t old_when = m->when.load();
    m->when.store(when);
    m->flags.store((f & ~msg_flags::removed) | msg_flags::in_use | extra, std::memory_order_relaxed);
    if (!link_top(m, when)) {
      m->when.store(old_when);  // hand the message back untouched
      m->flags.store(f, std::memory_order_relaxed);
      return false;
    }
    return true;
  }

  // The Treiber push, then the wake check. wake_due: the time the Looper must
  // be awake by for this node (kWhenFront: always wake).
  bool link_top(Msg* m, std::int64_t wake_due) {
    // Relaxed: we only need the value; we never read through it.
    Msg* top = top_.v.load(std::memory_order_relaxed);
    Msg* const old_next = m->next.load(std::memory_order_relaxed);
    for (;;) {
      if (top == &sentinel_) {
        m->next.store(old_next, std::memory_order_relaxed);
        return false;
      }
      // Relaxed: published by the CAS below.
      m->next.store(top, std::memory_order_relaxed);
      // Success seq_cst ("Removal": one order with the claims and the loads of
      // traversals and sweeps); its release half pairs with the sweep's load of
      // top_ (m's fields and link are visible to the Looper). Failure relaxed:
      // retry with the new top.
      if (top_.v.compare_exchange_strong(top, m, publish_order(), std::memory_order_relaxed)) break;
      Sync::spin_hint();
    }
    poke(wake_due, /*inclusive=*/false);
    return true;
  }

  // Counts an event on the wake-state word; wakes a parked Looper whose deadline
  // is after `due` (or at/after it when inclusive: a clock advance to `due`).
  void poke(std::int64_t due, bool inclusive) {
    // Acq_rel: the release half pairs with the Looper's acquire w0 load / failed
    // CAS (our push is visible to its next sweep); the acquire half pairs with
    // its successful pre-sleep CAS (we see deadline_).
    const std::uint64_t old = wake_.v.fetch_add(1, std::memory_order_acq_rel);
    if (!(old & kSleeping)) return;
    // Relaxed: ordered after the Looper's store by the acq_rel above.
    const std::int64_t d = deadline_.load(std::memory_order_relaxed);
    bool need;
    if constexpr (Fault == DeliFault::wake_only_later)
      need = due > d;  // FAULT: inverted test
    else
      need = inclusive ? due >= d : due < d;
    if (need) wake();
  }

  // Wakes the Looper through its wake resource, under a reference (header).
  void wake() {
    shutdown_detail::noise<Sync>();  // marked race window: since the fetch_add saw sleeping
    if constexpr (Fault == DeliFault::wake_without_guard) {
      wake_through(wake_shut_.resource());  // FAULT: no reference; the Looper may have freed it
    } else {
      for (;;) {
        typename WakeShutdown::Guard ref(wake_shut_);  // released at the end of this scope
        if (ref) return wake_through(*ref);
        // Dead: the Looper has swept the sentinel, hence our message (pushed below
        // it), and never sleeps again: nothing to wake, the post stays accepted.
        if (ref.status() == Acquire::dead) return;
        Sync::spin_hint();  // overflow: 2^63-1 wakers hold references; one will leave
      }
    }
  }

  void wake_through(WakeResource& r) {
    // Relaxed: a statistic (tests check that late posts do not wake the Looper).
    wakeups_.fetch_add(1, std::memory_order_relaxed);
    // The native wake (nativeWake's eventfd write); fails only on a resource that
    // is not intact, which a held reference rules out.
    Sync::check(r.native.use(), "wake resource not intact while a reference is held");
    r.park_mutex.lock();
    // Release (under the mutex): the Looper re-reads the bit under the same mutex.
    wake_.v.fetch_and(~kSleeping, std::memory_order_release);
    r.park_cv.notify_one();
    r.park_mutex.unlock();
  }

  // The park's timed wait, from now until `until` (> now). Any int64 is a legal
  // `when` and clock readings may be negative, so `until - now` can exceed the
  // int64 range: it saturates (sync/deadline.hpp).
  static std::int64_t timeout_ns(std::int64_t until, std::int64_t now) {
    if constexpr (Fault == DeliFault::unsaturated_timeout)  // FAULT: wraps into the past
      return static_cast<std::int64_t>(static_cast<std::uint64_t>(until) - static_cast<std::uint64_t>(now));
    else
      return ns_until(until, now);
  }

  // Looper only, before quit is processed: the owner uses its resource without a
  // reference (it alone destroys it, and never parks after that).
  void park(std::int64_t until) {
    WakeResource& r = wake_shut_.resource();
    r.park_mutex.lock();
    // Acquire: pairs with wake()'s release clear of the sleeping bit.
    while (wake_.v.load(std::memory_order_acquire) & kSleeping) {
      if (until == kNever || Clock::is_virtual) {
        r.park_cv.wait(r.park_mutex);
        continue;
      }
      const std::int64_t now = clock_.now();
      if (now >= until) break;
      r.park_cv.wait_for_ns(r.park_mutex, timeout_ns(until, now));
    }
    r.park_mutex.unlock();
    // Relaxed: our own bit; the next w0 load (acquire) starts the next round.
    wake_.v.fetch_and(~kSleeping, std::memory_order_relaxed);
  }

  // ---- Looper-only state and helpers ---------------------------------------------
  // The Looper's refresh: drains the free-list (removed messages leave the heaps
  // and the stack), sweeps new pushes into the heaps, advances reclamation. With
  // `now`, a sweep that finds new pushes reads the clock into it (next_until's
  // reading for this round) and the messages due by then may join the due runs;
  // returns whether it did.
  bool sweep(std::int64_t* now = nullptr) {
    drain_removed();
    const bool read = sweep_stack(now);
    reclaim();
    return read;
  }

  // ---- removal helpers (issue 4) ---------------------------------------------------
  static bool claimable(std::uint32_t f) {
    return (f & msg_flags::in_use) &&
           !(f & (msg_flags::removed | msg_flags::barrier | msg_flags::quit));
  }
  // The claim: in_use set, removed clear -> removed set. Exactly one claimant of a
  // queued message succeeds. Success acq_rel: the release half orders the
  // claimant's earlier reads of the message before the winner's later hand-back
  // (the loser's failed CAS reads our value); the acquire half pairs with
  // a previous claimant's release (none in a correct run: a claim happens once).
  // Success seq_cst rather than only acq_rel: one order with the pushes and the
  // loads of traversals and sweeps ("Removal").
  // Failure acquire: pairs with the winner's release half, so the loser's later
  // steps see what the winner did before it claimed — the Looper, re-sweeping
  // after a remover won its delivery claim, sees a post that remover made
  // before (with a relaxed failure it could read an older top and deliver past
  // that post: lfcheck lin's removal spec found such a poll under Relacy).
  static bool claim(Msg* m, std::uint32_t f) {
    return m->flags.compare_exchange_strong(f, f | msg_flags::removed, std::memory_order_seq_cst,
                                            std::memory_order_acquire);
  }
  // Pushes a chain first..last (linked by free_next) of claimed messages.
  void push_removed(Msg* first, Msg* last) {
    // Relaxed: only a guess for the CAS.
    Msg* old = free_top_.v.load(std::memory_order_relaxed);
    for (;;) {
      // Relaxed: published by the CAS below.
      last->free_next.store(old, std::memory_order_relaxed);
      // Success release: pairs with the Looper's acquire exchange in
      // drain_removed (the claims and free_next links are visible to it).
      // Failure relaxed: retry with the new top.
      if (free_top_.v.compare_exchange_strong(old, first, std::memory_order_release,
                                              std::memory_order_relaxed))
        return;
      Sync::spin_hint();
    }
  }
  // A traversal's step.
  static Msg* load_next(Msg* m) {
    if constexpr (RFault == RemovalFault::plain_next && std::is_same_v<Sync, StdSync>)
      return *reinterpret_cast<Msg* const*>(&m->next);  // FAULT: a plain read of an atomic
    // Relaxed: every node reached was pushed before the top this walk read
    // (acquire); unlinks only store such nodes (see "Removal").
    return m->next.load(std::memory_order_relaxed);
  }
  void drain_removed() {
    // Acquire: pairs with the removers' release CAS in push_removed. Relaxed
    // load first: the exchange (a write to a shared line) only when non-empty.
    if (!free_top_.v.load(std::memory_order_relaxed)) return;
    Msg* chain = free_top_.v.exchange(nullptr, std::memory_order_acquire);
    while (chain) {
      Msg* m = chain;
      chain = m->free_next.load(std::memory_order_relaxed);  // our chain now
      if (m->heap_slot.load() >= 0) {
        order_remove(m, kind_of(m));
      } else {
        // In no heap: the sweep had not reached it when it was claimed (or our
        // failed delivery claim already took it out). Sweep, so it has its
        // back-link; the sweep never inserts a claimed message.
        sweep_stack();
      }
      unlink(m);
      // Relaxed: the Looper's own bits of a claimed message (removers never
      // write a claimed message's flags); it stays `removed` for its owner.
      m->flags.store(m->flags.load(std::memory_order_relaxed) & ~(msg_flags::in_use | msg_flags::front),
                     std::memory_order_relaxed);
      epochs_.retire(m);
    }
  }
  void reclaim() {
    Msg* out = epochs_.poll();
    while (out) {
      Msg* m = out;
      out = m->free_next.load(std::memory_order_relaxed);  // Looper-only chain
      if (m->is_barrier()) {
        Sync::destroy(m);
        continue;
      }
      m->free_next.store(reclaimed_, std::memory_order_relaxed);
      reclaimed_ = m;
    }
  }

  // Sweeps the pushes since the last sweep into the heaps (and the due runs: see
  // sweep()). Returns true if it read the clock into *now.
  bool sweep_stack(std::int64_t* now = nullptr) {
    // Seq_cst ("Removal"); its acquire half pairs with every push's CAS (all
    // writes of top_ are RMWs, so this synchronizes with every push below the
    // top it reads).
    Msg* const top = top_.v.load(std::memory_order_seq_cst);
    if (top == swept_top_) return false;
    if (now) *now = clock_.now();
    Msg* above = nullptr;
    Msg* n = top;
    // Down: back-links. Relaxed `next` loads: covered by the acquire above.
    while (n != swept_top_) {
      Msg* const below = n->next.load(std::memory_order_relaxed);
      n->prev.store(above);
      above = n;
      n = below;
    }
    if (n == swept_top_ && swept_top_) swept_top_->prev.store(above);
    // Up: oldest first, so insertSeq follows push order.
    for (Msg* m = above; m; m = m->prev.load()) {
      if constexpr (Fault == DeliFault::sweep_stops_early) {
        // FAULT: the sweep stops one node early — the oldest new node (the one
        // just above the last seen top) never reaches a heap. Links stay intact.
        if (m == above && m != top) continue;
      }
      // Seq_cst ("Removal"): whether a remover claimed it, in one order with the claims.
      const std::uint32_t f = m->flags.load(std::memory_order_seq_cst);
      if (f & msg_flags::quit) {
        quitting_ = true;
        quit_safe_ = f & msg_flags::safe;
        quit_when_ = m->when.load();
        m->heap_slot.store(-1);
        continue;
      }
      if ((f & msg_flags::removed) && RFault != RemovalFault::removed_into_heap) {  // FAULT when inserted
        m->heap_slot.store(-1);  // claimed by a remover: its drain unlinks it
        swept_claimed_ = true;   // claimed after our top read, maybe: see confirm_sweep
        continue;
      }
      std::int64_t seq;
      if (f & msg_flags::front)
        seq = --front_seq_;
      else if constexpr (Fault == DeliFault::lifo_insert_seq)
        seq = -(++seq_);  // FAULT: counts down
      else
        seq = ++seq_;
      m->insert_seq.store(seq);
      order_insert((f & msg_flags::async) ? 1 : 0, m, seq, now && m->when.load() <= *now);
    }
    swept_top_ = top;
    return now != nullptr;
  }

  // A sweep reads the top once and each message's flags later: a message it
  // skipped as claimed may have been claimed after that read, by a remover that
  // had posted something before — which the sweep then missed, though it was
  // queued before the claim it saw. Deciding from such a view breaks the
  // delivery order (and a poll could answer "nothing due" while one of the two
  // was queued throughout: lfcheck lin's removal spec found it). So after a sweep
  // that skipped a claimed message the Looper reads the top again: unchanged, no
  // push came since the sweep's read and its view is that of this instant (true);
  // changed, it sweeps again (false). Looper only.
  bool confirm_sweep() {
    swept_claimed_ = false;
    // Acquire fence: pairs with the claims' release half read by the sweep's
    // relaxed flag loads, so the load below sees every push made before them.
    Sync::fence(std::memory_order_acquire);
    // Acquire: pairs with the pushes' release CAS (as the sweep's own load).
    return top_.v.load(std::memory_order_acquire) == swept_top_;
  }

  // The message next() would deliver, and the time it is due (kNever if none).
  Msg* candidate(std::int64_t& deadline) {
    deadline = kNever;
    Key ks{}, ka{};
    Msg *ms = nullptr, *ma = nullptr;
    const bool has_s = front(0, ks, ms);
    const bool has_a = front(1, ka, ma);
    if (!has_s && !has_a) return nullptr;
    const bool sync_first = has_s && (!has_a || HeapPolicy::less(ks, ka));
    if (sync_first && ms->is_barrier()) {
      if constexpr (Fault == DeliFault::barrier_ignored) {
        // FAULT: skip the barrier and take the earliest other message of either kind.
        Msg* best = nullptr;
        Key bk{};
        for_each_queued([&](const Key& k, Msg* m) {
          if (m != ms && (!best || HeapPolicy::less(k, bk))) best = m, bk = k;
        });
        if (!best) return nullptr;
        deadline = bk.when;
        return best;
      }
      if (!has_a) return nullptr;  // only async messages pass a barrier
      deadline = ka.when;
      return ma;
    }
    deadline = sync_first ? ks.when : ka.when;
    return sync_first ? ms : ma;
  }

  // Claims m (a due candidate) and delivers it; nullptr if a remover claimed it
  // first (it is then only taken out of its heap; its drain unlinks it).
  Msg* deliver(Msg* m) {
    typename Sync::operation op("deliver");
    const int k = kind_of(m);
    order_remove(m, k);
    // The next delivery of this kind claims and unlinks its new front: start
    // fetching that message now (a hint, not an access; the caller's work on m
    // overlaps the miss on a queue bigger than the cache).
    Key next_key;
    Msg* next_msg;
    if (front(k, next_key, next_msg)) __builtin_prefetch(next_msg, 1);
    if constexpr (RFault == RemovalFault::deliver_unclaimed) {
      // FAULT: no claim; marks it claimed with a plain store over a remover's claim.
      m->flags.store(m->flags.load(std::memory_order_relaxed) | msg_flags::removed, std::memory_order_relaxed);
    } else if (!m->is_barrier() && !claim(m, m->flags.load(std::memory_order_relaxed) & ~msg_flags::removed)) {
      return nullptr;
    }
    unlink(m);
    // Relaxed: the message goes back to the caller on this thread.
    m->flags.store(m->flags.load(std::memory_order_relaxed) &
                       ~(msg_flags::in_use | msg_flags::front | msg_flags::removed),
                   std::memory_order_relaxed);
    return m;
  }

  // Hands back (or, for barriers, frees) every queued message matching pred.
  template <class Pred>
  void discard_where(Pred&& pred) {
    Msg* chosen = nullptr;  // chained through free_next (Looper-only use)
    for_each_queued([&](const Key&, Msg* m) {
      if (!pred(m)) return;
      // Claim first, like delivery: a message a remover claimed is the remover's
      // (its drain unlinks it and hands it back through take_reclaimed).
      if (!m->is_barrier() && !claim(m, m->flags.load(std::memory_order_relaxed) & ~msg_flags::removed)) return;
      m->free_next.store(chosen, std::memory_order_relaxed);
      chosen = m;
    });
    while (chosen) {
      Msg* m = chosen;
      chosen = m->free_next.load(std::memory_order_relaxed);
      order_remove(m, kind_of(m));
      unlink(m);
      if (m->is_barrier()) {
        epochs_.retire(m);  // freed once no traversal can stand on it
        continue;
      }
      // Relaxed: the message goes back to the caller on this thread.
      m->flags.store(m->flags.load(std::memory_order_relaxed) &
                         ~(msg_flags::in_use | msg_flags::front | msg_flags::removed),
                     std::memory_order_relaxed);
      m->free_next.store(discarded_, std::memory_order_relaxed);
      discarded_ = m;
    }
  }

  // The first next()/poll() after the sweep found the sentinel: teardown of the
  // wake resource around the quit rules (header: "The wake resource").
  void process_quit() {
    typename Sync::operation op("process_quit");
    wake_shut_.request_teardown();  // from now on every waker is told `dead`
    discard_where([&](Msg* m) { return !quit_safe_ || m->when.load() > quit_when_; });
    report_dropped();
    quit_processed_ = true;
    wake_shut_.finish_shutdown();  // waits for wakers still inside wake(); destroys once
  }

  // FAULT quit_skips_sweep: the Looper looks for the sentinel on the top and, if
  // it is there, takes quit from it without sweeping what lies below it — the
  // messages pushed just before quit are never swept, so the quit rules neither
  // deliver nor drop them.
  void quit_without_sweep() {
    // Acquire: pairs with quit()'s release push of the sentinel (its fields).
    if (quitting_ || top_.v.load(std::memory_order_acquire) != &sentinel_) return;
    quitting_ = true;
    // Relaxed: ordered after quit()'s writes by the acquire load of top_ above.
    quit_safe_ = sentinel_.flags.load(std::memory_order_relaxed) & msg_flags::safe;
    quit_when_ = sentinel_.when.load();
    swept_top_ = &sentinel_;
  }

  // Hands what quit discarded to the on_dropped callback, if there is one.
  void report_dropped() {
    if (!on_dropped_) return;
    for (Msg* d = take_discarded(); d;) {
      Msg* const after = d->free_next.load(std::memory_order_relaxed);  // Looper-only link
      on_dropped_(*d, on_dropped_ctx_);  // d belongs to the callee now
      d = after;
    }
  }

  static WakeResource* make_wake_resource(WakeReport& report) {
    WakeResource* r = Sync::template create<WakeResource>();
    r->native.set_close_report(&report);
    return r;
  }

  // Takes m (a swept node) off the stack.
  void unlink(Msg* m) {
    if (m == swept_top_) {
      Msg* expected = m;
      Msg* const below = m->next.load(std::memory_order_relaxed);
      // Success relaxed: producers never read through the top, and as an RMW it
      // continues the release sequence of the pushes below. Failure acquire:
      // pushes arrived above m; the sweep below reads them.
      if (top_.v.compare_exchange_strong(expected, below, std::memory_order_relaxed,
                                         std::memory_order_acquire)) {
        swept_top_ = below;
        if (below) below->prev.store(nullptr);
        if constexpr (RFault == RemovalFault::next_cleared)
          m->next.store(nullptr, std::memory_order_relaxed);  // FAULT: a traverser on m stops
        return;  // m keeps its next: a traverser standing on m walks on
      }
      if constexpr (Fault != DeliFault::stale_backlink && RFault != RemovalFault::backlink_not_rebuilt)
        sweep_stack();  // rebuilds m's back-link (m is no longer the top); FAULT when skipped
    }
    Msg* const above = m->prev.load();
    if (!above) {
      // Cannot happen in a correct queue (a seeded fault can get here): record it
      // for check_invariants()/health() instead of crashing the process.
      broken_ = "unlink found no back-link (a node the sweep never reached)";
      return;
    }
    Msg* const below = m->next.load(std::memory_order_relaxed);
    // Relaxed: a traverser that reads `below` here reads only what below's push
    // published, which its acquire load of top_ already ordered ("Removal").
    if constexpr (RFault == RemovalFault::plain_next && std::is_same_v<Sync, StdSync>)
      *reinterpret_cast<Msg**>(&above->next) = below;  // FAULT: a plain write of an atomic
    else
      above->next.store(below, std::memory_order_relaxed);
    if (below) below->prev.store(above);
    if constexpr (RFault == RemovalFault::next_cleared)
      m->next.store(nullptr, std::memory_order_relaxed);  // FAULT: a traverser on m stops
    // Otherwise m keeps its next: a traverser standing on m walks on to below.
  }


  // Hot atomics, each on its own cache line.
  Line<Msg*> top_;               // the stack top (pushes, quit, the Looper's unlink)
  Line<std::uint64_t> wake_;     // wake-state word (layout in the header comment)
  Line<std::uint64_t> next_token_;  // barrier tokens
  Line<Msg*> free_top_;          // the free-list of claimed messages (removers push, Looper drains)
  TraversalEpochs<Msg, Sync, RFault> epochs_;  // reclamation of unlinked messages (own cache line)
  typename Sync::template atomic<std::int64_t> deadline_{kNever};  // Looper writes, enqueuers read
  typename Sync::template atomic<std::uint64_t> wakeups_{0};       // wake() calls (statistic)
  WakeReport wake_report_;   // written once by the resource's destructor; outlives it
  WakeShutdown wake_shut_;   // the Looper's wake resource, owned through the refcount
  Clock clock_;
  Msg sentinel_;

  // Looper only.
  alignas(64) Msg* swept_top_ = nullptr;
  Slots slots_;   // the heaps' position table (header: "Heaps")
  Heap heap_[2]{Heap(HeapPolicy{&slots_}), Heap(HeapPolicy{&slots_})};  // [0] sync messages and barriers, [1] async
  Run run_[2];    // due runs, same kinds
  std::int64_t seq_ = 0;        // ordinary posts: counts up from 1
  std::int64_t front_seq_ = 0;  // posts at front: counts down from -1
  bool quitting_ = false, quit_safe_ = false, quit_processed_ = false;
  bool swept_claimed_ = false;  // a sweep skipped a claimed message since the last confirm_sweep
  std::int64_t quit_when_ = 0;
  Msg* discarded_ = nullptr;
  DroppedFn on_dropped_ = nullptr;  // set before sharing; called by the Looper
  void* on_dropped_ctx_ = nullptr;
  Msg* reclaimed_ = nullptr;  // reclaimed messages not yet taken (take_reclaimed)
  const char* broken_ = nullptr;  // set if the Looper found the structure corrupt
};

}  // namespace lfcheck
