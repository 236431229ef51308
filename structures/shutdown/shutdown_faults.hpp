// Seeded faults of the refcounted shutdown (refcounted_shutdown.hpp). Each is a
// compile-time variant of RefcountedShutdown (its Fault template parameter);
// `none` is the correct mechanism and the production default, so no fault code
// exists in a production build. The catalogue entry beside each enumerator is
// what `./lfcheck faults shutdown` prints and what the tests iterate over.
#pragma once

#include "harness/fault_catalogue.hpp"

namespace lfcheck {

enum class ShutdownFault {
  none,
  check_then_increment,      // try_acquire: load, test the teardown bit, then fetch_add
  touch_after_last_release,  // release: re-reads the word after its decrement
  unpark_off_by_one,         // release: unparks when the decrement leaves teardown|1
  park_no_recheck,           // owner: tests the word once outside the mutex, waits once
  overflow_wraps,            // try_acquire: the count wraps to 0 instead of refusing
  relaxed_release,           // release: the decrement is relaxed instead of release
  acquire_gives_up,          // try_acquire: a lost CAS race is reported as dead
};

template <>
struct FaultTraits<ShutdownFault> {
  static constexpr const char* mechanism = "shutdown";
  static constexpr FaultInfo<ShutdownFault> catalogue[] = {
      {ShutdownFault::check_then_increment, "shutdown.check_then_increment",
       "try_acquire tests the teardown bit with a load and then increments with a separate "
       "fetch_add: the owner can set teardown, see a zero count and destroy the resource in "
       "between, and the user then uses freed memory",
       "refcount increment after checking the teardown flag non-atomically (use after free)",
       "model,stress"},
      {ShutdownFault::touch_after_last_release, "shutdown.touch_after_last_release",
       "release decides whether to unpark by re-reading the word after its decrement: once "
       "the decrement has let the owner finish, the owner may have freed the object, and the "
       "re-read touches freed memory",
       "touching the object after the last decrement", "model"},
      {ShutdownFault::unpark_off_by_one, "shutdown.unpark_off_by_one",
       "release unparks the owner when its decrement leaves teardown|1 instead of exactly "
       "teardown: the owner destroys the resource while the last holder still uses it (or, "
       "with one holder, nobody unparks and the owner sleeps forever)",
       "", "model,props,stress"},
      {ShutdownFault::park_no_recheck, "shutdown.park_no_recheck",
       "the owner tests the count once, outside the mutex, and then waits once without "
       "re-checking: the last release's unpark can fall between the test and the wait (lost "
       "wake-up: the owner sleeps forever), and a spurious wake-up lets it destroy the "
       "resource early",
       "lost wake-up in park/unpark", "model,stress"},
      {ShutdownFault::overflow_wraps, "shutdown.overflow_wraps",
       "try_acquire at the count limit wraps the count to 0 instead of refusing: the caller "
       "is told it holds a reference, and the owner can destroy the resource under it",
       "", "model,props,stress"},
      {ShutdownFault::relaxed_release, "shutdown.relaxed_release",
       "release decrements with a relaxed RMW: a holder's last use of the resource is not "
       "ordered before the owner destroying it (a data race with the free)",
       "", "model,stress"},
      {ShutdownFault::acquire_gives_up, "shutdown.acquire_gives_up",
       "try_acquire reports the object dead when its CAS loses to another thread's acquire or "
       "release, without looking at the teardown bit again: nothing is taken, so every count, use "
       "and destroy stays exact, but a caller is told the resource is gone while teardown has not "
       "even been requested (only linearizability sees it)",
       "a try-acquire that turns a lost CAS race into 'gone' (a weak_ptr::lock or "
       "get-unless-zero that gives up under contention and the caller then drops its work)",
       "lin"},
  };
};

}  // namespace lfcheck
