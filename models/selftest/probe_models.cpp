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
//            file, edited to the correct code, resumes the search off its root;
//   window   with fault probe.read_in_window, fails when thread 1's one read falls
//            between thread 0's 10th and 11th store: a bug of depth 2 (two
//            ordering constraints), which PCT at depth 2 hits with probability
//            about 1/(2k) per execution and never at depth 1 (no change point);
//   endless  two threads of 40 increments each: a tree no search finishes, for
//            --max-seconds ("stopped at budget", never pass) and the progress
//            line of a search with no known total.
#include <cstdio>

#include "harness/model_registry.hpp"

namespace lfcheck {

enum class ProbeFault { none, thread1_first, read_in_window };

template <>
struct FaultTraits<ProbeFault> {
  static constexpr const char* mechanism = "probe";
  static constexpr FaultInfo<ProbeFault> catalogue[] = {
      {ProbeFault::thread1_first, "probe.thread1_first",
       "order's check fails whenever thread 1 claims the flag first", "", "model"},
      {ProbeFault::read_in_window, "probe.read_in_window",
       "window's check fails when thread 1 reads between thread 0's 10th and 11th store", "", "model"},
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

template <class Sync, ProbeFault F>
struct Window : ScenarioBase {
  static constexpr const char* name = "window";
  static constexpr const char* description = "a depth-2 window: one read between two given stores (runner self-test)";
  static constexpr unsigned threads = 2;
  static constexpr int kStores = 20;
  typename Sync::template atomic<int> counter{0};
  int seen = -1;  // thread 1's read, checked in after() (after the join)
  void thread(unsigned i) {
    // seq_cst: the read sees the latest store, so what it sees is a function of the
    // interleaving alone (no weak-memory choice), which is what this probe measures.
    if (i == 0)
      for (int v = 1; v <= kStores; ++v) counter.store(v, std::memory_order_seq_cst);
    else
      seen = counter.load(std::memory_order_seq_cst);
  }
  void after() {
    if constexpr (F == ProbeFault::read_in_window)
      Sync::check(seen != 10, "thread 1 read between thread 0's 10th and 11th store");
  }
};

template <class Sync, ProbeFault F>
struct Endless : ScenarioBase {
  static constexpr const char* name = "endless";
  static constexpr const char* description = "a tree no search finishes (runner self-test)";
  static constexpr unsigned threads = 2;
  static constexpr bool full_search = true;
  typename Sync::template atomic<int> x{0};
  // Relaxed: a counter; only the interleavings matter.
  void thread(unsigned) {
    for (int k = 0; k != 40; ++k) x.fetch_add(1, std::memory_order_relaxed);
  }
};

LFCHECK_MODEL(ProbeFault, Counted);
LFCHECK_MODEL(ProbeFault, Flaky);
LFCHECK_MODEL(ProbeFault, Order);
LFCHECK_MODEL(ProbeFault, Window);
LFCHECK_MODEL(ProbeFault, Endless);

}  // namespace probe_models
}  // namespace lfcheck
