// The clocks every structure that tells time is a template over (DeliQueue's
// `when`s, TimerSet's deadlines): the Clock policy, beside the Sync policy.
//
// A Clock gives `std::int64_t now()` in nanoseconds from an arbitrary epoch (a
// reading may be negative) and `static constexpr bool is_virtual`:
//
//   SteadyClock         production: std::chrono::steady_clock since its epoch.
//                       Time passes by itself; a structure sleeps on it with a
//                       timed wait (Sync::condvar::wait_for_ns).
//   VirtualClock<Sync>  tests and models: now() is what set() / advance_to() /
//                       advance_by() last stored; time never passes by itself, so a
//                       structure on it sleeps without a timeout until it is woken
//                       (DeliQueue::advance_clock, TimerSet::advance wake it after
//                       moving the clock). A lost wake-up is then a hang — a
//                       DEADLOCK under Relacy — never a late delivery.
//
// One header for every structure, so a program can use DeliQueue and TimerSet
// together (and share one clock between them).
//
// Cost: SteadyClock::now() is one clock_gettime (vDSO); VirtualClock::now() one
// acquire load.
#pragma once

#include <chrono>
#include <cstdint>

#include "sync/std_sync.hpp"

namespace lfcheck {

class SteadyClock {
 public:
  static constexpr bool is_virtual = false;
  std::int64_t now() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

template <class Sync = StdSync>
class VirtualClock {
 public:
  static constexpr bool is_virtual = true;
  explicit VirtualClock(std::int64_t start = 0) : now_(start) {}
  VirtualClock(const VirtualClock&) = delete;
  VirtualClock& operator=(const VirtualClock&) = delete;

  std::int64_t now() const {
    // Acquire: pairs with the release of set/advance_to/advance_by, so a reader
    // of the new time also sees what the moving thread did before moving it
    // (a message stamped from a reading is not older than what the reader sees).
    return now_.load(std::memory_order_acquire);
  }
  // Sets the time to t (any value, also backwards: tests use it to set a scene).
  void set(std::int64_t t) {
    // Release: pairs with now()'s acquire.
    now_.store(t, std::memory_order_release);
  }
  // Moves the clock forward to `to` (never backwards); returns the new time.
  std::int64_t advance_to(std::int64_t to) {
    std::int64_t cur = now_.load(std::memory_order_relaxed);  // retried by the CAS below
    while (cur < to) {
      // Release: pairs with now()'s acquire. Failure relaxed: we only retry.
      if (now_.compare_exchange_strong(cur, to, std::memory_order_release, std::memory_order_relaxed))
        return to;
      Sync::spin_hint();
    }
    return cur;
  }
  std::int64_t advance_by(std::int64_t delta) {
    // Release: pairs with now()'s acquire (as advance_to).
    return now_.fetch_add(delta, std::memory_order_release) + delta;
  }

 private:
  typename Sync::template atomic<std::int64_t> now_;
};

}  // namespace lfcheck
