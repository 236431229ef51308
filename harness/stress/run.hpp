// StressRun: what a stress workload gets from the runner — options, a seeded
// random stream per thread, rounds of real threads separated by quiescent
// points, a budget (operations or seconds), progress, and failure reporting.
//
// Rounds: every thread runs `round_ops` operations, then all wait at a barrier;
// with every thread stopped, one of them runs the workload's quiescent check
// (accounting, check_invariants()) and decides whether another round follows.
// The barrier is a mutex and a condition variable, so the quiescent check is
// ordered after every operation of the round for TSan and for the C++ model.
//
// Deadline (--duration): every thread reads the clock after each operation (the
// ring's time stamp) and ends its round early once the run's time is up, so a
// run stops within about one operation of its budget however slow the rounds
// are (a blocking protocol on a loaded machine made a 10 s share run 29 s). The
// round is then closed as usual (barrier, quiescent check) and ops_done counts
// the operations actually done, not whole rounds. An operation must therefore
// never wait for a later operation of another thread, and what a thread holds
// across operations it gives back in its last_of_round() operation.
//
// Budget phases: half_spent(thread) tells a workload that changes phase halfway
// (timers: a worker shuts down) that half of the budget is spent — the calling
// thread's own share of an --ops budget, or half the --duration since run_rounds
// began — so the phase change happens under either kind of budget.
//
// Notes: note(key, n) adds a workload's own count to the run's JSON record (e.g.
// "worker_shutdowns"), so a test can see that a phase ran.
//
// Recent history: run_rounds times every operation and keeps the last
// kRingSize of each thread in a ring (two clock reads and a 40-byte write per
// operation: cheap enough to leave on). A workload names the operation it just
// did with describe(thread, "pop", value, result). After a failure the rings
// become the per-thread table and the trace of the last moments before it. When a
// sanitizer ends the process, dump_rings() writes them as text from the death
// callback (raw write(2), no allocation, not instrumented: the other threads are
// still writing them) and the supervisor renders them (harness/stress/supervisor.hpp).
#pragma once

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <sys/syscall.h>
#include <unistd.h>

#include "harness/cli/interrupt.hpp"
#include "harness/cli/progress.hpp"
#include "harness/stress/thread_hooks.hpp"

// Code that runs inside a sanitizer's report while the process dies (the ring
// dump): no instrumentation at all (clang's disable_sanitizer_instrumentation: not
// even function entry/exit), so it neither starts a second report nor waits for a
// lock the report holds.
#if defined(__has_attribute)
#if __has_attribute(disable_sanitizer_instrumentation)
#define LFCHECK_NOT_SANITIZED __attribute__((disable_sanitizer_instrumentation))
#endif
#endif
#ifndef LFCHECK_NOT_SANITIZED
#define LFCHECK_NOT_SANITIZED __attribute__((no_sanitize("thread", "address", "undefined")))
#endif

namespace lfcheck {

struct StressOptions {
  unsigned threads = 4;
  std::uint64_t ops = 0;   // operation budget (0: use duration)
  double duration = 0;     // seconds (0: use ops): this workload's share of --duration
  double nominal_duration = 0;  // --duration / workloads: what a replay line asks for
  std::uint64_t seed = 0;
  bool progress = true;
  double hang_seconds = 0;  // the runner's no-progress window (a workload's own watchdog uses it too)
  // The lin.scenarios workload (harness/lin/stress.hpp): how many generated
  // scenarios (0: as many as the budget allows) and their shape.
  std::uint64_t lin_scenarios = 0;
  unsigned lin_threads = 3, lin_ops = 5;
};

// splitmix64: derives independent per-thread seeds from the run's seed.
inline std::uint64_t mix_seed(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct RecordedOp {
  // An operation that returns nothing to show (a litmus thread's execution): its
  // row reads "name argument" (decimal), not "name(argument) -> result".
  static constexpr std::int64_t kNoResult = INT64_MIN;
  double begin_us = 0, end_us = 0;  // since the run started
  const char* name = nullptr;       // nullptr: slot unused
  std::uint64_t argument = 0;
  std::int64_t result = 0;
};

class StressRun {
 public:
  static constexpr std::size_t kRingSize = 64;

  // Names the operation the calling thread is performing (call from inside op).
  void describe(unsigned thread, const char* name, std::uint64_t argument = 0, std::int64_t result = 0) {
    RecordedOp& r = rings_[thread].slots[rings_[thread].recorded() % kRingSize];
    r.name = name;
    r.argument = argument;
    r.result = result;
  }
  // The last operations of each thread, oldest first (only while no thread runs).
  std::vector<std::vector<RecordedOp>> recent_history() const {
    std::vector<std::vector<RecordedOp>> out;
    for (auto& ring : rings_) {
      std::vector<RecordedOp> ops;
      const std::uint64_t next = ring.recorded();
      const std::uint64_t n = next < kRingSize ? next : kRingSize;
      for (std::uint64_t i = next - n; i < next; ++i)
        if (ring.slots[i % kRingSize].name) ops.push_back(ring.slots[i % kRingSize]);
      out.push_back(std::move(ops));
    }
    return out;
  }

  // Writes every ring to fd: a line "threads N", then lines "THREAD BEGIN_NS END_NS
  // NAME ARGUMENT RESULT", oldest first, each thread's last one the operation it was
  // running (END_NS 0); NAME without blanks, "-" if the operation named none yet.
  // Called from a sanitizer's death callback, inside its report (its locks held):
  // async-signal-safe (no allocation, raw write(2)) and without any sanitizer
  // instrumentation — no lambdas or calls, since an instrumented access or function
  // entry there can wait for a lock the report holds (seen: a TSan trace switch).
  // Entries being written by other threads may be torn.
  LFCHECK_NOT_SANITIZED void dump_rings(int fd) const {
    static char buf[1 << 15];
    static char digits[24];
    std::size_t len = 0;
    // acquire: pairs with track_threads' release stores (the rings are built)
    const std::size_t count = ring_count_.load(std::memory_order_acquire);
    const Ring* rings = ring_base_.load(std::memory_order_acquire);
    if (!rings) return;
    const char* header = "threads ";
    while (*header) buf[len++] = *header++;
    {  // count, in decimal
      unsigned long long v = count;
      int n = 0;
      do digits[n++] = static_cast<char>('0' + v % 10); while ((v /= 10) != 0);
      while (n) buf[len++] = digits[--n];
    }
    buf[len++] = '\n';
    for (std::size_t t = 0; t < count; ++t) {
      // relaxed, and a load libstdc++ always inlines (no call here, see above)
      const std::uint64_t next = rings[t].next.load(std::memory_order_relaxed);  // slot next % kRingSize: the running operation
      for (std::uint64_t i = next >= kRingSize ? next - kRingSize + 1 : 0; i <= next; ++i) {
        const RecordedOp& r = rings[t].slots[i % kRingSize];
        if (i == next && !(r.begin_us > 0)) break;  // not started
        if (len > sizeof buf - 200) {
          for (std::size_t done = 0; done < len;) {
            const long w = ::syscall(SYS_write, fd, buf + done, len - done);
            if (w <= 0) break;
            done += static_cast<std::size_t>(w);
          }
          len = 0;
        }
        const unsigned long long fields[3] = {
            t, static_cast<unsigned long long>(r.begin_us > 0 ? r.begin_us * 1000 : 0),
            static_cast<unsigned long long>(i != next && r.end_us > 0 ? r.end_us * 1000 : 0)};
        for (unsigned f = 0; f < 3; ++f) {
          unsigned long long v = fields[f];
          int n = 0;
          do digits[n++] = static_cast<char>('0' + v % 10); while ((v /= 10) != 0);
          while (n) buf[len++] = digits[--n];
          buf[len++] = ' ';
        }
        const char* name = r.name;
        if (!name || !*name) buf[len++] = '-';
        for (int k = 0; name && name[k] && k < 48; ++k) buf[len++] = name[k] == ' ' ? '_' : name[k];
        const bool negative = r.result < 0;
        const unsigned long long tail[2] = {
            r.argument, negative ? 0ull - static_cast<unsigned long long>(r.result) : static_cast<unsigned long long>(r.result)};
        for (unsigned f = 0; f < 2; ++f) {
          buf[len++] = ' ';
          if (f == 1 && negative) buf[len++] = '-';
          unsigned long long v = tail[f];
          int n = 0;
          do digits[n++] = static_cast<char>('0' + v % 10); while ((v /= 10) != 0);
          while (n) buf[len++] = digits[--n];
        }
        buf[len++] = '\n';
      }
    }
    for (std::size_t done = 0; done < len;) {
      const long w = ::syscall(SYS_write, fd, buf + done, len - done);
      if (w <= 0) break;
      done += static_cast<std::size_t>(w);
    }
  }

  explicit StressRun(const StressOptions& options, std::string label)
      : options_(options), progress_(std::move(label), options.progress, "ops") {}
  ~StressRun() {
    // release: pairs with innermost()'s acquire (no check of this run can come after)
    if (parent_) parent_->child_.store(nullptr, std::memory_order_release);
  }
  StressRun(const StressRun&) = delete;
  StressRun& operator=(const StressRun&) = delete;

  // The threads a workload drives itself (run_litmus; run_rounds calls it): n rings
  // of recent operations, timed from now. Before the threads start.
  void track_threads(unsigned n) {
    // A reader on another thread (dump_rings, work_so_far: a hang watchdog a workload
    // started before its rounds) sees no rings, or these whole: count 0 first, then
    // the storage, then its size. release: pairs with their acquire loads.
    ring_count_.store(0, std::memory_order_release);
    ring_base_.store(nullptr, std::memory_order_release);
    rings_ = std::vector<Ring>(n);
    ring_base_.store(rings_.data(), std::memory_order_release);
    ring_count_.store(rings_.size(), std::memory_order_release);
    start_ = std::chrono::steady_clock::now();
    // release: pairs with report_now_us()'s acquire (a hang report on another thread)
    start_ns_.store(start_.time_since_epoch().count(), std::memory_order_release);
  }
  // Records the calling thread as ring `thread`'s, for a hang report's stacks.
  void note_thread_id(unsigned thread) {
    rings_[thread].tid.store(static_cast<long>(::syscall(SYS_gettid)), std::memory_order_relaxed);
  }
  // One operation of `thread` in its ring: begin_op before it (a describe() inside
  // names it), end_op after it. Called by that thread only.
  void begin_op(unsigned thread) {
    RecordedOp& slot = rings_[thread].slots[rings_[thread].recorded() % kRingSize];
    slot.name = nullptr;
    slot.begin_us = us_since_start();
  }
  void end_op(unsigned thread) {
    Ring& ring = rings_[thread];
    const std::uint64_t next = ring.recorded();
    ring.slots[next % kRingSize].end_us = us_since_start();
    // relaxed: only this thread writes it; readers on other threads want a count
    ring.next.store(next + 1, std::memory_order_relaxed);
  }
  double us_since_start() const {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_).count();
  }
  // us_since_start() for a reader on another thread (a hang report), from the start
  // track_threads published: start_ itself is the owner's (TSan found the race).
  double report_now_us() const {
    const std::int64_t start = start_ns_.load(std::memory_order_acquire);  // pairs with track_threads
    return static_cast<double>(std::chrono::steady_clock::now().time_since_epoch().count() - start) / 1000;
  }

  const StressOptions& options() const { return options_; }

  // Called on every thread run_rounds or run_litmus starts (thread_hooks.hpp). Set
  // before the threads start.
  void set_thread_hooks(const ThreadHooks& hooks) { thread_hooks_ = hooks; }
  const ThreadHooks& thread_hooks() const { return thread_hooks_; }

  // Records a failure (the first one is kept) and ends the run after this round.
  void fail(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_.empty()) failure_ = what;
  }
  bool failed() {
    std::lock_guard<std::mutex> lock(mutex_);
    return !failure_.empty();
  }
  std::string failure() {
    std::lock_guard<std::mutex> lock(mutex_);
    return failure_;
  }
  std::uint64_t ops_done() const { return ops_done_; }  // after run_rounds returned
  // Progress for the runner's hang watchdog: +1 per round (or litmus execution).
  // Relaxed: a counter read by the watchdog only to see that it moves.
  void heartbeat() {
    heartbeat_.fetch_add(1, std::memory_order_relaxed);
    if (parent_) parent_->heartbeat();
  }
  // A run nested in another (lin.scenarios runs each scenario as its own litmus
  // run): its heartbeats are the outer run's too, so the outer run's watchdog sees
  // every execution, not one beat per scenario (1,000 executions took over its
  // 5 s window on a loaded machine: a false HANG). Set before the run starts.
  // It is also the run a check failure goes to while it runs (innermost()).
  void beat_for(StressRun* parent) {
    parent_ = parent;
    // release: pairs with innermost()'s acquire (before this run's threads start)
    parent->child_.store(this, std::memory_order_release);
  }
  std::uint64_t heartbeats() const { return heartbeat_.load(std::memory_order_relaxed); }

  // Work that beats no heartbeat but ends by a bound of its own: a linearizability
  // check, which its budget's seconds stop. For up to `seconds` from now, the hang
  // watchdog does not count the silence as no progress (a check of a long history
  // under a 5 s window was reported as a HANG while it was still deciding); after
  // that it counts again, and work still running --hang-seconds past its bound ends
  // the run as LINEARIZABILITY UNKNOWN, never as a HANG: the code under test was not
  // running, the checker was. Set on this run and the runs it beats for (the outer
  // run's watchdog reads its own).
  class BoundedWork {
   public:
    BoundedWork(StressRun& run, double seconds) : run_(run) {
      const auto until = std::chrono::steady_clock::now() +
                         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double>(seconds));
      run_.set_quiet_until(until.time_since_epoch().count());
    }
    ~BoundedWork() {
      run_.set_quiet_until(0);
      run_.heartbeat();
    }
    BoundedWork(const BoundedWork&) = delete;
    BoundedWork& operator=(const BoundedWork&) = delete;

   private:
    StressRun& run_;
  };
  // Whether bounded work is in its window now (the hang watchdog).
  bool in_bounded_work() const {
    // Relaxed: a deadline read only to time the watchdog (pairs with no store in particular).
    const std::int64_t until = quiet_until_.load(std::memory_order_relaxed);
    return until != 0 && std::chrono::steady_clock::now().time_since_epoch().count() < until;
  }
  // Whether bounded work is still running past its window (the hang watchdog: such a
  // silence is the checker's, not the code's).
  bool bounded_work_overran() const {
    // Relaxed: a deadline read only to time the watchdog (pairs with no store in particular).
    const std::int64_t until = quiet_until_.load(std::memory_order_relaxed);
    return until != 0 && std::chrono::steady_clock::now().time_since_epoch().count() >= until;
  }
  // Workloads that count other units (litmus executions) report them here.
  void set_ops_done(std::uint64_t n, const char* unit) {
    ops_done_ = n;
    unit_ = unit;
    progress_.set_unit(unit);
  }
  const char* unit() const { return unit_; }
  // A workload that counts its own units (litmus executions) counts each as it
  // starts, so a process that dies in the run still records the work it did
  // (work_so_far); a nested run's count is its outer run's too.
  // Relaxed: a counter, read only by work_so_far.
  void count_work(std::uint64_t n) {
    counts_own_work_.store(true, std::memory_order_relaxed);  // relaxed: a flag read with the counter
    units_.fetch_add(n, std::memory_order_relaxed);
    if (parent_) parent_->count_work(n);
  }
  // The work done so far, from any thread or a dying process (async-signal-safe, not
  // instrumented: the other threads may still be writing): the units counted, or
  // run_rounds' operations done (each thread's ring count, an atomic of its own: a
  // count that may lag by the operations finishing right now, never a torn one).
  LFCHECK_NOT_SANITIZED std::uint64_t work_so_far() const {
    // relaxed: a flag and a counter, read to report them
    if (counts_own_work_.load(std::memory_order_relaxed)) return units_.load(std::memory_order_relaxed);
    std::uint64_t ops = 0;
    // acquire: pairs with track_threads' release stores
    const std::size_t count = ring_count_.load(std::memory_order_acquire);
    const Ring* rings = ring_base_.load(std::memory_order_acquire);
    if (!rings) return 0;
    for (std::size_t t = 0; t < count; ++t) ops += rings[t].recorded();
    return ops;
  }
  // Where each thread is, for a hang report (any thread, while the others run or
  // hang): its last finished operation and the one it is running, if any. Read
  // torn-tolerant and uninstrumented like dump_rings (the owners may be writing);
  // a running operation is told from a stale slot by its start, which comes after
  // the end of the thread's previous operation.
  struct ThreadPosition {
    unsigned thread = 0;
    std::uint64_t finished = 0;  // operations finished so far
    long tid = 0;                // its OS thread id (0: not started)
    bool has_last = false, running = false;
    RecordedOp last, current;
  };
  LFCHECK_NOT_SANITIZED std::vector<ThreadPosition> positions() const {
    std::vector<ThreadPosition> out;
    // acquire: pairs with track_threads' release stores (the rings are built)
    const std::size_t count = ring_count_.load(std::memory_order_acquire);
    const Ring* rings = ring_base_.load(std::memory_order_acquire);
    if (!rings) return out;
    out.resize(count);
    for (std::size_t t = 0; t < count; ++t) {
      ThreadPosition& p = out[t];
      p.thread = static_cast<unsigned>(t);
      p.finished = rings[t].next.load(std::memory_order_relaxed);  // relaxed: a count
      p.tid = rings[t].tid.load(std::memory_order_relaxed);        // relaxed: an id, read once
      const RecordedOp& now = rings[t].slots[p.finished % kRingSize];
      if (p.finished > 0) {
        p.has_last = true;
        p.last = rings[t].slots[(p.finished - 1) % kRingSize];
      }
      p.running = now.begin_us > 0 && (!p.has_last || now.begin_us >= p.last.end_us);
      if (p.running) p.current = now;
    }
    return out;
  }
  // The run whose threads are the ones running now (a nested run, see innermost()).
  const StressRun& innermost() const {
    const StressRun* run = this;
    // acquire: pairs with beat_for's release (and the destructor's)
    while (const StressRun* child = run->child_.load(std::memory_order_acquire)) run = child;
    return *run;
  }

  // Progress of a workload that drives its threads itself (total 0: unknown).
  void show_progress(std::uint64_t done, std::uint64_t total) { progress_.update(done, total); }
  void end_progress() { progress_.finish(); }

  // A failure of the code under test (a Sync::check) belongs to the innermost run in
  // progress: a nested run (lin.scenarios runs each scenario as its own litmus run)
  // takes it, so that scenario fails with it and is reported with it.
  StressRun& innermost() { return const_cast<StressRun&>(std::as_const(*this).innermost()); }

  // Whether the operation `thread` is performing is its last of this round (call
  // from inside op): a workload that holds something across operations gives it
  // back then, since the round may end early (the deadline, see the top).
  bool last_of_round(unsigned thread) const { return rings_[thread].last; }

  // Whether half the budget is spent (see the top). Called from inside op by
  // `thread`: it reads that thread's own operation count, or the clock.
  bool half_spent(unsigned thread) const {
    if (options_.ops) return rings_[thread].recorded() * options_.threads * 2 >= options_.ops;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return elapsed * 2 >= options_.duration;
  }

  // A workload's own watchdog saw a hang (e.g. an owner parked past the window):
  // the runner ends the process with the verdict written — JSON, JUnit, replay
  // file and line, failure "HANG (what)" — as its own hang watchdog does. Any
  // thread may call it; it does not return.
  using hang_handler = void (*)(const char* what);
  [[noreturn]] static void hang(const char* what) {
    // acquire: pairs with the runner's release store when it installs the handler
    if (auto handler = hang_handler_slot().load(std::memory_order_acquire)) handler(what);
    std::fprintf(stderr, "\nlfcheck stress: HANG (%s)\n", what);  // no runner: no verdict to write
    std::_Exit(1);
  }
  static std::atomic<hang_handler>& hang_handler_slot() {
    static std::atomic<hang_handler> handler{nullptr};
    return handler;
  }

  // A workload's own count for the run's record (call while no thread runs).
  void note(const std::string& key, std::uint64_t value) { notes_.emplace_back(key, value); }
  const std::vector<std::pair<std::string, std::uint64_t>>& notes() const { return notes_; }

  std::mt19937_64 thread_rng(unsigned thread) const {
    return std::mt19937_64(mix_seed(options_.seed * 1000003u + thread));
  }

  // op(thread, rng) performs one operation; at_quiescence() runs with all threads
  // stopped after each round. Returns when the budget is spent or a failure is
  // recorded.
  template <class Op, class Quiescent>
  void run_rounds(Op&& op, Quiescent&& at_quiescence, std::uint64_t round_ops = 1024) {
    const unsigned n = options_.threads;
    track_threads(n);  // rings, and start_: before the threads start (their creation orders it)
    const auto start = start_;
    bool stop = false;               // guarded by mutex_
    std::uint64_t generation = 0;    // guarded by mutex_
    unsigned waiting = 0;            // guarded by mutex_
    std::uint64_t round_sum = 0;     // guarded by mutex_: operations done in this round
    std::condition_variable round_done;
    // --duration: microseconds after `start` at which every thread ends its round.
    const double deadline_us = options_.ops ? HUGE_VAL : options_.duration * 1e6;

    auto worker = [&](unsigned thread) {
      note_thread_id(thread);
      const HookedThread hooked(thread_hooks_, thread);  // the spec's thread_begin/thread_end
      auto rng = thread_rng(thread);
      std::uint64_t my_generation = 0;
      Ring& ring = rings_[thread];
      for (;;) {
        for (std::uint64_t done = 0;;) {
          begin_op(thread);
          // The round's last operation: its share is done, time is up, or the
          // command was interrupted (SIGINT, SIGTERM: harness/cli/interrupt.hpp).
          ring.last = done + 1 >= round_ops || ring.slots[ring.recorded() % kRingSize].begin_us >= deadline_us ||
                      cli::interrupted();
          op(thread, rng);
          end_op(thread);
          ++done;
          if (ring.last) {
            std::lock_guard<std::mutex> lock(mutex_);
            round_sum += done;
            break;
          }
        }
        std::unique_lock<std::mutex> lock(mutex_);
        if (++waiting == n) {
          // Last to arrive: every other thread is blocked here, the round is quiescent.
          waiting = 0;
          ops_done_ += round_sum;
          round_sum = 0;
          heartbeat();
          lock.unlock();
          at_quiescence();
          lock.lock();
          const double elapsed =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          const bool budget_spent = options_.ops ? ops_done_ >= options_.ops
                                                 : elapsed >= options_.duration;
          stop = budget_spent || !failure_.empty() || cli::interrupted();
          progress_.update(ops_done_, options_.ops);
          ++generation;
          round_done.notify_all();
        } else {
          round_done.wait(lock, [&] { return generation != my_generation; });
        }
        ++my_generation;
        if (stop) return;
      }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < n; ++t) threads.emplace_back(worker, t);
    for (auto& t : threads) t.join();
    progress_.finish();
  }

 private:
  struct alignas(64) Ring {
    RecordedOp slots[kRingSize];
    // Operations recorded so far: written by the ring's thread only (end_op), read by
    // any thread (a hang report's count, the ring dump).
    std::atomic<std::uint64_t> next{0};
    // relaxed: a count; the slots it indexes are read torn-tolerant (see dump_rings)
    std::uint64_t recorded() const { return next.load(std::memory_order_relaxed); }
    bool last = false;       // the operation running is the thread's last of the round
    // The OS thread id of the ring's thread (a hang report's stacks: thread_stacks.hpp);
    // 0 until the thread starts. Relaxed: read only by a hang report, torn-free.
    std::atomic<long> tid{0};
  };
  void set_quiet_until(std::int64_t ticks) {
    // Relaxed: read only to time the watchdog (in_bounded_work).
    for (StressRun* r = this; r; r = r->parent_) r->quiet_until_.store(ticks, std::memory_order_relaxed);
  }

  std::vector<Ring> rings_;
  // rings_'s storage and size, for readers on other threads (dump_rings, work_so_far)
  std::atomic<const Ring*> ring_base_{nullptr};
  std::atomic<std::size_t> ring_count_{0};
  const StressOptions& options_;
  ProgressLine progress_;
  std::mutex mutex_;
  std::string failure_;
  std::atomic<std::uint64_t> heartbeat_{0};
  std::atomic<std::int64_t> quiet_until_{0};  // BoundedWork's window: steady_clock ticks, 0 none
  StressRun* parent_ = nullptr;  // beat_for
  std::atomic<StressRun*> child_{nullptr};  // the nested run in progress (beat_for)
  std::atomic<std::uint64_t> units_{0};     // count_work
  std::atomic<bool> counts_own_work_{false};  // count_work was called
  std::uint64_t ops_done_ = 0;
  const char* unit_ = "ops";
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::atomic<std::int64_t> start_ns_{start_.time_since_epoch().count()};  // start_, published (report_now_us)
  std::vector<std::pair<std::string, std::uint64_t>> notes_;
  ThreadHooks thread_hooks_;
};

}  // namespace lfcheck
