// Hand-written scenarios of the ticket lock, one per seeded fault set: threads take
// the lock and increment a plain counter; Relacy reports a race on it if the lock
// does not order the holders, and after() checks no increment was lost.
#include <lfcheck/harness/model_registry.hpp>
#include <lfcheck/harness/scenario.hpp>

#include "ticket_lock.hpp"

template <class Sync, TicketLockFault F>
struct ThreeLockers : lfcheck::ScenarioBase {
  static constexpr const char* name = "three_lockers";
  static constexpr const char* description = "3 threads each lock, increment a plain counter, unlock";
  static constexpr unsigned threads = 3;
  static constexpr bool real_threads = true;

  TicketLock<Sync, F> lock;
  typename Sync::template cell<int> counter{0};  // plain data: the lock must order every access

  void thread(unsigned) {
    lock.lock();
    counter.store(counter.load() + 1);
    lock.unlock();
  }
  void after() { Sync::check(counter.load() == 3, "every increment under the lock counted"); }
};

LFCHECK_MODEL(TicketLockFault, ThreeLockers);
