// ContentionSync — StdSync plus a measurement, per thread, of the time spent
// blocked in a structure's synchronization (used by deliqueue_contended_bench.cpp
// to compare the Looper's blocked share in DeliQueue and in the legacy queue).
//
// What counts as blocked (all of it measured with steady_clock on the blocked
// thread itself; nothing is inferred from totals):
//   mutex    a lock() whose try_lock failed: from that failed try_lock to the
//            acquisition. An uncontended lock costs one try_lock, which is
//            std::mutex::lock's own fast path, and no clock read.
//   condvar  the wait itself (sleeping until notified or timed out) is idle, not
//            blocked. Waking re-acquires the mutex through the timed lock above
//            (std::condition_variable_any), so a thread woken while the notifier
//            or another poster still holds the lock is charged for that wait.
//   CAS      a failed compare_exchange opens a retry span on its thread. The span
//            is closed, and charged, by the thread's next successful
//            compare_exchange, by a condvar wait, or by close_retry_span() (the
//            benchmark calls it after every queue call). It holds the failed
//            attempt, the back-off and every step redone because of it, and
//            also work that was not wasted (a re-sweep that files messages which
//            would have been filed anyway): the measure errs against a
//            lock-free structure, never for it.
// Not charged: the time a thread spends descheduled while it holds a lock or
// runs (an oversubscribed machine); a spin loop without a CAS (DeliQueue's
// Looper has none on its delivery path).
//
// Cost: a failed try_lock or CAS reads the clock twice; everything else is
// StdSync's. The eventfd wake of the queues stays (backend_name is "std").
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "bench/bench_util.hpp"
#include "sync/deadline.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck::bench {

struct ContentionSync : StdSync {
  // The calling thread's account. Only that thread touches it (thread_local):
  // a benchmark thread reads its own figures and hands them over itself.
  struct Account {
    std::int64_t blocked_ns = 0;      // charged so far
    std::int64_t retry_since_ns = 0;  // start of the open retry span, 0 if none
    std::uint64_t contended_locks = 0;
    std::uint64_t failed_cas = 0;
  };
  static Account& account() {
    thread_local Account a;
    return a;
  }
  static void close_retry_span() {
    Account& a = account();
    if (a.retry_since_ns != 0) {
      a.blocked_ns += now_ns() - a.retry_since_ns;
      a.retry_since_ns = 0;
    }
  }

  template <class T>
  class atomic : public StdSync::atomic<T> {
   public:
    using StdSync::atomic<T>::atomic;

    LFCHECK_INLINE bool compare_exchange_weak(T& expected, T desired, std::memory_order success,
                                              std::memory_order failure,
                                              location loc = location::current()) noexcept {
      return count(StdSync::atomic<T>::compare_exchange_weak(expected, desired, success, failure, loc));
    }
    LFCHECK_INLINE bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                                                std::memory_order failure,
                                                location loc = location::current()) noexcept {
      return count(StdSync::atomic<T>::compare_exchange_strong(expected, desired, success, failure, loc));
    }

   private:
    static bool count(bool ok) {
      Account& a = account();
      if (ok) {
        if (a.retry_since_ns != 0) [[unlikely]] close_retry_span();
      } else {
        ++a.failed_cas;
        if (a.retry_since_ns == 0) a.retry_since_ns = now_ns();
      }
      return ok;
    }
  };

  class mutex {
   public:
    void lock(location = location::current()) {
      if (m_.try_lock()) return;
      const std::int64_t t0 = now_ns();
      m_.lock();
      Account& a = account();
      a.blocked_ns += now_ns() - t0;
      ++a.contended_locks;
    }
    void unlock(location = location::current()) { m_.unlock(); }

   private:
    std::mutex m_;
  };

  // StdSync's contract (waits are used in re-check loops; a deadline saturates),
  // over condition_variable_any so that the re-acquisition goes through
  // mutex::lock above and is measured.
  class condvar {
   public:
    void wait(mutex& m, location = location::current()) {
      close_retry_span();  // what follows is sleep, not retry
      cv_.wait(m);
    }
    bool wait_for_ns(mutex& m, std::int64_t ns, location = location::current()) {
      close_retry_span();
      if (ns <= 0) return false;
      using clock = std::chrono::steady_clock;
      const std::int64_t end = saturating_add(clock::now().time_since_epoch().count(), ns);
      if (end == kTimeMax) {
        cv_.wait(m);
        return true;
      }
      return cv_.wait_until(m, clock::time_point(clock::duration(end))) == std::cv_status::no_timeout;
    }
    void notify_one(location = location::current()) { cv_.notify_one(); }
    void notify_all(location = location::current()) { cv_.notify_all(); }

   private:
    std::condition_variable_any cv_;
  };
};

}  // namespace lfcheck::bench
