// Relacy's rule for a thread that yields, as its tree searches apply it
// (relacy/full_search_scheduler.hpp: yield_priority, schedule_impl, on_thread_block),
// kept by the DPOR scheduler so that a spin hint holds a thread back exactly where
// Relacy's full search — DPOR's oracle — holds it back: the schedules DPOR explores
// around a retry loop are then the full search's (the DPOR fuzzer found both kinds of
// difference while DPOR had a rule of its own: schedules the full search runs and DPOR
// did not, and the other way round).
//
// The rule (for Sync::spin_hint() and Sync::yield(), Relacy's yield(1)):
//   - when thread p yields, every other thread y that has not finished holds p back
//     unless y was scheduled at least once, while it held something back, since p's
//     previous yield (Relacy's yield_sched_count_); p runs again once every thread
//     holding it has reached a scheduling point (its step ended);
//   - a thread that blocks (parks in a wait or a lock, or is held back itself) lets go
//     of every thread it held;
//   - when no thread can run but held ones, every thread lets go (Relacy's purge).
// What DPOR adds: a thread parked as an await (awaits.hpp) stands for a thread
// spinning in Relacy, which is scheduled again and again — it holds no one back.
//
// Cost: O(threads) per scheduling point.
#pragma once

#include <cstdint>

#include "harness/model/dpor/footprint.hpp"

namespace lfcheck::model::dpor {

class YieldPriorities {
 public:
  void reset() {
    for (auto& h : holds_) h = 0;
    for (auto& row : scheduled_) for (auto& c : row) c = 0;
  }

  // Threads held back now.
  ThreadMask held() const {
    ThreadMask m = 0;
    for (unsigned y = 0; y < kMaxThreads; ++y) m |= holds_[y];
    return m;
  }

  // Thread t reached a scheduling point: it lets go of every thread it held, and
  // counts, for each thread, that it was scheduled while holding something.
  void scheduled(unsigned t) {
    if (!holds_[t]) return;
    holds_[t] = 0;
    for (auto& c : scheduled_[t]) ++c;
  }

  // Thread p yielded (a spin hint): held back by every other live thread (`live`:
  // not finished; awaiting threads left out, see above) not scheduled while holding
  // something since p's previous yield. A thread held back lets go of what it held.
  void yielded(unsigned p, ThreadMask live) {
    bool held_now = false;
    for (unsigned y = 0; y < kMaxThreads; ++y) {
      if (y != p && (live & (bit(y))) && scheduled_[y][p] < 1) {
        holds_[y] |= bit(p);
        held_now = true;
      }
      scheduled_[y][p] = 0;
    }
    if (held_now) holds_[p] = 0;
  }

  // Thread t blocked (a wait, a lock it did not get): it lets go.
  void blocked(unsigned t) { holds_[t] = 0; }
  // Thread t parked as an await at a spin hint: it lets go, and it yielded (its
  // count of others' scheduling points starts over) — it is held back by no one,
  // standing for a thread Relacy keeps spinning.
  void awaited(unsigned t) {
    holds_[t] = 0;
    for (unsigned y = 0; y < kMaxThreads; ++y) scheduled_[y][t] = 0;
  }

  // No thread can run but held ones: every thread lets go (Relacy's purge).
  void release_all() {
    for (auto& h : holds_) h = 0;
  }

 private:
  ThreadMask holds_[kMaxThreads] = {};             // holds_[y]: the threads y holds back
  std::uint32_t scheduled_[kMaxThreads][kMaxThreads] = {};  // [y][p]: y's scheduling points while
                                                           // holding something, since p's last yield
};

}  // namespace lfcheck::model::dpor
