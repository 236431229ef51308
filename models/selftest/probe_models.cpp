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
//   crash_abort     thread 1 calls abort() when it loses a race: CRASH: SIGABRT;
//   std_atomic      a racy counter (load, then store) on std::atomic, not the Sync
//                   policy's atomic: Relacy sees no shared access and runs the threads
//                   one after the other, so the lost update never shows — the run must
//                   be "NO WORK" (error, exit 2), never pass or exhaustive;
//   sync_atomic     the same counter on Sync::atomic: the lost update is found (exit 1);
//   leak_aligned    a thread creates an alignas(64) object (plain data only) and never
//                   destroys it: Relacy must report MEMORY LEAK (exit 1) — before RelacySync
//                   gave such blocks to Relacy's allocator, `new T` took the aligned
//                   operator new Relacy does not replace, and the leak passed unseen.
//   labels          a failure table names what each step touched (issue 27): thread 0
//                   stores 3 into a slot chosen by a load of `size` on the same source
//                   line, then both threads store 3 into a plain cell without ordering
//                   (a data race): the slot's store is named after the slot, never after
//                   `size` (the line's other operand), and the racing store shows its 3
//                   (Relacy records 0, its T(), for an access that races).
//   older_load_then_race  message passing with relaxed accesses, then a race on what
//                   the reader saw: DPOR may skip the rest of an older load's subtree only
//                   when no newer store happens before the load through another step;
//                   here the stale read of x comes after the reader saw y, so every
//                   order of the last race must still be explored (model.dpor_truth:
//                   DPOR's outcomes are the full search's);
//   reuse_after_free      one thread frees a block while another allocates one: whether
//                   the allocation gets the freed block depends on the order and on
//                   Relacy's deferred reuse, and DPOR may skip a deferral only when
//                   nothing is allocated after it (model.dpor_truth: both outcomes).
//   reuse_race      one thread frees a block, then lets two others allocate one of its
//                   size each: which of the two gets the freed block depends only on
//                   the order of their allocations, which DPOR takes as independent
//                   only for blocks fresh to the execution — an allocation made while
//                   a freed block waits writes the allocator's pool (model.dpor_truth:
//                   the full search's outcomes, either allocator reusing it);
//   reuse_after_setup  a block freed in before(), then two threads that share nothing
//                   but Relacy's allocator each allocate one of its size: which gets
//                   it (or neither: the free deferred) — the single-threaded code's
//                   frees wait in the allocator's pool and are deferred like a thread's
//                   (model.dpor_truth: all three outcomes);
//   lock_order      three threads each publish a relaxed flag, then take one mutex and
//                   note their turn and whether the next thread's flag is visible: every
//                   order of the critical sections must be explored, and a flag stored
//                   before a critical section that came first must be seen (the
//                   unlock-to-lock order is happens-before) — DPOR, which does not run a
//                   thread into a held mutex and reverses critical sections at their
//                   lock, must reach the full search's outcomes (model.dpor_truth);
//   lock_handoff    a waiter on a condition variable and two notifiers under one mutex,
//                   one notifier taking a second mutex inside the first: the wait's
//                   release and re-lock of the mutex against the others' critical
//                   sections (model.dpor_truth: the full search's outcomes).
#include <sys/mman.h>

#include <atomic>
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

// A counter whose increment is a load and then a store: two threads can lose one.
template <class Atomic>
struct RacyCounter : ScenarioBase {
  static constexpr unsigned threads = 2;
  Atomic count{0};
  void thread(unsigned) {
    const int seen = count.load(std::memory_order_relaxed);  // relaxed: the bug is the split RMW
    count.store(seen + 1, std::memory_order_relaxed);
  }
};

template <class Sync, ProbeFault F>
struct StdAtomic : RacyCounter<std::atomic<int>> {
  static constexpr const char* name = "std_atomic";
  static constexpr const char* description = "a racy counter on std::atomic: invisible to Relacy (runner self-test)";
  void after() { Sync::check(count.load(std::memory_order_relaxed) == 2, "racy counter: an increment was lost"); }
};

template <class Sync, ProbeFault F>
struct SyncAtomic : RacyCounter<typename Sync::template atomic<int>> {
  static constexpr const char* name = "sync_atomic";
  static constexpr const char* description = "the same racy counter on Sync::atomic (runner self-test)";
  void after() { Sync::check(this->count.load(std::memory_order_relaxed) == 2, "racy counter: an increment was lost"); }
};

template <class Sync, ProbeFault F>
struct LeakAligned : ScenarioBase {
  static constexpr const char* name = "leak_aligned";
  static constexpr const char* description = "an alignas(64) object created and never destroyed (runner self-test)";
  static constexpr unsigned threads = 1;
  struct alignas(64) Line {
    int v = 0;  // plain: no atomic or cell whose own bookkeeping would leak too
  };
  typename Sync::template atomic<int> touched{0};
  void thread(unsigned) {
    Line* line = Sync::template create<Line>();
    line->v = 1;
    touched.store(line->v, std::memory_order_relaxed);  // relaxed: one thread
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

// A buffer store whose slot comes from a load on the same line, and a racing store.
template <class Sync, ProbeFault F>
struct Labels : ScenarioBase {
  static constexpr const char* name = "labels";
  static constexpr const char* description = "a racing store and a buffer store indexed by a load (report self-test)";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> size{0};
  typename Sync::template atomic<int> slots[2];
  typename Sync::template cell<int> data;
  void thread(unsigned i) {
    // Relaxed: only the names and values in the failure table matter here.
    if (i == 0) slots[size.load(std::memory_order_relaxed)].store(3, std::memory_order_relaxed);
    data.store(3);  // both threads, unordered: a data race
  }
};

template <class Sync, ProbeFault F>
struct OlderLoadThenRace : ScenarioBase {
  static constexpr const char* name = "older_load_then_race";
  static constexpr const char* description = "relaxed message passing, then a race on what was read (dpor self-test)";
  static constexpr unsigned threads = 3;
  typename Sync::template atomic<int> x{0}, y{0}, z{0};
  int r1 = 0, r2 = 0, r3 = 0;  // read by after() and outcome(), after the join
  void thread(unsigned i) {
    // Relaxed everywhere: the reader may see y's store and miss x's (Relacy's weak
    // memory), and z's reader may run before or after z's store.
    if (i == 0) {
      x.store(1, std::memory_order_relaxed);
      y.store(1, std::memory_order_relaxed);
    } else if (i == 1) {
      r1 = y.load(std::memory_order_relaxed);
      r2 = x.load(std::memory_order_relaxed);
      z.store(1 + r1 + 2 * r2, std::memory_order_relaxed);
    } else {
      r3 = z.load(std::memory_order_relaxed);
    }
  }
  std::uint64_t outcome() const { return static_cast<std::uint64_t>(r1 + 2 * r2 + 4 * r3); }
};

// The block the allocator probes (reuse_after_free, reuse_race, reuse_after_setup)
// allocate and free: plain data, never read — its address is what they look at.
struct Block {
  int v = 0;
};

template <class Sync, ProbeFault F>
struct ReuseAfterFree : ScenarioBase {
  static constexpr const char* name = "reuse_after_free";
  static constexpr const char* description = "a free against an allocation of the same size (dpor self-test)";
  static constexpr unsigned threads = 2;
  Block* freed = Sync::template create<Block>();
  Block* allocated = nullptr;
  bool reused = false;  // the allocation got the freed block's address
  typename Sync::template atomic<int> touched{0};
  void thread(unsigned i) {
    touched.fetch_add(1, std::memory_order_relaxed);  // relaxed: a shared access for the runner, nothing else
    if (i == 0) {
      Sync::destroy(freed);
    } else {
      allocated = Sync::template create<Block>();
      reused = allocated == freed;  // an address comparison only: the freed block is never read
    }
  }
  void after() { Sync::destroy(allocated); }
  std::uint64_t outcome() const { return reused ? 1 : 0; }
};

template <class Sync, ProbeFault F>
struct ReuseRace : ScenarioBase {
  static constexpr const char* name = "reuse_race";
  static constexpr const char* description =
      "a free, then two allocations of the same size: which one reuses the block (dpor self-test)";
  static constexpr unsigned threads = 3;
  Block* freed = Sync::template create<Block>();
  Block* allocated[3] = {};
  typename Sync::template atomic<int> done{0};
  void thread(unsigned i) {
    if (i == 0) {
      Sync::destroy(freed);
      done.store(1, std::memory_order_release);  // pairs with the allocators' acquire loads
      return;
    }
    // The free is ordered before the allocation (through `done`), so it races with
    // neither: only the two allocations' order decides which one reuses the block.
    if (done.load(std::memory_order_acquire) == 1)  // acquire: pairs with thread 0's release store of `done`
      allocated[i] = Sync::template create<Block>();
  }
  void after() {
    Sync::destroy(allocated[1]);
    Sync::destroy(allocated[2]);
  }
  // Which thread allocated (bits 0, 1) and which got the freed block's address
  // (times 4: 0 none — deferred —, 1 or 2; an address comparison: never read).
  std::uint64_t outcome() const {
    const unsigned reused = allocated[1] == freed ? 1 : allocated[2] == freed ? 2 : 0;
    return (allocated[1] ? 1 : 0) + (allocated[2] ? 2 : 0) + 4 * reused;
  }
};

template <class Sync, ProbeFault F>
struct ReuseAfterSetup : ScenarioBase {
  static constexpr const char* name = "reuse_after_setup";
  static constexpr const char* description =
      "a block freed in before(), two threads allocating one of its size: which one reuses it (dpor self-test)";
  static constexpr unsigned threads = 2;
  Block* freed = Sync::template create<Block>();
  Block* allocated[2] = {};
  // Each thread's own flag: a shared access for the runner that orders no two
  // threads (a common atomic would order the allocations, which share its step).
  typename Sync::template atomic<int> mine[2];
  ReuseAfterSetup() {
    for (auto& m : mine) m.store(0, std::memory_order_relaxed);  // relaxed: before the threads
  }
  void before() { Sync::destroy(freed); }  // waits in Relacy's allocator, or is deferred
  void thread(unsigned i) {
    mine[i].store(1, std::memory_order_relaxed);  // relaxed: read by no one
    allocated[i] = Sync::template create<Block>();
  }
  void after() {
    Sync::destroy(allocated[0]);
    Sync::destroy(allocated[1]);
  }
  // Which thread got before()'s block (0: neither — its free was deferred —, 1
  // for thread 0, 2 for thread 1; an address comparison: never read).
  std::uint64_t outcome() const { return allocated[0] == freed ? 1 : allocated[1] == freed ? 2 : 0; }
};

template <class Sync, ProbeFault F>
struct LockOrder : ScenarioBase {
  static constexpr const char* name = "lock_order";
  static constexpr const char* description =
      "3 threads: relaxed flag, then lock; note turn and next thread's flag; unlock (dpor self-test)";
  static constexpr unsigned threads = 3;
  typename Sync::template atomic<int> flag[3];
  typename Sync::mutex m;
  typename Sync::template cell<int> turn{0};
  int position[3] = {};   // each thread's turn in the critical-section order (0..2)
  bool saw_next[3] = {};  // written inside the section, read after the join
  LockOrder() {
    for (auto& f : flag) f.store(0, std::memory_order_relaxed);  // relaxed: before the threads
  }
  void thread(unsigned i) {
    // Relaxed: the flag is ordered before a later section only by the mutex.
    flag[i].store(1, std::memory_order_relaxed);
    m.lock();
    position[i] = turn.load();
    turn.store(position[i] + 1);
    saw_next[i] = flag[(i + 1) % 3].load(std::memory_order_relaxed) == 1;
    m.unlock();
  }
  void after() {
    Sync::check(turn.load() == 3, "a critical section was lost");
    // A thread whose section came before i's stored its flag before its lock: i sees it.
    for (unsigned i = 0; i < 3; ++i)
      if (position[(i + 1) % 3] < position[i])
        Sync::check(saw_next[i], "a flag stored before an earlier section was not seen");
  }
  std::uint64_t outcome() const {
    std::uint64_t o = 0;
    for (unsigned i = 0; i < 3; ++i) o = o * 8 + static_cast<std::uint64_t>(position[i] * 2 + (saw_next[i] ? 1 : 0));
    return o;
  }
};

template <class Sync, ProbeFault F>
struct LockHandoff : ScenarioBase {
  static constexpr const char* name = "lock_handoff";
  static constexpr const char* description =
      "a condvar waiter and two notifiers under one mutex, one nesting a second mutex (dpor self-test)";
  static constexpr unsigned threads = 3;
  typename Sync::mutex m, inner;
  typename Sync::condvar cv;
  typename Sync::template atomic<int> side{0};
  int ready = 0;       // guarded by m
  int woke_at = -1;    // ready as the waiter saw it on waking (guarded by m)
  int waits = 0;       // the waiter's waits (guarded by m)
  int inner_order = 0; // who took `inner` first: 1 the waiter, 2 notifier 1 (guarded by inner)
  void thread(unsigned i) {
    if (i == 0) {
      inner.lock();
      if (inner_order == 0) inner_order = 1;
      inner.unlock();
      m.lock();
      while (ready < 2) {
        ++waits;
        cv.wait(m);
      }
      woke_at = ready;
      m.unlock();
    } else if (i == 1) {
      m.lock();
      inner.lock();
      if (inner_order == 0) inner_order = 2;
      inner.unlock();
      ++ready;
      cv.notify_all();
      m.unlock();
    } else {
      side.store(1, std::memory_order_relaxed);  // relaxed: a step outside the sections
      m.lock();
      ++ready;
      cv.notify_all();
      m.unlock();
    }
  }
  void after() { Sync::check(woke_at == 2, "the waiter left before both notifiers"); }
  std::uint64_t outcome() const { return static_cast<std::uint64_t>(waits * 4 + inner_order); }
};

LFCHECK_MODEL(ProbeFault, Counted);
LFCHECK_MODEL(ProbeFault, Labels);
LFCHECK_MODEL(ProbeFault, CrashDivide);
LFCHECK_MODEL(ProbeFault, CrashUnmapped);
LFCHECK_MODEL(ProbeFault, CrashAbort);
LFCHECK_MODEL(ProbeFault, Flaky);
LFCHECK_MODEL(ProbeFault, Order);
LFCHECK_MODEL(ProbeFault, Window);
LFCHECK_MODEL(ProbeFault, Endless);
LFCHECK_MODEL(ProbeFault, StdAtomic);
LFCHECK_MODEL(ProbeFault, SyncAtomic);
LFCHECK_MODEL(ProbeFault, LeakAligned);
LFCHECK_MODEL(ProbeFault, OlderLoadThenRace);
LFCHECK_MODEL(ProbeFault, ReuseAfterFree);
LFCHECK_MODEL(ProbeFault, ReuseRace);
LFCHECK_MODEL(ProbeFault, ReuseAfterSetup);
LFCHECK_MODEL(ProbeFault, LockOrder);
LFCHECK_MODEL(ProbeFault, LockHandoff);

}  // namespace probe_models
}  // namespace lfcheck
