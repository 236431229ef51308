// DeliQueue scenarios, written once against the Sync policy. The model runner
// instantiates each with RelacySync for every seeded fault.
//
// All but the timed ones (at the end) run on a virtual clock that stays at 0
// unless a scenario says otherwise: the Looper then parks without a timeout, so a
// lost wake-up is a DEADLOCK, not a late delivery. Messages are scenario members (owned by the scenario, as a
// caller owns its messages); `what` identifies them. Bookkeeping of the
// scenario itself is plain fields: Relacy runs all threads on one OS thread.
#pragma once

#include <cstdint>
#include <limits>

#include "harness/scenario.hpp"
#include "models/model_time.hpp"
#include "structures/deliqueue/deliqueue.hpp"

namespace lfcheck::deliqueue_models {

constexpr int kMax = 6;

// QSync, Clock: the queue's policy and clock (the timed scenarios use
// ModelTimeSync and ModelTimeClock); Sync stays the scenario's checker.
template <class Sync, DeliFault F, class QSync = Sync, class Clock = VirtualClock<Sync>>
struct Common : ScenarioBase {
  using Queue = DeliQueue<QSync, F, Clock>;
  using Msg = typename Queue::Msg;
  Msg m[kMax + 1];  // declared before q: still queued messages must outlive the queue
  Queue q;
  bool accepted[kMax + 1] = {};
  int delivered[kMax + 1] = {};
  int order[16] = {};  // `what` of each delivery, in order
  int n_delivered = 0;

  bool post(int what, std::int64_t when, bool async = false) {
    m[what].what.store(what);
    m[what].set_async(async);
    return accepted[what] = q.enqueue(&m[what], when);
  }
  Msg* take(Msg* got) {
    if (!got) return nullptr;
    const int w = got->what.load();
    Sync::check(w >= 1 && w <= kMax && got == &m[w], "next() returned a message nobody posted");
    Sync::check(!got->in_use(), "a delivered message is still marked in use");
    ++delivered[w];
    if (n_delivered < 16) order[n_delivered++] = w;
    return got;
  }
  // take(), and the message was due when it was delivered.
  Msg* take_due(Msg* got) {
    if (got) Sync::check(got->when.load() <= q.now(), "a message was delivered before it was due");
    return take(got);
  }
  int position(int what) const {
    for (int i = 0; i < n_delivered; ++i)
      if (order[i] == what) return i;
    return -1;
  }
  void check_exactly_once(int first, int last) {
    for (int w = first; w <= last; ++w)
      if (accepted[w]) Sync::check(delivered[w] == 1, "an accepted message was lost or delivered twice");
      else Sync::check(delivered[w] == 0, "a refused message was delivered");
  }
  void invariants() { Sync::check(q.check_invariants() == nullptr, "DeliQueue invariants violated"); }
};

// Two producers push while the Looper sweeps, delivers and unlinks (the top CAS
// races the pushes). Every message comes out exactly once and one producer's
// two equal-when posts keep their order (FIFO).
template <class Sync, DeliFault F>
struct ProducersVsSweep : Common<Sync, F> {
  static constexpr const char* name = "producers_vs_sweep";
  static constexpr const char* description =
      "2 producers (2 + 1 posts, all due) + Looper taking 3 with next()";
  static constexpr unsigned threads = 3;
  void thread(unsigned i) {
    if (i == 0) {
      this->post(1, 0);
      this->post(2, 0);
    } else if (i == 1) {
      this->post(3, 0);
    } else {
      for (int k = 0; k < 3; ++k) this->take(this->q.next());
    }
  }
  void after() {
    this->invariants();
    this->check_exactly_once(1, 3);
    Sync::check(this->position(1) < this->position(2), "equal-when posts of one producer came out LIFO");
    Sync::check(this->q.size_looper() == 0, "queue not empty after all deliveries");
  }
};

// The sleep/wake race: the Looper holds a message due at 100 (the clock is at
// 0), so it is about to park until 100; a producer enqueues a message due now.
// The Looper must deliver it without the clock moving: if the wake-up is lost
// the Looper parks for good (DEADLOCK).
template <class Sync, DeliFault F>
struct SleepWakeRace : Common<Sync, F> {
  static constexpr const char* name = "sleep_wake_race";
  static constexpr const char* description =
      "Looper about to sleep until 100 while 1 producer posts a message due now";
  static constexpr unsigned threads = 2;
  void before() { this->post(1, 100); }
  void thread(unsigned i) {
    if (i == 0) this->post(2, 0);
    else this->take(this->q.next());
  }
  void after() {
    this->invariants();
    Sync::check(this->n_delivered == 1 && this->order[0] == 2,
                "the Looper did not deliver the due message first");
  }
};

// The wake-up by the clock: the Looper holds a message due at 100; a producer
// posts one due at 50 (earlier than the Looper's deadline: it must wake the
// Looper, which then parks until 50), while another thread advances the clock
// to 50 (which must wake a Looper whose deadline is 50). The Looper's next()
// returns the message due at 50; any lost wake-up is a DEADLOCK.
template <class Sync, DeliFault F>
struct SleepWakeClock : Common<Sync, F> {
  static constexpr const char* name = "sleep_wake_clock";
  static constexpr const char* description =
      "Looper sleeping until 100; 1 producer posts at 50; 1 thread advances the clock to 50";
  static constexpr unsigned threads = 3;
  void before() { this->post(1, 100); }
  void thread(unsigned i) {
    if (i == 0) this->post(2, 50);
    else if (i == 1) this->q.advance_clock(50);
    else this->take(this->q.next());
  }
  void after() {
    this->invariants();
    Sync::check(this->n_delivered == 1 && this->order[0] == 2,
                "the Looper did not deliver the message due at 50 first");
  }
};

// Quit races an enqueue: every enqueue either fails (message untouched) or its
// message is delivered (quit is safe and everything is due); an enqueue after
// quit() returned always fails; the Looper's next() ends with nullptr.
template <class Sync, DeliFault F>
struct QuitVsEnqueue : Common<Sync, F> {
  static constexpr const char* name = "quit_vs_enqueue";
  static constexpr const char* description =
      "1 producer, 1 thread quit(safe) then post, Looper next() until nullptr";
  static constexpr unsigned threads = 3;
  bool quit_ok = false;
  int nulls = 0;
  void before() { this->q.advance_clock(10); }  // posts at 5 are due, and `when` 0 means untouched
  void thread(unsigned i) {
    if (i == 0) {
      this->post(1, 5);
    } else if (i == 1) {
      quit_ok = this->q.quit(true);
      Sync::check(!this->post(2, 5), "enqueue accepted after quit() returned");
    } else {
      while (this->take(this->q.next())) {
      }
      ++nulls;
    }
  }
  void after() {
    Sync::check(quit_ok, "quit() refused on a live queue");
    Sync::check(!this->q.quit(true), "a second quit() succeeded");
    this->check_exactly_once(1, 2);
    for (int w = 1; w <= 2; ++w)
      if (!this->accepted[w])
        Sync::check(!this->m[w].in_use() && this->m[w].when.load() == 0,
                    "a refused message was not left untouched");
    Sync::check(this->q.take_discarded() == nullptr, "a due message was discarded by a safe quit");
    Sync::check(this->q.next() == nullptr, "next() after quit did not return nullptr");
  }
};

// Two quits race, and each quitter then posts: whichever quit() returns false
// ("already quit") must leave the queue refusing posts, like the one that won
// (a quit() that answered false before the winner's sentinel was on the stack
// let its caller's next post be accepted).
template <class Sync, DeliFault F>
struct QuitVsQuit : Common<Sync, F> {
  static constexpr const char* name = "quit_vs_quit";
  static constexpr const char* description = "2 threads: quit(unsafe), then post; both posts must be refused";
  static constexpr unsigned threads = 2;
  bool won[2] = {};
  void thread(unsigned i) {
    won[i] = this->q.quit(false);
    Sync::check(!this->post(static_cast<int>(i) + 1, 0), "enqueue accepted after quit() returned (true or false)");
  }
  void after() {
    Sync::check(won[0] != won[1], "not exactly one quit() returned true");
    Sync::check(this->q.next() == nullptr, "next() after quit did not return nullptr");
    this->invariants();
  }
};

// A sync barrier with async messages: the producer posts a barrier, then a sync
// and an async message, all due. The Looper's first delivery must be the async
// one (the sync one waits behind the barrier); after it removes the barrier the
// sync one comes; removing the token again is reported as unknown.
template <class Sync, DeliFault F>
struct BarrierAsync : Common<Sync, F> {
  static constexpr const char* name = "barrier_async";
  static constexpr const char* description =
      "producer: barrier, sync post, async post; Looper: next, remove barrier, next";
  static constexpr unsigned threads = 2;
  std::uint64_t token = 0;
  BarrierRemoval first = BarrierRemoval::unknown_token, second = BarrierRemoval::removed;
  void thread(unsigned i) {
    if (i == 0) {
      token = this->q.post_sync_barrier();
      this->post(1, 0);
      this->post(2, 0, /*async=*/true);
    } else {
      Msg* a = this->take(this->q.next());
      Sync::check(a == &this->m[2], "a sync message passed a barrier (or the async one was lost)");
      first = this->q.remove_sync_barrier(token);  // token was written before message 2 was posted
      this->take(this->q.next());
      second = this->q.remove_sync_barrier(token);
    }
  }
  using Msg = typename Common<Sync, F>::Msg;
  void after() {
    this->invariants();
    Sync::check(first == BarrierRemoval::removed, "posted barrier could not be removed");
    Sync::check(second == BarrierRemoval::unknown_token, "removing a removed barrier did not fail");
    this->check_exactly_once(1, 2);
  }
};

// ---- quit and the wake resource (RefcountedShutdown over the Looper's wake
// resource, issue 5). Producers and a quitter race the Looper, which is parked
// on the resource; the Looper's next() that finds the sentinel tears it down.
// Relacy itself reports a wake that touches the resource after the Looper freed
// it (ACCESS TO FREED MEMORY / DATA RACE with the scrub), a second destroy, a
// leak, and a Looper left asleep (DEADLOCK). On top of that, after():
//   * every post that returned true was delivered xor dropped (reported), by the
//     quit rules: safe quit at time 0 delivers what is due at 0, drops the rest;
//     unsafe quit drops all that was not delivered before it;
//   * every refused post was left untouched, and a post after quit() returned
//     is refused;
//   * the resource was destroyed exactly once, and only after all its uses.
template <class Sync, DeliFault F, class QSync = Sync, class Clock = VirtualClock<Sync>>
struct QuitCommon : Common<Sync, F, QSync, Clock> {
  using Msg = typename Common<Sync, F, QSync, Clock>::Msg;
  int dropped[kMax + 1] = {};
  bool quit_ok = false;

  static void on_drop(Msg& m, void* self) { static_cast<QuitCommon*>(self)->drop(&m); }
  void drop(Msg* m) {
    const int w = m->what.load();
    Sync::check(w >= 1 && w <= kMax && m == &this->m[w], "a message nobody posted was dropped");
    Sync::check(!m->in_use(), "a dropped message is still marked in use");
    ++dropped[w];
  }
  void take_discarded_all() {
    for (Msg* d = this->q.take_discarded(); d;) {
      Msg* const next = d->free_next.load(std::memory_order_relaxed);  // Looper-only link
      drop(d);
      d = next;
    }
  }
  // Outcomes: due_at_quit[w] says whether message w must be delivered (else dropped).
  void check_outcomes(int first, int last, const bool* must_deliver) {
    for (int w = first; w <= last; ++w) {
      if (!this->accepted[w]) {
        Sync::check(this->delivered[w] == 0 && dropped[w] == 0, "a refused post was delivered or dropped");
        Sync::check(!this->m[w].in_use(), "a refused message was not left untouched");
        continue;
      }
      Sync::check(this->delivered[w] + dropped[w] == 1,
                  "an accepted post was neither delivered nor dropped (silently lost), or both");
      if (must_deliver) Sync::check((this->delivered[w] == 1) == must_deliver[w], "quit rules not followed");
    }
  }
  void check_resource() {
    Sync::check(this->q.wake_resource_destroyed(), "the wake resource was not destroyed at quit");
    const auto& r = this->q.wake_resource_report();
    Sync::check(r.closes == 1, "the wake resource was destroyed other than exactly once");
    Sync::check(r.uses == this->q.wakeups() && r.os_total == r.uses && r.os_ok,
                "wake-ups and uses of the wake resource disagree");
    this->invariants();
  }
};

// Safe quit races a producer that wakes the parked Looper twice (a post due now,
// one due at 100); the quitter then posts again (refused). Dropped messages are
// reported through the on_dropped callback. A waker that is told `dead` must
// leave the resource alone; one that holds a reference delays the destroy.
template <class Sync, DeliFault F>
struct QuitVsWakers : QuitCommon<Sync, F> {
  static constexpr const char* name = "quit_vs_wakers";
  static constexpr const char* description =
      "Looper parked on an empty queue; 1 producer posts due-now and due-at-100; 1 thread "
      "quit(safe) then posts; drops reported via on_dropped";
  static constexpr unsigned threads = 3;
  QuitVsWakers() { this->q.set_on_dropped(&QuitCommon<Sync, F>::on_drop, this); }
  void thread(unsigned i) {
    if (i == 0) {
      this->post(1, 0);
      this->post(2, 100);
    } else if (i == 1) {
      this->quit_ok = this->q.quit(true);
      Sync::check(!this->post(3, 0), "enqueue accepted after quit() returned");
    } else {
      while (this->take(this->q.next())) {
      }
      Sync::check(this->q.wake_resource_destroyed(), "next() returned nullptr before the teardown");
    }
  }
  void after() {
    Sync::check(this->quit_ok, "quit() refused on a live queue");
    Sync::check(this->q.take_discarded() == nullptr, "on_dropped set, yet messages went to take_discarded");
    const bool must_deliver[] = {false, true, false, false};  // due at 0: delivered; at 100: dropped
    this->check_outcomes(1, 3, must_deliver);
    this->check_resource();
  }
};

// Unsafe quit races a producer while the Looper sleeps until 100 on a message
// posted before (the virtual clock stays at 0). The producer's due-now post
// wakes it; its at-front post may land before or after the sentinel. Dropped
// messages come back through take_discarded(), which the Looper drains after
// next() returned nullptr, as a user would.
template <class Sync, DeliFault F>
struct QuitUnsafeVsProducer : QuitCommon<Sync, F> {
  static constexpr const char* name = "quit_unsafe_vs_producer";
  static constexpr const char* description =
      "Looper sleeping until 100; 1 producer posts due-now and at-front; 1 thread quit(unsafe); "
      "drops via take_discarded";
  static constexpr unsigned threads = 3;
  void before() { this->post(1, 100); }
  void thread(unsigned i) {
    if (i == 0) {
      this->post(2, 0);
      this->m[3].what.store(3);
      this->accepted[3] = this->q.enqueue_at_front(&this->m[3]);
    } else if (i == 1) {
      this->quit_ok = this->q.quit(false);
    } else {
      while (this->take(this->q.next())) {
      }
      this->take_discarded_all();
    }
  }
  void after() {
    Sync::check(this->quit_ok, "quit() refused on a live queue");
    Sync::check(this->delivered[1] == 0, "a message not yet due was delivered");
    this->check_outcomes(1, 3, nullptr);  // unsafe: delivered before quit, or dropped
    this->check_resource();
  }
};

// ---- timed waits (issue 16) -------------------------------------------------------
// On a clock that is not virtual the Looper parks with a timed wait (park's
// wait_for_ns branch). ModelTimeClock/ModelTimeSync (models/model_time.hpp):
// Relacy may time the wait out at any point, and a time-out moves the model's
// time forward by the time waited — the only way time passes. The clock reads
// below 0 (an arbitrary epoch: Java's nanoTime may be negative too), and a
// message is due at INT64_MAX - 1, so the wait from now until then does not fit
// in an int64: it must saturate, or it wraps into the past, the wait returns at
// once, time never passes and the Looper spins (LIVELOCK).
constexpr std::int64_t kEpoch = -(std::int64_t{1} << 62);
constexpr std::int64_t kFar = std::numeric_limits<std::int64_t>::max() - 1;
using TimedClock = ModelTimeClock<kEpoch>;

// The Looper sleeps (timed) towards a message due at INT64_MAX - 1 while a
// producer posts one due soon (kEpoch + 100, which wakes it: earlier than its
// deadline). Both are delivered, each once and when due, and every execution
// timed out of a timed wait (message 1 is due only once time has passed).
template <class Sync, DeliFault F>
struct TimedSleepFarDeadline : Common<Sync, F, ModelTimeSync<Sync>, TimedClock> {
  static constexpr const char* name = "timed_sleep_far_deadline";
  static constexpr const char* description =
      "Looper on a real-time clock reading below 0 sleeps (timed) towards a message due at "
      "INT64_MAX-1; 1 producer posts one due soon";
  static constexpr unsigned threads = 2;
  void before() { this->post(1, kFar); }
  void thread(unsigned i) {
    if (i == 0) {
      this->take_due(this->q.next());
      this->take_due(this->q.next());
    } else {
      this->post(2, kEpoch + 100);
    }
  }
  void after() {
    this->invariants();
    this->check_exactly_once(1, 2);
    const ModelTime& t = ModelTime::get();
    Sync::check(t.timed_waits >= 1 && t.timeouts >= 1,
                "the Looper delivered without ever timing out of a timed wait");
  }
};

// quit() while the Looper sleeps (timed) towards a message due at INT64_MAX - 1:
// quit's wake ends the sleep, the message is delivered (if time reached it
// first) or dropped, the wake resource is torn down, next() returns nullptr.
// The model's form of "enqueue(m, INT64_MAX - 1) then quit() returns": a Looper
// that never lets go of the park mutex, or never wakes, is a LIVELOCK or DEADLOCK.
template <class Sync, DeliFault F>
struct QuitDuringTimedSleep : QuitCommon<Sync, F, ModelTimeSync<Sync>, TimedClock> {
  static constexpr const char* name = "quit_during_timed_sleep";
  static constexpr const char* description =
      "Looper sleeping (timed, clock below 0) towards a message due at INT64_MAX-1; 1 thread "
      "quit(safe); drops via take_discarded";
  static constexpr unsigned threads = 2;
  void before() { this->post(1, kFar); }
  void thread(unsigned i) {
    if (i == 0) {
      while (this->take_due(this->q.next())) {
      }
      this->take_discarded_all();
    } else {
      this->quit_ok = this->q.quit(true);
    }
  }
  void after() {
    Sync::check(this->quit_ok, "quit() refused on a live queue");
    this->check_outcomes(1, 1, nullptr);  // delivered if time reached it before quit, else dropped
    this->check_resource();
  }
};

}  // namespace lfcheck::deliqueue_models
