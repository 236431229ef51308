// LockedMessageQueue — the legacy MessageQueue, the baseline DeliQueue is
// compared against (tests and benchmarks): one mutex, one sorted singly linked
// list ordered by (when, insertSeq); insert is O(N) under the lock.
//
// Same API and same delivery rules as DeliQueue (deliqueue.hpp): FIFO among
// equal when (insertSeq counts up), post-at-front LIFO (counts down), only
// async messages pass a sync barrier at the head, quit(safe) semantics. Unlike
// DeliQueue every method may be called from any thread (all take the lock),
// but next()/poll() are meant for one Looper. Every atomic operation on a
// message here is relaxed: the one mutex orders all of them.
//
// Wake-ups as Android's legacy queue does them: the Looper records that it is
// blocked (mBlocked) while it waits; a post wakes it only when the Looper is
// blocked and the new message is the one it would deliver next (needWake), quit
// always, a barrier removal when the Looper is blocked. A wake is nativeWake's
// eventfd write (a NativeResource, as DeliQueue's wake does; StdSync builds
// only) plus a notify of the condition variable the Looper waits on — so the
// benchmarks compare both queues with the same per-wake system call.
#pragma once

#include <cstdint>

#include "structures/deliqueue/deliqueue.hpp"
#include "structures/deliqueue/message.hpp"
#include "structures/shutdown/native_resource.hpp"
#include "sync/clock.hpp"
#include "sync/deadline.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck {

template <class Sync = StdSync, class Clock = SteadyClock>
class LockedMessageQueue {
 public:
  using Msg = Message<Sync>;

  LockedMessageQueue() = default;
  ~LockedMessageQueue() {
    for (Msg* m = head_; m;) {
      Msg* n = link(m);
      if (m->is_barrier()) Sync::destroy(m);
      m = n;
    }
  }
  LockedMessageQueue(const LockedMessageQueue&) = delete;
  LockedMessageQueue& operator=(const LockedMessageQueue&) = delete;

  Clock& clock() { return clock_; }
  std::int64_t now() const { return clock_.now(); }
  // Wakes so far, each a nativeWake: a post or barrier removal a blocked Looper
  // must see, and quit; a statistic for tests.
  std::uint64_t wakeups() {
    mutex_.lock();
    const std::uint64_t n = wakeups_;
    mutex_.unlock();
    return n;
  }

  bool enqueue(Msg* m, std::int64_t when) { return insert(m, when, 0); }
  bool enqueue_at_front(Msg* m) { return insert(m, kWhenFront, msg_flags::front); }

  std::uint64_t post_sync_barrier() { return post_sync_barrier_at(clock_.now()); }
  std::uint64_t post_sync_barrier_at(std::int64_t when) {
    Msg* b = Sync::template create<Msg>();
    b->flags.store(msg_flags::barrier, std::memory_order_relaxed);  // not shared yet
    mutex_.lock();
    const std::uint64_t token = ++tokens_;
    mutex_.unlock();
    b->arg.store(static_cast<std::int64_t>(token));
    if (!insert(b, when, msg_flags::barrier)) {
      Sync::destroy(b);
      return 0;
    }
    return token;
  }

  bool quit(bool safe) {
    mutex_.lock();
    if (quitting_) {
      mutex_.unlock();
      return false;
    }
    // Like DeliQueue, what quit drops is dropped by the Looper's next call.
    quitting_ = true;
    quit_safe_ = safe;
    quit_when_ = clock_.now();
    wake_locked();  // Android's quit always wakes
    mutex_.unlock();
    return true;
  }

  void advance_clock(std::int64_t t) {
    static_assert(Clock::is_virtual, "advance_clock needs a virtual clock");
    mutex_.lock();
    clock_.set(t);
    cv_.notify_one();
    mutex_.unlock();
  }

  Msg* next() { return next_until(kNever); }
  Msg* poll() { return next_until(std::numeric_limits<std::int64_t>::min()); }
  Msg* next_until(std::int64_t give_up_at) {
    mutex_.lock();
    for (;;) {
      const std::int64_t now = clock_.now();
      if (quitting_ && !quit_processed_) {
        // Drop everything (!safe) or what is due after the time of quit.
        for (Msg *before = nullptr, *m = head_; m;) {
          Msg* n = link(m);
          if (!quit_safe_ || m->when.load() > quit_when_) {
            unlink_after(before, m);
            drop(m);
          } else {
            before = m;
          }
          m = n;
        }
        quit_processed_ = true;
      }
      Msg* prev = nullptr;
      Msg* m = candidate(prev);
      if (m && m->when.load() <= now) {
        unlink_after(prev, m);
        m->flags.store(m->flags.load(std::memory_order_relaxed) & ~(msg_flags::in_use | msg_flags::front),
                       std::memory_order_relaxed);
        mutex_.unlock();
        return m;
      }
      if (quitting_) {
        while (head_) {
          Msg* m = head_;
          head_ = link(m);
          drop(m);
        }
        mutex_.unlock();
        return nullptr;
      }
      if (now >= give_up_at) {
        mutex_.unlock();
        return nullptr;
      }
      std::int64_t until = m ? m->when.load() : kNever;
      if (give_up_at < until) until = give_up_at;
      blocked_ = true;  // mBlocked: posts from here on decide whether to wake us
      if (until == kNever || Clock::is_virtual) cv_.wait(mutex_);
      else cv_.wait_for_ns(mutex_, ns_until(until, now));  // saturating: any when is legal
      blocked_ = false;
    }
  }

  Msg* peek() {
    mutex_.lock();
    Msg* prev = nullptr;
    Msg* m = candidate(prev);
    mutex_.unlock();
    return m;
  }
  bool is_idle() {
    mutex_.lock();
    Msg* prev = nullptr;
    Msg* m = candidate(prev);
    const bool idle = !m || m->when.load() > clock_.now();
    mutex_.unlock();
    return idle;
  }

  [[nodiscard]] BarrierRemoval remove_sync_barrier(std::uint64_t token) {
    mutex_.lock();
    for (Msg *prev = nullptr, *m = head_; m; prev = m, m = link(m)) {
      if (m->is_barrier() && static_cast<std::uint64_t>(m->arg.load()) == token) {
        unlink_after(prev, m);
        Sync::destroy(m);
        if (blocked_) wake_locked();  // sync messages behind it may be due
        mutex_.unlock();
        return BarrierRemoval::removed;
      }
    }
    mutex_.unlock();
    return BarrierRemoval::unknown_token;
  }

  Msg* take_discarded() {
    mutex_.lock();
    Msg* d = discarded_;
    discarded_ = nullptr;
    mutex_.unlock();
    return d;
  }

  const char* check_invariants() {
    mutex_.lock();
    const char* err = nullptr;
    for (Msg* m = head_; m && !err; m = link(m)) {
      Msg* n = link(m);
      if (!m->in_use()) err = "queued message not marked in use";
      if (n && compare_keys(m->when.load(), m->insert_seq.load(), n->when.load(), n->insert_seq.load()) >= 0)
        err = "list not sorted by (when, insertSeq)";
    }
    mutex_.unlock();
    return err;
  }

 private:
  // The list link is the message's stack link; relaxed: the mutex orders everything.
  static Msg* link(Msg* m) { return m->next.load(std::memory_order_relaxed); }
  void unlink_after(Msg* prev, Msg* m) {
    if (prev) prev->next.store(link(m), std::memory_order_relaxed);
    else head_ = link(m);
    m->next.store(nullptr, std::memory_order_relaxed);
  }

  bool insert(Msg* m, std::int64_t when, std::uint32_t extra) {
    const std::uint32_t f = m->flags.load(std::memory_order_relaxed);
    Sync::check(!(f & msg_flags::in_use), "enqueue of a message that is already queued");
    mutex_.lock();
    if (quitting_) {
      mutex_.unlock();
      return false;
    }
    m->when.store(when);
    m->flags.store(f | msg_flags::in_use | extra, std::memory_order_relaxed);
    m->insert_seq.store((extra & msg_flags::front) ? --front_seq_ : ++seq_);
    // O(N): walk to the first message that sorts after m.
    Msg* prev = nullptr;
    Msg* cur = head_;
    while (cur && compare_keys(cur->when.load(), cur->insert_seq.load(), when, m->insert_seq.load()) < 0) {
      prev = cur;
      cur = link(cur);
    }
    m->next.store(cur, std::memory_order_relaxed);
    if (prev) prev->next.store(m, std::memory_order_relaxed);
    else head_ = m;
    // needWake: only a blocked Looper whose next delivery is now m (a new head, or
    // the first async message behind a barrier) must wake; any other post leaves
    // its deadline and its candidate as they were.
    if (blocked_) {
      Msg* before = nullptr;
      if (candidate(before) == m) wake_locked();
    }
    mutex_.unlock();
    return true;
  }

  // Under mutex_: nativeWake (the eventfd write) and the notify the Looper's wait
  // ends on.
  void wake_locked() {
    ++wakeups_;
    Sync::check(native_.use(), "LockedMessageQueue: the wake resource failed");
    cv_.notify_one();
  }

  void drop(Msg* m) {
    if (m->is_barrier()) {
      Sync::destroy(m);
      return;
    }
    m->flags.store(m->flags.load(std::memory_order_relaxed) & ~(msg_flags::in_use | msg_flags::front),
                   std::memory_order_relaxed);
    m->free_next.store(discarded_, std::memory_order_relaxed);
    discarded_ = m;
  }

  // The message next() would deliver (due or not) and its predecessor: the head,
  // or, when a barrier is at the head, the first async message behind it.
  Msg* candidate(Msg*& prev) {
    prev = nullptr;
    Msg* m = head_;
    if (!m || !m->is_barrier()) return m;
    while (m && !m->is_async()) {
      prev = m;
      m = link(m);
    }
    return m;
  }

  typename Sync::mutex mutex_;
  typename Sync::condvar cv_;
  NativeResource<Sync, 1> native_;  // nativeWake's eventfd (StdSync), used under mutex_
  Clock clock_;
  Msg* head_ = nullptr;  // guarded by mutex_
  std::int64_t seq_ = 0, front_seq_ = 0;
  std::uint64_t tokens_ = 0;
  bool quitting_ = false, quit_safe_ = false, quit_processed_ = false;
  bool blocked_ = false;  // the Looper waits on cv_ (Android's mBlocked)
  std::uint64_t wakeups_ = 0;
  std::int64_t quit_when_ = 0;
  Msg* discarded_ = nullptr;
};

}  // namespace lfcheck
