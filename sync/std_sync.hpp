// StdSync — the production synchronization policy.
//
// Every structure in structures/ is a template whose last policy parameter is a
// Sync; StdSync is the default. It maps each name of the policy onto the standard
// library with no cost beyond what the standard types already have:
//
//   atomic<T>       std::atomic<T> behind force-inlined forwarding members
//   cell<T>         a plain T (load/store are ordinary reads and writes)
//   fence, spin     std::atomic_thread_fence, the CPU's pause hint, thread yield
//   mutex, condvar  std::mutex, std::condition_variable (park/unpark build on them);
//                   timed waits saturate their deadline (sync/deadline.hpp)
//   create/destroy  new/delete
//   location        an empty struct: the caller's source location costs nothing
//
// RelacySync (relacy_sync.hpp) exposes exactly the same names; see that file for
// what each one becomes inside the model checker. Memory orders are always passed
// explicitly: no member has a defaulted std::memory_order.
//
// Default construction (the contract of both policies): atomic<T>() and cell<T>()
// have an unspecified initial value, and create<T>() / create_array<T>(n) leave
// members without an initializer unspecified too. Reading one before the first
// store is a bug; write `atomic<T> x{0}` or `cell<T> c{v}` when a value is meant.
// StdSync happens to value-initialise all of them (std::atomic<T>() does since
// C++20, and `new T()` zeroes), which the contract allows — production reads are
// never garbage — but nothing may rely on it: RelacySync gives no initial value,
// and the model reports ACCESS TO UNINITIALIZED VARIABLE on such a read.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <ratio>
#include <thread>
#include <type_traits>

#include "sync/deadline.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#define LFCHECK_INLINE [[gnu::always_inline]] inline

namespace lfcheck {

struct StdSync {
  static constexpr const char* backend_name = "std";

  // The caller's source location. Zero-sized in production: the defaulted
  // `location loc = location::current()` argument of every operation compiles away.
  struct location {
    static constexpr location current() noexcept { return {}; }
  };

  // Marks one high-level operation of a structure (push, pop, enqueue, ...):
  // `typename Sync::operation op("push");` at the top of a public member. Free
  // in production; under RelacySync it brackets the operation in the history, so
  // failure traces show one slice per operation.
  struct operation {
    constexpr explicit operation(const char*, location = location::current()) noexcept {}
    ~operation() {}  // user-provided: a marker is not an "unused variable"; inlines to nothing
  };

  // Gives a shared variable a name for failure reports ("stack.head"); where the
  // structure gives none, reports name it after the expression in the source line.
  template <class Shared>
  static constexpr void label(const Shared&, const char*) noexcept {}

  template <class T>
  class atomic {
   public:
    constexpr atomic() noexcept : v_() {}  // value-initialised; the contract: unspecified
    constexpr explicit atomic(T initial) noexcept : v_(initial) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;

    LFCHECK_INLINE T load(std::memory_order mo, location = location::current()) const noexcept {
      return v_.load(mo);
    }
    LFCHECK_INLINE void store(T value, std::memory_order mo,
                              location = location::current()) noexcept {
      v_.store(value, mo);
    }
    LFCHECK_INLINE T exchange(T value, std::memory_order mo,
                              location = location::current()) noexcept {
      return v_.exchange(value, mo);
    }
    LFCHECK_INLINE bool compare_exchange_weak(T& expected, T desired, std::memory_order success,
                                              std::memory_order failure,
                                              location = location::current()) noexcept {
      return v_.compare_exchange_weak(expected, desired, success, failure);
    }
    LFCHECK_INLINE bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                                                std::memory_order failure,
                                                location = location::current()) noexcept {
      return v_.compare_exchange_strong(expected, desired, success, failure);
    }
    LFCHECK_INLINE T fetch_add(T delta, std::memory_order mo,
                               location = location::current()) noexcept {
      return v_.fetch_add(delta, mo);
    }
    LFCHECK_INLINE T fetch_sub(T delta, std::memory_order mo,
                               location = location::current()) noexcept {
      return v_.fetch_sub(delta, mo);
    }
    LFCHECK_INLINE T fetch_or(T bits, std::memory_order mo,
                              location = location::current()) noexcept {
      return v_.fetch_or(bits, mo);
    }
    LFCHECK_INLINE T fetch_and(T bits, std::memory_order mo,
                               location = location::current()) noexcept {
      return v_.fetch_and(bits, mo);
    }

   private:
    std::atomic<T> v_;
  };

  // Plain shared data. Under RelacySync this is rl::var<T>, so the model checker
  // reports unsynchronized accesses; here it is just a T.
  template <class T>
  class cell {
   public:
    constexpr cell() noexcept : v_() {}  // value-initialised; the contract: unspecified
    constexpr explicit cell(T initial) noexcept : v_(initial) {}
    LFCHECK_INLINE T load(location = location::current()) const noexcept { return v_; }
    LFCHECK_INLINE void store(T value, location = location::current()) noexcept { v_ = value; }

   private:
    T v_;
  };

  LFCHECK_INLINE static void fence(std::memory_order mo, location = location::current()) noexcept {
    std::atomic_thread_fence(mo);
  }

  // One iteration of a spin or retry loop. Every such loop must call this: under
  // RelacySync it is rl::yield, which keeps the fair schedulers from reporting a
  // livelock on correct code (and lets them report one on a stuck transient state).
  LFCHECK_INLINE static void spin_hint(location = location::current()) noexcept {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
  }
  LFCHECK_INLINE static void yield(location = location::current()) noexcept {
    std::this_thread::yield();
  }

  class condvar;
  class mutex {
   public:
    void lock(location = location::current()) { m_.lock(); }
    void unlock(location = location::current()) { m_.unlock(); }

   private:
    friend class condvar;
    std::mutex m_;
  };

  // Waits are always used in a re-check loop by the caller (spurious wake-ups are
  // allowed in both backends).
  class condvar {
   public:
    void wait(mutex& m, location = location::current()) {
      std::unique_lock<std::mutex> lock(m.m_, std::adopt_lock);
      cv_.wait(lock);
      lock.release();  // the caller still holds m
    }
    // Waits at most ns nanoseconds (any int64: ns <= 0 times out at once, as
    // std::condition_variable::wait_for does). Returns false on timeout, true
    // when notified or woken spuriously. Under RelacySync a timed wait may time
    // out at any point the scheduler chooses.
    // The deadline is now + ns, saturated (sync/deadline.hpp): wait_for itself
    // adds ns to steady_clock::now(), which overflows for ns near INT64_MAX (into
    // the past: the wait returned at once and its caller spun). A deadline past
    // the clock's range never comes, so that wait is untimed.
    bool wait_for_ns(mutex& m, std::int64_t ns, location = location::current()) {
      if (ns <= 0) return false;
      using clock = std::chrono::steady_clock;
      static_assert(std::is_same_v<clock::period, std::nano>, "steady_clock counts nanoseconds");
      const std::int64_t start = clock::now().time_since_epoch().count();
      const std::int64_t end = saturating_add(start, ns);
      std::unique_lock<std::mutex> lock(m.m_, std::adopt_lock);
      bool woken = true;
      if (end == kTimeMax) cv_.wait(lock);
      else woken = cv_.wait_until(lock, clock::time_point(clock::duration(end))) == std::cv_status::no_timeout;
      lock.release();  // the caller still holds m
      return woken;
    }
    void notify_one(location = location::current()) { cv_.notify_one(); }
    void notify_all(location = location::current()) { cv_.notify_all(); }

   private:
    std::condition_variable cv_;
  };

  // Value-initialised (`new T()`); the contract promises only default
  // initialisation (see "Default construction" above).
  template <class T>
  static T* create(location = location::current()) {
    return new T();
  }
  template <class T>
  static T* create_array(std::size_t n, location = location::current()) {
    return new T[n]();
  }
  template <class T>
  static void destroy(T* p, location = location::current()) noexcept {
    delete p;
  }
  template <class T>
  static void destroy_array(T* p, location = location::current()) noexcept {
    delete[] p;
  }

  // A failed check inside a structure or scenario. Models turn this into a Relacy
  // assertion failure (with history); real-thread runs print and abort so the
  // stress runner's death handler records the failure.
  static void check(bool ok, const char* what, location = location::current()) {
    if (!ok) [[unlikely]] {
      if (auto handler = check_failure_handler().load(std::memory_order_acquire)) return handler(what);
      std::fprintf(stderr, "lfcheck: ASSERT failed: %s\n", what);
      std::abort();
    }
  }
  // A runner may take over failed checks (the litmus runner records them as the
  // run's failure instead of aborting; the props runner throws, for RapidCheck). Acquire/release: the handler's own state
  // is published before it is installed.
  using check_handler = void (*)(const char* what);
  static std::atomic<check_handler>& check_failure_handler() {
    static std::atomic<check_handler> handler{nullptr};
    return handler;
  }

  // Scenario randomness: per-thread, seeded by the runner.
  static unsigned random(unsigned limit) {
    return static_cast<unsigned>(random_engine()() % limit);
  }
  static std::mt19937_64& random_engine() {
    thread_local std::mt19937_64 engine{0x5eedu};
    return engine;
  }
};

}  // namespace lfcheck
