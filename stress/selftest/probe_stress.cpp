// Probe workloads for the stress runner's own tests: linked with harness/stress/main.cpp
// into lfcheck-stress-probes (plain, and in the TSan and ASan+UBSan sub-builds),
// never into lfcheck-stress. Each makes a claim of the runner checkable from outside
// (tests/stress_runner_truth.sh):
//   probe_idle  a workload that never calls run_rounds: 0 operations ran, so the
//               run checked nothing — an error (exit 2), never a pass;
//   probe_leak  leaks one allocation (an unreachable block, once per run): under
//               ASan the LeakSanitizer report must fail the run in its JSON and
//               JUnit, with its replay line, as the exit status says;
//   probe_slow  operations of 20 ms in rounds of 1024 (a round: 20 s): --duration 1
//               must end within about a second of its budget (rounds end at the
//               deadline), reporting the operations really done and real seconds;
//   probe_crash every thread takes SIGSEGV at the same moment (plain build: the
//               runner's own handler): one verdict is written whole — the JSON
//               says "crash (signal)" — however many threads die at once.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include <csignal>

#include "harness/stress_registry.hpp"

namespace lfcheck {

enum class ProbeIdleFault { none };
enum class ProbeLeakFault { none };
enum class ProbeSlowFault { none };
enum class ProbeCrashFault { none };

template <>
struct FaultTraits<ProbeIdleFault> {
  static constexpr const char* mechanism = "probe_idle";
  static constexpr FaultInfo<ProbeIdleFault> catalogue[] = {
      {ProbeIdleFault::none, "probe_idle.none", "(no faults: a runner self-test)", "", "stress"}};
};
template <>
struct FaultTraits<ProbeLeakFault> {
  static constexpr const char* mechanism = "probe_leak";
  static constexpr FaultInfo<ProbeLeakFault> catalogue[] = {
      {ProbeLeakFault::none, "probe_leak.none", "(no faults: a runner self-test)", "", "stress"}};
};

template <>
struct FaultTraits<ProbeSlowFault> {
  static constexpr const char* mechanism = "probe_slow";
  static constexpr FaultInfo<ProbeSlowFault> catalogue[] = {
      {ProbeSlowFault::none, "probe_slow.none", "(no faults: a runner self-test)", "", "stress"}};
};

template <>
struct FaultTraits<ProbeCrashFault> {
  static constexpr const char* mechanism = "probe_crash";
  static constexpr FaultInfo<ProbeCrashFault> catalogue[] = {
      {ProbeCrashFault::none, "probe_crash.none", "(no faults: a runner self-test)", "", "stress"}};
};

namespace probe_stress {

template <ProbeIdleFault F>
struct Idle {
  static constexpr const char* name = "does_nothing";
  static constexpr const char* description = "returns without running a round (runner self-test)";
  static void run(StressRun&) {}
};

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

template <ProbeSlowFault F>
struct Slow {
  static constexpr const char* name = "slow_rounds";
  static constexpr const char* description = "20 ms operations, 1024 per round (runner self-test)";
  static void run(StressRun& run) {
    run.run_rounds([](unsigned, auto&) { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }, [] {},
                   /*round_ops=*/1024);
  }
};

template <ProbeCrashFault F>
struct Crash {
  static constexpr const char* name = "all_threads_crash";
  static constexpr const char* description = "every thread raises SIGSEGV at once in its first operation (runner self-test)";
  static void run(StressRun& run) {
    const unsigned n = run.options().threads;
    std::atomic<unsigned> arrived{0};
    run.run_rounds(
        [&](unsigned, auto&) {
          // acq_rel / acquire: only a start line (every thread arrives, then all raise);
          // nothing is published.
          arrived.fetch_add(1, std::memory_order_acq_rel);
          while (arrived.load(std::memory_order_acquire) < n) {
          }
          std::raise(SIGSEGV);
        },
        [] {});
  }
};

LFCHECK_STRESS(ProbeIdleFault, Idle);
LFCHECK_STRESS(ProbeCrashFault, Crash);
LFCHECK_STRESS(ProbeSlowFault, Slow);
LFCHECK_STRESS(ProbeLeakFault, Leak);

}  // namespace probe_stress
}  // namespace lfcheck
