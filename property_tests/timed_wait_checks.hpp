// What the properties of timed waits at the int64 limit (issue 16) need, for
// DeliQueue's Looper and TimerSet's workers alike:
//
//   CountingSync       StdSync whose timed waits are counted (SpinCount). A sleeper
//                      that waits for a far deadline makes one timed wait (or a few:
//                      wake-ups, spurious ones); one whose wait returns at once — a
//                      deadline that overflowed into the past — makes thousands a
//                      millisecond. Past kSpinLimit waits the wait stops being timed
//                      (it waits for a notify), so a spinning sleeper lets go of its
//                      mutex and the test can still quit it and report the spin,
//                      instead of hanging with it.
//   OffsetSteadyClock  steady_clock shifted by a per-test offset: a real clock (timed
//                      waits really time out) whose epoch puts its readings near an
//                      int64 limit — below 0, as an arbitrary epoch allows (Java's
//                      nanoTime may be negative), or near INT64_MAX.
//   Watchdog           ends the process with exit 1 and a message if its scope does
//                      not end within the given seconds: a hang fails the test run
//                      instead of hanging ctest.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "sync/clock.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck {

inline constexpr std::uint64_t kSpinLimit = 100;

struct SpinCount {
  // Relaxed: read by the test after it joined the sleeper (or as a progress hint).
  static std::atomic<std::uint64_t>& waits() {
    static std::atomic<std::uint64_t> n{0};
    return n;
  }
  static void reset() { waits().store(0, std::memory_order_relaxed); }
  static std::uint64_t get() { return waits().load(std::memory_order_relaxed); }
};

struct CountingSync : StdSync {
  class condvar : public StdSync::condvar {
   public:
    bool wait_for_ns(StdSync::mutex& m, std::int64_t ns, location loc = location::current()) {
      // Relaxed: a statistic (see SpinCount).
      if (SpinCount::waits().fetch_add(1, std::memory_order_relaxed) + 1 > kSpinLimit) {
        wait(m, loc);  // the brake: see the header
        return true;
      }
      return StdSync::condvar::wait_for_ns(m, ns, loc);
    }
  };
};

struct OffsetSteadyClock {
  static constexpr bool is_virtual = false;
  // Relaxed: set by the test before the structure is built and shared.
  static std::atomic<std::int64_t>& offset() {
    static std::atomic<std::int64_t> o{0};
    return o;
  }
  std::int64_t now() const { return SteadyClock().now() + offset().load(std::memory_order_relaxed); }
};

class Watchdog {
 public:
  Watchdog(int seconds, const char* what) : thread_([this, seconds, what] {
    std::unique_lock<std::mutex> lock(m_);
    if (!cv_.wait_for(lock, std::chrono::seconds(seconds), [this] { return done_; })) {
      std::fprintf(stderr, "TIMEOUT: %s did not finish within %d s (a hang)\n", what, seconds);
      std::fflush(stderr);
      std::_Exit(1);
    }
  }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(m_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;  // last: starts once the members above exist
};

// Waits (up to 10 s) until the sleeper has made at least one timed wait.
inline bool wait_for_first_timed_wait() {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (SpinCount::get() == 0) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

}  // namespace lfcheck
