// The runner library's side of one simulation (internal to harness/model/run.cpp
// and the schedulers): the test object Relacy builds for every execution, and
// the bookkeeping around it.
//
//  - ErasedTest<N>: the rl::test_suite Relacy runs, one type per thread count for
//    every scenario (the scenario is reached through ScenarioHooks), so Relacy's
//    context is instantiated once per N in the runner library. Its members, in
//    order: ExecutionTick (starts the execution with Relacy's deferred frees handed
//    back, counts it, and ends the run at a limit, a deadline or an interrupt: every
//    scheduler's executions start there), LabelReset (forgets the previous execution's variable names),
//    then the scenario, constructed in storage the runner allocated outside the
//    simulation.
//  - The run's state (CurrentRun): the hooks, the storage, the outcome set, and
//    the access observer that counts what the threads touched through the Sync
//    policy (sync/relacy_access.hpp) and forwards it to a scheduler that wants it
//    (DPOR). Plain memory: one simulation at a time per process, all its fibers on
//    one OS thread. Nothing here allocates inside the simulation (Relacy would
//    count it as the scenario's memory).
#pragma once

#include <cstdint>
#include <cstring>

#include "harness/cli/interrupt.hpp"
#include "harness/model/run.hpp"
#include "sync/relacy_access.hpp"
#include "sync/relacy_sync.hpp"

namespace lfcheck::model {

// Executions of the current simulation, counted by ExecutionTick.
struct ExecutionLedger {
  std::uint64_t executions = 0;
  std::uint64_t limit = UINT64_MAX;  // executions allowed; the next one ends the run
  bool limit_hit = false;
  Clock::time_point deadline = Clock::time_point::max();  // the next execution past it ends the run
  bool budget_hit = false;
  bool interrupt_hit = false;  // the command was interrupted (harness/cli/interrupt.hpp)
  ExecutionObserver observer;
  // Called as each execution starts, before the scenario is built: hands Relacy's
  // deferred frees back (harness/model/relacy_allocator.hpp).
  void (*start_execution)() = nullptr;
};

inline ExecutionLedger& execution_ledger() {
  static ExecutionLedger ledger;
  return ledger;
}

// The distinct outcome() values of a run (open addressing, fixed size: no
// allocation inside the simulation). A value is kept only once its execution
// passed: it is pending until the next execution starts or the run ends well.
class OutcomeSet {
 public:
  void clear() {
    std::memset(used_, 0, sizeof used_);
    count_ = 0;
    overflow_ = false;
    has_pending_ = false;
  }
  void set_pending(std::uint64_t v) {
    pending_ = v;
    has_pending_ = true;
  }
  void drop_pending() { has_pending_ = false; }
  void commit_pending() {
    if (!has_pending_) return;
    has_pending_ = false;
    insert(pending_);
  }
  std::size_t size() const { return count_; }
  bool overflow() const { return overflow_; }
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < kSlots; ++i)
      if (used_[i]) f(values_[i]);
  }

 private:
  static constexpr std::size_t kSlots = 2 * kMaxOutcomes;
  void insert(std::uint64_t v) {
    std::size_t i = (v * 0x9e3779b97f4a7c15ull) >> 51;  // 13 bits: kSlots = 8192
    for (std::size_t n = 0; n < kSlots; ++n, i = (i + 1) % kSlots) {
      if (!used_[i]) {
        if (count_ == kMaxOutcomes) {
          overflow_ = true;
          return;
        }
        used_[i] = true;
        values_[i] = v;
        ++count_;
        return;
      }
      if (values_[i] == v) return;
    }
  }
  bool used_[kSlots] = {};
  std::uint64_t values_[kSlots] = {};
  std::size_t count_ = 0;
  bool overflow_ = false;
  std::uint64_t pending_ = 0;
  bool has_pending_ = false;
};
static_assert(2 * kMaxOutcomes == 8192, "OutcomeSet hashes to 13 bits");

// The scenario's single-threaded parts, which Relacy runs on the fiber of the
// thread that starts first (constructor, before()), of the thread that finishes
// last (after(), destructor), or of the thread at a scheduling point (invariant():
// Relacy evaluates it at every one, between two steps).
enum class HarnessPart { none, constructor, before, invariant, after, destructor };

// A scheduler that wants every announcement of the threads (DPOR), and those of
// the single-threaded parts (harness_announce): their allocations and frees, and
// what invariant() reads between steps.
class SchedulerObserver : public AccessObserver {
 public:
  virtual void harness_announce(const Access& a, HarnessPart part) = 0;
};

// The scheduler that wants the announcements, while it lives.
inline SchedulerObserver*& scheduler_observer() {
  static SchedulerObserver* observer = nullptr;
  return observer;
}

// What the current run knows about the threads' accesses: whether any thread
// touched shared state through the Sync policy (else the run checked nothing),
// and a scheduler that wants every announcement (DPOR) gets it forwarded.
class RunObserver final : public AccessObserver {
 public:
  void announce(const Access& a) override {
    if (harness_part != HarnessPart::none) {  // the scenario's constructor, before(), after(), invariant()
      if (SchedulerObserver* s = scheduler_observer()) s->harness_announce(a, harness_part);
      return;
    }
    ++thread_accesses;
    if (SchedulerObserver* s = scheduler_observer()) s->announce(a);
  }
  void completed(bool wrote) override {
    if (harness_part != HarnessPart::none) return;
    if (SchedulerObserver* s = scheduler_observer()) s->completed(wrote);
  }
  HarnessPart harness_part = HarnessPart::none;  // set around the single-threaded parts
  std::uint64_t thread_accesses = 0;  // announcements inside thread bodies, whole run
};

struct CurrentRun {
  const ScenarioHooks* hooks = nullptr;
  void* storage = nullptr;
  bool collect_outcomes = false;
  OutcomeSet outcomes;
  RunObserver observer;
};

inline CurrentRun& current_run() {
  static CurrentRun run;
  return run;
}

// Names the single-threaded part of the scenario running, for its duration.
class HarnessCode {
 public:
  explicit HarnessCode(HarnessPart part) : was_(current_run().observer.harness_part) {
    current_run().observer.harness_part = part;
  }
  ~HarnessCode() { current_run().observer.harness_part = was_; }
  HarnessCode(const HarnessCode&) = delete;
  HarnessCode& operator=(const HarnessCode&) = delete;

 private:
  HarnessPart was_;
};

// First member of every test object: runs when Relacy starts an execution.
struct ExecutionTick {
  ExecutionTick() {
    ExecutionLedger& l = execution_ledger();
    if (l.start_execution) l.start_execution();
    current_run().outcomes.commit_pending();  // the previous execution passed
    if (l.executions == l.limit) {
      l.limit_hit = true;
      rl::ctx().rl_until("lfcheck: execution limit reached", RL_INFO);  // does not return
    }
    if (l.deadline != Clock::time_point::max() && Clock::now() >= l.deadline) {
      l.budget_hit = true;
      rl::ctx().rl_until("lfcheck: time budget reached", RL_INFO);  // does not return
    }
    if (l.limit != 1 && cli::interrupted()) {  // one execution (a failure's re-run, a replay) runs to its end
      l.interrupt_hit = true;
      rl::ctx().rl_until("lfcheck: interrupted", RL_INFO);  // does not return
    }
    ++l.executions;
    if (l.observer.on_execution) l.observer.on_execution(l.observer.self, l.executions);
  }
};

// Forgets the previous execution's variable labels before the scenario's
// constructors label this one's (RelacySync::label).
struct LabelReset {
  LabelReset() {
    for (auto* l = RelacySync::labels(); l != RelacySync::labels() + 64; ++l) *l = {};
  }
};

template <rl::thread_id_t N>
struct ErasedTest : rl::test_suite<ErasedTest<N>, N> {
  ExecutionTick tick;       // first member: counts (and may end) the execution
  LabelReset reset_labels;  // before the scenario labels its variables
  void* self;

  ErasedTest() : self(current_run().storage) {
    HarnessCode harness(HarnessPart::constructor);
    current_run().hooks->construct(self);
  }
  ~ErasedTest() {
    HarnessCode harness(HarnessPart::destructor);
    current_run().hooks->destroy(self);
  }
  void before() {
    HarnessCode harness(HarnessPart::before);
    current_run().hooks->before(self);
  }
  void thread(unsigned index) { current_run().hooks->thread(self, index); }
  void after() {
    HarnessCode harness(HarnessPart::after);
    CurrentRun& run = current_run();
    run.hooks->after(self);  // a failing check does not return
    if (run.collect_outcomes && run.hooks->outcome) run.outcomes.set_pending(run.hooks->outcome(self));
  }
  void invariant() {
    HarnessCode harness(HarnessPart::invariant);
    current_run().hooks->invariant(self);
  }
};

}  // namespace lfcheck::model
