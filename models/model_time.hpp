// Time for the model scenarios whose structure sleeps with a timed wait — the
// branch a VirtualClock never takes (a structure parks without a timeout on a
// virtual clock) and production always takes (SteadyClock).
//
//   ModelTimeClock<Start>  a clock that is not virtual (is_virtual = false, so the
//                          structure takes its timed-wait branch); it reads the
//                          model's time, which starts at Start (or the value given
//                          to the constructor) when the clock is built: once per
//                          Relacy iteration, with the scenario. One per scenario.
//   ModelTimeSync<Sync>    Sync with one change: a timed wait that times out moves
//                          the model's time forward by the time it waited
//                          (saturating). Relacy may time a timed wait out at any
//                          point; that time-out is the only way time passes, as
//                          on a real machine time passes while a thread waits. A
//                          wait of ns <= 0 times out at once and moves nothing.
//                          It also counts timed waits and time-outs, so a scenario
//                          can check in after() that the timed branch was taken.
//
// Consequences a scenario can rely on: correct code that waits for a deadline
// gets there (each time-out lands exactly on it, or as far as an int64 reaches);
// code that waits for less than it should — a wrapped, negative timeout — makes
// no progress and spins until Relacy's depth limit reports a LIVELOCK.
//
// The model's time is plain memory, not a Relacy variable: it stands for a
// hardware clock, not shared data of the structure, and Relacy runs every
// thread on one OS thread. These scenarios are for the model layer only (not
// real_threads).
#pragma once

#include <cstdint>

#include "sync/deadline.hpp"

namespace lfcheck {

struct ModelTime {
  std::int64_t now = 0;
  unsigned timed_waits = 0;  // calls of wait_for_ns
  unsigned timeouts = 0;     // of which timed out
  static ModelTime& get() {
    static ModelTime t;
    return t;
  }
};

template <std::int64_t Start>
class ModelTimeClock {
 public:
  static constexpr bool is_virtual = false;
  explicit ModelTimeClock(std::int64_t start = Start) { ModelTime::get() = ModelTime{start, 0, 0}; }
  ModelTimeClock(const ModelTimeClock&) = delete;
  ModelTimeClock& operator=(const ModelTimeClock&) = delete;
  std::int64_t now() const { return ModelTime::get().now; }
};

template <class Base>
struct ModelTimeSync : Base {
  class condvar : public Base::condvar {
   public:
    bool wait_for_ns(typename Base::mutex& m, std::int64_t ns,
                     typename Base::location loc = Base::location::current()) {
      ModelTime& t = ModelTime::get();
      ++t.timed_waits;
      const bool woken = Base::condvar::wait_for_ns(m, ns, loc);
      if (!woken) {
        ++t.timeouts;
        t.now = saturating_add(t.now, ns > 0 ? ns : 0);
      }
      return woken;
    }
  };
};

}  // namespace lfcheck
