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
//   binary min-heaps (sync messages and barriers; async messages). Each message
//   keeps its heap index, so removal from a heap is O(log n). A delivered message
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
// Memory
//   Messages belong to the caller (the queue stores no copy); a message still
//   queued when the queue is destroyed must outlive it (the destructor walks the
//   stack to free the queue's own barriers). Barriers and the sentinel belong to
//   the queue. Heaps are arrays of (when, seq, message)
//   entries (comparisons do not chase pointers), doubled when full (Looper only).
//   The wake resource: the RefcountedShutdown (its word alone on a cache line;
//   192 bytes with StdSync) inside the queue, and one heap object (mutex,
//   condition variable, two words, one eventfd in StdSync builds) freed when the
//   Looper processes quit, or by the destructor if it never did.
//
// Cost
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
    heap_[0].release();
    heap_[1].release();
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
      sweep();
      if (swept_claimed_ && !confirm_sweep()) continue;  // a push came since: sweep it too
      const std::int64_t now = clock_.now();
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
    Heap& h = heap_[0];
    for (std::int32_t i = 0; i < h.size; ++i) {
      Msg* m = h.a[i].m;
      if (m->is_barrier() && static_cast<std::uint64_t>(m->arg.load()) == token) {
        heap_remove(h, i);
        unlink(m);
        epochs_.retire(m);  // freed once no traversal can stand on it
        return BarrierRemoval::removed;
      }
    }
    return BarrierRemoval::unknown_token;
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
  std::int32_t size_looper() const { return heap_[0].size + heap_[1].size; }

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
      for (std::int32_t i = 0; i < h.size; ++i) {
        const Entry& e = h.a[i];
        if (!e.m) return "null message in a heap";
        if (e.m->heap_index.load() != i) return "heap index != position";
        if (e.when != e.m->when.load() || e.seq != e.m->insert_seq.load())
          return "heap entry key differs from its message";
        if ((k == 1) != e.m->is_async() || (e.m->is_barrier() && k == 1))
          return "message in the wrong heap";
        // The reference order (not the queue's comparator, which a fault may break).
        if (i > 0) {
          const Entry& p = h.a[(i - 1) / 2];
          if (e.when < p.when || (e.when == p.when && e.seq < p.seq)) return "heap order violated";
          if (e.when == p.when && e.seq == p.seq) return "two messages with the same insertSeq";
        }
      }
    }
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
      } else if ((n->flags.load(std::memory_order_relaxed) & msg_flags::removed) && n->heap_index.load() < 0) {
        // Claimed by a remover and not in a heap: on its way through the free-list.
        if (!n->in_use()) return "claimed message on the stack not marked in use";
      } else {
        const std::int32_t i = n->heap_index.load();
        const Heap& h = heap_[n->is_async() ? 1 : 0];
        if (i < 0 || i >= h.size || h.a[i].m != n) return "swept message not in its heap";
        if (!n->in_use()) return "queued message not marked in use";
        if (++counted > size_looper()) return "more messages on the stack than in the heaps";
      }
      above = n;
    }
    if (counted != size_looper()) return "heap holds messages that are not on the stack";
    return nullptr;
  }

 private:
  struct Entry {
    std::int64_t when = 0;
    std::int64_t seq = 0;
    Msg* m = nullptr;
  };
  struct Heap {
    Entry* a = nullptr;
    std::int32_t size = 0;
    std::int32_t cap = 0;
    void release() {
      if (a) Sync::destroy_array(a);
      a = nullptr;
    }
  };
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
  // and the stack), sweeps new pushes into the heaps, advances reclamation.
  void sweep() {
    drain_removed();
    sweep_stack();
    reclaim();
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
      const std::int32_t i = m->heap_index.load();
      if (i >= 0) {
        heap_remove(heap_[m->is_async() ? 1 : 0], i);
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

  // Sweeps the pushes since the last sweep into the heaps. Returns true if any.
  bool sweep_stack() {
    // Seq_cst ("Removal"); its acquire half pairs with every push's CAS (all
    // writes of top_ are RMWs, so this synchronizes with every push below the
    // top it reads).
    Msg* const top = top_.v.load(std::memory_order_seq_cst);
    if (top == swept_top_) return false;
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
        m->heap_index.store(-1);
        continue;
      }
      if ((f & msg_flags::removed) && RFault != RemovalFault::removed_into_heap) {  // FAULT when inserted
        m->heap_index.store(-1);  // claimed by a remover: its drain unlinks it
        swept_claimed_ = true;    // claimed after our top read, maybe: see confirm_sweep
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
      heap_insert(heap_[(f & msg_flags::async) ? 1 : 0], m);
    }
    swept_top_ = top;
    return true;
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
    const Heap& s = heap_[0];
    const Heap& a = heap_[1];
    const Entry* head = nullptr;
    if (s.size && a.size)
      head = compare(s.a[0].when, s.a[0].seq, a.a[0].when, a.a[0].seq) < 0 ? &s.a[0] : &a.a[0];
    else if (s.size)
      head = &s.a[0];
    else if (a.size)
      head = &a.a[0];
    deadline = kNever;
    if (!head) return nullptr;
    if (head->m->is_barrier()) {
      if constexpr (Fault == DeliFault::barrier_ignored) {
        // FAULT: skip the barrier and take the earliest message of either heap.
        const Entry* e = nullptr;
        if (s.size > 1) {
          e = &s.a[1];
          if (s.size > 2 && compare(s.a[2].when, s.a[2].seq, e->when, e->seq) < 0) e = &s.a[2];
        }
        if (a.size && (!e || compare(a.a[0].when, a.a[0].seq, e->when, e->seq) < 0)) e = &a.a[0];
        if (!e) return nullptr;
        deadline = e->when;
        return e->m;
      }
      if (!a.size) return nullptr;  // only async messages pass a barrier
      head = &a.a[0];
    }
    deadline = head->when;
    return head->m;
  }

  // Claims m (a due candidate) and delivers it; nullptr if a remover claimed it
  // first (it is then only taken out of its heap; its drain unlinks it).
  Msg* deliver(Msg* m) {
    typename Sync::operation op("deliver");
    heap_remove(heap_[m->is_async() ? 1 : 0], m->heap_index.load());
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
    for (int k = 0; k < 2; ++k)
      for (std::int32_t i = 0; i < heap_[k].size; ++i) {
        Msg* m = heap_[k].a[i].m;
        if (!pred(m)) continue;
        // Claim first, like delivery: a message a remover claimed is the remover's
        // (its drain unlinks it and hands it back through take_reclaimed).
        if (!m->is_barrier() && !claim(m, m->flags.load(std::memory_order_relaxed) & ~msg_flags::removed))
          continue;
        m->free_next.store(chosen, std::memory_order_relaxed);
        chosen = m;
      }
    while (chosen) {
      Msg* m = chosen;
      chosen = m->free_next.load(std::memory_order_relaxed);
      heap_remove(heap_[m->is_async() ? 1 : 0], m->heap_index.load());
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

  bool less(const Entry& a, const Entry& b) const { return compare(a.when, a.seq, b.when, b.seq) < 0; }
  void place(Heap& h, std::int32_t i, const Entry& e) {
    h.a[i] = e;
    e.m->heap_index.store(i);
  }
  void heap_insert(Heap& h, Msg* m) {
    if (h.size == h.cap) {
      const std::int32_t cap = h.cap ? h.cap * 2 : 8;
      Entry* a = Sync::template create_array<Entry>(static_cast<std::size_t>(cap));
      for (std::int32_t i = 0; i < h.size; ++i) a[i] = h.a[i];
      h.release();
      h.a = a;
      h.cap = cap;
    }
    Entry e{m->when.load(), m->insert_seq.load(), m};
    sift_up(h, h.size++, e);
  }
  void sift_up(Heap& h, std::int32_t i, const Entry& e) {
    while (i > 0) {
      const std::int32_t p = (i - 1) / 2;
      if (!less(e, h.a[p])) break;
      place(h, i, h.a[p]);
      i = p;
    }
    place(h, i, e);
  }
  void sift_down(Heap& h, std::int32_t i, const Entry& e) {
    for (;;) {
      std::int32_t c = 2 * i + 1;
      if (c >= h.size) break;
      if (c + 1 < h.size && less(h.a[c + 1], h.a[c])) ++c;
      if (!less(h.a[c], e)) break;
      place(h, i, h.a[c]);
      i = c;
    }
    place(h, i, e);
  }
  void heap_remove(Heap& h, std::int32_t i) {
    Msg* const m = h.a[i].m;
    const Entry last = h.a[--h.size];
    if (i < h.size) {
      if (i > 0 && less(last, h.a[(i - 1) / 2]))
        sift_up(h, i, last);
      else
        sift_down(h, i, last);
    }
    m->heap_index.store(-1);
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
  Heap heap_[2];  // [0] sync messages and barriers, [1] async messages
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
