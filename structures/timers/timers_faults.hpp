// Seeded faults of the Go-style timers (structure "timers"). Each is a
// compile-time variant of TimerSet (its last template parameter); `none` is the
// correct code and the production default. Every fault re-creates a bug the Go
// runtime's per-P timers (go1.14 .. go1.22) actually had; the catalogue entry says
// which layer must catch it, and tests/check_faults_caught.sh holds it to that.
#pragma once

#include "harness/fault_catalogue.hpp"

namespace lfcheck {

enum class TimerFault {
  none,
  wake_while_modifying,  // reset wakes the owner (takes its lock) while still holding Modifying
  owner_after_cas,       // stop reads the owner again after its Modifying -> Deleted CAS
  adjust_skips_next,     // adjust's swap-remove does not look at the timer swapped into slot i
  callback_under_lock,   // the run loop calls the callback with the heap lock held
  no_wakeup_on_add,      // add never wakes a worker sleeping past the new timer's when
  run_without_claim,     // the run loop claims a timer with load-then-store instead of a CAS
  stop_false_while_modifying,  // stop that lost its CAS to a Modifying holder reports false
};

template <>
struct FaultTraits<TimerFault> {
  static constexpr const char* mechanism = "timers";
  static constexpr FaultInfo<TimerFault> catalogue[] = {
      {TimerFault::wake_while_modifying, "timers.wake_while_modifying",
       "reset of a timer on another worker's heap takes that worker's lock to wake it while "
       "the timer is still Modifying; the owner spins on the Modifying timer with its lock "
       "held, so neither makes progress (livelock/hang)",
       "golang/go#38070 (timer left in timerModifying while its modifier is descheduled)",
       "model"},
      {TimerFault::owner_after_cas, "timers.owner_after_cas",
       "stop reads the timer's owner after publishing Deleted; the owner may already have "
       "removed the timer and cleared the field (data race, null or wrong worker's counter)",
       "golang/go#35367 (deltimer must fetch t.pp before changing status)", "model"},
      {TimerFault::adjust_skips_next, "timers.adjust_skips_next",
       "adjust removes a deleted or modified timer by moving the last one into its slot and "
       "then steps past that slot: the moved timer is never adjusted, so a timer reset to fire "
       "earlier fires late",
       "golang/go#47762 (a heap change during the adjust scan makes it skip a timer)",
       "model,props,stress"},
      {TimerFault::callback_under_lock, "timers.callback_under_lock",
       "the callback runs while the worker's heap lock is held; a callback that re-arms a "
       "timer on its worker locks that lock again (self-deadlock)",
       "golang/go#35532 (timer function run with timersLock held: deadlock)", "model"},
      {TimerFault::no_wakeup_on_add, "timers.no_wakeup_on_add",
       "add does not wake a worker that sleeps until a later deadline: the new timer is not "
       "run until something else wakes the worker (lost wake-up)",
       "golang/go#44868 (no wake-up of a sleeping P when a timer is added to it)", "model"},
      {TimerFault::run_without_claim, "timers.run_without_claim",
       "the run loop sees Waiting and then stores Running instead of a CAS: a concurrent stop "
       "that wins in between returns true and the callback runs anyway",
       "check-then-act on the status word (what every transition by CAS prevents)",
       "model"},  // stress (TSan) usually catches it too, but it needs the race window: not every run
      {TimerFault::stop_false_while_modifying, "timers.stop_false_while_modifying",
       "stop, having lost its CAS to a reset/modify/add that now holds the timer in Modifying, "
       "reports false instead of waiting and looking again: the timer stays armed and fires later, "
       "so every count, the arm accounting and the invariants hold, but Stop said the timer had "
       "expired or been stopped while it was armed throughout (only linearizability sees it)",
       "treating a transient status as a final answer: Go's deltimer waits (osyield) on "
       "timerModifying for simultaneous calls to deltimer and modtimer, because Stop may return "
       "false only for a timer that expired or was stopped",
       "lin"},
  };
};

}  // namespace lfcheck
