// A ticket lock: lock() draws a ticket with fetch_add and waits until serving_ shows
// it; unlock() serves the next ticket with a release store, which orders the holder's
// accesses before the next holder's. FIFO, no CAS; waiters spin on one word.
// Seeded faults (lfcheck's LFCHECK_FAULTS): compile-time variants the tests must catch.
#pragma once
#include <lfcheck/harness/fault_catalogue.hpp>
#include <lfcheck/sync/std_sync.hpp>

#define TICKET_LOCK_FAULTS(X)                                                                       \
  X(relaxed_unlock, "unlock serves the next ticket with a relaxed store: the next holder's accesses " \
                    "race with the last holder's", "a lock released without a release barrier", "model,stress")
LFCHECK_FAULTS(TicketLockFault, "ticket_lock", TICKET_LOCK_FAULTS);

template <class Sync = lfcheck::StdSync, TicketLockFault F = TicketLockFault::none>
class TicketLock {
  typename Sync::template atomic<unsigned> next_{0}, serving_{0};

 public:
  void lock() {
    const unsigned ticket = next_.fetch_add(1, std::memory_order_relaxed);  // relaxed: serving_ orders holders
    while (serving_.load(std::memory_order_acquire) != ticket) Sync::spin_hint();  // acquire: pairs with unlock
  }
  void unlock() {
    const unsigned now = serving_.load(std::memory_order_relaxed);  // relaxed: only the holder writes serving_
    // FAULT relaxed_unlock: a relaxed store does not pair with lock()'s acquire.
    serving_.store(now + 1, F == TicketLockFault::relaxed_unlock ? std::memory_order_relaxed
                                                                 : std::memory_order_release);  // release: pairs with lock
  }
};
