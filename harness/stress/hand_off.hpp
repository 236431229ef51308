// HandOff: a counter one thread publishes and others sleep on until it says what
// they wait for: the litmus runner's start line and finish count
// (harness/stress/litmus_registry.hpp). A mutex and a condition variable, no spin.
//
// Why no spin: the hand-offs spun on std::this_thread::yield before, and on a busy
// machine (ctest -j2 on 2 cores runs another test beside) every yield hands the
// core to another busy process for its whole time slice, at every hand-off.
// treiber's 7 litmus workloads, 1,000 executions each under TSan, beside two busy
// loops on 2 cores (lfcheck-stress-treiber treiber --workload 'litmus.*' --ops
// 100000 --seed 1): spinning on yield 47-65 s of wall for 0.5-2.2 CPU-s;
// std::atomic::wait (libstdc++: 12 pauses, 4 yields, then a futex) 48-72 s; 100
// pauses then this sleep 1.1-2.4 s; this sleep alone 0.7-1.3 s. With no other
// process running, all of them take about a second.
//
// The mutex orders what the publisher wrote before publish() before what a waiter
// does after wait_until() returns (TSan sees it as such). It adds no order between
// the waiters' work after the start line: a waiter releases the mutex before it
// runs its part of an execution, so no other thread's acquire follows that work.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace lfcheck {

class HandOff {
 public:
  // Sets the counter to f(counter) and wakes every waiter.
  template <class F>
  void publish(F&& f) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      value_ = f(value_);
    }
    wake_.notify_all();
  }

  // Sleeps until done(counter) holds; returns the counter it held at.
  template <class Done>
  std::uint64_t wait_until(Done&& done) {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return done(value_); });
    return value_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  std::uint64_t value_ = 0;  // guarded by mutex_
};

}  // namespace lfcheck
