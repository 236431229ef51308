// What the stress runner calls on every thread it starts (StressRun::run_rounds,
// run_litmus): begin(t) when thread t starts, before its first operation, and
// end(t) after its last one, right before the thread ends. A workload sets them
// (StressRun::set_thread_hooks) before its threads start; lin's workloads set the
// spec's hooks (harness/lin/spec_hooks.hpp). Null: nothing is called.
#pragma once

namespace lfcheck {

struct ThreadHooks {
  void (*begin)(unsigned thread) = nullptr;
  void (*end)(unsigned thread) = nullptr;
};

// The hooks of thread t for the lifetime of the scope (on the thread itself).
class HookedThread {
 public:
  HookedThread(const ThreadHooks& hooks, unsigned t) : hooks_(hooks), t_(t) {
    if (hooks_.begin) hooks_.begin(t_);
  }
  ~HookedThread() {
    if (hooks_.end) hooks_.end(t_);
  }
  HookedThread(const HookedThread&) = delete;
  HookedThread& operator=(const HookedThread&) = delete;

 private:
  ThreadHooks hooks_;
  unsigned t_;
};

}  // namespace lfcheck
