// Refcounted shutdown scenarios, written once against the Sync policy. The model
// runner instantiates each with RelacySync for every seeded fault.
//
// The resource is a NativeResource (heap memory through Relacy's allocator), so
// Relacy itself reports a use after the destroy (ACCESS TO FREED MEMORY), a use
// not ordered before it (DATA RACE with the scrub), a double destroy and a leak.
// An owner that sleeps with nobody left to wake it is a DEADLOCK. On top of
// that each scenario checks, with Sync::check:
//   * every use under a reference sees the resource intact;
//   * the resource is destroyed exactly once, after every use (CloseReport);
//   * a user that starts after shutdown() returned is refused (dead);
//   * at most max_count references are held at once;
//   * check_invariants() at the end.
#pragma once

#include <cstdint>

#include "harness/scenario.hpp"
#include "structures/shutdown/native_resource.hpp"
#include "structures/shutdown/refcounted_shutdown.hpp"

namespace lfcheck::shutdown_models {

template <class Sync>
using Resource = NativeResource<Sync, 2>;
template <class Sync, ShutdownFault F>
using Shutdown = RefcountedShutdown<Resource<Sync>, Sync, F>;

// A shutdown object that lives in the scenario (it outlives every user, as the
// MessageQueue object outlives its native resource).
template <class Sync, ShutdownFault F>
struct Common : ScenarioBase {
  // Scenario bookkeeping, not shared data of the structure: Relacy runs all
  // threads on one OS thread, so plain fields are safe.
  typename Resource<Sync>::CloseReport report;
  int acquired = 0, dead = 0, overflow = 0;
  int holders = 0, max_holders = 0;
  typename Sync::template atomic<bool> owner_done{false};
  Shutdown<Sync, F> shut;

  explicit Common(std::uint64_t max_count) : shut(make_resource(report), max_count) {}

  static Resource<Sync>* make_resource(typename Resource<Sync>::CloseReport& report) {
    Resource<Sync>* r = Sync::template create<Resource<Sync>>();
    r->set_close_report(&report);
    return r;
  }

  // One user: take a reference, use the resource, give the reference back.
  void use_once() {
    // Acquire: pairs with the owner's release store after shutdown() returned.
    const bool after_shutdown = owner_done.load(std::memory_order_acquire);
    const Acquire a = shut.try_acquire();
    if (after_shutdown) Sync::check(a == Acquire::dead, "a user got a reference after shutdown() returned");
    if (a == Acquire::acquired) {
      ++acquired;
      max_holders = ++holders > max_holders ? holders : max_holders;
      Sync::check(static_cast<std::uint64_t>(holders) <= shut.max_count(), "more holders than max_count");
      Sync::check(shut.resource().use(), "resource not intact while a reference is held");
      --holders;
      shut.release();
    } else if (a == Acquire::dead) {
      ++dead;
    } else {
      ++overflow;
    }
  }

  void owner() {
    shut.shutdown();
    Sync::check(report.closes == 1, "shutdown() returned but the resource was not destroyed once");
    // Release: pairs with use_once's acquire load (a later user knows it is late).
    owner_done.store(true, std::memory_order_release);
  }

  void finish() {
    Sync::check(shut.resource_destroyed(), "resource not destroyed");
    Sync::check(report.closes == 1, "resource destroyed other than exactly once");
    Sync::check(report.uses == static_cast<std::uint64_t>(acquired),
                "uses of the resource differ from references taken");
    Sync::check(shut.check_invariants() == nullptr, "shutdown invariants violated");
  }
};

// Two users (one reference each, one of them twice) race the owner's shutdown.
// The users' second attempt may start after shutdown() returned: then it must be
// refused. Catches a non-atomic test-then-increment (use after free).
template <class Sync, ShutdownFault F>
struct UsersVsShutdown : Common<Sync, F> {
  static constexpr const char* name = "users_vs_shutdown";
  static constexpr const char* description =
      "2 users (try_acquire/use/release; user 0 twice) race the owner's shutdown()";
  static constexpr unsigned threads = 3;
  UsersVsShutdown() : Common<Sync, F>(Shutdown<Sync, F>::kMaxCount) {}
  void thread(unsigned i) {
    if (i == 2) return this->owner();
    this->use_once();
    if (i == 0) this->use_once();
  }
  void after() { this->finish(); }
};

// Two holders took their references before the race (as a message carries its
// reference to a worker); they use the resource and release while the owner
// shuts down and then frees the whole object — word, mutex and all — as a Looper
// freeing its queue does. Catches touching the object after the last decrement,
// an unpark on the wrong value, a lost wake-up (DEADLOCK), a spurious wake-up
// taken for the unpark, and a decrement that does not order the uses.
template <class Sync, ShutdownFault F>
struct HoldersVsOwnerFree : ScenarioBase {
  static constexpr const char* name = "holders_vs_owner_free";
  static constexpr const char* description =
      "2 holders use + release while the owner shuts down and frees the object";
  static constexpr unsigned threads = 3;
  static constexpr bool full_search = true;  // ~480k executions, ~2 s
  using Shut = Shutdown<Sync, F>;
  typename Resource<Sync>::CloseReport report;
  Shut* shut = nullptr;
  bool freed = false;
  bool unparked[2] = {};  // holder i's release was the last one, after the teardown began

  void before() {
    shut = Sync::template create<Shut>();  // creates its resource
    shut->resource().set_close_report(&report);
    Sync::check(shut->try_acquire() == Acquire::acquired, "first reference refused");
    Sync::check(shut->try_acquire() == Acquire::acquired, "second reference refused");
  }
  void thread(unsigned i) {
    if (i == 2) {
      shut->shutdown();
      Sync::check(report.closes == 1, "shutdown() returned but the resource was not destroyed once");
      Sync::destroy(shut);
      freed = true;
      return;
    }
    Shut* s = shut;  // plain field written in before(): ordered before every thread
    Sync::check(s->resource().use(), "resource not intact while a reference is held");
    unparked[i] = s->release();
  }
  // Which holder woke the owner (none: both released before the teardown began).
  std::uint64_t outcome() const { return (unparked[0] ? 1 : 0) + (unparked[1] ? 2 : 0); }
  void after() {
    Sync::check(freed, "owner did not finish");
    Sync::check(report.closes == 1, "resource destroyed other than exactly once");
    Sync::check(report.uses == 2, "a holder's use was lost");
  }
};

// Three users against the owner: one took its reference before the race (a
// holder), two try to take one during it. The owner parks whenever a reference is
// out at teardown; the last release — holder's or a user's — must wake it.
template <class Sync, ShutdownFault F>
struct ThreeUsersVsShutdown : Common<Sync, F> {
  static constexpr const char* name = "three_users_vs_shutdown";
  static constexpr const char* description =
      "1 holder (acquired before) + 2 users race the owner's shutdown()";
  static constexpr unsigned threads = 4;
  ThreeUsersVsShutdown() : Common<Sync, F>(Shutdown<Sync, F>::kMaxCount) {}
  void before() {
    Sync::check(this->shut.try_acquire() == Acquire::acquired, "holder's reference refused");
    ++this->acquired;
  }
  void thread(unsigned i) {
    if (i == 3) return this->owner();
    if (i == 0) {
      Sync::check(this->shut.resource().use(), "resource not intact while a reference is held");
      this->shut.release();
      return;
    }
    this->use_once();
  }
  void after() { this->finish(); }
};

// max_count = 1: two users race for the single reference while the owner shuts
// down. At most one holds it; the other is refused (overflow) — never wrapped.
template <class Sync, ShutdownFault F>
struct OverflowAtLimit : Common<Sync, F> {
  static constexpr const char* name = "overflow_at_limit";
  static constexpr const char* description =
      "max_count 1: 2 users race for the one reference while the owner shuts down";
  static constexpr unsigned threads = 3;
  OverflowAtLimit() : Common<Sync, F>(1) {}
  void thread(unsigned i) {
    if (i == 2) return this->owner();
    this->use_once();
  }
  void after() {
    Sync::check(this->max_holders <= 1, "more than max_count references held at once");
    this->finish();
  }
};

}  // namespace lfcheck::shutdown_models
