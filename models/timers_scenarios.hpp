// Timer scenarios (structure "timers"), written once against the Sync policy.
// The model runner instantiates each with RelacySync for every seeded fault.
//
// Every scenario uses a virtual clock that stands at 10 while the threads run
// (so "due" and "not due" are fixed), two workers, and one or two timers whose
// callback counts its firings and checks it never fires before its when. after()
// then settles everything single-threaded (advance the clock, run every worker)
// and checks the Stop/Reset contract by accounting: for each timer,
//   arms started - arms ended == 1 if it is still armed, else 0,
// where an arm ends by firing (one-shot), by a stop that returned true, or by a
// reset that returned true; plus check_invariants() (heaps, owners, counters).
#pragma once

#include <cstdint>

#include <limits>

#include "harness/scenario.hpp"
#include "models/model_time.hpp"
#include "structures/timers/timers.hpp"

namespace lfcheck::timers_models {

constexpr std::int64_t kNow = 10;

struct FireRecord {
  int count = 0;
  std::int64_t when = -1;  // when of the last firing
  std::int64_t now = -1;
};

// SetSync, ClockT: the timers' policy and clock (timed_sleep uses ModelTimeSync
// and ModelTimeClock); Sync stays the scenario's checker.
template <class Sync, TimerFault F, class SetSync = Sync, class ClockT = VirtualClock<Sync>>
struct TimersCommon : ScenarioBase {
  using Clock = ClockT;
  using Set = TimerSet<SetSync, Clock, 4, F>;
  using Timer = typename Set::Timer;

  Clock clock{kNow};
  Set set{clock, 2};
  static constexpr int kTimers = 3;
  Timer timer[kTimers];
  FireRecord fired[kTimers];

  static void on_fire(void* arg, std::uint64_t, std::int64_t when, std::int64_t now) {
    auto* r = static_cast<FireRecord*>(arg);
    Sync::check(now >= when, "a timer fired before its when");
    ++r->count;
    r->when = when;
    r->now = now;
  }
  void init_timers() {
    for (int i = 0; i < kTimers; ++i) timer[i].init(&on_fire, &fired[i]);
  }
  void add(unsigned w, int i, std::int64_t when) {
    Sync::check(set.add(w, timer[i], when) == TimerError::ok, "add of a fresh timer failed");
  }
  bool armed(int i) const { return set.armed_when_quiescent(timer[i]) != kTimerNever; }
  void check_invariants() {
    Timer* all[kTimers] = {&timer[0], &timer[1], &timer[2]};
    Sync::check(set.check_invariants(all, kTimers) == nullptr, "timer invariants violated");
  }
  // Single-threaded: runs every worker until nothing is due at `to`.
  void settle(std::int64_t to) {
    set.advance(to);
    for (unsigned w = 0; w < set.workers(); ++w) set.run_due(w);
    check_invariants();
  }
};

// Stop races the owner running the (due) timer: the callback runs at most once,
// and exactly one of "it ran" and "stop returned true" happens.
template <class Sync, TimerFault F>
struct StopVsRun : TimersCommon<Sync, F> {
  static constexpr const char* name = "stop_vs_run";
  static constexpr const char* description = "owner runs a due one-shot timer while another thread stops it";
  static constexpr unsigned threads = 2;
  bool stopped = false;
  void before() {
    this->init_timers();
    this->add(0, 0, 5);
  }
  void thread(unsigned i) {
    if (i == 0) this->set.run_due(0);
    else stopped = this->set.stop(this->timer[0]);
  }
  void after() {
    this->settle(100);
    Sync::check(this->fired[0].count + (stopped ? 1 : 0) == 1,
                "stop's result and the callback disagree (both, or neither)");
    Sync::check(!this->armed(0), "a one-shot timer is still armed");
  }
};

// Stop and reset (from worker 1) race the owner running the due timer. Two arms
// (the add, the reset); each ends exactly once: by firing, by stop() == true, or
// by reset() == true (the reset cancelled the first arm).
template <class Sync, TimerFault F>
struct StopResetVsRun : TimersCommon<Sync, F> {
  static constexpr const char* name = "stop_reset_vs_run";
  static constexpr const char* description =
      "owner runs a due timer while one thread stops it and another resets it (to 20)";
  static constexpr unsigned threads = 3;
  bool stopped = false, reset_armed = false;
  void before() {
    this->init_timers();
    this->add(0, 0, 5);
  }
  void thread(unsigned i) {
    if (i == 0) this->set.run_due(0);
    else if (i == 1) stopped = this->set.stop(this->timer[0]);
    else reset_armed = this->set.reset(1, this->timer[0], 20);
  }
  void after() {
    this->settle(100);
    const int ends = this->fired[0].count + (stopped ? 1 : 0) + (reset_armed ? 1 : 0);
    Sync::check(ends == 2, "an arm fired and was also stopped/reset, or was lost");
    Sync::check(this->fired[0].count <= 2, "a timer fired more often than it was armed");
  }
};

// A thread on worker 1 resets (earlier) a timer on worker 0's heap while the
// owner cleans/adjusts/runs: the owner re-sites it (ModifiedEarlier -> Moving ->
// Waiting) and it fires exactly once, at the new when.
template <class Sync, TimerFault F>
struct ResetVsAdjust : TimersCommon<Sync, F> {
  static constexpr const char* name = "reset_vs_adjust";
  static constexpr const char* description =
      "reset (earlier, from worker 1) of a timer on worker 0's heap vs worker 0's run (adjust)";
  static constexpr unsigned threads = 2;
  bool was_armed = false;
  void before() {
    this->init_timers();
    this->add(0, 1, 30);  // the head: not due
    this->add(0, 0, 50);  // reset to 5 below: must be found by adjust
  }
  void thread(unsigned i) {
    if (i == 0) this->set.run_due(0);
    else was_armed = this->set.reset(1, this->timer[0], 5);
  }
  void after() {
    Sync::check(was_armed, "reset of an armed timer returned false");
    this->settle(kNow);
    Sync::check(this->fired[0].count == 1, "the reset timer did not fire exactly once");
    Sync::check(this->fired[0].when == 5, "the reset timer fired at its old when");
    Sync::check(this->fired[1].count == 0, "a timer fired before it was due");
    this->settle(100);
    Sync::check(this->fired[0].count == 1 && this->fired[1].count == 1, "a timer was lost or fired twice");
  }
};

// Two resets of one armed timer race (from both workers) while its owner runs
// (and adjusts): both see it armed, it stays armed once, and fires exactly once
// at one of the two new whens.
template <class Sync, TimerFault F>
struct TwoResets : TimersCommon<Sync, F> {
  static constexpr const char* name = "two_resets";
  static constexpr const char* description =
      "two threads reset the same armed timer (to 20 and 30) while its owner runs";
  static constexpr unsigned threads = 3;
  bool r[2] = {false, false};
  void before() {
    this->init_timers();
    this->add(0, 1, 40);
    this->add(0, 0, 50);
  }
  void thread(unsigned i) {
    if (i == 2) this->set.run_due(0);
    else r[i] = this->set.reset(i, this->timer[0], i == 0 ? 20 : 30);
  }
  void after() {
    Sync::check(r[0] && r[1], "a reset of an armed timer returned false");
    const std::int64_t when = this->set.armed_when_quiescent(this->timer[0]);
    Sync::check(when == 20 || when == 30, "after two resets the timer is not armed at either when");
    this->settle(100);
    Sync::check(this->fired[0].count == 1, "the timer did not fire exactly once");
    Sync::check(this->fired[0].when == when, "the timer fired at a when nobody set last");
  }
};

// One thread stops a timer and resets (earlier) the last one on the heap while
// the owner runs: the owner's adjust removes the deleted timer from the middle of
// the heap (the last entry moves into its slot) and must still re-site the reset
// timer, which then fires at its new when.
template <class Sync, TimerFault F>
struct StopResetVsAdjust : TimersCommon<Sync, F> {
  static constexpr const char* name = "stop_reset_vs_adjust";
  static constexpr const char* description =
      "stop of a mid-heap timer + reset (earlier) of the last one vs the owner's run/adjust";
  static constexpr unsigned threads = 2;
  bool stopped = false, was_armed = false;
  void before() {
    this->init_timers();
    this->add(0, 2, 30);  // head, not due
    this->add(0, 1, 40);  // stopped below
    this->add(0, 0, 50);  // last entry; reset to 5 below
  }
  void thread(unsigned i) {
    if (i == 0) {
      this->set.run_due(0);
    } else {
      stopped = this->set.stop(this->timer[1]);
      was_armed = this->set.reset(1, this->timer[0], 5);
    }
  }
  void after() {
    Sync::check(stopped && was_armed, "stop/reset of an armed timer returned false");
    this->settle(kNow);
    Sync::check(this->fired[0].count == 1 && this->fired[0].when == 5,
                "the reset timer did not fire at its new when");
    this->settle(100);
    Sync::check(this->fired[1].count == 0, "a stopped timer fired");
    Sync::check(this->fired[0].count == 1 && this->fired[2].count == 1, "a timer was lost or fired twice");
  }
};

// Stop races the shutdown of the timer's worker (its timers move to worker 0).
template <class Sync, TimerFault F>
struct StopVsMove : TimersCommon<Sync, F> {
  static constexpr const char* name = "stop_vs_move";
  static constexpr const char* description = "stop of a timer on worker 1 vs shutdown of worker 1 (moves to 0)";
  static constexpr unsigned threads = 2;
  bool stopped = false;
  void before() {
    this->init_timers();
    this->add(1, 0, 50);
  }
  void thread(unsigned i) {
    if (i == 0) stopped = this->set.stop(this->timer[0]);
    else Sync::check(this->set.shutdown_worker(1, 0) == TimerError::ok, "shutdown failed");
  }
  void after() {
    Sync::check(stopped, "stop of an armed timer returned false");
    Sync::check(this->set.heap_size_quiescent(1) == 0, "the shut-down worker kept timers");
    this->settle(100);
    Sync::check(this->fired[0].count == 0, "a stopped timer fired");
    Sync::check(this->set.add(1, this->timer[1], 5) == TimerError::worker_shut_down,
                "add through a shut-down worker was accepted");
  }
};

// A timer due now is added to a worker whose owner sleeps until a later timer:
// the add must wake it (with the wake-up lost, the owner sleeps forever: deadlock).
template <class Sync, TimerFault F>
struct AddVsSleepingOwner : TimersCommon<Sync, F> {
  static constexpr const char* name = "add_vs_sleeping_owner";
  static constexpr const char* description =
      "owner loops run_once (sleeps until 100) while another thread adds a timer due now";
  static constexpr unsigned threads = 2;
  void before() {
    this->init_timers();
    this->add(0, 1, 100);
  }
  void thread(unsigned i) {
    if (i == 0) {
      while (this->fired[0].count == 0) this->set.run_once(0);
    } else {
      this->add(0, 0, 5);
    }
  }
  void after() {
    Sync::check(this->fired[0].count == 1 && this->fired[1].count == 0, "wrong timers fired");
    this->check_invariants();
  }
};

// The callback re-arms its own timer (an AfterFunc that reschedules itself)
// while another thread stops it. Re-arming goes through the owner's lock, so
// the callback must run without it.
template <class Sync, TimerFault F>
struct CallbackRearms : TimersCommon<Sync, F> {
  static constexpr const char* name = "callback_rearms";
  static constexpr const char* description =
      "a due timer's callback resets it (to 50) while another thread stops it";
  static constexpr unsigned threads = 2;
  bool stopped = false;
  bool rearm_result = false;
  int fires = 0;
  static void rearm(void* arg, std::uint64_t, std::int64_t when, std::int64_t now) {
    auto* self = static_cast<CallbackRearms*>(arg);
    Sync::check(now >= when, "a timer fired before its when");
    if (++self->fires == 1) self->rearm_result = self->set.reset(0, self->timer[0], 50);
  }
  void before() {
    this->timer[0].init(&rearm, this);
    this->add(0, 0, 5);
  }
  void thread(unsigned i) {
    if (i == 0) this->set.run_due(0);
    else stopped = this->set.stop(this->timer[0]);
  }
  void after() {
    Sync::check(!rearm_result, "reset of a timer that had just fired returned true");
    // arms: the add, plus the callback's reset; ends: the first firing, stop.
    const int arms = 1 + (fires > 0 ? 1 : 0);
    const int ends = (fires > 0 ? 1 : 0) + (stopped ? 1 : 0);
    Sync::check(arms - ends == (this->armed(0) ? 1 : 0), "an arm was lost, or ended twice");
    this->check_invariants();
  }
};

// A worker on a clock that is not virtual sleeps with a timed wait (run_once's
// wait_for_ns branch). ModelTimeClock/ModelTimeSync (models/model_time.hpp):
// Relacy may time the wait out at any point and a time-out moves the model's
// time forward by the time waited — the only way time passes. The owner loops
// run_once towards a timer due at INT64_MAX - 1 while another thread adds one
// due at 50 (earlier than the owner's deadline: the add wakes it). Both fire
// once, when due, and every execution timed out of a timed wait (the far timer
// is due only once time has passed).
template <class Sync, TimerFault F>
struct TimedSleep : TimersCommon<Sync, F, ModelTimeSync<Sync>, ModelTimeClock<kNow>> {
  static constexpr const char* name = "timed_sleep";
  static constexpr const char* description =
      "owner loops run_once on a real-time clock (timed sleeps) towards a timer due at INT64_MAX-1 "
      "while another thread adds one due at 50";
  static constexpr std::int64_t kFar = std::numeric_limits<std::int64_t>::max() - 1;
  static constexpr unsigned threads = 2;
  void before() {
    this->init_timers();
    this->add(0, 1, kFar);
  }
  void thread(unsigned i) {
    if (i == 0) {
      while (this->fired[0].count + this->fired[1].count < 2) this->set.run_once(0);
    } else {
      this->add(0, 0, 50);
    }
  }
  void after() {
    Sync::check(this->fired[0].count == 1 && this->fired[1].count == 1, "a timer did not fire exactly once");
    Sync::check(this->fired[1].when == kFar && this->fired[1].now >= kFar, "the far timer fired off its when");
    const ModelTime& t = ModelTime::get();
    Sync::check(t.timed_waits >= 1 && t.timeouts >= 1, "the worker never timed out of a timed wait");
    this->check_invariants();
  }
};

}  // namespace lfcheck::timers_models
