// GlobalLockTimers — the baseline the per-worker design replaced in Go 1.14: one
// lock and one 4-ary heap for every timer of the set. Same API and contract as
// TimerSet (structures/timers/timers.hpp): add, stop, reset, modify,
// shutdown_worker, run_due/run_once/run, advance. Every operation takes the one
// lock; a timer's state is just "on the heap or not" (index_ >= 0), so no status
// word and no transient states. Any worker's run loop runs any due timer.
// Used by the property tests (same reference model) and by benchmarks.
#pragma once

#include <cstdint>

#include "structures/timers/dary_heap.hpp"
#include "structures/timers/timers.hpp"
#include "sync/clock.hpp"
#include "sync/deadline.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck {

template <class Sync = StdSync, class Clock = SteadyClock>
class GlobalLockTimers {
 public:
  class Timer {
   public:
    Timer() = default;
    Timer(TimerCallback cb, void* arg, std::uint64_t seq = 0) : callback_(cb), arg_(arg), seq_(seq) {}
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;
    void init(TimerCallback cb, void* arg, std::uint64_t seq = 0) {
      callback_.store(cb);
      arg_.store(arg);
      seq_.store(seq);
    }

   private:
    friend class GlobalLockTimers;
    friend struct timers_detail::IndexedNodePolicy<Timer>;
    typename Sync::template cell<std::int32_t> index_{-1};  // lock_: -1 = not armed
    typename Sync::template cell<std::int64_t> when_{0};
    typename Sync::template cell<std::int64_t> period_{0};
    typename Sync::template cell<TimerCallback> callback_{nullptr};
    typename Sync::template cell<void*> arg_{nullptr};
    typename Sync::template cell<std::uint64_t> seq_{0};
  };

  GlobalLockTimers(Clock& clock, unsigned workers)
      : clock_(clock), n_(workers), down_(Sync::template create_array<typename Sync::template cell<bool>>(workers)) {
    // create_array gives no initial value (the Sync contract): every worker starts up.
    for (unsigned w = 0; w < workers; ++w) down_[w].store(false);
  }
  ~GlobalLockTimers() { Sync::destroy_array(down_); }
  GlobalLockTimers(const GlobalLockTimers&) = delete;
  GlobalLockTimers& operator=(const GlobalLockTimers&) = delete;

  unsigned workers() const { return n_; }
  Clock& clock() { return clock_; }

  [[nodiscard]] TimerError add(unsigned w, Timer& t, std::int64_t when, std::int64_t period = 0) {
    if (w >= n_ || when < 0 || period < 0) return TimerError::bad_argument;
    Guard g(lock_);
    if (down_[w].load()) return TimerError::worker_shut_down;
    if (t.index_.load() >= 0) return TimerError::already_armed;
    t.period_.store(period);
    arm(t, when);
    return TimerError::ok;
  }
  [[nodiscard]] TimerError add(unsigned w, Timer& t, std::int64_t when, std::int64_t period, TimerCallback cb,
                               void* arg, std::uint64_t seq) {
    if (w >= n_ || when < 0 || period < 0) return TimerError::bad_argument;
    Guard g(lock_);
    if (down_[w].load()) return TimerError::worker_shut_down;
    if (t.index_.load() >= 0) return TimerError::already_armed;
    t.period_.store(period);
    t.callback_.store(cb);
    t.arg_.store(arg);
    t.seq_.store(seq);
    arm(t, when);
    return TimerError::ok;
  }
  bool stop(Timer& t) {
    Guard g(lock_);
    const std::int32_t i = t.index_.load();
    if (i < 0) return false;
    heap_.remove_at(static_cast<std::uint32_t>(i));
    return true;
  }
  bool reset(unsigned caller, Timer& t, std::int64_t when) {
    const TimerModifyResult r = change(caller, t, when, 0, false, nullptr, nullptr, 0);
    if (r.error != TimerError::ok) Sync::check(false, "timers: reset misuse (worker shut down or bad when)");
    return r.was_armed;
  }
  TimerModifyResult modify(unsigned caller, Timer& t, std::int64_t when, std::int64_t period, TimerCallback cb,
                           void* arg, std::uint64_t seq) {
    return change(caller, t, when, period, true, cb, arg, seq);
  }
  TimerError shutdown_worker(unsigned w, unsigned to) {
    if (w >= n_ || to >= n_ || w == to) return TimerError::bad_argument;
    Guard g(lock_);
    if (down_[w].load() || down_[to].load()) return TimerError::worker_shut_down;
    down_[w].store(true);  // the shared heap needs no moving
    wake_.notify_all();
    return TimerError::ok;
  }

  std::size_t run_due(unsigned w) {
    (void)w;
    lock_.lock();
    const std::size_t n = run_due_locked();
    lock_.unlock();
    return n;
  }
  bool run_once(unsigned w, std::size_t* ran = nullptr) {
    lock_.lock();
    if (down_[w].load() || exit_) {
      lock_.unlock();
      return false;
    }
    const std::size_t n = run_due_locked();
    if (ran) *ran = n;
    if (n == 0) {
      const std::int64_t deadline = heap_.empty() ? kTimerNever : heap_.at(0).when;
      if (Clock::is_virtual || deadline == kTimerNever) {
        wake_.wait(lock_);
      } else {
        const std::int64_t now = clock_.now();
        if (deadline > now) wake_.wait_for_ns(lock_, ns_until(deadline, now));  // saturating
      }
    }
    lock_.unlock();
    return true;
  }
  void run(unsigned w) {
    while (run_once(w)) {
    }
  }
  void request_exit(unsigned) {
    Guard g(lock_);
    exit_ = true;
    wake_.notify_all();
  }
  void advance(std::int64_t to) {
    static_assert(Clock::is_virtual, "advance() drives a virtual clock");
    clock_.advance_to(to);
    Guard g(lock_);
    wake_.notify_all();
  }
  bool is_shut_down(unsigned w) {
    Guard g(lock_);
    return down_[w].load();
  }

  const char* check_invariants(Timer* const* timers = nullptr, std::size_t n = 0) const {
    if (const char* e = heap_.check()) return e;
    for (std::size_t i = 0; i < n; ++i) {
      const std::int32_t at = timers[i]->index_.load();
      if (at >= 0 && (static_cast<std::uint32_t>(at) >= heap_.size() || heap_.at(at).node != timers[i]))
        return "a timer's index does not point at its heap entry";
    }
    return nullptr;
  }
  std::int64_t armed_when_quiescent(const Timer& t) const {
    return t.index_.load() >= 0 ? t.when_.load() : kTimerNever;
  }

 private:
  struct Guard {
    explicit Guard(typename Sync::mutex& m) : m_(m) { m_.lock(); }
    ~Guard() { m_.unlock(); }
    typename Sync::mutex& m_;
  };

  // Under lock_.
  void arm(Timer& t, std::int64_t when) {
    t.when_.store(when);
    const bool earliest = heap_.empty() || when < heap_.at(0).when;
    heap_.push(when, &t);
    if (earliest) wake_.notify_all();
  }

  TimerModifyResult change(unsigned caller, Timer& t, std::int64_t when, std::int64_t period, bool all,
                           TimerCallback cb, void* arg, std::uint64_t seq) {
    if (caller >= n_ || when < 0 || period < 0) return {false, TimerError::bad_argument};
    Guard g(lock_);
    const std::int32_t i = t.index_.load();
    const bool was = i >= 0;
    if (down_[caller].load()) return {false, TimerError::worker_shut_down};
    if (was) heap_.remove_at(static_cast<std::uint32_t>(i));
    if (all) {
      t.period_.store(period);
      t.callback_.store(cb);
      t.arg_.store(arg);
      t.seq_.store(seq);
    }
    arm(t, when);
    return {was, TimerError::ok};
  }

  std::size_t run_due_locked() {
    const std::int64_t now = clock_.now();
    std::size_t n = 0;
    while (!heap_.empty() && heap_.at(0).when <= now) {
      Timer& t = *heap_.at(0).node;
      const std::int64_t when = heap_.at(0).when;
      const std::int64_t period = t.period_.load();
      const TimerCallback cb = t.callback_.load();
      void* const arg = t.arg_.load();
      const std::uint64_t seq = t.seq_.load();
      std::int64_t next = 0;
      if (period > 0 && timer_next_periodic(when, period, now, next)) {
        t.when_.store(next);
        heap_.set_when(0, next);
      } else {
        heap_.remove_at(0);
      }
      ++n;
      if (cb) {
        lock_.unlock();
        cb(arg, seq, when, now);
        lock_.lock();
      }
    }
    return n;
  }

  Clock& clock_;
  const unsigned n_;
  typename Sync::mutex lock_;
  typename Sync::condvar wake_;
  timers_detail::TimerHeap<Sync, 4, Timer> heap_;  // lock_
  typename Sync::template cell<bool>* down_;      // lock_: worker shut down
  bool exit_ = false;                             // lock_
};

}  // namespace lfcheck
