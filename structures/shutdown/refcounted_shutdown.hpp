// RefcountedShutdown — a tagged reference count that lets an owner (the Looper)
// destroy a resource that other threads use, safely and exactly once.
//
// Guarantees
//   * try_acquire() succeeds only before teardown: once request_teardown() has set
//     the teardown bit, every try_acquire() is refused with Acquire::dead (the
//     caller is told, nothing is touched). It also refuses with Acquire::overflow
//     when the count is at max_count(): the count never wraps and never carries
//     into the teardown bit.
//   * No use after free: a successful try_acquire() gives a reference; the resource
//     is destroyed only after every reference taken before teardown was released,
//     and every use made under a reference happens-before the destroy.
//   * Exactly once: shutdown() destroys the resource once (a second destroy is a
//     checked error); the destructor shuts down if the owner never did.
//   * No lost wake-up, no hang: the owner parks only while references are held;
//     the release that leaves exactly the teardown bit (the last reference after
//     teardown) unparks it, under the park mutex, and the owner re-checks its
//     condition under that mutex in a loop, so neither an unpark that comes before
//     the wait nor a spurious wake-up can make it sleep forever or leave early.
//   * The release that unparks the owner touches nothing of the object after it
//     unlocks the park mutex: the owner may free the object (mutex included) as
//     soon as shutdown() returns. That is why the owner waits for `drained_`, set
//     by that release under the mutex, and not merely for the word to read
//     "teardown, count 0" (the count reaches 0 *before* the releaser unparks).
//
// Design — the word (64 bits, alone on its cache line)
//     bit  63      teardown. 0 = open: references can be taken. Set once, by the
//                  owner's CAS in request_teardown(); never cleared.
//     bits 0..62   count: references held now (successful try_acquire() calls not
//                  yet released). 0 <= count <= max_count() <= 2^63 - 1.
//   Values: (0, c) open with c holders; (1, c>0) draining; (1, 0) drained.
//   try_acquire: CAS word -> word + 1, only from a value with bit 63 clear and
//                count < max_count (re-read and retry if another thread changed
//                the word in between; the test and the increment are one CAS).
//   release:     fetch_sub 1. The one release whose old value is exactly
//                teardown|1 is the last reference after teardown: it unparks.
//   request_teardown (owner): CAS word -> word | teardown; returns the count then.
//                If it was 0 nobody holds a reference and nobody can take one:
//                the owner destroys at once without parking. Otherwise exactly one
//                later release makes the word exactly `teardown` and unparks.
//   finish_shutdown (owner): park (mutex + condition variable, re-check loop on
//                `drained_`) if references were held at teardown, then destroy.
//   shutdown() = request_teardown() + finish_shutdown(); the split exists so the
//   owner can do work between the two (DeliQueue: drop or deliver the queue) and
//   so sequential tests can step through it without blocking.
//
// Memory
//   The object is 64-byte aligned. The word (written by every user) sits alone on
//   the first 64-byte line. From the second line on: max_count and the resource
//   pointer (read-only after construction), then the owner's park state (mutex,
//   condition variable, drained flag) and its own bookkeeping, written by users
//   only in the one unparking release — 192 bytes in all with StdSync (std::mutex
//   and std::condition_variable are 40 + 48 bytes). Plus the resource, owned
//   through a pointer (made by Sync::create, destroyed with Sync::destroy).
//
// Cost
//   try_acquire: one load + one CAS (uncontended); refused: one load.
//   release: one RMW; the unparking release additionally locks the park mutex,
//   sets a flag, notifies and unlocks — once per shutdown.
//   shutdown: one CAS, at most one park, one destroy.
//   Counts are bumped with compare_exchange_strong: identical code to weak on
//   x86-64, and it keeps Relacy's exhaustive search free of spurious failures.
//
// Progress
//   try_acquire is lock-free (a retry means another thread's CAS or RMW on the word
//   succeeded) and never waits for the owner. release is wait-free except for the
//   one unparking release, which takes the park mutex (held by the owner only
//   around its re-check). shutdown blocks, by design, until every reference is
//   released; it never spins while it waits.
//
// Wiring into DeliQueue (not done here; the queue is built separately)
//   The queue owns a RefcountedShutdown over the Looper's native resource (the
//   eventfd that wakes it: NativeResource is a ready stand-in). Every non-Looper
//   use of it — an enqueuer waking the Looper — runs under a Guard; `dead` means
//   the queue has quit, and the post reports failure to its caller. quit: after
//   the sentinel is pushed the Looper calls request_teardown() (no new uses),
//   applies the quit rules to what is queued, then finish_shutdown().
//
// Misuse that is checked (Sync::check: abort in production, a failure in models):
//   release() without a matching successful try_acquire() (count underflow),
//   request_teardown() twice, destroying the resource twice.
#pragma once

#include <cstdint>
#include <utility>

#include "structures/shutdown/shutdown_faults.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck {

namespace shutdown_detail {
// A marked point where a stress policy may inject noise (a yield or a short
// spin) to widen race windows. Compiled out unless the policy has noise().
template <class Sync>
inline void noise() {
  if constexpr (requires { Sync::noise(); }) Sync::noise();
}
}  // namespace shutdown_detail

// What try_acquire() says.
enum class Acquire {
  acquired,  // the caller holds a reference: use resource(), then release() once
  dead,      // teardown has begun: the resource is gone or going; nothing was taken
  overflow,  // the count is at max_count(): nothing was taken; try again later
};

template <class Resource, class Sync = StdSync, ShutdownFault Fault = ShutdownFault::none>
class RefcountedShutdown {
 public:
  static constexpr std::uint64_t kTeardown = std::uint64_t{1} << 63;  // bit 63
  static constexpr std::uint64_t kCountMask = kTeardown - 1;          // bits 0..62
  static constexpr std::uint64_t kMaxCount = kCountMask;              // 2^63 - 1

  // Creates the resource (Sync::create<Resource>()). max_count bounds the count
  // (default: all 63 bits); tests pass a small limit to make overflow reachable.
  explicit RefcountedShutdown(std::uint64_t max_count = kMaxCount)
      : RefcountedShutdown(Sync::template create<Resource>(), max_count) {}

  // Adopts `resource`, which must have been made with Sync::create<Resource>().
  RefcountedShutdown(Resource* resource, std::uint64_t max_count)
      : max_count_(max_count), resource_(resource) {
    Sync::check(max_count >= 1 && max_count <= kMaxCount, "max_count must be in [1, 2^63-1]");
    Sync::check(resource != nullptr, "RefcountedShutdown needs a resource");
  }

  // Shuts down if the owner did not (waiting for any reference still held).
  ~RefcountedShutdown() {
    if (destroyed_.load()) return;
    // Relaxed: the destructor runs in the owner, after everything it must see.
    if (!(word_.load(std::memory_order_relaxed) & kTeardown)) request_teardown();
    finish_shutdown();
  }

  RefcountedShutdown(const RefcountedShutdown&) = delete;
  RefcountedShutdown& operator=(const RefcountedShutdown&) = delete;

  // ---- users ----------------------------------------------------------------

  // Takes a reference unless teardown has begun (dead) or the count is at its
  // limit (overflow). On `acquired` the caller must call release() exactly once.
  Acquire try_acquire() {
    typename Sync::operation op("try_acquire");
    if constexpr (Fault == ShutdownFault::check_then_increment) {
      // FAULT: the test and the increment are two operations; teardown can be set,
      // and the resource destroyed, between them.
      const std::uint64_t w = word_.load(std::memory_order_acquire);
      if (w & kTeardown) return Acquire::dead;
      if ((w & kCountMask) >= max_count_) return Acquire::overflow;
      shutdown_detail::noise<Sync>();
      word_.fetch_add(1, std::memory_order_acquire);
      return Acquire::acquired;
    } else {
      // Relaxed: only the first guess for the CAS, which re-reads on failure.
      std::uint64_t w = word_.load(std::memory_order_relaxed);
      for (;;) {
        if (w & kTeardown) return Acquire::dead;  // nothing is read after: no order needed
        std::uint64_t next = w + 1;               // cannot carry: count < max_count <= 2^63-1
        if ((w & kCountMask) >= max_count_) {
          if constexpr (Fault == ShutdownFault::overflow_wraps)
            next = w & kTeardown;  // FAULT: the count wraps to 0
          else
            return Acquire::overflow;
        }
        // Success acquire: pairs with the release decrements of earlier holders
        // (release sequence on the word), so this holder sees what they did to the
        // resource. Lifetime safety does not rest on it: that is release()'s
        // release paired with the owner's acquire. Failure relaxed: we retry.
        if (word_.compare_exchange_strong(w, next, std::memory_order_acquire,
                                          std::memory_order_relaxed))
          return Acquire::acquired;
        if constexpr (Fault == ShutdownFault::acquire_gives_up)
          return Acquire::dead;  // FAULT: another thread's acquire or release taken for teardown
        Sync::spin_hint();
      }
    }
  }

  // Gives back a reference. Returns true if this was the last reference after
  // teardown, i.e. this call unparked the owner (exactly one release per shutdown
  // does, unless no reference was held at teardown). After its decrement a release
  // touches the object only if it is that last one, and then only until it unlocks
  // the park mutex.
  bool release() {
    typename Sync::operation op("release");
    constexpr std::memory_order dec_order = Fault == ShutdownFault::relaxed_release
                                                ? std::memory_order_relaxed  // FAULT
                                                : std::memory_order_release;
    // Release: pairs with the owner's acquire — its teardown CAS when it finds the
    // count already 0, or its load after waking — through the release sequence of
    // the word, so every use made under this reference happens-before the destroy.
    const std::uint64_t prev = word_.fetch_sub(1, dec_order);
    Sync::check((prev & kCountMask) != 0, "release() without a matching try_acquire()");
    shutdown_detail::noise<Sync>();
    if constexpr (Fault == ShutdownFault::touch_after_last_release) {
      // FAULT: asks the word whether it was the last one — after its decrement let
      // the owner finish and free the object.
      if (word_.load(std::memory_order_acquire) != kTeardown) return false;
      unpark();
      return true;
    } else {
      constexpr std::uint64_t last = Fault == ShutdownFault::unpark_off_by_one
                                         ? kTeardown + 2  // FAULT: one reference still out
                                         : kTeardown + 1;
      if (prev != last) return false;  // not the last after teardown: touch nothing more
      unpark();
      return true;
    }
  }

  // The resource. Only for a caller holding a reference (between a successful
  // try_acquire() and its release()), or for the owner before teardown.
  Resource& resource() const { return *resource_; }

  // Teardown has begun (a hint: try_acquire() is the authoritative test).
  bool dead() const {
    // Relaxed: nothing is read on the strength of this answer.
    return (word_.load(std::memory_order_relaxed) & kTeardown) != 0;
  }

  std::uint64_t max_count() const { return max_count_; }

  // RAII reference: tries to acquire on construction, releases on destruction.
  class Guard {
   public:
    explicit Guard(RefcountedShutdown& s) : s_(&s), status_(s.try_acquire()) {
      held_ = status_ == Acquire::acquired;
    }
    Guard(Guard&& other) noexcept : s_(other.s_), status_(other.status_), held_(other.held_) {
      other.held_ = false;
    }
    Guard& operator=(Guard&& other) noexcept {
      if (this != &other) {
        reset();
        s_ = other.s_;
        status_ = other.status_;
        held_ = std::exchange(other.held_, false);
      }
      return *this;
    }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    ~Guard() { reset(); }

    explicit operator bool() const { return held_; }
    Acquire status() const { return status_; }  // what try_acquire() said
    Resource& operator*() const { return s_->resource(); }
    Resource* operator->() const { return &s_->resource(); }

    // Releases early; returns release()'s answer (false if nothing was held).
    bool reset() {
      if (!held_) return false;
      held_ = false;
      return s_->release();
    }

   private:
    RefcountedShutdown* s_;
    Acquire status_;
    bool held_ = false;
  };

  Guard guard() { return Guard(*this); }

  // ---- the owner (one thread) -------------------------------------------------

  // Sets the teardown bit: from now on every try_acquire() is refused. Returns the
  // number of references held at that instant (0: finish_shutdown() will not park).
  std::uint64_t request_teardown() {
    typename Sync::operation op("request_teardown");
    // Relaxed: only the first guess for the CAS.
    std::uint64_t w = word_.load(std::memory_order_relaxed);
    for (;;) {
      Sync::check(!(w & kTeardown), "request_teardown() called twice");
      // Success acquire: pairs with the release decrement of every holder that has
      // already left (release sequence on the word): if the count read here is 0,
      // all their uses happen-before the destroy that follows. Failure relaxed.
      if (word_.compare_exchange_strong(w, w | kTeardown, std::memory_order_acquire,
                                        std::memory_order_relaxed))
        break;
      Sync::spin_hint();
    }
    held_at_teardown_.store(w & kCountMask);
    shutdown_detail::noise<Sync>();
    return w & kCountMask;
  }

  // After request_teardown(): parks until the last reference is released (if any
  // was held at teardown), then destroys the resource.
  void finish_shutdown() {
    typename Sync::operation op("finish_shutdown");
    // Relaxed: the owner reads back its own teardown bit.
    Sync::check((word_.load(std::memory_order_relaxed) & kTeardown) != 0,
                "finish_shutdown() before request_teardown()");
    if (held_at_teardown_.load() != 0) park_until_drained();
    destroy_resource();
  }

  // The owner's whole shutdown: teardown, wait for the holders, destroy once.
  void shutdown() {
    request_teardown();
    finish_shutdown();
  }

  // ---- tests ----------------------------------------------------------------

  // The word, for tests at quiescent points.
  std::uint64_t word_quiescent() const { return word_.load(std::memory_order_relaxed); }
  bool resource_destroyed() const { return destroyed_.load(); }  // owner / quiescent
  // References held when teardown was set, and whether the last of them has
  // unparked the owner (finish_shutdown() would not block). Owner / quiescent.
  std::uint64_t held_at_teardown() const { return held_at_teardown_.load(); }
  bool owner_unparked() const { return drained_.load(); }

  // Quiescent check (no operation in flight): nullptr if consistent.
  const char* check_invariants() const {
    // Relaxed: the caller guarantees quiescence.
    const std::uint64_t w = word_.load(std::memory_order_relaxed);
    const std::uint64_t count = w & kCountMask;
    if (count > max_count_) return "count above max_count";
    if (destroyed_.load()) {
      if (w != kTeardown) return "resource destroyed but the word is not exactly teardown";
      if (held_at_teardown_.load() != 0 && !drained_.load())
        return "resource destroyed before the last holder unparked the owner";
    }
    if (drained_.load() && w != kTeardown) return "owner unparked while references are held";
    return nullptr;
  }

 private:
  // The last release after teardown: set the flag the owner waits for, and wake
  // it, under the park mutex. Nothing of *this is touched after the unlock.
  void unpark() {
    park_mutex_.lock();
    drained_.store(true);
    park_cv_.notify_one();
    park_mutex_.unlock();
  }

  void park_until_drained() {
    if constexpr (Fault == ShutdownFault::park_no_recheck) {
      // FAULT: the test is outside the mutex and the wait is not re-checked: an
      // unpark between the test and the wait is lost; a spurious wake-up ends it.
      if (word_.load(std::memory_order_acquire) != kTeardown) {
        shutdown_detail::noise<Sync>();
        park_mutex_.lock();
        park_cv_.wait(park_mutex_);
        park_mutex_.unlock();
      }
    } else {
      park_mutex_.lock();
      // Re-check under the mutex, in a loop: an unpark before the wait has already
      // set drained_ (no lost wake-up), a spurious wake-up waits again.
      while (!drained_.load()) park_cv_.wait(park_mutex_);
      park_mutex_.unlock();
    }
    // Acquire: pairs with the release decrement of every holder. The mutex orders
    // the last decrement before this load, so it reads that decrement's value
    // (teardown, count 0), which lies in the release sequence of every earlier
    // decrement: all uses happen-before the destroy.
    (void)word_.load(std::memory_order_acquire);
  }

  void destroy_resource() {
    Sync::check(!destroyed_.load(), "resource destroyed twice");
    destroyed_.store(true);
    Sync::destroy(resource_);
  }

  // Line 1: the word, written by every user.
  alignas(64) typename Sync::template atomic<std::uint64_t> word_{0};
  // Line 2: read-only after construction, and the owner's park state.
  alignas(64) const std::uint64_t max_count_;
  Resource* const resource_;
  typename Sync::mutex park_mutex_;
  typename Sync::condvar park_cv_;
  typename Sync::template cell<bool> drained_{false};                  // guarded by park_mutex_
  typename Sync::template cell<std::uint64_t> held_at_teardown_{0};    // owner only
  typename Sync::template cell<bool> destroyed_{false};                // owner only
};

}  // namespace lfcheck
