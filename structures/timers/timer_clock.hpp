// Clocks for the timers: a virtual clock that tests drive, and the steady clock
// production reads. Both give nanoseconds as std::int64_t from an arbitrary epoch.
//
//   VirtualClock<Sync>  now() is whatever advance_to()/set() last stored. Time never
//                       passes by itself, so a worker on a virtual clock sleeps until
//                       it is woken (TimerSet::advance wakes every worker after
//                       moving the clock). Models and property tests use it; the
//                       stress run uses it too, so "fired before its when" is exact.
//   SteadyClock         std::chrono::steady_clock; workers sleep with a timed wait.
#pragma once

#include <chrono>
#include <cstdint>

#include "sync/std_sync.hpp"

namespace lfcheck {

template <class Sync = StdSync>
class VirtualClock {
 public:
  static constexpr bool is_virtual = true;
  explicit VirtualClock(std::int64_t start = 0) : now_(start) {}

  std::int64_t now() const {
    // Acquire: pairs with the release in advance_to, so a worker that reads the new
    // time also sees what the advancing thread did before advancing.
    return now_.load(std::memory_order_acquire);
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

class SteadyClock {
 public:
  static constexpr bool is_virtual = false;
  std::int64_t now() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

}  // namespace lfcheck
