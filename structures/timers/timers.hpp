// TimerSet — Go-style runtime timers (the go1.14 .. go1.22 design of
// runtime/time.go): N workers, each owning a 4-ary min-heap of timers and a run
// loop; a timer is changed from any thread by CAS on its status word, without
// taking the lock of the worker whose heap holds it.
//
// ---------------------------------------------------------------------------
// Status word (Timer::status_, 32 bits; only the values below are ever stored)
//
//   value  state             where the timer is             who may hold it
//   0      NoStatus          on no heap (fresh, or fired)   -
//   1      Waiting           on owner's heap, armed         -
//   2      Running           on owner's heap                owner, under its lock, never
//                                                           across the callback
//   3      Deleted           on owner's heap, stopped       -
//   4      Removing          being taken off owner's heap   owner, under its lock
//   5      Removed           on no heap (stopped)           -
//   6      Modifying         anywhere                       stop/reset/modify/add caller
//   7      ModifiedEarlier   on owner's heap, armed, the    -
//                            new when (nextwhen) is earlier
//   8      ModifiedLater     same, nextwhen is not earlier  -
//   9      Moving            on owner's heap, re-sited      owner (adjust/clean/run) or
//                                                           the shutdown mover, under lock
//
// Transient states (Running, Removing, Modifying, Moving) are held by one thread
// for a few instructions and never across a callback or a blocking call (the only
// lock a Modifying holder takes is the caller worker's, for a timer on no heap,
// which no owner can be spinning on). Everyone else who meets a transient state
// spins (Sync::spin_hint) until it changes. Every transition is a CAS: taking a
// state is a strong CAS with acquire (it pairs with the release CAS that put the
// timer into the state being left, so the fields the previous holder wrote are
// visible), leaving a transient state is a strong CAS with release (it publishes
// the fields written while holding it); a failed "leave" CAS is heap corruption
// and reported as such (Go's badTimer).
//
// Sequential consistency: those CASes and the status loads are seq_cst, not just
// acquire/release. stop and add answer from a status load alone (false,
// already_armed), without a CAS, so with acquire/release a thread that changed
// timer A and then reads timer B, and one that changed B and then reads A, can
// both read the old status (store buffering): stop(a) -> true then stop(b) ->
// false on one thread, reset(b) -> false then add(a) -> already_armed on another,
// which no order of the four explains (found by `lfcheck lin timers` under
// Relacy). Go's atomics are sequentially consistent, so Go's timers never do
// this. Cost on x86-64: none (a seq_cst load is a plain load; every CAS is a
// locked cmpxchg either way).
//
// Legal transitions (the operation performing each; "wait" = spin until it changes)
//
//   add (start) on the caller's worker:
//     NoStatus, Removed       -> Modifying -> Waiting          (pushed on the caller's heap)
//     Deleted                 -> Modifying -> ModifiedXX       (re-armed in place on the
//                                                               heap that still holds it)
//     Waiting, ModifiedXX     -> error already_armed (misuse: adding an armed timer)
//     Running, Removing, Moving, Modifying -> wait
//   stop (Go's deltimer):
//     Waiting, ModifiedXX     -> Modifying -> Deleted          returns true
//     NoStatus, Deleted, Removing, Removed -> unchanged        returns false
//     Running, Moving, Modifying -> wait
//   reset / modify (Go's modtimer):
//     Waiting, ModifiedXX     -> Modifying -> ModifiedXX       returns true
//     Deleted                 -> Modifying -> ModifiedXX       returns false
//     NoStatus, Removed       -> Modifying -> Waiting          returns false (pushed on
//                                                               the caller's heap)
//     Running, Removing, Moving, Modifying -> wait
//   clean (head of the owner's heap), adjust (whole heap), run (head):
//     Deleted                 -> Removing -> Removed           (taken off the heap)
//     ModifiedXX              -> Moving -> Waiting             (when = nextwhen, re-sited)
//     Modifying               -> wait
//   run, on a Waiting head that is due:
//     Waiting                 -> Running -> NoStatus           (one-shot: taken off; also a
//                                                               periodic one whose next when
//                                                               would be past INT64_MAX)
//     Waiting                 -> Running -> Waiting            (periodic: when advanced)
//     then the callback runs with no lock held
//   shutdown of a worker (its timers move to another worker):
//     Waiting, ModifiedXX     -> Moving -> Waiting             (on the target's heap)
//     Deleted                 -> Removing -> Removed
//     Modifying               -> wait
//   Any other status met on a heap by clean/adjust/run/shutdown is corruption.
//
// Owner-side fields (owner_, index_, when_) are written only by a thread holding
// a transient state of the timer (so the status CAS chain orders every access);
// nextwhen_, period_, callback_, arg_, seq_ are written only under Modifying and
// read by the owner under Moving/Running.
//
// ---------------------------------------------------------------------------
// Worker and locking
//   Each worker owns a d-ary heap (structures/timers/dary_heap.hpp), a lock, a
//   condition variable it sleeps on, and two words other threads update while
//   holding a timer in Modifying, both hints for when to scan the heap:
//   deleted_ (Deleted timers in the heap; relaxed RMWs, exact at quiescent
//   points) and modified_earliest_ (Go 1.16's timerModifiedEarliest: a lower
//   bound of the nextwhen of every ModifiedEarlier timer in the heap, kTimerNever
//   if there is none; lowered by a CAS loop, reset by the owner's adjust). The
//   owner scans (adjust) only when a ModifiedEarlier timer may be due
//   (now >= modified_earliest_) or a quarter of the heap is Deleted — not merely
//   because some timer was moved earlier (go1.14 scanned the whole heap then) —
//   and it sleeps no later than modified_earliest_. All these words sit on the
//   worker's own cache lines (Worker is line-aligned), so operations on one
//   worker's timers share no line with another worker's.
//   Needs the owner's lock: every heap change — add (and reset/modify of a timer
//   on no heap, which pushes it on the caller's worker), clean, adjust, run,
//   shutdown (both workers' locks, lower index first), and the wake-up of a
//   sleeping worker. Lock-free (status CAS only): stop, and reset/modify of a
//   timer that is on a heap; a reset/modify takes the owner's lock afterwards
//   only when its new when lowers the owner's modified_earliest_ (the owner may
//   then sleep past it), to wake it if it sleeps to a later deadline.
//   Run loop (run_once): under the lock, clean the head, adjust when the hints
//   say so, run every due timer (unlocking around each callback), then, if
//   nothing ran, sleep until the earliest when (of the head, or
//   modified_earliest_) or a wake-up. A waker (add,
//   reset-earlier, shutdown moving timers in, advance of a virtual clock) holds
//   the lock while it checks sleeping_/sleep_until_ and notifies, so no wake-up
//   is lost.
//
// ---------------------------------------------------------------------------
// Stop / Reset contract (Go's time.Timer)
//   stop(t): prevents the timer from firing. Returns true if the call stopped an
//     armed timer, false if it had already expired (a one-shot whose callback has
//     started or is about to start; the callback is not waited for) or had been
//     stopped, or was never started. For a periodic timer, true stops the future
//     firings. After true, the callback of that arm never runs.
//   reset(caller, t, when): re-arms t to fire at `when` (period unchanged). Returns
//     true if the timer had been armed, false if it had expired or been stopped.
//     Exactly one of "the old arm fires" and "reset returns true" happens.
//   modify(...): reset that also replaces period, callback, argument and seq.
//   Misuse is a clear error: add of an armed timer returns
//   TimerError::already_armed; add/reset/modify through a worker that was shut
//   down returns TimerError::worker_shut_down (reset, whose result is a bool as
//   in Go, fails a check with that message instead);
//   negative when/period return bad_argument. A corrupt status fails a check.
//
// Callbacks: cb(arg, seq, when, now) runs on the worker's thread with no lock
//   held; `when` is the time the arm was due, `now` the clock when it ran. A
//   callback may call any operation, including on its own timer.
#pragma once

#include <cstdint>
#include <limits>

#include "structures/timers/dary_heap.hpp"
#include "structures/timers/timers_faults.hpp"
#include "sync/clock.hpp"
#include "sync/deadline.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck {

enum class TimerStatus : std::uint32_t {
  no_status = 0,
  waiting = 1,
  running = 2,
  deleted = 3,
  removing = 4,
  removed = 5,
  modifying = 6,
  modified_earlier = 7,
  modified_later = 8,
  moving = 9,
};
inline constexpr unsigned kTimerStatusCount = 10;

inline const char* timer_status_name(TimerStatus s) {
  static constexpr const char* names[] = {"NoStatus", "Waiting",         "Running",       "Deleted", "Removing",
                                          "Removed",  "Modifying", "ModifiedEarlier", "ModifiedLater", "Moving"};
  const auto i = static_cast<std::uint32_t>(s);
  return i < kTimerStatusCount ? names[i] : "invalid";
}

enum class TimerError : std::uint8_t { ok, already_armed, worker_shut_down, bad_argument };

inline const char* timer_error_name(TimerError e) {
  switch (e) {
    case TimerError::ok: return "ok";
    case TimerError::already_armed: return "already_armed (add of an armed timer)";
    case TimerError::worker_shut_down: return "worker_shut_down (the worker was shut down)";
    case TimerError::bad_argument: return "bad_argument (negative when/period or bad worker)";
  }
  return "?";
}

struct TimerModifyResult {
  bool was_armed;  // Go's Reset result: the timer had been armed
  TimerError error;
};

// cb(arg, seq, when the arm was due, clock when it ran).
using TimerCallback = void (*)(void* arg, std::uint64_t seq, std::int64_t when, std::int64_t now);

inline constexpr std::int64_t kTimerNever = std::numeric_limits<std::int64_t>::max();

// The next when of a periodic timer that fired at `now` while due at `when`:
// when + k*period for the least k >= 1 that is after now (the periods missed are
// skipped), computed without overflow. False if that time is past INT64_MAX:
// the timer has no next firing in int64 time, and this firing was its last (it
// ends as a one-shot does). Saturating it at INT64_MAX instead would fire it off
// its schedule, and once the clock reads INT64_MAX (a virtual clock can) it would
// be due again at once, forever: run_due would never return.
inline bool timer_next_periodic(std::int64_t when, std::int64_t period, std::int64_t now, std::int64_t& next) {
  // now - when in 128 bits: it overflows int64 for when < 0 < now (e.g. a timer
  // due at INT64_MIN fired at INT64_MAX), which wrapped to a negative count of
  // missed periods, a next when in the past, and run_due firing it ~2^64 times.
  const __int128 missed =
      now > when ? (static_cast<__int128>(now) - static_cast<__int128>(when)) / period : 0;
  const __int128 n = static_cast<__int128>(when) + static_cast<__int128>(period) * (missed + 1);
  if (n > kTimerNever) return false;
  next = static_cast<std::int64_t>(n);
  return true;
}

template <class Set>
struct TimerTestAccess;  // white-box hooks for the transition-table tests

template <class Sync = StdSync, class Clock = SteadyClock, unsigned Arity = 4,
          TimerFault Fault = TimerFault::none>
class TimerSet {
 public:
  class Worker;

  // One cache line per timer (StdSync: exactly 64 bytes, checked below). Threads
  // of different workers touch different timers at once (a reset on one core, a
  // stop or the owner's run on another); timers packed at 72 bytes straddle lines,
  // so two workers' timers would share a line and every status CAS would move it
  // between cores (false sharing the design does not need). The fields are ordered
  // so the line holds all of them: the two 4-byte words first, then seven 8-byte.
  class alignas(64) Timer {
   public:
    Timer() = default;
    Timer(TimerCallback cb, void* arg, std::uint64_t seq = 0) : callback_(cb), arg_(arg), seq_(seq) {}
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;
    // Set-up before the timer is shared (single-threaded).
    void init(TimerCallback cb, void* arg, std::uint64_t seq = 0) {
      callback_.store(cb);
      arg_.store(arg);
      seq_.store(seq);
    }
    TimerStatus status() const {
      // Seq_cst (acquire would do for the fields): pairs with the CAS that stored
      // this status, and orders this answer with the caller's CASes on other
      // timers (see "Sequential consistency" in the header).
      return static_cast<TimerStatus>(status_.load(std::memory_order_seq_cst));
    }

   private:
    friend class TimerSet;
    friend struct timers_detail::IndexedNodePolicy<Timer>;
    friend struct TimerTestAccess<TimerSet>;
    typename Sync::template atomic<std::uint32_t> status_{0};
    typename Sync::template cell<std::int32_t> index_{-1};
    typename Sync::template cell<Worker*> owner_{nullptr};
    typename Sync::template cell<std::int64_t> when_{0};
    typename Sync::template cell<std::int64_t> period_{0};
    typename Sync::template cell<std::int64_t> nextwhen_{0};
    typename Sync::template cell<TimerCallback> callback_{nullptr};
    typename Sync::template cell<void*> arg_{nullptr};
    typename Sync::template cell<std::uint64_t> seq_{0};
  };

  class alignas(64) Worker {
   public:
    Worker() = default;
    unsigned index() const { return index_; }

   private:
    friend class TimerSet;
    friend struct TimerTestAccess<TimerSet>;
    using Heap = timers_detail::TimerHeap<Sync, Arity, Timer>;
    unsigned index_ = 0;
    typename Sync::mutex lock_;
    typename Sync::condvar wake_;
    Heap heap_;                                                  // lock_
    typename Sync::template cell<bool> sleeping_{false};         // lock_
    typename Sync::template cell<std::int64_t> sleep_until_{0};  // lock_
    // Written under lock_; read under lock_ or, by add/reset/modify at entry,
    // without it (acquire, pairs with shutdown_worker's release store).
    typename Sync::template atomic<bool> shut_down_{false};
    typename Sync::template cell<bool> exit_requested_{false};   // lock_
    // Written by other threads (stop/reset): on their own cache line, off the
    // lock's (Worker is line-aligned, so no other worker's line either).
    alignas(64) typename Sync::template atomic<std::int32_t> deleted_{0};
    typename Sync::template atomic<std::int64_t> modified_earliest_{kTimerNever};
  };

  TimerSet(Clock& clock, unsigned workers)
      : clock_(clock), n_(workers), workers_(Sync::template create_array<Worker>(workers)) {
    for (unsigned i = 0; i < workers; ++i) workers_[i].index_ = i;
  }
  ~TimerSet() { Sync::destroy_array(workers_); }
  TimerSet(const TimerSet&) = delete;
  TimerSet& operator=(const TimerSet&) = delete;

  unsigned workers() const { return n_; }
  Clock& clock() { return clock_; }

  // Arms a timer that is not armed, on worker w (see the table for Deleted).
  [[nodiscard]] TimerError add(unsigned w, Timer& t, std::int64_t when, std::int64_t period = 0) {
    typename Sync::operation op("add");
    if (w >= n_) return TimerError::bad_argument;
    return change(workers_[w], t, when, period, Mode::add, nullptr, nullptr, 0).error;
  }
  // The same, also setting callback, argument and seq (Go sets f, arg, seq before
  // addtimer); they are written under Modifying, so this is safe on a shared timer.
  [[nodiscard]] TimerError add(unsigned w, Timer& t, std::int64_t when, std::int64_t period, TimerCallback cb,
                               void* arg, std::uint64_t seq) {
    typename Sync::operation op("add");
    if (w >= n_) return TimerError::bad_argument;
    return change(workers_[w], t, when, period, Mode::add_fields, cb, arg, seq).error;
  }

  bool stop(Timer& t) {
    typename Sync::operation op("stop");
    for (;;) {
      const TimerStatus s = t.status();
      switch (s) {
        case TimerStatus::waiting:
        case TimerStatus::modified_earlier:
        case TimerStatus::modified_later: {
          if (!take(t, s, TimerStatus::modifying)) {
            if constexpr (Fault == TimerFault::stop_false_while_modifying) {
              if (t.status() == TimerStatus::modifying) return false;  // FAULT: a transient status taken as final
            }
            break;  // lost a race: look again
          }
          // The owner is read while we hold Modifying: nobody can move or remove
          // the timer now (golang/go#35367).
          Worker* owner = t.owner_.load();
          // Relaxed RMW: a scan hint, exact at quiescence (see header). A
          // ModifiedEarlier timer leaves modified_earliest_ as it is: a lower bound
          // may be lower than it needs to be (one scan too many, never one too few).
          if constexpr (Fault != TimerFault::owner_after_cas)
            owner->deleted_.fetch_add(1, std::memory_order_relaxed);
          give(t, TimerStatus::modifying, TimerStatus::deleted);
          if constexpr (Fault == TimerFault::owner_after_cas) {
            // FAULT: the owner may have removed the timer (and cleared owner_) by now.
            if (Worker* late = t.owner_.load()) late->deleted_.fetch_add(1, std::memory_order_relaxed);
          }
          return true;
        }
        case TimerStatus::no_status:
        case TimerStatus::deleted:
        case TimerStatus::removing:
        case TimerStatus::removed:
          return false;
        case TimerStatus::running:
        case TimerStatus::moving:
        case TimerStatus::modifying:
          break;  // transient: wait for its holder
      }
      Sync::spin_hint();
    }
  }

  // Go's Reset: see the contract in the header. Misuse fails a check.
  bool reset(unsigned caller, Timer& t, std::int64_t when) {
    typename Sync::operation op("reset");
    if (caller >= n_) {
      Sync::check(false, "timers: reset through a worker index out of range");
      return false;
    }
    const TimerModifyResult r = change(workers_[caller], t, when, 0, Mode::reset, nullptr, nullptr, 0);
    if (r.error != TimerError::ok) Sync::check(false, "timers: reset misuse (worker shut down or bad when)");
    return r.was_armed;
  }

  // Go's modtimer: reset that also replaces period, callback, argument and seq.
  TimerModifyResult modify(unsigned caller, Timer& t, std::int64_t when, std::int64_t period,
                           TimerCallback cb, void* arg, std::uint64_t seq) {
    typename Sync::operation op("modify");
    if (caller >= n_) return {false, TimerError::bad_argument};
    return change(workers_[caller], t, when, period, Mode::modify, cb, arg, seq);
  }

  // Shuts worker w down: its armed timers move to worker `to`, its stopped timers
  // are removed, later adds through it fail, and its run loop returns.
  TimerError shutdown_worker(unsigned w, unsigned to) {
    typename Sync::operation op("shutdown_worker");
    if (w >= n_ || to >= n_ || w == to) return TimerError::bad_argument;
    Worker& src = workers_[w];
    Worker& dst = workers_[to];
    Worker& first = w < to ? src : dst;  // lock order: lower index first
    Worker& second = w < to ? dst : src;
    first.lock_.lock();
    second.lock_.lock();
    // Relaxed: under both locks, which order every other store of these flags.
    if (src.shut_down_.load(std::memory_order_relaxed) || dst.shut_down_.load(std::memory_order_relaxed)) {
      second.lock_.unlock();
      first.lock_.unlock();
      return TimerError::worker_shut_down;
    }
    // Release: pairs with the acquire load at the entry of change().
    src.shut_down_.store(true, std::memory_order_release);
    std::int64_t earliest = kTimerNever;
    while (!src.heap_.empty()) {
      const std::uint32_t last = src.heap_.size() - 1;
      const auto e = src.heap_.at(last);
      Timer& t = *e.node;
      for (;;) {
        const TimerStatus s = t.status();
        if (s == TimerStatus::waiting || s == TimerStatus::modified_earlier ||
            s == TimerStatus::modified_later) {
          if (!take(t, s, TimerStatus::moving)) { Sync::spin_hint(); continue; }
          const std::int64_t when = s == TimerStatus::waiting ? e.when : t.nextwhen_.load();
          src.heap_.pop_back();
          push(dst, t, when);
          give(t, TimerStatus::moving, TimerStatus::waiting);
          if (when < earliest) earliest = when;
          break;
        }
        if (s == TimerStatus::deleted) {
          if (!take(t, s, TimerStatus::removing)) { Sync::spin_hint(); continue; }
          src.heap_.pop_back();
          t.owner_.store(nullptr);
          src.deleted_.fetch_sub(1, std::memory_order_relaxed);  // relaxed: a hint (header)
          give(t, TimerStatus::removing, TimerStatus::removed);
          break;
        }
        if (s == TimerStatus::modifying) { Sync::spin_hint(); continue; }
        bad_timer("timers: shutdown met a timer in an impossible state on its heap");
        src.heap_.pop_back();
        break;
      }
    }
    wake_if_sleeping_before(dst, earliest);
    src.wake_.notify_all();  // its run loop sees shut_down_ and returns
    second.lock_.unlock();
    first.lock_.unlock();
    return TimerError::ok;
  }

  // Runs what is due on worker w now (clean, adjust, run); never sleeps.
  // Returns how many callbacks ran.
  std::size_t run_due(unsigned w) {
    typename Sync::operation op("run_due");
    Worker& wk = workers_[w];
    wk.lock_.lock();
    const std::size_t n = run_due_locked(wk);
    wk.lock_.unlock();
    return n;
  }

  // One step of the run loop: run_due; if nothing ran, sleep until the earliest
  // when or a wake-up. Returns false once the worker is shut down or asked to exit.
  bool run_once(unsigned w, std::size_t* ran = nullptr) {
    Worker& wk = workers_[w];
    wk.lock_.lock();
    if (wk.shut_down_.load(std::memory_order_relaxed) || wk.exit_requested_.load()) {  // relaxed: under lock_
      wk.lock_.unlock();
      return false;
    }
    const std::size_t n = run_due_locked(wk);
    if (ran) *ran = n;
    if (n == 0 && !wk.shut_down_.load(std::memory_order_relaxed) && !wk.exit_requested_.load()) {  // under lock_
      // run_due_locked left the head Waiting and not due, or the heap empty.
      const std::int64_t head = wk.heap_.empty() ? kTimerNever : wk.heap_.at(0).when;
      // Relaxed: a modifier that lowers it after this read wakes us under lock_.
      const std::int64_t moved = wk.modified_earliest_.load(std::memory_order_relaxed);
      const std::int64_t deadline = moved < head ? moved : head;
      wk.sleeping_.store(true);
      wk.sleep_until_.store(deadline);
      if (Clock::is_virtual || deadline == kTimerNever) {
        wk.wake_.wait(wk.lock_);  // woken by add/reset/shutdown/advance (all under lock_)
      } else {
        const std::int64_t now = clock_.now();
        // Saturating: a deadline near INT64_MAX on a clock read below 0 stays far.
        if (deadline > now) wk.wake_.wait_for_ns(wk.lock_, ns_until(deadline, now));
      }
      wk.sleeping_.store(false);
    }
    wk.lock_.unlock();
    return true;
  }

  // The run loop of worker w, until request_exit(w) or shutdown_worker(w, ...).
  void run(unsigned w) {
    while (run_once(w)) {
    }
  }
  void request_exit(unsigned w) {
    Worker& wk = workers_[w];
    wk.lock_.lock();
    wk.exit_requested_.store(true);
    wk.wake_.notify_all();
    wk.lock_.unlock();
  }

  // Virtual clocks only: moves the clock and wakes every worker to look again.
  void advance(std::int64_t to) {
    static_assert(Clock::is_virtual, "advance() drives a virtual clock");
    clock_.advance_to(to);
    for (unsigned i = 0; i < n_; ++i) {
      workers_[i].lock_.lock();
      workers_[i].wake_.notify_all();
      workers_[i].lock_.unlock();
    }
  }

  bool is_shut_down(unsigned w) {
    Worker& wk = workers_[w];
    wk.lock_.lock();
    const bool down = wk.shut_down_.load(std::memory_order_relaxed);  // relaxed: under lock_
    wk.lock_.unlock();
    return down;
  }

  // ---- quiescent checks (no operation in flight) ----------------------------
  // Heaps ordered, index == position, every heap timer owned by its worker with a
  // status legal on a heap, counters exact, shut-down workers empty; and for the
  // `n` timers given, every timer on no heap has a status legal off a heap.
  const char* check_invariants(Timer* const* timers = nullptr, std::size_t n = 0) const {
    for (unsigned w = 0; w < n_; ++w) {
      const Worker& wk = workers_[w];
      if (const char* e = wk.heap_.check()) return e;
      if (wk.shut_down_.load(std::memory_order_relaxed) && !wk.heap_.empty())  // relaxed: quiescent
        return "a shut-down worker still holds timers";
      std::int32_t deleted = 0;
      // Relaxed: quiescent, ordered by whatever made it quiescent.
      const std::int64_t gate = wk.modified_earliest_.load(std::memory_order_relaxed);
      for (std::uint32_t i = 0; i < wk.heap_.size(); ++i) {
        const auto e = wk.heap_.at(i);
        const Timer& t = *e.node;
        if (t.owner_.load() != &wk) return "a timer on a heap does not name that worker as owner";
        if (t.when_.load() != e.when) return "a heap entry's when differs from its timer's when";
        // Relaxed: quiescent, ordered by whatever made it quiescent.
        switch (static_cast<TimerStatus>(t.status_.load(std::memory_order_relaxed))) {
          case TimerStatus::waiting:
          case TimerStatus::modified_later: break;
          case TimerStatus::modified_earlier:
            if (t.nextwhen_.load() < gate) return "a ModifiedEarlier timer is due before its worker's modified_earliest_";
            break;
          case TimerStatus::deleted: ++deleted; break;
          default: return "a timer on a heap is in a status not legal on a heap (or a transient one)";
        }
      }
      // Relaxed: quiescent (see above).
      if (deleted != wk.deleted_.load(std::memory_order_relaxed)) return "deleted-timer counter is wrong";
    }
    for (std::size_t i = 0; i < n; ++i) {
      const Timer& t = *timers[i];
      // Relaxed: quiescent (see above).
      const auto s = static_cast<TimerStatus>(t.status_.load(std::memory_order_relaxed));
      const bool on_heap = t.index_.load() >= 0;
      if (s == TimerStatus::no_status || s == TimerStatus::removed) {
        if (on_heap || t.owner_.load() != nullptr) return "a NoStatus/Removed timer is still on a heap";
      } else if (s == TimerStatus::waiting || s == TimerStatus::deleted || s == TimerStatus::modified_earlier ||
                 s == TimerStatus::modified_later) {
        if (!on_heap || t.owner_.load() == nullptr) return "an armed or deleted timer is on no heap";
      } else {
        return "a timer is left in a transient status at a quiescent point";
      }
    }
    return nullptr;
  }

  // Quiescent: the time an armed timer will fire next (nextwhen for ModifiedXX),
  // or kTimerNever if it is not armed.
  std::int64_t armed_when_quiescent(const Timer& t) const {
    switch (static_cast<TimerStatus>(t.status_.load(std::memory_order_relaxed))) {  // relaxed: quiescent
      case TimerStatus::waiting: return t.when_.load();
      case TimerStatus::modified_earlier:
      case TimerStatus::modified_later: return t.nextwhen_.load();
      default: return kTimerNever;
    }
  }
  // Quiescent: index of the worker whose heap holds t, or -1.
  int worker_of_quiescent(const Timer& t) const {
    const Worker* o = t.owner_.load();
    return o ? static_cast<int>(o->index_) : -1;
  }
  std::size_t heap_size_quiescent(unsigned w) const { return workers_[w].heap_.size(); }
  std::uint64_t seq_quiescent(const Timer& t) const { return t.seq_.load(); }
  std::int64_t period_quiescent(const Timer& t) const { return t.period_.load(); }

 private:
  friend struct TimerTestAccess<TimerSet>;
  enum class Mode { add, add_fields, reset, modify };

  static bool armed(TimerStatus s) {
    return s == TimerStatus::waiting || s == TimerStatus::modified_earlier || s == TimerStatus::modified_later;
  }

  // Takes the timer from a stable status into a transient one.
  static bool take(Timer& t, TimerStatus from, TimerStatus to) {
    std::uint32_t expected = static_cast<std::uint32_t>(from);
    // Success seq_cst (acquire for the fields: pairs with the CAS that stored
    // `from`, so we see every field the previous holder wrote; seq_cst for the
    // order across timers, see the header). Failure relaxed: callers re-load.
    // Strong: a spurious failure would only cost a retry in production, but
    // multiplies a model checker's search.
    return t.status_.compare_exchange_strong(expected, static_cast<std::uint32_t>(to),
                                             std::memory_order_seq_cst, std::memory_order_relaxed);
  }
  // Leaves a transient status we hold.
  static void give(Timer& t, TimerStatus from, TimerStatus to) {
    std::uint32_t expected = static_cast<std::uint32_t>(from);
    // Seq_cst (release for the fields: publishes what we wrote while holding
    // `from`; pairs with the next take() or status() load of this timer; seq_cst
    // for the order across timers, see the header).
    if (!t.status_.compare_exchange_strong(expected, static_cast<std::uint32_t>(to), std::memory_order_seq_cst,
                                           std::memory_order_relaxed))
      bad_timer("timers: a transient status changed under its holder (status word corrupt)");
  }
  static void bad_timer(const char* what) { Sync::check(false, what); }

  // Under wk.lock_: pushes t (which we hold in Modifying or Moving) on wk's heap.
  static void push(Worker& wk, Timer& t, std::int64_t when) {
    t.when_.store(when);
    t.owner_.store(&wk);
    wk.heap_.push(when, &t);
  }
  // Under wk.lock_: wakes wk if it sleeps past `when`.
  static void wake_if_sleeping_before(Worker& wk, std::int64_t when) {
    if (wk.sleeping_.load() && when < wk.sleep_until_.load()) wk.wake_.notify_all();
  }
  static void wake_owner(Worker& wk, std::int64_t when) {
    wk.lock_.lock();
    wake_if_sleeping_before(wk, when);
    wk.lock_.unlock();
  }

  // add / reset / modify (Go's addtimer + modtimer).
  TimerModifyResult change(Worker& caller, Timer& t, std::int64_t when, std::int64_t period, Mode mode,
                           TimerCallback cb, void* arg, std::uint64_t seq) {
    if (when < 0 || period < 0) return {false, TimerError::bad_argument};
    // Acquire: pairs with shutdown_worker's release store. Any call through a
    // worker shut down before it fails; one racing the shutdown is re-checked
    // under the lock below if it needs the caller's heap.
    if (caller.shut_down_.load(std::memory_order_acquire)) return {false, TimerError::worker_shut_down};
    TimerStatus s;
    for (;;) {
      s = t.status();
      bool got = false;
      switch (s) {
        case TimerStatus::waiting:
        case TimerStatus::modified_earlier:
        case TimerStatus::modified_later:
          if (mode == Mode::add || mode == Mode::add_fields) return {true, TimerError::already_armed};
          got = take(t, s, TimerStatus::modifying);
          break;
        case TimerStatus::no_status:
        case TimerStatus::removed:
        case TimerStatus::deleted:
          got = take(t, s, TimerStatus::modifying);
          break;
        case TimerStatus::running:
        case TimerStatus::removing:
        case TimerStatus::moving:
        case TimerStatus::modifying:
          break;  // transient: wait for its holder
      }
      if (got) break;
      Sync::spin_hint();
    }
    const bool was_armed = armed(s);

    if (s == TimerStatus::no_status || s == TimerStatus::removed) {
      // On no heap: push it on the caller's worker. The Modifying timer is on no
      // heap until the push, so no owner can be spinning on it while we block on
      // the lock.
      caller.lock_.lock();
      if (caller.shut_down_.load(std::memory_order_relaxed)) {  // relaxed: under lock_ (shutdown raced us)
        caller.lock_.unlock();
        give(t, TimerStatus::modifying, s);
        return {false, TimerError::worker_shut_down};
      }
      set_fields(t, period, mode, cb, arg, seq);
      clean_head(caller);
      push(caller, t, when);
      give(t, TimerStatus::modifying, TimerStatus::waiting);
      if constexpr (Fault != TimerFault::no_wakeup_on_add) {
        wake_if_sleeping_before(caller, when);
      }  // FAULT no_wakeup_on_add: a worker sleeping past `when` is not woken
      caller.lock_.unlock();
      return {false, TimerError::ok};
    }

    // On some worker's heap (Waiting, ModifiedXX, Deleted): only its owner may
    // move it in the heap, so record nextwhen and let the owner re-site it.
    Worker* owner = t.owner_.load();  // read while we hold Modifying
    if (s == TimerStatus::deleted) owner->deleted_.fetch_sub(1, std::memory_order_relaxed);  // hint
    set_fields(t, period, mode, cb, arg, seq);
    t.nextwhen_.store(when);
    const TimerStatus next = when < t.when_.load() ? TimerStatus::modified_earlier : TimerStatus::modified_later;
    // The owner sleeps no later than modified_earliest_ (run_once), so it needs a
    // wake-up only if this lowers that bound: if the bound is already <= when,
    // the owner's deadline is too, or whoever lowered it (after the owner read it)
    // wakes the owner. So the owner's lock is taken once per lowering, not once
    // per reset-earlier.
    const bool lowered = next == TimerStatus::modified_earlier && lower_modified_earliest(*owner, when);
    if constexpr (Fault == TimerFault::wake_while_modifying) {
      // FAULT: blocks on the owner's lock while still holding Modifying; the owner
      // may be spinning on this very timer with that lock held.
      if (lowered) wake_owner(*owner, when);
    }
    give(t, TimerStatus::modifying, next);
    if constexpr (Fault != TimerFault::wake_while_modifying) {
      // The owner may sleep past the new when. `owner` was read under Modifying;
      // workers live as long as the set, so waking one that lost the timer since
      // (shutdown moved it) is only a spurious wake-up.
      if (lowered) wake_owner(*owner, when);
    }
    return {was_armed, TimerError::ok};
  }

  // Holding a timer of wk's heap in Modifying, about to make it ModifiedEarlier
  // with nextwhen = when: lowers wk's scan bound to `when` if it is higher.
  // Returns whether it lowered it.
  static bool lower_modified_earliest(Worker& wk, std::int64_t when) {
    // Relaxed: only a guess for the CAS.
    std::int64_t cur = wk.modified_earliest_.load(std::memory_order_relaxed);
    for (;;) {
      // Already low enough: still an RMW (cur -> cur), never a plain load. A
      // relaxed load may read a bound that adjust() has already exchanged to
      // "never"; deciding from it, nothing ordered our Modifying before that
      // exchange, the scan could pass this timer as Waiting, and it stayed
      // ModifiedEarlier under no bound (lfcheck lin's timers model found it:
      // "a ModifiedEarlier timer is due before its worker's modified_earliest_").
      // An RMW reads the latest bound: before adjust's exchange, its release
      // publishes our Modifying to that scan (which waits for it); after, it
      // reads never and we lower the bound.
      const std::int64_t target = when < cur ? when : cur;
      // Success release: pairs with adjust()'s acquire exchange (our Modifying is
      // visible to its scan). Failure relaxed: retry with the value read. Strong:
      // a spurious failure would multiply a model checker's search.
      if (wk.modified_earliest_.compare_exchange_strong(cur, target, std::memory_order_release,
                                                        std::memory_order_relaxed))
        return when < cur;  // lowered it (cur: the bound the CAS replaced)
      Sync::spin_hint();
    }
  }

  static void set_fields(Timer& t, std::int64_t period, Mode mode, TimerCallback cb, void* arg,
                         std::uint64_t seq) {
    if (mode == Mode::reset) return;  // Go's Reset keeps period, f, arg, seq
    t.period_.store(period);
    if (mode == Mode::modify || mode == Mode::add_fields) {
      t.callback_.store(cb);
      t.arg_.store(arg);
      t.seq_.store(seq);
    }
  }

  // Under wk.lock_, holding t in Moving at heap slot i: when = nextwhen, re-sited.
  static void move_in_place(Worker& wk, std::uint32_t i, Timer& t) {
    const std::int64_t when = t.nextwhen_.load();
    t.when_.store(when);
    wk.heap_.set_when(i, when);
  }
  // Under wk.lock_, holding t in Removing at heap slot i (ordered removal).
  static void remove_deleted(Worker& wk, std::uint32_t i, Timer& t) {
    wk.heap_.remove_at(i);
    t.owner_.store(nullptr);
    wk.deleted_.fetch_sub(1, std::memory_order_relaxed);  // hint
  }

  // Go's cleantimers: removes Deleted and re-sites ModifiedXX timers at the head.
  static void clean_head(Worker& wk) {
    while (!wk.heap_.empty()) {
      Timer& t = *wk.heap_.at(0).node;
      const TimerStatus s = t.status();
      if (s == TimerStatus::deleted) {
        if (!take(t, s, TimerStatus::removing)) { Sync::spin_hint(); continue; }
        remove_deleted(wk, 0, t);
        give(t, TimerStatus::removing, TimerStatus::removed);
      } else if (s == TimerStatus::modified_earlier || s == TimerStatus::modified_later) {
        if (!take(t, s, TimerStatus::moving)) { Sync::spin_hint(); continue; }
        move_in_place(wk, 0, t);
        give(t, TimerStatus::moving, TimerStatus::waiting);
      } else {
        return;  // Waiting, or Modifying (run_head waits for it)
      }
    }
  }

  // Go's adjusttimers (+ clearDeletedTimers): one scan of the whole heap removes
  // Deleted timers and gives ModifiedXX timers their nextwhen; the array is
  // re-heapified at the end (no sifting during the scan, so no entry moves except
  // by the swap-remove, and the scan looks at the swapped-in entry next).
  static void adjust(Worker& wk) {
    // Acquire: pairs with the release CAS in lower_modified_earliest, so a
    // timer whose bound we take here is seen at least in Modifying by the scan
    // below (which waits for it). A timer moved earlier after this exchange
    // lowers the bound again for the next scan.
    wk.modified_earliest_.exchange(kTimerNever, std::memory_order_acquire);
    std::uint32_t i = 0;
    while (i < wk.heap_.size()) {
      Timer& t = *wk.heap_.at(i).node;
      const TimerStatus s = t.status();
      switch (s) {
        case TimerStatus::deleted:
          if (!take(t, s, TimerStatus::removing)) { Sync::spin_hint(); continue; }
          wk.heap_.swap_remove(i);
          t.owner_.store(nullptr);
          wk.deleted_.fetch_sub(1, std::memory_order_relaxed);  // hint
          give(t, TimerStatus::removing, TimerStatus::removed);
          if constexpr (Fault == TimerFault::adjust_skips_next) ++i;  // FAULT: skips the swapped-in entry
          continue;  // slot i now holds the former last entry: look at it
        case TimerStatus::modified_earlier:
        case TimerStatus::modified_later: {
          if (!take(t, s, TimerStatus::moving)) { Sync::spin_hint(); continue; }
          const std::int64_t when = t.nextwhen_.load();
          t.when_.store(when);
          wk.heap_.set_when_unordered(i, when);
          give(t, TimerStatus::moving, TimerStatus::waiting);
          break;
        }
        case TimerStatus::waiting:
          break;
        case TimerStatus::modifying:
          Sync::spin_hint();
          continue;  // look at it again once the modifier is done
        default:
          bad_timer("timers: adjust met a timer in an impossible state on its heap");
          break;
      }
      ++i;
    }
    wk.heap_.heapify();
  }

  struct Fired {
    TimerCallback cb;
    void* arg;
    std::uint64_t seq;
    std::int64_t when;
  };
  enum class Head { empty, not_due, ran };

  // Go's runtimer: settles the head until it is a Waiting timer; runs it if due.
  static Head run_head(Worker& wk, std::int64_t now, Fired& fired) {
    for (;;) {
      if (wk.heap_.empty()) return Head::empty;
      const auto e = wk.heap_.at(0);
      Timer& t = *e.node;
      const TimerStatus s = t.status();
      switch (s) {
        case TimerStatus::waiting: {
          if (e.when > now) return Head::not_due;
          if constexpr (Fault == TimerFault::run_without_claim) {
            // FAULT: check-then-act; a stop between the load and this store wins too.
            // Release: as give().
            t.status_.store(static_cast<std::uint32_t>(TimerStatus::running), std::memory_order_release);
          } else if (!take(t, s, TimerStatus::running)) {
            Sync::spin_hint();
            continue;
          }
          fired = {t.callback_.load(), t.arg_.load(), t.seq_.load(), e.when};
          const std::int64_t period = t.period_.load();
          std::int64_t next = 0;
          if (period > 0 && timer_next_periodic(e.when, period, now, next)) {
            t.when_.store(next);
            wk.heap_.set_when(0, next);
            give(t, TimerStatus::running, TimerStatus::waiting);
          } else {
            wk.heap_.remove_at(0);
            t.owner_.store(nullptr);
            give(t, TimerStatus::running, TimerStatus::no_status);
          }
          return Head::ran;
        }
        case TimerStatus::deleted:
          if (!take(t, s, TimerStatus::removing)) { Sync::spin_hint(); continue; }
          remove_deleted(wk, 0, t);
          give(t, TimerStatus::removing, TimerStatus::removed);
          continue;
        case TimerStatus::modified_earlier:
        case TimerStatus::modified_later:
          if (!take(t, s, TimerStatus::moving)) { Sync::spin_hint(); continue; }
          move_in_place(wk, 0, t);
          give(t, TimerStatus::moving, TimerStatus::waiting);
          continue;
        case TimerStatus::modifying:
          Sync::spin_hint();  // wait for the modifier (it never blocks while holding it)
          continue;
        default:
          bad_timer("timers: run met a timer in an impossible state at the head of its heap");
          return Head::empty;
      }
    }
  }

  // Under wk.lock_ (released around each callback).
  std::size_t run_due_locked(Worker& wk) {
    const std::int64_t now = clock_.now();
    clean_head(wk);
    // Relaxed: hints (see header); a modifier that changes them after this read
    // wakes us under the lock if it matters before our deadline.
    const std::int64_t moved = wk.modified_earliest_.load(std::memory_order_relaxed);
    const std::int32_t deleted = wk.deleted_.load(std::memory_order_relaxed);
    if (now >= moved || static_cast<std::uint32_t>(deleted) * 4 > wk.heap_.size()) adjust(wk);
    std::size_t n = 0;
    for (;;) {
      Fired f;
      if (run_head(wk, now, f) != Head::ran) break;
      ++n;
      if (f.cb == nullptr) continue;
      if constexpr (Fault == TimerFault::callback_under_lock) {
        f.cb(f.arg, f.seq, f.when, now);  // FAULT: heap lock held across the callback
      } else {
        wk.lock_.unlock();
        f.cb(f.arg, f.seq, f.when, now);
        wk.lock_.lock();
      }
    }
    return n;
  }

  Clock& clock_;
  const unsigned n_;
  Worker* const workers_;
};

// The production configuration and the binary-heap baseline (same design, Arity 2).
template <class Sync = StdSync, class Clock = SteadyClock, TimerFault Fault = TimerFault::none>
using GoTimers = TimerSet<Sync, Clock, 4, Fault>;
template <class Sync = StdSync, class Clock = SteadyClock, TimerFault Fault = TimerFault::none>
using BinaryHeapTimers = TimerSet<Sync, Clock, 2, Fault>;
// The production timer fills one cache line, no more (the Timer comment above).
static_assert(sizeof(GoTimers<>::Timer) == 64, "a StdSync timer is one 64-byte cache line");

// White-box hooks for the transition-table tests (property_tests/timers_props.cpp).
template <class Set>
struct TimerTestAccess {
  using Timer = typename Set::Timer;
  // Stores a status directly, bypassing the protocol: the test plays the holder of
  // a transient state. Release: as give().
  static void force_status(Timer& t, TimerStatus s) {
    t.status_.store(static_cast<std::uint32_t>(s), std::memory_order_release);
  }
};

}  // namespace lfcheck
