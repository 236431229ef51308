// Probe scenarios for the model runner's own tests: linked with harness/model/main.cpp
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
//            line of a search with no known total;
//   crash_divide    a reader divides by a size a racing resizer can leave at 0:
//                   SIGFPE in scenario code must be the verdict CRASH: SIGFPE (exit 1)
//                   with table, trace, replay and JSON — never a dead checker;
//   crash_unmapped  a reader dereferences a page its racing owner unmapped:
//                   CRASH: SIGSEGV;
//   crash_abort     thread 1 calls abort() when it loses a race: CRASH: SIGABRT.
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>

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

// A growable array's reader with a stale size: the resizer briefly publishes 0.
template <class Sync, ProbeFault F>
struct CrashDivide : ScenarioBase {
  static constexpr const char* name = "crash_divide";
  static constexpr const char* description = "divides by a size a racing thread can leave at 0 (crash probe)";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<unsigned> size{4};
  unsigned slot = 0;  // harness bookkeeping, thread 1 only
  void thread(unsigned i) {
    if (i == 0) {
      // Relaxed: the probe is about the value, not ordering; thread 1's load reads either.
      size.store(0, std::memory_order_relaxed);
      size.store(4, std::memory_order_relaxed);
    } else {
      volatile unsigned n = size.load(std::memory_order_relaxed);  // relaxed: pairs with nothing
      volatile unsigned ticket = 7;
      slot = ticket % n;  // SIGFPE when n == 0
    }
  }
};

// A reader holding a pointer to a page its owner unmaps (no Relacy allocation: a
// real fault, not Relacy's ACCESS TO FREED MEMORY).
template <class Sync, ProbeFault F>
struct CrashUnmapped : ScenarioBase {
  static constexpr const char* name = "crash_unmapped";
  static constexpr const char* description = "dereferences a freed-and-unmapped page (crash probe)";
  static constexpr unsigned threads = 2;
  static constexpr std::size_t kPage = 4096;
  typename Sync::template atomic<int*> page{nullptr};
  typename Sync::template atomic<int> reading{0};
  int seen = 0;  // harness bookkeeping, thread 1 only
  void before() {
    void* p = ::mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    Sync::check(p != MAP_FAILED, "mmap failed");
    static_cast<int*>(p)[0] = 1;
    page.store(static_cast<int*>(p), std::memory_order_relaxed);  // relaxed: before() precedes the threads
  }
  void thread(unsigned i) {
    if (i == 0) {
      // acq_rel: takes the page from the acquire load of thread 1 (which may still hold it).
      if (int* p = page.exchange(nullptr, std::memory_order_acq_rel)) ::munmap(p, kPage);
    } else if (int* p = page.load(std::memory_order_acquire)) {  // acquire: pairs with before()'s store
      reading.store(1, std::memory_order_relaxed);  // relaxed: only a scheduling point before the read
      seen = *static_cast<volatile int*>(p);        // SIGSEGV once thread 0 unmapped the page
    }
  }
};

// An abort() in scenario code (what a failed assert() does).
template <class Sync, ProbeFault F>
struct CrashAbort : ScenarioBase {
  static constexpr const char* name = "crash_abort";
  static constexpr const char* description = "calls abort() when thread 1 loses the race (crash probe)";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> winner{0};
  void thread(unsigned i) {
    int expected = 0;
    // Relaxed: only the winner's identity matters.
    if (!winner.compare_exchange_strong(expected, static_cast<int>(i) + 1, std::memory_order_relaxed,
                                        std::memory_order_relaxed) &&
        i == 1)
      std::abort();  // thread 0 claimed it first
  }
};

LFCHECK_MODEL(ProbeFault, Counted);
LFCHECK_MODEL(ProbeFault, CrashDivide);
LFCHECK_MODEL(ProbeFault, CrashUnmapped);
LFCHECK_MODEL(ProbeFault, CrashAbort);
LFCHECK_MODEL(ProbeFault, Flaky);
LFCHECK_MODEL(ProbeFault, Order);
LFCHECK_MODEL(ProbeFault, Window);
LFCHECK_MODEL(ProbeFault, Endless);

}  // namespace probe_models
}  // namespace lfcheck
