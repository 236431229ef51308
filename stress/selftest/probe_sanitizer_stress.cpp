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
  static void run(StressRun& run) {
    // Relaxed on purpose: nothing orders thread 0's write of the block before
    // thread 1's free of it (the race TSan reports, through the library's frame).
    std::atomic<int*> block{nullptr};
    run.run_rounds(
        [&](unsigned t, auto&) {
          if (t == 0) {
            if (block.load(std::memory_order_relaxed)) return;
            int* p = static_cast<int*>(std::malloc(sizeof(int)));
            *p = 1;
            block.store(p, std::memory_order_relaxed);
          } else if (int* p = block.exchange(nullptr, std::memory_order_relaxed)) {
            lfcheck_probe_free_in_library(p);
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
