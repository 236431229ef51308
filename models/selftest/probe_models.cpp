// Probe scenarios for the model runner's own tests: linked with harness/model_main.cpp
// into lfcheck-model-probes (structure "probe"), never into lfcheck-model. Each one
// makes a claim of the runner checkable from outside (tests/model_runner_truth.sh):
//   counted  counts the executions it was built for itself and prints the count at
//            exit ("probe counted: N executions" on stderr): the runner must report
//            exactly what ran;
//   flaky    fails in the first execution of the process only: re-run alone, the
//            failing execution passes — the runner must say NONDETERMINISTIC
//            SCENARIO (exit 1), never pass;
//   order    with fault probe.thread1_first, fails whenever thread 1 wins the race:
//            a deterministic failure part-way through a tree search, whose replay
//            file, edited to the correct code, resumes the search off its root.
#include <cstdio>

#include "harness/model_registry.hpp"

namespace lfcheck {

enum class ProbeFault { none, thread1_first };

template <>
struct FaultTraits<ProbeFault> {
  static constexpr const char* mechanism = "probe";
  static constexpr FaultInfo<ProbeFault> catalogue[] = {
      {ProbeFault::thread1_first, "probe.thread1_first",
       "order's check fails whenever thread 1 claims the flag first", "", "model"},
  };
};

namespace probe_models {

// The probes' own count of executions (harness-side, invisible to Relacy).
struct Witness {
  std::uint64_t counted = 0;
  bool flaky_failed = false;
  ~Witness() {
    if (counted) std::fprintf(stderr, "probe counted: %llu executions\n", static_cast<unsigned long long>(counted));
  }
};
Witness witness;

// Two threads, one relaxed increment each: a small tree (the full search finishes).
template <class Sync, ProbeFault F>
struct Counted : ScenarioBase {
  static constexpr const char* name = "counted";
  static constexpr const char* description = "counts its executions itself (runner self-test)";
  static constexpr unsigned threads = 2;
  static constexpr bool full_search = true;
  typename Sync::template atomic<int> x{0};
  Counted() { ++witness.counted; }
  // Relaxed: a counter; after() runs once both threads finished (Relacy's join).
  void thread(unsigned) { x.fetch_add(1, std::memory_order_relaxed); }
  void after() { Sync::check(x.load(std::memory_order_relaxed) == 2, "an increment was lost"); }
};

template <class Sync, ProbeFault F>
struct Flaky : ScenarioBase {
  static constexpr const char* name = "flaky";
  static constexpr const char* description = "fails in the process's first execution only (runner self-test)";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> x{0};
  void thread(unsigned) { x.store(1, std::memory_order_relaxed); }  // relaxed: nothing reads it
  void after() {
    const bool first = !witness.flaky_failed;
    witness.flaky_failed = true;
    Sync::check(!first, "flaky: the first execution of the process fails");
  }
};

template <class Sync, ProbeFault F>
struct Order : ScenarioBase {
  static constexpr const char* name = "order";
  static constexpr const char* description = "two threads race to claim a flag (runner self-test)";
  static constexpr unsigned threads = 2;
  static constexpr bool full_search = true;
  typename Sync::template atomic<int> winner{0};
  void thread(unsigned i) {
    int expected = 0;
    // Relaxed: only the winner's identity matters, read in after() (after the join).
    winner.compare_exchange_strong(expected, static_cast<int>(i) + 1, std::memory_order_relaxed,
                                   std::memory_order_relaxed);
  }
  void after() {
    if constexpr (F == ProbeFault::thread1_first)
      Sync::check(winner.load(std::memory_order_relaxed) == 1, "thread 1 claimed the flag first");
  }
};

LFCHECK_MODEL(ProbeFault, Counted);
LFCHECK_MODEL(ProbeFault, Flaky);
LFCHECK_MODEL(ProbeFault, Order);

}  // namespace probe_models
}  // namespace lfcheck
