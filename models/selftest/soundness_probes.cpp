// DPOR's soundness probes (structure "soundness", lfcheck-model-soundness): each one
// a small scenario of a shape where DPOR once called a scenario verified that
// Relacy's full search fails, or failed one the full search passes (issue 43). Each
// is held to the full search by model.dpor_truth (same verdict, same outcomes), and
// each was seen to fail there before its fix (the commit that added it says how).
//
//   invariant_order       two threads each store a flag; invariant() checks that b
//                         is never set while a is not. Relacy evaluates invariant()
//                         at every scheduling point, so the intermediate state of
//                         every order is observed: the invariant's reads belong to
//                         the step that just ended (dpor/scheduler.hpp).
//   alloc_constructs_atomic  a block freed by one thread while another creates a
//                         block whose atomic member has an initial value: the
//                         member's initialising store is a scheduling point inside
//                         the allocation, after Relacy took the block from its
//                         pool. Whether the new block is the freed one depends on
//                         the order: the allocation belongs to the step that took
//                         the block (RelacySync::create announces it before the
//                         constructor runs).
//   free_owned_mutex      a thread frees a block whose mutex another thread may
//                         still hold (Relacy: DESTROYING OWNED MUTEX): a free is
//                         dependent on every access inside its block, mutexes and
//                         condition variables included.
//   free_notified_condvar a thread notifies a condition variable inside a block
//                         another thread frees (ACCESS TO FREED MEMORY).
//   kicker_timed_waits    a spin loop whose body notifies, against a waiter doing
//                         two timed waits: how many waits a notify ended. An
//                         iteration that notifies is not an await (dpor/awaits.hpp).
//   kicker_wait           the same loop against a plain wait (correct code: the
//                         loop notifies until the waiter is through) — DPOR once
//                         parked the kicker and called it a LIVELOCK.
//   giveway_asleep_yield  a thread yields before two seq_cst loads of what another
//                         thread stores (relaxed, then seq_cst): the reader may see
//                         the first store and miss the second. Where the other
//                         thread is asleep (sleep sets) and the reader gave way at
//                         its yield, the reader runs — the node is not blocked.
//   giveway_asleep_spin   the same with a store and spin_hint() for the yield.
//   giveway_under_lock    a thread gives way inside a critical section while the
//                         other waits for the lock: the waiter holds no one back
//                         (Relacy runs it into the lock, where it blocks).
//   giveway_free_hint     a loop that writes while it waits for another thread's
//                         store: Relacy lets its second hint go free and releases
//                         its first at the other thread's start (before the
//                         store), so it may run two iterations first; DPOR's
//                         give-way must let every such schedule through
//                         (dpor/scheduler.hpp, give_way).
//   reuse_seen_in_after   a thread frees a block; after() allocates one of its size
//                         and checks it did not get the freed block: the
//                         single-threaded code's allocations observe the allocator's
//                         reuse pool like a thread's.
//
//   reuse_history         two frees and two allocations of their size in one thread,
//                         many steps of another: which blocks the allocations get
//                         must depend on the execution's own choices, never on how
//                         many executions (and deferred frees) came before it —
//                         Relacy's allocator keeps deferred blocks in a ring that
//                         outlives the execution, so each execution starts with it
//                         flushed (harness/model/relacy_allocator.hpp).
//
// Not compared with the full search (model.runner_truth runs it under dpor):
//   diverge_last          nondeterministic in its last execution only (the second,
//                         which the process counts): it ends before the choice its
//                         path changed, without a choice that could notice. DPOR must say NONDETERMINISTIC
//                         SCENARIO, never verified; Relacy's full search does not
//                         check that a run repeats its path, so it passes.
#include <cstdint>

#include "harness/model_registry.hpp"

namespace lfcheck {

enum class SoundnessFault { none };

template <>
struct FaultTraits<SoundnessFault> {
  static constexpr const char* mechanism = "soundness";
  static constexpr std::array<FaultInfo<SoundnessFault>, 0> catalogue{};
};

namespace soundness_probes {

template <class Sync, SoundnessFault F>
struct InvariantOrder : ScenarioBase {
  static constexpr const char* name = "invariant_order";
  static constexpr const char* description = "two flags stored; invariant(): b never set while a is not (dpor self-test)";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> a{0}, b{0};
  void thread(unsigned i) {
    // Release: the flags publish nothing; the order is what invariant() observes.
    if (i == 0) a.store(1, std::memory_order_release);
    else b.store(1, std::memory_order_release);
  }
  void invariant() {
    // Relaxed: invariant() reads each location's latest store in Relacy.
    const bool b_set = b.load(std::memory_order_relaxed) == 1;
    const bool a_set = a.load(std::memory_order_relaxed) == 1;
    Sync::check(!(b_set && !a_set), "b set while a is not");
  }
};

// A block with an initialised atomic: its constructor's store is a scheduling point.
template <class Sync>
struct AtomicNode {
  typename Sync::template atomic<int> v{0};
};

template <class Sync, SoundnessFault F>
struct AllocConstructsAtomic : ScenarioBase {
  static constexpr const char* name = "alloc_constructs_atomic";
  static constexpr const char* description =
      "a free against the creation of a block with an initialised atomic (dpor self-test)";
  static constexpr unsigned threads = 2;
  AtomicNode<Sync>* freed = Sync::template create<AtomicNode<Sync>>();
  AtomicNode<Sync>* made = nullptr;
  void thread(unsigned i) {
    // Thread 0 first is the plain run: the allocation before the free.
    if (i == 0) made = Sync::template create<AtomicNode<Sync>>();
    else Sync::destroy(freed);
  }
  void after() {
    const bool reused = made == freed;  // an address comparison only: the freed block is never read
    Sync::destroy(made);
    Sync::check(!reused, "the new block is the freed one");
  }
};

// A block holding a mutex and a condition variable.
template <class Sync>
struct SyncBox {
  typename Sync::mutex m;
  typename Sync::condvar cv;
};

template <class Sync, SoundnessFault F>
struct FreeOwnedMutex : ScenarioBase {
  static constexpr const char* name = "free_owned_mutex";
  static constexpr const char* description =
      "a block freed once a flag is set, while its mutex may still be held (dpor self-test)";
  static constexpr unsigned threads = 2;
  SyncBox<Sync>* box = Sync::template create<SyncBox<Sync>>();
  typename Sync::template atomic<int> set{0};  // outside the box: only the mutex ties the free to thread 0
  void thread(unsigned i) {
    if (i == 0) {
      box->m.lock();
      set.store(1, std::memory_order_release);  // pairs with thread 1's acquire load
      box->m.unlock();
    } else {
      while (set.load(std::memory_order_acquire) == 0) Sync::spin_hint();  // acquire: pairs with the release store
      Sync::destroy(box);  // thread 0 may not have unlocked yet
    }
  }
};

template <class Sync, SoundnessFault F>
struct FreeNotifiedCondvar : ScenarioBase {
  static constexpr const char* name = "free_notified_condvar";
  static constexpr const char* description =
      "a notify of a condition variable inside a block another thread frees (dpor self-test)";
  static constexpr unsigned threads = 2;
  SyncBox<Sync>* box = Sync::template create<SyncBox<Sync>>();
  typename Sync::template atomic<int> started{0};  // outside the box
  void thread(unsigned i) {
    if (i == 0) {
      started.store(1, std::memory_order_relaxed);  // relaxed: a shared access before the notify, nothing more
      box->cv.notify_one();
    } else {
      Sync::destroy(box);
    }
  }
};

// A kicker notifies in a spin loop until the waiter is done; the waiter waits
// under the mutex, `waits` times, each a timed wait (Timed) or a plain one.
template <class Sync, bool Timed>
struct Kicker : ScenarioBase {
  static constexpr unsigned threads = 2;
  static constexpr int kWaits = Timed ? 3 : 1;
  typename Sync::mutex m;
  typename Sync::condvar cv;
  typename Sync::template atomic<int> done{0};
  int notified = 0;  // the waiter's waits that a notify ended (read after the join)
  void thread(unsigned i) {
    if (i == 0) {
      while (done.load(std::memory_order_acquire) == 0) {  // acquire: pairs with the waiter's release store
        cv.notify_all();
        Sync::spin_hint();
      }
      return;
    }
    m.lock();
    for (int w = 0; w < kWaits; ++w) {
      if constexpr (Timed) {
        if (cv.wait_for_ns(m, 1000)) ++notified;
      } else {
        cv.wait(m);
        ++notified;
      }
    }
    m.unlock();
    done.store(1, std::memory_order_release);  // pairs with the kicker's acquire load
  }
  std::uint64_t outcome() const { return static_cast<std::uint64_t>(notified); }
};

template <class Sync, SoundnessFault F>
struct KickerTimedWaits : Kicker<Sync, true> {
  static constexpr const char* name = "kicker_timed_waits";
  static constexpr const char* description =
      "a spin loop that notifies, against two timed waits: how many a notify ended (dpor self-test)";
};

template <class Sync, SoundnessFault F>
struct KickerWait : Kicker<Sync, false> {
  static constexpr const char* name = "kicker_wait";
  static constexpr const char* description =
      "a spin loop that notifies until a plain wait is through (correct code; dpor self-test)";
};

// One thread stores y (relaxed) then w (seq_cst); the other gives way first, then
// reads y and w (seq_cst): it may see y's store and miss w's.
template <class Sync, bool Spin>
struct GiveWayAsleep : ScenarioBase {
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> y{0}, w{0}, mine{0};
  int a = 0, b = 0;  // the reader's loads (read after the join)
  void thread(unsigned i) {
    if (i == 0) {
      y.store(1, std::memory_order_relaxed);  // relaxed: ordered before w's store only in this thread
      w.store(1, std::memory_order_seq_cst);  // seq_cst: the reader's seq_cst load of w sees it or not
      return;
    }
    if constexpr (Spin) {
      mine.store(1, std::memory_order_relaxed);  // relaxed: read by no one; the retry "wrote"
      Sync::spin_hint();
    } else {
      Sync::yield();
    }
    a = y.load(std::memory_order_seq_cst);  // seq_cst, as w's: no order with y's relaxed store
    b = w.load(std::memory_order_seq_cst);
  }
  void after() { Sync::check(!(a == 1 && b == 0), "y's store seen, w's missed"); }
};

template <class Sync, SoundnessFault F>
struct GiveWayAsleepYield : GiveWayAsleep<Sync, false> {
  static constexpr const char* name = "giveway_asleep_yield";
  static constexpr const char* description =
      "yield, then two loads of what another thread stores: the stores' middle seen (dpor self-test)";
};

template <class Sync, SoundnessFault F>
struct GiveWayAsleepSpin : GiveWayAsleep<Sync, true> {
  static constexpr const char* name = "giveway_asleep_spin";
  static constexpr const char* description =
      "store and spin_hint, then two loads of what another thread stores (dpor self-test)";
};

// A thread gives way inside a critical section (a spin hint after a write, as a
// compare-exchange retry loop under a lock does) while the other thread waits for
// that lock: Relacy runs the waiter into the lock, where it blocks and lets go of
// the thread it held back, and the holder goes on. Found by lin.model.timers (a
// timer's run_due retrying under the worker's lock while reset() waits for it)
// while DPOR tried Relacy's yield priorities: it kept the waiter out of the lock,
// still counted it as holding the spinner back, and ended the execution as a
// false LIVELOCK. DPOR's own give-way lets the spinner run where no other thread
// can; the probe keeps any rule to that.
template <class Sync, SoundnessFault F>
struct GiveWayUnderLock : ScenarioBase {
  static constexpr const char* name = "giveway_under_lock";
  static constexpr const char* description =
      "a give-way inside a critical section another thread waits to enter (dpor self-test)";
  static constexpr unsigned threads = 2;
  typename Sync::mutex m;
  typename Sync::template atomic<int> tries{0};
  void thread(unsigned i) {
    m.lock();
    if (i == 0) {
      for (int k = 0; k < 2; ++k) {
        tries.fetch_add(1, std::memory_order_relaxed);  // relaxed: the mutex orders it for the other thread
        Sync::spin_hint();
      }
    } else {
      seen = tries.load(std::memory_order_relaxed);  // relaxed: read under the mutex
      Sync::check(seen % 2 == 0, "a critical section seen half done");
    }
    m.unlock();
  }
  int seen = 0;  // what the second thread read: 0 or 2 (read after the join)
  std::uint64_t outcome() const { return static_cast<std::uint64_t>(seen); }
};

// A loop that writes while it waits for another thread's store: how many
// iterations ran before it saw the store (2 or more, capped: any rule at least
// as loose as Relacy's yield priorities reaches 2). Relacy holds the spinner at
// its first hint until the other thread's next scheduling point — its start,
// before its store, if it has not started — then lets the second hint go free
// (the holder counted while holding it): two iterations before the store. DPOR
// once held every give-way until the other thread's next step and had put that
// thread's (empty) start first, so its store came next: 1 iteration at most.
// From the DPOR fuzzer (seed 43004, 2 threads, program 34, minimised).
template <class Sync, SoundnessFault F>
struct GiveWayFreeHint : ScenarioBase {
  static constexpr const char* name = "giveway_free_hint";
  static constexpr const char* description =
      "a loop that writes while it waits for a store: iterations before it (dpor self-test)";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> flag{0}, bits{1};
  void thread(unsigned i) {
    if (i == 0) {
      flag.store(1, std::memory_order_relaxed);  // relaxed: the loop waits for the value only
      return;
    }
    while (flag.load(std::memory_order_relaxed) != 1) {  // relaxed: the loop waits for the value only
      bits.fetch_and(2, std::memory_order_release);     // release: a write, so the loop is not an await
      ++iterations;
      Sync::spin_hint();
    }
  }
  int iterations = 0;  // the waiter's (read after the join)
  std::uint64_t outcome() const { return static_cast<std::uint64_t>(iterations < 2 ? iterations : 2); }
};

// Plain data: its address is what the allocator probes look at.
struct Block {
  int v = 0;
};

template <class Sync, SoundnessFault F>
struct ReuseSeenInAfter : ScenarioBase {
  static constexpr const char* name = "reuse_seen_in_after";
  static constexpr const char* description =
      "a thread frees a block; after() allocates one and checks it is not the freed one (dpor self-test)";
  static constexpr unsigned threads = 2;
  Block* freed = Sync::template create<Block>();
  typename Sync::template atomic<int> touched{0};
  void thread(unsigned i) {
    touched.fetch_add(1, std::memory_order_relaxed);  // relaxed: a shared access for the runner
    if (i == 0) Sync::destroy(freed);
  }
  void after() {
    Block* fresh = Sync::template create<Block>();
    const bool reused = fresh == freed;  // an address comparison only
    Sync::destroy(fresh);
    Sync::check(!reused, "after()'s block is the freed one");
  }
};

template <class Sync, SoundnessFault F>
struct ReuseHistory : ScenarioBase {
  static constexpr const char* name = "reuse_history";
  static constexpr const char* description =
      "two frees, then two allocations of their size beside an unrelated thread: which blocks they get (dpor self-test)";
  static constexpr unsigned threads = 2;
  Block* x = Sync::template create<Block>();
  Block* y = Sync::template create<Block>();
  Block* got[2] = {};
  typename Sync::template atomic<int> noise{0};
  void thread(unsigned i) {
    if (i == 0) {
      Sync::destroy(x);  // each deferred or not
      Sync::destroy(y);
      got[0] = Sync::template create<Block>();
      got[1] = Sync::template create<Block>();
      return;
    }
    // Relaxed: steps of a thread that shares nothing with thread 0, so that the full
    // search runs many executions (and many deferrals) before it is done.
    for (int k = 1; k <= 6; ++k) noise.store(k, std::memory_order_relaxed);
  }
  void after() {
    Sync::destroy(got[0]);
    Sync::destroy(got[1]);
  }
  // Which freed block each allocation got (an address comparison: never read):
  // 1 x, 2 y, 0 a block fresh to the execution.
  std::uint64_t outcome() const {
    auto kind = [&](const Block* b) { return b == x ? 1u : b == y ? 2u : 0u; };
    return kind(got[0]) * 3 + kind(got[1]);
  }
};

// Executions of diverge_last in this process (harness-side, invisible to Relacy).
inline unsigned diverge_last_executions = 0;

template <class Sync, SoundnessFault F>
struct DivergeLast : ScenarioBase {
  static constexpr const char* name = "diverge_last";
  static constexpr const char* description =
      "a store and a random choice, the choice skipped in the process's second execution (dpor self-test)";
  static constexpr unsigned threads = 1;
  typename Sync::template atomic<int> x{0};
  bool skip = ++diverge_last_executions == 2;
  void thread(unsigned) {
    x.store(1, std::memory_order_relaxed);  // relaxed: a shared access for the runner
    if (!skip) (void)Sync::random(2);       // the path's last choice; the second execution ends before it
  }
};

LFCHECK_MODEL(SoundnessFault, InvariantOrder);
LFCHECK_MODEL(SoundnessFault, AllocConstructsAtomic);
LFCHECK_MODEL(SoundnessFault, FreeOwnedMutex);
LFCHECK_MODEL(SoundnessFault, FreeNotifiedCondvar);
LFCHECK_MODEL(SoundnessFault, KickerTimedWaits);
LFCHECK_MODEL(SoundnessFault, KickerWait);
LFCHECK_MODEL(SoundnessFault, GiveWayAsleepYield);
LFCHECK_MODEL(SoundnessFault, GiveWayAsleepSpin);
LFCHECK_MODEL(SoundnessFault, GiveWayUnderLock);
LFCHECK_MODEL(SoundnessFault, GiveWayFreeHint);
LFCHECK_MODEL(SoundnessFault, ReuseSeenInAfter);
LFCHECK_MODEL(SoundnessFault, ReuseHistory);
LFCHECK_MODEL(SoundnessFault, DivergeLast);

}  // namespace soundness_probes
}  // namespace lfcheck
