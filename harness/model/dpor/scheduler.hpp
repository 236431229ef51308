// dpor_scheduler<N>: exhaustive model checking by dynamic partial-order reduction,
// as a Relacy scheduler (lfcheck's own class deriving from rl::scheduler, run by
// rl::run_test through AnyScheduler: no Relacy header changed).
//
// Relacy runs the scenario; at every scheduling point it asks this class which
// thread goes next, and at every other choice (which store a load reads, a
// spurious CAS failure, a deferred free, a user's random number) which value. This
// class answers from the search (exploration.hpp: source-DPOR with sleep sets over
// the choices' tree), learning what each step touched from the Sync policy's
// announcements (sync/relacy_access.hpp; dependence in footprint.hpp), parks a
// spin loop's thread until someone writes what it read (awaits.hpp), and holds a
// thread back from a mutex another thread holds (waiting_for_mutex).
//
// A step of thread t runs from the scheduling point t was chosen at to its next
// one: it begins with the operation t announced before that point (an atomic
// access, a seq_cst fence, a lock, a wait, a notify, a spin hint; nothing for a
// thread's first step; for a thread that parked, the operation it parked in) and
// includes every access announced until t's next scheduling point (cells,
// allocations, frees, other fences). A scheduling point with no announcement (an
// operation the Sync policy did not name) begins a step the search does not know:
// dependent on every step (Op::unknown), never an empty footprint. The scenario's
// constructor, before() and after() are single-threaded: their accesses order
// nothing, but their allocations and frees meet the threads' in the allocator's
// reuse pool; invariant(), which Relacy evaluates at every scheduling point, reads
// the state the step ending there left: its accesses belong to that step
// (harness_announce).
//
// Relacy's choices as explored here:
//   - which store a load reads: every choice Relacy's model offers for the run's
//     load depth (1 store back under a tree search's parameters, 2 under a
//     sampled run's: `dpor_settings().load_depth`);
//   - spurious failures of compare_exchange_weak: at most one per atomic object
//     per execution (as Relacy's tree searches allow);
//   - whether a free is deferred (Relacy's allocator reuse): both;
//   - a timed wait timing out: a choice of that thread at every scheduling point
//     while it waits (its step is the wake-up and the re-lock);
//   - spurious wake-ups of condition variables: not explored (as in Relacy's tree
//     searches; code must not rely on their absence, and sampled runs have them).
// A replay state ("dpor n c1 .. cn", get_state) re-runs exactly one execution.
//
// Addresses: the search compares steps of different executions (a node's
// footprints are unions over the executions through it; sleep sets compare them
// with the current one), but Relacy's allocator hands a block out at an address
// that depends on what earlier executions freed last. So every address inside a
// block the code allocated (Sync::create, in a thread or in the scenario's
// constructor) is named by the block's canonical name, stable across executions
// with the same choices: who allocated it (the harness, or thread t), its number
// among their allocations, and the offset (canonical_address). Other addresses
// (the scenario object, globals) do not move between executions.
//
// Cost per execution: the steps' footprints, a lookup of each address among the
// execution's blocks, and a race analysis of the steps not shared with the
// previous execution, O(new steps × steps) (exploration.hpp).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <istream>
#include <ostream>

#include "harness/model/dpor/awaits.hpp"
#include "harness/model/dpor/exploration.hpp"
#include "harness/model/simulation.hpp"
#include "sync/relacy_access.hpp"
#include "sync/relacy_sync.hpp"

namespace lfcheck::model {

// What the next dpor simulation uses (one simulation at a time per process).
struct DporSettings {
  unsigned load_depth = 1;  // stores back a load may read: 1 (tree searches) or 2 (sampled runs)
};
inline DporSettings& dpor_settings() {
  static DporSettings settings;
  return settings;
}

// The search's counts, published after every execution (the progress line, the
// run's record).
inline dpor::SearchStats& dpor_stats() {
  static dpor::SearchStats stats;
  return stats;
}

// Where an announced access goes: the next step (a scheduling point follows it),
// or the running step (it is done before the next scheduling point).
inline bool starts_a_step(Op op) {
  return op == Op::load || op == Op::store || op == Op::rmw || op == Op::fence_seq_cst || op == Op::spin ||
         op == Op::lock || op == Op::unlock || op == Op::wait || op == Op::notify;
}

static_assert(unsigned(dpor::kLoadChoice) == rl::sched_type_atomic_load && unsigned(dpor::kCasFailChoice) == rl::sched_type_cas_fail &&
                  unsigned(dpor::kFreeDeferChoice) == rl::sched_type_mem_realloc && unsigned(dpor::kUserChoice) == rl::sched_type_user,
              "dpor's choice kinds are Relacy's sched_type values");

template <rl::thread_id_t N>
class dpor_scheduler : public rl::scheduler<dpor_scheduler<N>, rl::scheduler_thread_info, N>,
                       public SchedulerObserver {
  static_assert(N <= static_cast<rl::thread_id_t>(dpor::kMaxThreads), "dpor: too many threads");

 public:
  using base_t = rl::scheduler<dpor_scheduler<N>, rl::scheduler_thread_info, N>;
  using thread_info_t = typename base_t::thread_info_t;
  using shared_context_t = typename base_t::shared_context_t;
  struct task_t {};

  dpor_scheduler(rl::test_params& params, shared_context_t& ctx, rl::thread_id_t dynamic_thread_count)
      : base_t(params, ctx, dynamic_thread_count), search_(N) {
    dpor_stats() = {};
    scheduler_observer() = this;
    search_.count_graphs(std::getenv("LFCHECK_DPOR_STATS") != nullptr);  // a developer's figure: its cost is per execution
  }
  ~dpor_scheduler() {
    if (scheduler_observer() == this) scheduler_observer() = nullptr;
    if (std::getenv("LFCHECK_DPOR_STATS")) {  // where the tree is wide (a developer's view)
      const dpor::SearchStats& st = search_.stats();
      std::fprintf(stderr,
                   "dpor: %llu executions, %llu sleep-set blocked, %llu races; nodes made: %llu thread, %llu load, "
                   "%llu cas-fail, %llu free-defer, %llu user; deepest path %zu; alternatives taken: %llu thread, %llu load, "
                   "%llu cas-fail, %llu free-defer, %llu user; pruned: %llu free deferrals, %llu older loads; "
                   "distinct graphs (reads-from, coherence) %llu\n",
                   (unsigned long long)st.executions, (unsigned long long)st.sleep_blocked,
                   (unsigned long long)st.races, (unsigned long long)st.thread_nodes,
                   (unsigned long long)st.data_nodes[1], (unsigned long long)st.data_nodes[2],
                   (unsigned long long)st.data_nodes[3], (unsigned long long)st.data_nodes[4], st.deepest,
                   (unsigned long long)st.alternatives[0], (unsigned long long)st.alternatives[1],
                   (unsigned long long)st.alternatives[2], (unsigned long long)st.alternatives[3],
                   (unsigned long long)st.alternatives[4], (unsigned long long)st.pruned_frees,
                   (unsigned long long)st.pruned_loads, (unsigned long long)st.graphs);
    }
  }

  rl::thread_id_t iteration_begin_impl() {
    search_.begin_execution();
    awaits_.reset();
    for (unsigned t = 0; t < N; ++t) {
      pending_[t] = dpor::Touch{};
      has_pending_[t] = false;
      started_[t] = false;
      has_last_op_[t] = false;  // (an earlier execution's must not leak into this one's steps)
      unknown_next_[t] = false;
    }
    step_.clear();
    running_ = kNone;
    spurious_.clear();
    blocks_.clear();
    freed_.clear();
    for (auto& n : allocations_) n = 0;
    mutex_owners_.clear();
    for (auto& p : wait_phase_) p = WaitPhase::none;
    for (unsigned t = 0; t < N; ++t) {
      give_ways_[t] = 0;
      need_[t] = GiveWayNeed{};
      after_[t] = AfterStep{};
    }
    yielders_ = 0;
    first_ = search_.choose_thread(enabled_mask(), 0);
    begin_step(first_);
    return static_cast<rl::thread_id_t>(first_);
  }

  bool iteration_end_impl() {
    if (running_ != kNone) close_step(running_, false);
    // An execution that did not follow its path — a last step that was not the
    // one its node started, or an end before the choices the path holds — ends the
    // search: the run reports NONDETERMINISTIC SCENARIO (run.cpp reads
    // dpor_stats().diverged), never a search that ended.
    if (!search_.replayed_whole_path()) {
      publish();
      return true;
    }
    const bool finished = search_.end_execution();
    publish();
    return finished;
  }

  rl::thread_id_t schedule_impl(rl::unpark_reason& reason, unsigned yield) {
    thread_info_t* current = this->thread_;
    const unsigned t = static_cast<unsigned>(current->index_);
    const bool spin = yield && current->state_ == rl::thread_state_running && has_pending_[t] &&
                      pending_[t].op == Op::spin;
    if (current->state_ == rl::thread_state_finished && has_pending_[t]) {
      step_.add(pending_[t]);  // done without a scheduling point of its own
      has_pending_[t] = false;
    }
    close_step(t, current->state_ == rl::thread_state_blocked);
    // The first thread runs the scenario's constructor and before() on its fiber,
    // so Relacy takes it to have seen their stores; after a yield a thread cannot
    // read a store older than one it saw before the yield (relacy/thread.hpp,
    // get_load_index: a spinner must see progress). So once the first thread
    // yields, which thread went first decides which stale reads are possible:
    // every thread is then explored as the first.
    if (spin && t == first_) search_.every_thread_first();
    if (search_.diverged_flag()) {  // the step just closed was not the one its node started
      nondeterministic();
      return current->index_;  // not reached
    }
    // A scheduling point of a thread that goes on, with no announcement of what it
    // is about to do: not a Sync operation (an rl:: object used directly, an
    // atomic's initialising store in a constructor RelacySync does not see). The
    // next step of t is unknown to the search: dependent on every step (never an
    // empty footprint). A waiter woken from its condition variable reaches the
    // re-lock's scheduling point unannounced: that step is known (begin_step).
    if (current->state_ == rl::thread_state_running && !has_pending_[t] && wait_phase_[t] != WaitPhase::relocking)
      unknown_next_[t] = true;
    // A spin hint: an iteration that changed nothing parks the thread until a
    // write it read (awaits.hpp); one that did gives way (give_way below).
    if (yield) yielders_ |= dpor::bit(t);
    if (spin && !awaits_.hint(t)) give_way(t);

    dpor::ThreadMask enabled = enabled_mask();
    // Not run into a mutex another thread holds (waiting_for_mutex) — unless no
    // other thread can run: then they park in Relacy, which reports the deadlock.
    const dpor::ThreadMask waiting = enabled & waiting_for_mutex();
    if ((enabled & ~waiting) != 0) enabled &= ~waiting;
    // Runnable, but held back by a give-way whose count of other threads' steps
    // is not reached — unless every thread that can run is held: then they run
    // (Relacy purges its held threads when no thread can run).
    const dpor::ThreadMask holding = held_back();
    dpor::ThreadMask held = 0;
    if ((enabled & ~holding) != 0) {
      held = enabled & holding;
      enabled &= ~holding;
    }
    if (enabled == 0) {
      // Every live thread waits in a spin loop for a write no thread will make
      // (or is blocked): a livelock, as Relacy's depth limit would call it.
      rl::ctx().fail_test("livelock: every live thread waits in a spin loop for a write no thread will make",
                          rl::test_result_livelock, RL_INFO);
      return current->index_;  // not reached: fail_test leaves this fiber for good
    }
    const unsigned next = search_.choose_thread(enabled, t, held);
    if (next == dpor::Exploration::kDiverged) {
      nondeterministic();
      return current->index_;  // not reached
    }
    reason = rl::unpark_reason_normal;
    if (this->threads_[next].state_ == rl::thread_state_blocked) {
      // A timed wait, timing out now.
      this->unpark_thread(static_cast<rl::thread_id_t>(next));
      reason = rl::unpark_reason_timeout;
    }
    begin_step(next);
    return static_cast<rl::thread_id_t>(next);
  }

  unsigned rand_impl(unsigned limit, rl::sched_type type) {
    unsigned count = limit;
    if ((type == rl::sched_type_cas_fail || type == rl::sched_type_mem_realloc) && limit == 4)
      count = 2;  // a sampled run's 1-in-4 draw: 0 is the rare outcome, 1..3 the same other one
    if (type == rl::sched_type_cas_fail && limit == 4 && spurious_failed_here()) return 1;  // once per object
    if (count <= 1) return 0;
    // Whether a free is deferred (Relacy keeps the block out of reuse for a while):
    // explored for the blocks the code frees through Sync::destroy (in a thread or
    // in the scenario's single-threaded code: harness_announce); Relacy's own
    // bookkeeping blocks, freed when an atomic or cell is destroyed, are not the
    // code's and never compared by it: freed at once (the choice Relacy calls 1).
    if (type == rl::sched_type_mem_realloc && !frees_own_block()) return 1;
    std::uintptr_t load_addr = 0;  // a load's choice: the location the running step's load reads
    if (type == rl::sched_type_atomic_load && running_ != kNone && has_last_op_[running_] && last_op_[running_].op == Op::load)
      load_addr = last_op_[running_].addr;
    const unsigned value = search_.choose_value(count, static_cast<unsigned>(type), load_addr);
    if (value == dpor::Exploration::kDiverged) {
      nondeterministic();
      return 0;
    }
    // A load of an older store, a spurious CAS failure: not what a re-run would do.
    if (running_ != kNone && ((type == rl::sched_type_atomic_load && value == 1) ||
                              (type == rl::sched_type_cas_fail && value == 0)))
      awaits_.unrepeatable(running_);
    if (type == rl::sched_type_cas_fail && value == 0 && limit == 4) spurious_.push_back(cas_address());
    return value;
  }

  rl::iteration_t iteration_count_impl() { return this->iter_ + 1; }

  void get_state_impl(std::ostream& out) { search_.write_choices(out); }
  void set_state_impl(std::istream& in) { search_.read_choices(in); }
  void on_thread_block(rl::thread_id_t, bool) {}

  // --- the Sync policy's announcements (forwarded by the runner) ---------------
  void announce(const Access& a) override {
    if (a.op == Op::alloc) search_.allocation();  // the free deferrals before it were observable
    if (running_ == kNone) return;
    const unsigned t = running_;
    const dpor::Touch touch = touch_of(a, t + 1);
    if (!starts_a_step(a.op)) {
      add_to_step(touch);
      return;
    }
    if (has_pending_[t]) step_.add(pending_[t]);  // it ran without a scheduling point of its own
    pending_[t] = touch;
    has_pending_[t] = true;
  }
  // The scenario's single-threaded code, by part:
  //   - invariant(): Relacy evaluates it at every scheduling point, between the
  //     step that ends there and the next — it observes the state each step
  //     leaves, so what it reads (and allocates, frees) belongs to the step that
  //     just ended, which is then dependent on every other step that writes what
  //     it read: the search explores their orders, and each intermediate state
  //     is seen (as the full search sees it);
  //   - the constructor, before(), after(): one thread runs, so their accesses
  //     order nothing; but a block they allocate is named (so that the threads'
  //     accesses to it are named alike in every execution) and takes from the
  //     allocator's reuse pool — it observes whether a free before it was
  //     deferred, in after() as in a thread — and a block they free waits in the
  //     pool like one a thread freed (a thread's allocation may get it), or is
  //     deferred.
  void harness_announce(const Access& a, HarnessPart part) override {
    if (a.op == Op::alloc) search_.allocation();  // the free deferrals before it were observable
    if (part == HarnessPart::invariant && running_ != kNone) {
      add_to_step(touch_of(a, running_ + 1));  // every access of it, loads included: no scheduling point follows
      return;
    }
    if (a.op == Op::alloc) allocated(a, 0);  // no thread runs: whether it took from the pool orders nothing
    else if (a.op == Op::free) freed(a);
  }
  void completed(bool wrote) override {
    if (wrote || running_ == kNone) return;
    // A failed compare-exchange read and wrote nothing: its step is a load.
    const unsigned t = running_;
    if (has_pending_[t] && pending_[t].op == Op::rmw) {
      pending_[t].op = Op::load;
      return;
    }
    for (auto& touch : step_.touches)
      if (touch.op == Op::rmw) {
        touch.op = Op::load;
        break;
      }
  }

 private:
  static constexpr unsigned kNone = ~0u;

  // An announcement as the running step keeps it (`allocator`: t + 1 for thread
  // t): canonical addresses; an allocation named and its reuse-pool effect
  // decided (allocated); a free put in the pool, with its block's size.
  dpor::Touch touch_of(const Access& a, unsigned allocator) {
    dpor::Touch touch;
    touch.addr = canonical_address(reinterpret_cast<std::uintptr_t>(a.addr));
    touch.size = a.size;
    touch.op = a.op;
    touch.seq_cst = a.seq_cst || a.op == Op::fence_seq_cst;
    touch.other = a.other ? canonical_address(reinterpret_cast<std::uintptr_t>(a.other)) : 0;
    touch_writes_pool_ = a.op == Op::free || (a.op == Op::alloc && allocated(a, allocator));  // footprint.hpp
    if (a.op == Op::free) {
      touch.size = freed(a);
      touch.other = 0;
    }
    return touch;
  }
  // An access done before the running step's next scheduling point.
  void add_to_step(const dpor::Touch& touch) {
    if (touch.op != Op::fence) step_.add(touch);  // an acquire/release fence orders nothing here
    if (touch.block()) step_.add(dpor::reuse_pool_touch(touch_writes_pool_));
  }

  dpor::ThreadMask enabled_mask() const {
    dpor::ThreadMask m = 0;
    for (rl::thread_id_t i = 0; i != this->running_threads_count; ++i) {
      const unsigned t = static_cast<unsigned>(this->running_threads[i]);
      if (!awaits_.awaiting(t)) m |= dpor::bit(t);
    }
    for (rl::thread_id_t i = 0; i != this->timed_thread_count_; ++i)
      m |= dpor::bit(static_cast<unsigned>(this->timed_threads_[i]->index_));
    return m;
  }

  void begin_step(unsigned t) {
    running_ = t;
    take_give_way(t);
    step_.clear();
    own_frees_ = 0;
    resumed_ = !has_pending_[t] && started_[t] && has_last_op_[t];
    if (unknown_next_[t]) {  // it begins at a scheduling point no announcement named
      dpor::Touch unknown;
      unknown.op = Op::unknown;
      step_.add(unknown);
      last_op_[t] = unknown;
      has_last_op_[t] = true;
      unknown_next_[t] = false;
      resumed_ = false;
    } else if (has_pending_[t]) {
      step_.add(pending_[t]);
      last_op_[t] = pending_[t];
      has_last_op_[t] = true;
      has_pending_[t] = false;
    } else if (started_[t] && has_last_op_[t]) {
      dpor::Touch resumed = last_op_[t];  // it parked in this operation and goes on with it
      // Woken from a condition variable, a waiter only reaches the re-lock's
      // scheduling point: it touches the condition variable (a notify woke it, a
      // time-out took it out of the wait set), not the mutex (track_mutexes).
      if (resumed.op == Op::wait && wait_phase_[t] == WaitPhase::on_condvar) resumed.other = 0;
      step_.add(resumed);
    }
    started_[t] = true;
    for (auto addr : awaits_.take_resumed(t)) {  // woken from an await: it reads again what it waited on
      dpor::Touch read;
      read.addr = addr;
      read.op = Op::load;
      step_.add(read);
    }
  }

  // --- give-ways: a retry's spin hint --------------------------------------------
  // A spin loop whose iteration wrote (a compare-exchange retry, a loop that
  // stores while it waits) is not an await: it gives way at its hint. Relacy's
  // tree searches hold a yielding thread back by its yield priorities
  // (relacy/full_search_scheduler.hpp, yield_priority and schedule_impl): at a
  // yield of t, every other live thread y whose count of scheduling points made
  // while holding a thread (since t's previous yield) is 0 holds t, until each
  // such y reaches its next scheduling point; with no thread able to run, every
  // held thread runs. DPOR does not copy that rule: which thread holds whom
  // depends on where the others' steps fall between t's hints, so exploring it
  // would order each give-way against every other step (tried: the README's
  // 2x2 treiber enumeration no longer ended). It holds t by a weaker rule that
  // lets through every schedule Relacy's rule lets through, and still bounds a
  // retry loop by the other threads' progress:
  //   - t's give-ways 1, 3, 5, ... (the odd ones), while no other thread has
  //     yielded in this execution (any spin hint): the step after give-way
  //     2m-1 waits until every other thread has taken m steps in all (or
  //     finished). Then a holder y only ever holds t, so from y's side Relacy
  //     alternates: a hint right after one y held is free of y (y counted while
  //     holding), any other is held by y — among t's hints 1..2m-1 at least m
  //     held by y, each until a step of y after it: m distinct steps of y before
  //     the step after hint 2m-1. (t's hints that park it as an await are hints
  //     too: counting only its give-ways asks for fewer steps.)
  //   - once another thread has yielded (three or more threads): t's give-ways
  //     2, 4, 6, ...: the step after give-way 2m waits until the other threads
  //     have taken m steps together (or all finished). Two hints of t with no
  //     other step between them: the second holds t in Relacy (nobody counted
  //     since the first), so each pair of hints (2j-1, 2j) has another thread's
  //     step before the step after 2j.
  // Whether t waits now depends only on how many steps the others took and
  // whether another thread yielded, never on where those fell: a step or a yield
  // of another thread moved earlier only lets t go sooner, so the reduction's
  // equivalences (sleep sets, reversed races) hold as for any step that enables
  // another. With two threads the step t waited for is one step of one thread
  // (the other's m-th, or its last): the step after the give-way is ordered
  // after it (Exploration::end_step's `after`), so no reversal tries to run it
  // before that step. The DPOR fuzzer holds this to Relacy's full search at two
  // and three threads (model.dpor_fuzz, model.dpor_truth in tests/CMakeLists.txt).
  void give_way(unsigned t) {
    need_[t].active = true;
    need_[t].give_way = ++give_ways_[t];
  }
  bool finished(unsigned u) const { return this->threads_[u].state_ == rl::thread_state_finished; }
  // Whether t's next step still waits for the other threads' steps.
  bool waits_for_others(unsigned t) const {
    const GiveWayNeed& need = need_[t];
    if (!need.active) return false;
    const std::uint32_t k = need.give_way;
    if (N == 2 || !(yielders_ & ~dpor::bit(t))) {
      if (k % 2 == 0) return false;
      for (unsigned u = 0; u < N; ++u)
        if (u != t && !finished(u) && search_.steps_of(u) < (k + 1) / 2) return true;
      return false;
    }
    if (k % 2 == 1) return false;
    std::uint32_t steps = 0;
    bool all_finished = true;
    for (unsigned u = 0; u < N; ++u) {
      if (u == t) continue;
      steps += search_.steps_of(u);
      all_finished = all_finished && finished(u);
    }
    return steps < k / 2 && !all_finished;
  }
  dpor::ThreadMask held_back() const {
    dpor::ThreadMask m = 0;
    for (unsigned t = 0; t < N; ++t)
      if (waits_for_others(t)) m |= dpor::bit(t);
    return m;
  }
  // t's step after a give-way begins: with two threads it is ordered after the
  // other's step it waited for (its m-th, or its last if it finished first); run
  // without it (every thread that could run was held), it is ordered after nothing.
  void take_give_way(unsigned t) {
    const GiveWayNeed need = need_[t];
    need_[t] = GiveWayNeed{};
    if (!need.active || N != 2 || need.give_way % 2 == 0) return;
    const unsigned other = 1 - t;
    const std::uint32_t want = (need.give_way + 1) / 2, done = search_.steps_of(other);
    if (done >= want) after_[t] = AfterStep{other, want};
    else if (finished(other) && done > 0) after_[t] = AfterStep{other, done};
  }

  // `blocked`: the step ended with t parked in Relacy (a wait, a lock it did not get).
  void close_step(unsigned t, bool blocked) {
    if (running_ != t) return;
    awaits_.step(t, step_, N);
    const std::uintptr_t acquired = track_mutexes(t, blocked);
    search_.end_step(t, std::move(step_), acquired, after_[t].thread, after_[t].seq);
    after_[t] = AfterStep{};
    step_ = dpor::Footprint{};
    running_ = kNone;
  }

  // --- mutexes: who holds which ---------------------------------------------------
  // A thread about to lock a mutex another thread holds is not run until the
  // mutex is free. Run, it would only park in the mutex's wait set until the
  // unlock — a step that changes nothing Relacy's model orders, yet is dependent
  // on the holder's lock and unlock, so that every pair of critical sections would
  // be explored twice more (the second thread parked inside the first section, or
  // arriving after it), the same runs. Held back instead, the lock is a step only
  // where it succeeds; the order of two critical sections is then reversed at the
  // first one's lock (Exploration::lock_race).
  //
  // Tracked from the steps (a step's one synchronisation operation comes first):
  //   - a lock step that did not park took its mutex (a parked one takes it in the
  //     step that resumes: Relacy's lock retries without a scheduling point);
  //   - an unlock let it go;
  //   - a wait is three steps or more: the first lets the mutex go and parks on the
  //     condition variable; the next, once notified or timed out, only reaches the
  //     re-lock's scheduling point (Relacy's lock begins with one); from there the
  //     waiter is like a lock — not run while another thread holds the mutex, and
  //     its step that does not park takes it. A waiter still parked on the
  //     condition variable is not held back: a timed one may time out at any point,
  //     a held mutex or not (which notifies it misses depends on when).
  dpor::ThreadMask waiting_for_mutex() const {
    dpor::ThreadMask m = 0;
    for (unsigned t = 0; t < N; ++t) {
      std::uintptr_t wanted = 0;
      if (has_pending_[t] && pending_[t].op == Op::lock) wanted = pending_[t].addr;
      else if (!has_pending_[t] && wait_phase_[t] == WaitPhase::relocking) wanted = wait_mutex_[t];
      if (!wanted) continue;
      const unsigned owner = mutex_owner(wanted);
      if (owner != kNone && owner != t) m |= dpor::bit(t);
    }
    return m;
  }
  // Returns the mutex t's step took (0: none).
  std::uintptr_t track_mutexes(unsigned t, bool blocked) {
    std::uintptr_t acquired = 0;
    for (const auto& touch : step_.touches) {
      if (touch.op == Op::lock && !blocked) {
        set_mutex_owner(touch.addr, t);
        acquired = touch.addr;
      } else if (touch.op == Op::unlock) {
        set_mutex_owner(touch.addr, kNone);
      } else if (touch.op == Op::wait) {
        if (!resumed_) {  // the wait's first step: lets go, parks on the condition variable
          if (touch.other) set_mutex_owner(touch.other, kNone);
          wait_phase_[t] = WaitPhase::on_condvar;
          wait_mutex_[t] = touch.other;
        } else if (wait_phase_[t] == WaitPhase::on_condvar) {  // woken: at the re-lock's scheduling point
          wait_phase_[t] = WaitPhase::relocking;
        } else if (wait_phase_[t] == WaitPhase::relocking && !blocked) {  // the re-lock took it
          set_mutex_owner(wait_mutex_[t], t);
          acquired = wait_mutex_[t];
          wait_phase_[t] = WaitPhase::none;
        }
      }
    }
    return acquired;
  }
  unsigned mutex_owner(std::uintptr_t mutex) const {
    for (const auto& h : mutex_owners_)
      if (h.mutex == mutex) return h.owner;
    return kNone;
  }
  void set_mutex_owner(std::uintptr_t mutex, unsigned owner) {
    for (auto& h : mutex_owners_)
      if (h.mutex == mutex) {
        h.owner = owner;
        return;
      }
    mutex_owners_.push_back(MutexOwner{mutex, owner});
  }

  std::size_t block_size(std::uintptr_t addr) const {
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it)
      if (it->addr == addr) return it->size ? it->size : 1;
    return 1;
  }

  // Canonical names, bit by bit:
  //   63     1 (no user-space address has it)
  //   56-62  the allocator: 0 the harness, t + 1 thread t (N <= kMaxThreads = 16);
  //          127 is no allocator: dpor::kReusePool, the allocator's reuse pool
  //   32-55  the allocation's number among that allocator's, from 0
  //   0-31   the offset in the block
  // The latest block covering an address names it (a freed block's address may be
  // handed out again: the newer block's name; a stale access to a freed block that
  // was not reused keeps the freed block's name, dependent on its free). A block
  // past what the fields hold (the 2^24th allocation of one allocator, a block of
  // 4 GiB or more) keeps its raw addresses, as before names: consistent within an
  // execution, not across executions.
  void name_block(const Access& a, unsigned allocator) {
    const std::uint64_t number = allocations_[allocator]++;
    NamedBlock b;
    b.addr = reinterpret_cast<std::uintptr_t>(a.addr);
    b.size = a.size ? a.size : 1;
    const bool fits = number < (std::uint64_t(1) << 24) && b.size <= (std::uint64_t(1) << 32);
    b.name = fits ? (std::uint64_t(1) << 63) | (std::uint64_t(allocator) << 56) | (number << 32) : 0;
    blocks_.push_back(b);
  }
  // The code allocated a block (`allocator`: 0 the harness, t + 1 thread t): names
  // it, and returns whether the allocation changed the allocator's reuse pool (a
  // write of it, footprint.hpp). It did when the block lies where a block the
  // code freed in this execution was (Relacy handed that block out again; it
  // leaves the pool), and is taken to have done so whenever any such block is
  // still waiting — the blocks' sizes in Relacy's allocator (with its header, an
  // array's cookie, an over-aligned block's slack) are not known here, so which
  // of them this allocation could have got is not either. Only an allocation
  // with no freed block waiting is fresh to the execution, and reads the pool.
  bool allocated(const Access& a, unsigned allocator) {
    const auto addr = reinterpret_cast<std::uintptr_t>(a.addr);
    name_block(a, allocator);
    for (auto it = freed_.begin(); it != freed_.end(); ++it)
      if (dpor::ranges_overlap(addr, a.size, it->addr, it->size)) {
        freed_.erase(it);
        return true;
      }
    return !freed_.empty();
  }
  // The code freed a block (a thread, or the single-threaded code: a lin
  // prefix): it waits in the reuse pool, and whether Relacy defers it is a choice
  // (frees_own_block; one no allocation follows is pruned). Returns its size (an
  // array's, announced as 0, is the one its allocation announced).
  std::size_t freed(const Access& a) {
    const auto addr = reinterpret_cast<std::uintptr_t>(a.addr);
    const std::size_t size = a.size ? a.size : block_size(addr);
    freed_.push_back(FreedBlock{addr, size});
    ++own_frees_;  // the next hand-back is this block's
    return size;
  }
  std::uintptr_t canonical_address(std::uintptr_t addr) const {
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it)
      if (addr >= it->addr && addr - it->addr < it->size)
        return it->name ? static_cast<std::uintptr_t>(it->name + (addr - it->addr)) : addr;
    return addr;
  }

  // Whether the block Relacy's allocator is handed now is one the code freed
  // through Sync::destroy (announced just before), not Relacy's own bookkeeping.
  bool frees_own_block() {
    if (own_frees_ == 0) return false;
    --own_frees_;
    return true;
  }

  std::uintptr_t cas_address() const {
    if (running_ != kNone && has_pending_[running_] && pending_[running_].op == Op::rmw) return pending_[running_].addr;
    for (auto& touch : step_.touches)
      if (touch.op == Op::rmw) return touch.addr;
    return 0;
  }
  bool spurious_failed_here() const {
    const std::uintptr_t a = cas_address();
    for (auto s : spurious_)
      if (s == a) return true;
    return false;
  }

  void publish() {
    dpor_stats() = search_.stats();
    if (search_.diverged_flag()) dpor_stats().diverged = true;  // a step the path did not start (end_step)
  }

  // The scenario did not repeat the choices of the path it replays (it depends on
  // something besides the schedule): the execution ends as a failure the runner
  // reports as NONDETERMINISTIC SCENARIO (dpor_stats().diverged).
  void nondeterministic() {
    dpor_stats() = search_.stats();
    dpor_stats().diverged = true;
    rl::ctx().fail_test("NONDETERMINISTIC SCENARIO: an execution did not repeat the choices it replayed",
                        rl::test_result_user_assert_failed, RL_INFO);
  }

  dpor::Exploration search_;
  dpor::SpinAwaits awaits_;
  dpor::Footprint step_;  // the running step's accesses
  unsigned running_ = kNone;
  dpor::Touch pending_[N] = {}, last_op_[N] = {};
  bool has_pending_[N] = {}, started_[N] = {}, has_last_op_[N] = {};
  bool unknown_next_[N] = {};  // the next step of t begins at an unannounced scheduling point
  bool touch_writes_pool_ = false;  // touch_of's latest allocation or free changed the reuse pool
  struct NamedBlock {
    std::uintptr_t addr = 0;
    std::size_t size = 0;
    std::uint64_t name = 0;  // canonical_address's name of its first byte (0: keeps raw addresses)
  };
  dpor::raw_vector<NamedBlock> blocks_;  // the code's allocations of this execution, oldest first
  struct FreedBlock {
    std::uintptr_t addr = 0;  // raw address, as the allocation that reuses it will be announced
    std::size_t size = 0;
  };
  dpor::raw_vector<FreedBlock> freed_;  // blocks the code freed in this execution, not yet handed out again
  std::uint64_t allocations_[N + 1] = {};  // allocations so far: [0] the harness, [t + 1] thread t
  dpor::raw_vector<std::uintptr_t> spurious_;  // objects whose weak CAS failed spuriously
  // Give-ways (give_way), per thread: its give-ways so far this execution,
  // whether its next step comes right after one, and the step the running one
  // is ordered after.
  struct GiveWayNeed {
    bool active = false;          // t's next step comes right after a give-way
    std::uint32_t give_way = 0;   // which of t's give-ways (1-based)
  };
  struct AfterStep {
    unsigned thread = dpor::kNoThread;  // none
    std::uint32_t seq = 0;
  };
  std::uint32_t give_ways_[N] = {};
  GiveWayNeed need_[N] = {};
  dpor::ThreadMask yielders_ = 0;  // threads that yielded (any spin hint) in this execution
  AfterStep after_[N] = {};
  unsigned first_ = 0;  // the thread this execution began with (its fiber ran the constructor and before())
  bool resumed_ = false;  // the running step goes on with the operation its thread parked in
  struct MutexOwner {
    std::uintptr_t mutex = 0;  // canonical address of the Relacy mutex
    unsigned owner = kNone;    // the thread holding it (kNone: free)
  };
  dpor::raw_vector<MutexOwner> mutex_owners_;  // this execution's mutexes so far
  enum class WaitPhase { none, on_condvar, relocking };  // a thread inside a condition variable's wait
  WaitPhase wait_phase_[N] = {};
  std::uintptr_t wait_mutex_[N] = {};  // the mutex of that wait
  unsigned own_frees_ = 0;  // frees announced and not yet handed to the allocator
};

}  // namespace lfcheck::model
