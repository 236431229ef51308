// A spec's per-process and per-thread set-up (specs/spec.hpp, "Hooks"), as every
// layer calls it.
//
//   static void setup();                    once per process, before anything else
//   static void thread_begin(unsigned t);   on a thread the harness started (or its
//   static void thread_end(unsigned t);     driver), before its first call / after its last
//
// All three are optional. Code that must register with a library before it uses a
// container (hazard-pointer or RCU reclamation: attach/detach, rcu_register_thread)
// goes here, instead of a thread_local constructed inside every call.
//
// When each layer calls them:
//   setup()          before the first thread_begin and the first Subject, once per
//                    process (std::call_once), in whichever layer gets there first.
//   worker threads   t = 0 .. threads-1 as in Subject::run(call, t): thread_begin when
//                    the thread starts, before any of its calls; thread_end after its
//                    last call, right before the thread ends. lin.scenarios starts a
//                    new team for every scenario, lin.history one team per run; the
//                    model layer calls them inside each simulated thread of every
//                    execution (under Relacy: each execution is a new start).
//   the driver       t = kDriverThread: the thread that constructs and destroys
//                    Subjects and runs a scenario's prefix and suffix calls (run()
//                    gets thread 0 for those, the owner's place: scenario.hpp), and the
//                    props' single thread; thread_begin before it constructs the first
//                    Subject, thread_end after it destroyed the last one.
// A Subject may also be constructed and destroyed on a worker between rounds
// (lin.history's quiescent point): that thread is registered then too.
#pragma once

#include <mutex>

#include "harness/stress/thread_hooks.hpp"
#include "specs/spec.hpp"

namespace lfcheck::spec {

template <class S>
void setup_once() {
  if constexpr (requires { S::setup(); }) {
    static std::once_flag once;
    std::call_once(once, [] { S::setup(); });
  }
}

template <class S>
void thread_begin(unsigned t) {
  setup_once<S>();
  if constexpr (requires { S::thread_begin(t); }) S::thread_begin(t);
}

template <class S>
void thread_end(unsigned t) {
  if constexpr (requires { S::thread_end(t); }) S::thread_end(t);
}

// The calling thread is thread t of the spec for the scope's lifetime.
template <class S>
class ThreadScope {
 public:
  explicit ThreadScope(unsigned t) : t_(t) { thread_begin<S>(t); }
  ~ThreadScope() { thread_end<S>(t_); }
  ThreadScope(const ThreadScope&) = delete;
  ThreadScope& operator=(const ThreadScope&) = delete;

 private:
  unsigned t_;
};

// What the stress runner calls on the threads it starts for this spec.
template <class S>
ThreadHooks thread_hooks_of() {
  return ThreadHooks{&thread_begin<S>, &thread_end<S>};
}

}  // namespace lfcheck::spec
