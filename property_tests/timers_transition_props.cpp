// Timers properties, the transition table (the rest: timers_props.cpp; apart so that
// neither translation unit is a monster): the transition table of timers.hpp, pair by
// pair — every stable status (NoStatus, Waiting, Deleted, Removed, ModifiedEarlier,
// ModifiedLater) under every operation (add, stop, reset, run not due, run due,
// shutdown move), and every transient status (Running, Removing, Moving, Modifying)
// under the operations that must wait for it (or, for Removing under stop, must not).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

#include "property_tests/fault_selection.hpp"
#include "structures/timers/timers.hpp"

namespace lfcheck {
namespace {

using Clock = VirtualClock<StdSync>;
// ---- the transition table, pair by pair ------------------------------------------
template <TimerFault F>
struct Table {
  using Set = TimerSet<StdSync, Clock, 4, F>;
  using Timer = typename Set::Timer;
  using Access = TimerTestAccess<Set>;

  Clock clock{0};
  Set set{clock, 2};
  Timer t, other;
  int fired = 0;
  static void on_fire(void* a, std::uint64_t, std::int64_t, std::int64_t) { ++*static_cast<int*>(a); }
  Table() {
    t.init(&on_fire, &fired);
    other.init(&on_fire, &fired);
  }

  // Puts t into a stable status the legitimate way; t sits on worker 1.
  void make(TimerStatus s) {
    switch (s) {
      case TimerStatus::no_status: break;
      case TimerStatus::waiting: ASSERT_EQ(set.add(1, t, 50), TimerError::ok); break;
      case TimerStatus::deleted:
        ASSERT_EQ(set.add(1, t, 50), TimerError::ok);
        ASSERT_TRUE(set.stop(t));
        break;
      case TimerStatus::removed:
        ASSERT_EQ(set.add(1, t, 50), TimerError::ok);
        ASSERT_TRUE(set.stop(t));
        set.run_due(1);  // clean the head
        break;
      case TimerStatus::modified_earlier:
        ASSERT_EQ(set.add(1, t, 50), TimerError::ok);
        ASSERT_TRUE(set.reset(0, t, 40));
        break;
      case TimerStatus::modified_later:
        ASSERT_EQ(set.add(1, t, 50), TimerError::ok);
        ASSERT_TRUE(set.reset(0, t, 60));
        break;
      default: FAIL() << "not a stable status";
    }
    ASSERT_EQ(t.status(), s);
  }
  void invariants() {
    Timer* all[2] = {&t, &other};
    const char* e = set.check_invariants(all, 2);
    EXPECT_EQ(e, nullptr) << e;
  }
};

constexpr TimerStatus kStable[] = {TimerStatus::no_status, TimerStatus::waiting,          TimerStatus::deleted,
                                   TimerStatus::removed,   TimerStatus::modified_earlier, TimerStatus::modified_later};

bool armed(TimerStatus s) {
  return s == TimerStatus::waiting || s == TimerStatus::modified_earlier || s == TimerStatus::modified_later;
}
bool on_heap(TimerStatus s) { return armed(s) || s == TimerStatus::deleted; }

TEST(timers, transition_table_stable_states) {
  with_selected_fault<TimerFault>([](auto fault) {
    constexpr TimerFault F = decltype(fault)::value;
    using T = Table<F>;
    for (TimerStatus s : kStable) {
      SCOPED_TRACE(timer_status_name(s));
      {  // add: NoStatus/Removed -> Waiting; Deleted -> ModifiedXX in place; armed -> error
        T x;
        x.make(s);
        const TimerError e = x.set.add(0, x.t, 45);
        if (armed(s)) {
          EXPECT_EQ(e, TimerError::already_armed);
          EXPECT_EQ(x.t.status(), s);
        } else {
          EXPECT_EQ(e, TimerError::ok);
          EXPECT_EQ(x.t.status(), s == TimerStatus::deleted ? TimerStatus::modified_earlier : TimerStatus::waiting);
        }
        x.invariants();
      }
      {  // stop: armed -> Deleted (true); otherwise unchanged (false)
        T x;
        x.make(s);
        EXPECT_EQ(x.set.stop(x.t), armed(s));
        EXPECT_EQ(x.t.status(), armed(s) ? TimerStatus::deleted : s);
        x.invariants();
      }
      {  // reset: on a heap -> ModifiedXX (true iff armed); on no heap -> Waiting (false)
        T x;
        x.make(s);
        EXPECT_EQ(x.set.reset(0, x.t, 70), armed(s));
        EXPECT_EQ(x.t.status(), on_heap(s) ? TimerStatus::modified_later : TimerStatus::waiting);
        x.invariants();
        T y;
        y.make(s);
        y.set.reset(0, y.t, 30);
        EXPECT_EQ(y.t.status(), on_heap(s) ? TimerStatus::modified_earlier : TimerStatus::waiting);
        y.invariants();
      }
      {  // run, nothing due: clean/adjust settle Deleted -> Removed, ModifiedXX -> Waiting
        T x;
        x.make(s);
        x.set.run_due(1);
        const TimerStatus want = s == TimerStatus::deleted ? TimerStatus::removed
                                 : armed(s)                ? TimerStatus::waiting
                                                           : s;
        EXPECT_EQ(x.t.status(), want);
        EXPECT_EQ(x.fired, 0);
        x.invariants();
      }
      {  // run, due: armed -> Running -> NoStatus and the callback runs once
        T x;
        x.make(s);
        x.set.advance(100);
        x.set.run_due(1);
        const TimerStatus want = s == TimerStatus::deleted ? TimerStatus::removed
                                 : armed(s)                ? TimerStatus::no_status
                                                           : s;
        EXPECT_EQ(x.t.status(), want);
        EXPECT_EQ(x.fired, armed(s) ? 1 : 0);
        x.invariants();
      }
      {  // shutdown of worker 1: armed -> Moving -> Waiting on worker 0; Deleted -> Removed
        T x;
        x.make(s);
        ASSERT_EQ(x.set.shutdown_worker(1, 0), TimerError::ok);
        const TimerStatus want = s == TimerStatus::deleted ? TimerStatus::removed
                                 : armed(s)                ? TimerStatus::waiting
                                                           : s;
        EXPECT_EQ(x.t.status(), want);
        if (armed(s)) {
          EXPECT_EQ(x.set.worker_of_quiescent(x.t), 0);
        }
        EXPECT_EQ(x.set.add(1, x.other, 5), TimerError::worker_shut_down);
        x.invariants();
      }
    }
  });
}

// A transient status is held by "the test" (forced); the operation must wait for
// it, then act on the status the holder leaves behind.
TEST(timers, transition_table_transient_states) {
  with_selected_fault<TimerFault>([](auto fault) {
    constexpr TimerFault F = decltype(fault)::value;
    using T = Table<F>;
    using Access = typename T::Access;
    struct Case {
      TimerStatus transient;
      TimerStatus left;  // what the holder leaves behind
      bool stop_waits;
    };
    // Running -> Waiting (periodic re-armed), Moving -> Waiting, Modifying -> Waiting:
    // stop and reset wait. Removing -> Removed: stop returns false at once, reset waits.
    const Case cases[] = {{TimerStatus::running, TimerStatus::waiting, true},
                          {TimerStatus::moving, TimerStatus::waiting, true},
                          {TimerStatus::modifying, TimerStatus::waiting, true},
                          {TimerStatus::removing, TimerStatus::waiting, false}};
    for (const Case& c : cases) {
      SCOPED_TRACE(timer_status_name(c.transient));
      for (int op = 0; op < 3; ++op) {  // 0 stop, 1 reset, 2 add
        auto x = std::make_unique<T>();
        x->make(TimerStatus::waiting);
        Access::force_status(x->t, c.transient);
        std::atomic<bool> done{false};
        bool result = false;
        TimerError add_error = TimerError::ok;
        std::thread th([&] {
          if (op == 0) result = x->set.stop(x->t);
          else if (op == 1) result = x->set.reset(1, x->t, 70);
          else add_error = x->set.add(1, x->t, 70);
          done.store(true);
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const bool waited = !done.load();
        const TimerStatus left = c.transient == TimerStatus::removing && op != 0 ? TimerStatus::waiting : c.left;
        if (c.transient == TimerStatus::removing && op == 0) {
          th.join();
          EXPECT_FALSE(waited) << "stop must not wait for Removing";
          EXPECT_FALSE(result);
          Access::force_status(x->t, TimerStatus::waiting);  // the holder's view: undo
        } else {
          EXPECT_TRUE(waited) << "the operation did not wait for the transient status";
          Access::force_status(x->t, left);
          th.join();
          if (op == 2) {
            EXPECT_EQ(add_error, TimerError::already_armed);
          } else {
            EXPECT_TRUE(result) << "stop/reset of a timer left Waiting must return true";
          }
        }
      }
    }
    {  // the owner's run waits for a Modifying head (Go's runtimer)
      auto x = std::make_unique<T>();
      x->make(TimerStatus::waiting);
      x->set.advance(100);
      Access::force_status(x->t, TimerStatus::modifying);
      std::atomic<bool> done{false};
      std::thread th([&] {
        x->set.run_due(1);
        done.store(true);
      });
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      EXPECT_TRUE(!done.load()) << "run did not wait for a Modifying head";
      Access::force_status(x->t, TimerStatus::waiting);
      th.join();
      EXPECT_EQ(x->fired, 1);
    }
  });
}

}  // namespace
}  // namespace lfcheck
