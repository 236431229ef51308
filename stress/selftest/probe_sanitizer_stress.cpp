// The probe workloads the sanitizer builds of lfcheck-stress-probes run, as the plain
// build does (tests/stress_runner_truth.sh); the plain build links probe_stress.cpp and
// probe_lin_stale.cpp besides (stress/CMakeLists.txt):
//   probe_leak  leaks one allocation (an unreachable block, once per run): under
//               ASan the LeakSanitizer report must fail the run in its JSON and
//               JUnit, with its replay line, as the exit status says;
//   probe_hang  thread 0's third operation never returns, the others finish their
//               round and wait: the runner's HANG report shows where each thread
//               was, in its table and in the JSON's thread_positions (issue 30); under
//               TSan, with no report of the runner's own;
//   probe_uninstrumented  thread 1 frees, through a shared object built without
//               any sanitizer, a block thread 0 wrote without synchronizing: under
//               TSan the report's stack passes through that object, and the verdict
//               and the JSON say so ("uninstrumented") (issue 30).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <thread>

#include "harness/stress_registry.hpp"
#include "stress/selftest/probe_faults.hpp"

// stress/selftest/probe_uninstrumented_lib.cpp, built without sanitizers.
extern "C" void lfcheck_probe_free_in_library(void* p);

LFCHECK_PROBE_WITHOUT_FAULTS(ProbeLeakFault, "probe_leak");
LFCHECK_PROBE_WITHOUT_FAULTS(ProbeHangFault, "probe_hang");
LFCHECK_PROBE_WITHOUT_FAULTS(ProbeUninstrumentedFault, "probe_uninstrumented");

namespace lfcheck {

namespace probe_stress {

template <ProbeLeakFault F>
struct Leak {
  static constexpr const char* name = "leaks_once";
  static constexpr const char* description = "leaks one block in its first operation (runner self-test)";
  static void run(StressRun& run) {
    // Relaxed: only which thread leaks is decided here; nothing is published.
    std::atomic<bool> leaked{false};
    run.run_rounds(
        [&](unsigned, auto&) {
          if (leaked.exchange(true, std::memory_order_relaxed)) return;
          auto* block = new std::uint64_t[37];
          block[0] = 42;
          asm volatile("" : : "r"(block) : "memory");  // the allocation happens; the pointer is dropped
        },
        [] {});
  }
};

template <ProbeHangFault F>
struct Hang {
  static constexpr const char* name = "one_thread_stuck";
  static constexpr const char* description =
      "thread 0's third operation never returns; the others finish their round (runner self-test)";
  static void run(StressRun& run) {
    std::atomic<unsigned> calls{0};  // thread 0's operations (relaxed: its own counter)
    run.run_rounds(
        [&](unsigned t, auto&) {
          if (t != 0) return run.describe(t, "quick", 1, 0);
          if (calls.fetch_add(1, std::memory_order_relaxed) != 2) return run.describe(t, "quick", 1, 0);
          run.describe(t, "wait_forever", 7, 0);
          for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));  // the runner's watchdog ends the process
        },
        [] {}, /*round_ops=*/8);
  }
};

template <ProbeUninstrumentedFault F>
struct FreeInLibrary {
  static constexpr const char* name = "free_in_library";
  static constexpr const char* description =
      "one thread frees, through a library built without sanitizers, a block another wrote (runner self-test)";
  // Once per run, within one operation of each of threads 0 and 1: thread 1 says it is
  // running, thread 0 then writes a block and hands it over, thread 1 frees it. Nothing
  // orders the write before the free: every flag is relaxed and neither thread passes
  // a lock or the round's end in between, so TSan reports the race every run. (Before,
  // thread 1 could first see the block after a lock thread 0 had released since its
  // write, say the round's end when thread 1 started late: that ordered the two, and the
  // race was reported in 3 to 5 runs of 10 on a loaded machine.)
  static void run(StressRun& run) {
    std::atomic<bool> free_thread_running{false};  // relaxed: a flag only; ordering nothing on purpose
    std::atomic<int*> block{nullptr};              // relaxed on purpose: the unordered hand-over
    std::atomic<bool> done{false};                 // relaxed: each thread's own "once"
    const bool pair = run.options().threads >= 2;
    run.run_rounds(
        [&](unsigned t, auto&) {
          if (!pair || t > 1) return;
          if (t == 1) {
            if (done.load(std::memory_order_relaxed)) return;
            free_thread_running.store(true, std::memory_order_relaxed);
            int* p = nullptr;
            while (!(p = block.load(std::memory_order_relaxed))) std::this_thread::yield();
            done.store(true, std::memory_order_relaxed);
            lfcheck_probe_free_in_library(p);
          } else if (!block.load(std::memory_order_relaxed)) {
            while (!free_thread_running.load(std::memory_order_relaxed)) std::this_thread::yield();
            int* p = static_cast<int*>(std::malloc(sizeof(int)));
            *p = 1;
            block.store(p, std::memory_order_relaxed);
          }
        },
        [] {});
  }
};

LFCHECK_STRESS(ProbeLeakFault, Leak);
LFCHECK_STRESS(ProbeHangFault, Hang);
LFCHECK_STRESS(ProbeUninstrumentedFault, FreeInLibrary);

}  // namespace probe_stress
}  // namespace lfcheck
