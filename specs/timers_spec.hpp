// The Go-style timers' sequential spec (see specs/spec.hpp for the shape).
//
// Model: Timers timers (ids 0..Timers-1), each armed (at `when`, with `period`) or
// not; a virtual clock; two workers, of which worker 1 can be shut down.
//   add(t, w, when, period)    TimerError: bad_argument (when or period < 0), then
//                              worker_shut_down (w was shut down), then
//                              already_armed, else ok (armed at when).
//   stop(t)                    Go's Stop: true iff the call stopped an armed timer.
//   reset(t, when)             Go's Reset through worker 0 (never shut down): true iff
//                              the timer had been armed; armed at when, period kept.
//   modify(t, w, when, period) reset that also sets the period: {was_armed, error}
//                              (errors as add, without already_armed).
//   run(now)                   owner only: advance the clock to now (never back) and
//                              run every worker once (run_due): every armed timer whose
//                              when <= clock fires once at its when; a one-shot is
//                              disarmed, a periodic one re-armed past the clock. The
//                              result is the multiset of fires (timer, when) — sorted:
//                              the structure promises no order across timers or workers
//                              — and the clock the callbacks saw.
//   shutdown_worker()          owner only: worker 1's timers move to worker 0; later
//                              add/modify through worker 1 fail with worker_shut_down.
//
// The concurrent allowance (step): a run is not one atomic step. run_due fires the
// due timers one by one — each fire is the CAS Waiting -> Running of that timer
// (timers.hpp, run_head) — and unlocks around every callback (run_due_locked), while
// stop/reset/modify change a timer by CAS without the worker's lock, and add may
// push onto a worker whose run_due has already passed. So other threads' operations
// interleave with the fires of one run: one run can fire x, then a stop(x) returns
// false and a reset(y) returns true for a y the same run then finds not due. No
// single point explains that run; each fire is its own linearization point. step()
// models exactly that, as a window: the owner is the only runner, so fires happen
// only between the owner's previous operation and the end of a run of the parallel
// part, and
//   - an operation of another thread in the window may find a one-shot timer already
//     fired (stop false, reset/modify false, add ok on a timer the model has armed):
//     the fire is then pending, and the owner's next operation must be a run of the
//     parallel part, whose clock makes that when due and whose result contains it;
//   - the run's result must contain every pending fire and every armed timer due at
//     its clock that no operation touched in the window (its worker's run_due found
//     it due); a timer armed or re-armed in the window and due may or may not be in it
//     (the arming may come after its worker's run_due), and is disarmed if it is;
//   - any other owner operation, and every operation of a prefix or suffix (nothing
//     runs alongside them), is exact: no fire may be pending.
// One more allowance, also the structure's documented behaviour: an add or modify
// through worker 1 that races the owner's shutdown of worker 1 (in the parallel
// part) may act as if the worker were still up. change() tests shut_down_ once at
// entry and again only if it needs the caller's heap ("one racing the shutdown is
// re-checked under the lock below if it needs the caller's heap"), so a call that
// passed the entry test before the shutdown can answer already_armed, or re-arm a
// timer in place, after it — two points, which no one-point order explains (seen
// by this spec: add(t0, w1) -> already_armed for an arm made after the shutdown).
// Props use apply (exact). Periodic timers are generated only for the props: a
// periodic fire leaves the timer armed, so no later result tells which of two arms
// with the same when fired, and step() would need a set of states; in the
// concurrent part every arm is one-shot, for which every result is decisive.
//
// Long histories (lin.history: 10,000 calls from --threads threads, real-time order)
// use HistorySpec, the same model with one change in generation: the clock stays
// at or below 60 and the other threads arm timers only later than that, so a run
// fires only the owner's arms and no result or window outgrows its fixed arrays.
//
// Across timers the scenario's results must be sequentially consistent (lin's
// program order): an answer read from one timer's status after a CAS on another
// must not miss a change made the other way round. timers.hpp's status word is
// seq_cst for exactly that (its header, "Sequential consistency").
//
// No partition, although the issue suggests one per timer: run's result spans
// timers, the window above is shared by all of them (it is bounded by the owner's
// operations on any timer), and so is the clock. A per-timer key would need run()
// split into one operation per timer, which the history cannot express.
//
// Not covered (documented gaps): fires pending when the history ends (no later owner
// operation) are not checked — the checker has no final-state condition; the run
// loop (run_once/run: sleep, wake-ups, request_exit) and the steady clock; callbacks
// that re-arm timers; the callback, argument and seq fields (the Subject passes the
// same callback for a timer throughout); add/modify/shutdown through worker 0's
// shutdown.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "specs/spec.hpp"
#include "structures/timers/global_lock_timers.hpp"
#include "structures/timers/timers.hpp"

namespace lfcheck::specs {

// The implementations the spec can drive: template <class Sync, class Clock, TimerFault>.
template <class Sync, class Clock, TimerFault F>
using GoTimersImpl = TimerSet<Sync, Clock, 4, F>;
template <class Sync, class Clock, TimerFault F>
using BinaryHeapTimersImpl = TimerSet<Sync, Clock, 2, F>;
template <class Sync, class Clock, TimerFault>
using GlobalLockTimersImpl = GlobalLockTimers<Sync, Clock>;  // no seeded faults

// History: the instance for long real-thread histories (lin.history), see gen_call.
template <unsigned Timers, template <class, class, TimerFault> class Impl = GoTimersImpl, bool History = false>
struct TimersSpecOf {
  static constexpr const char* name = "timers";
  using Fault = TimerFault;
  using HistorySpec = TimersSpecOf<8, Impl, true>;  // more timers: see "Long histories" above
  static constexpr unsigned kTimers = Timers;
  static constexpr unsigned kWorkers = 2;
  // Per run; more is reported as "too many". A run fires each arm at most once: the
  // arms at its start and those the other threads make while it runs (timers_lin.cpp).
  static constexpr unsigned kMaxFires = 20;
  // Fires pending in one window (step): one per call of the other threads in a
  // scenario; in a long history only the owner's arms (timers_lin.cpp).
  static constexpr unsigned kMaxPending = History ? Timers : 16;
  static constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  // The latest clock a run can set (gen_call): a long history's clock stays at 60.
  static constexpr std::int64_t kMaxClock = History ? 60 : kMax;

  enum class Op : std::uint8_t { add, stop, reset, modify, run, shutdown_worker };

  struct Call {
    Op op = Op::stop;
    std::uint8_t timer = 0;
    std::uint8_t worker = 0;  // add, modify: the caller's worker
    bool owner = false;       // generated for an owner slot (specs/spec.hpp)
    bool concurrent = false;  // generated for a scenario's parallel part
    std::int64_t when = 0;    // add/reset/modify: the new when; run: now
    std::int64_t period = 0;  // add, modify
  };

  struct Fire {
    std::uint8_t timer = 0;
    std::int64_t when = 0;
    bool operator==(const Fire&) const = default;
    bool operator<(const Fire& o) const { return timer != o.timer ? timer < o.timer : when < o.when; }
  };

  struct Result {
    Op op = Op::stop;
    std::uint8_t code = 0;  // add, modify, shutdown_worker: TimerError; stop, reset: the bool
    bool was_armed = false;  // modify
    std::uint8_t n = 0;     // run: fires (kMaxFires + 1: too many)
    Fire fires[kMaxFires] = {};
    std::int64_t now = 0;   // run: the clock every callback saw (0 if none fired)
    bool broken = false;    // run: a callback saw two clocks, or fired before its when
    bool operator==(const Result&) const = default;
  };

  struct Arm {
    std::int64_t when = 0, period = 0;
    bool armed = false;
    bool touched = false;  // step: changed since the owner's last operation
    bool operator==(const Arm&) const = default;
  };

  struct State {
    std::int64_t clock = 0;
    Arm t[kTimers] = {};
    bool down = false;  // worker 1 shut down
    bool down_raced = false;  // step: ... by the owner in the parallel part (see the top)
    std::uint8_t pending_n = 0;
    Fire pending[kMaxPending] = {};  // step: one-shot fires seen by others, due in the next run
    bool operator==(const State&) const = default;
  };
  static std::size_t hash(const State& s) {
    std::size_t h = static_cast<std::size_t>(s.clock) * 31 + s.down * 7 + s.down_raced * 3 + s.pending_n;
    for (const Arm& a : s.t)
      h = h * 1000003u ^ (static_cast<std::size_t>(a.when) * 4 + a.armed * 2 + a.touched) ^
          static_cast<std::size_t>(a.period) << 20;
    for (unsigned i = 0; i < s.pending_n; ++i) h = h * 131 + s.pending[i].timer * 7 + s.pending[i].when;
    return h;
  }

  static State initial() { return {}; }

  // A fire at `clock` of a timer due at a.when <= clock: a one-shot is disarmed; a
  // periodic one re-armed at when + k * period for the least k >= 1 after the
  // clock, or disarmed if that is past INT64_MAX (it has no next firing in int64
  // time: this one was its last).
  static void fire(Arm& a, std::int64_t clock) {
    if (a.period > 0) {
      const __int128 k = (static_cast<__int128>(clock) - a.when) / a.period + 1;
      const __int128 next = static_cast<__int128>(a.when) + k * a.period;
      if (next <= kMax) {
        a.when = static_cast<std::int64_t>(next);
        return;
      }
    }
    a.armed = false;
  }
  static std::uint8_t error(TimerError e) { return static_cast<std::uint8_t>(e); }

  static Result apply(State& s, const Call& c) {
    Arm& a = s.t[c.timer];
    Result r{c.op};
    switch (c.op) {
      case Op::add:
        if (c.when < 0 || c.period < 0) r.code = error(TimerError::bad_argument);
        else if (s.down && c.worker == 1) r.code = error(TimerError::worker_shut_down);
        else if (a.armed) r.code = error(TimerError::already_armed);
        else {
          a = {c.when, c.period, true, true};
          r.code = error(TimerError::ok);
        }
        return r;
      case Op::stop:
        r.code = a.armed;
        if (a.armed) a.touched = true;
        a.armed = false;
        return r;
      case Op::reset:
        r.code = a.armed;
        a.armed = true;
        a.when = c.when;
        a.touched = true;
        return r;
      case Op::modify:
        if (c.when < 0 || c.period < 0) r.code = error(TimerError::bad_argument);
        else if (s.down && c.worker == 1) r.code = error(TimerError::worker_shut_down);
        else {
          r.was_armed = a.armed;
          a = {c.when, c.period, true, true};
          r.code = error(TimerError::ok);
        }
        return r;
      case Op::run: {
        s.clock = std::max(s.clock, c.when);
        for (unsigned i = 0; i < kTimers; ++i) {
          Arm& x = s.t[i];
          if (!x.armed || x.when > s.clock) continue;
          add_fire(r, {static_cast<std::uint8_t>(i), x.when});
          fire(x, s.clock);
        }
        finish_fires(r, s.clock);
        return r;
      }
      case Op::shutdown_worker:
        r.code = error(s.down ? TimerError::worker_shut_down : TimerError::ok);
        s.down = true;
        return r;
    }
    return r;
  }

  static void add_fire(Result& r, Fire f) {
    if (r.n < kMaxFires) r.fires[r.n] = f;
    if (r.n <= kMaxFires) ++r.n;
  }
  static void finish_fires(Result& r, std::int64_t clock) {
    if (r.n <= kMaxFires) std::sort(r.fires, r.fires + r.n);
    r.now = r.n ? clock : 0;
  }

  // ---- the concurrent allowance (see the top) -----------------------------------
  static void open_window(State& s) {
    for (Arm& a : s.t) {
      a.touched = false;
      settled(a);
    }
  }

  static bool step(State& s, const Call& c, const Result& observed) {
    if (observed.op != c.op) return false;
    if (c.owner) {
      if (c.op == Op::run && c.concurrent) return run_in_window(s, c, observed);
      if (s.pending_n) return false;  // a fire with no run in progress
      const bool ok = apply(s, c) == observed;
      if (c.op == Op::shutdown_worker && c.concurrent) s.down_raced = true;
      open_window(s);
      return ok;
    }
    // Another thread's operation (it changes only its timer's arm): the exact result,
    // else one of the explanations the structure allows (see the top), the first that
    // gives the observed result.
    Arm& a = s.t[c.timer];
    const Arm saved = a;
    if (apply(s, c) == observed) return settled(a);
    const bool raced = c.worker == 1 && (c.op == Op::add || c.op == Op::modify) && s.down && s.down_raced;
    for (int fired = 0; fired < 2; ++fired)
      for (int as_if_up = 0; as_if_up < (raced ? 2 : 1); ++as_if_up) {
        if (fired + as_if_up == 0) continue;  // the exact result, tried above
        a = saved;
        if (fired) {
          // The timer's one-shot arm fired just before, in a run in progress
          // (pending until that run reports it).
          if (!a.armed || a.period != 0 || s.pending_n == kMaxPending) continue;
          add_pending(s, {c.timer, a.when});
          a.armed = false;
        }
        if (as_if_up) s.down = false;  // the call passed its shut-down check before the shutdown
        const bool ok = apply(s, c) == observed;
        if (as_if_up) s.down = true;  // as_if_up runs only where it was down (raced)
        if (ok) return settled(a);
        if (fired) remove_pending(s, {c.timer, saved.when});
      }
    return false;
  }

  // Canonical states, so that orders with the same future meet in the checker's memo:
  // an arm no later run can find due (when > kMaxClock) is only "armed" — its when
  // and `touched` never show in any result — and pending fires are a multiset (kept
  // sorted). Without this, two orders of calls that left such an arm at different
  // whens would stay apart to the end of a long history.
  static bool settled(Arm& a) {
    if (!a.armed) a.touched = false;
    else if (a.when > kMaxClock) a = {kMax, a.period, true, false};
    return true;
  }
  static void add_pending(State& s, Fire f) {
    unsigned i = s.pending_n++;
    for (; i > 0 && f < s.pending[i - 1]; --i) s.pending[i] = s.pending[i - 1];
    s.pending[i] = f;
  }
  static void remove_pending(State& s, Fire f) {
    unsigned i = 0;
    while (!(s.pending[i] == f)) ++i;
    for (; i + 1 < s.pending_n; ++i) s.pending[i] = s.pending[i + 1];
    s.pending[--s.pending_n] = {};
  }

  static bool run_in_window(State& s, const Call& c, const Result& observed) {
    if (observed.broken || observed.n > kMaxFires) return false;
    const std::int64_t clock = std::max(s.clock, c.when);
    if (observed.now != (observed.n ? clock : 0)) return false;
    bool used[kMaxFires] = {};
    // Takes one observed fire equal to f, if there is one left.
    auto take = [&](Fire f) {
      for (unsigned i = 0; i < observed.n; ++i)
        if (!used[i] && observed.fires[i] == f) return used[i] = true;
      return false;
    };
    for (unsigned i = 0; i < s.pending_n; ++i)
      if (s.pending[i].when > clock || !take(s.pending[i])) return false;
    for (unsigned i = 0; i < kTimers; ++i) {
      Arm& a = s.t[i];
      if (!a.armed || a.when > clock) continue;
      const bool fired = take({static_cast<std::uint8_t>(i), a.when});
      if (!fired && !a.touched) return false;  // due all along: its worker's run_due fired it
      if (fired) fire(a, clock);
    }
    for (unsigned i = 0; i < observed.n; ++i)
      if (!used[i]) return false;  // a fire the model cannot explain
    s.clock = clock;
    s.pending_n = 0;
    for (Fire& f : s.pending) f = {};
    open_window(s);
    return true;
  }

  // ---- text -----------------------------------------------------------------------
  static std::string show_time(std::int64_t t) {
    if (t == kMax) return "MAX";
    if (t == kMax - 1) return "MAX-1";
    if (t == std::numeric_limits<std::int64_t>::min()) return "MIN";
    return std::to_string(t);
  }
  static std::string show(const Call& c) {
    const std::string t = "t" + std::to_string(c.timer);
    const std::string w = ", w" + std::to_string(c.worker);
    const std::string p = c.period ? ", every " + std::to_string(c.period) : "";
    switch (c.op) {
      case Op::add: return "add(" + t + w + ", " + show_time(c.when) + p + ")";
      case Op::stop: return "stop(" + t + ")";
      case Op::reset: return "reset(" + t + ", " + show_time(c.when) + ")";
      case Op::modify: return "modify(" + t + w + ", " + show_time(c.when) + p + ")";
      case Op::run: return "run(" + show_time(c.when) + ")";
      case Op::shutdown_worker: return "shutdown_worker(w1 -> w0)";
    }
    return "?";
  }
  static std::string show(const Result& r) {
    auto err = [](std::uint8_t e) {
      switch (static_cast<TimerError>(e)) {
        case TimerError::ok: return std::string("ok");
        case TimerError::already_armed: return std::string("already_armed");
        case TimerError::worker_shut_down: return std::string("worker_shut_down");
        case TimerError::bad_argument: return std::string("bad_argument");
      }
      return std::string("?");
    };
    switch (r.op) {
      case Op::add:
      case Op::shutdown_worker: return err(r.code);
      case Op::stop:
      case Op::reset: return r.code ? "true" : "false";
      case Op::modify:
        return static_cast<TimerError>(r.code) == TimerError::ok ? (r.was_armed ? "true" : "false") : err(r.code);
      case Op::run: {
        if (r.broken) return "BROKEN (a callback saw another clock, or fired early)";
        if (r.n > kMaxFires) return "more than " + std::to_string(kMaxFires) + " fires";
        std::string s = "[";
        for (unsigned i = 0; i < r.n; ++i)
          s += (i ? " " : "") + std::string("t") + std::to_string(r.fires[i].timer) + "@" + show_time(r.fires[i].when);
        return s + "]" + (r.n ? " at " + show_time(r.now) : "");
      }
    }
    return "?";
  }

  // ---- generation ------------------------------------------------------------------
  static rc::Gen<Call> gen_call(spec::Slot slot) {
    const bool owner = slot.owner(), concurrent = slot.concurrent();
    const bool sequential = slot.where == spec::Where::sequential;
    auto timer = rc::gen::inRange<std::uint8_t>(0, kTimers);
    auto worker = rc::gen::weightedOneOf<std::uint8_t>({{3, rc::gen::just<std::uint8_t>(0)},
                                                        {1, rc::gen::just<std::uint8_t>(1)}});
    // Long histories (lin.history) have no bound on how many calls the other
    // threads make while one run is in progress. There the clock stays at or below
    // 60 (no run to the end of time) and the other threads arm timers only later than
    // that, so a run can fire only the arms the owner made: at most Timers fires in
    // one run and pending in one window, whatever the interleaving.
    const bool late = History && !owner;
    auto small = late ? rc::gen::inRange<std::int64_t>(61, 200) : rc::gen::inRange<std::int64_t>(0, 60);
    // Boundary whens: negative ones are refused (bad_argument), the top of the range fires
    // only at the end of time.
    using Times = std::vector<std::int64_t>;
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    // Sequential (props): also whens and clocks where a periodic timer's next when
    // lands at or past INT64_MAX (it is re-armed at INT64_MAX, or ends).
    const Times extremes = late ? Times{kMin, -1, kMax - 1, kMax}
                           : sequential ? Times{kMin, -1, 0, kMax / 2, kMax - 7, kMax - 1, kMax}
                                        : Times{kMin, -1, 0, kMax - 1, kMax};
    auto when = rc::gen::weightedOneOf<std::int64_t>({{8, small}, {1, rc::gen::elementOf(extremes)}});
    // reset(negative) is a checked misuse, not a result.
    auto reset_when = rc::gen::weightedOneOf<std::int64_t>(
        {{8, small}, {1, rc::gen::elementOf(late         ? Times{kMax - 1, kMax}
                                              : sequential ? Times{0, kMax / 2, kMax - 7, kMax - 1, kMax}
                                                           : Times{0, kMax - 1, kMax})}});
    auto now = History    ? small
               : sequential ? rc::gen::weightedOneOf<std::int64_t>({{8, small}, {1, rc::gen::elementOf(Times{kMax / 2, kMax - 1, kMax})}})
                            : rc::gen::weightedOneOf<std::int64_t>({{8, small}, {1, rc::gen::elementOf(Times{kMax - 1, kMax})}});
    // Periodic arms only where step() is not used (see the top); periods that
    // overflow when + period at the top of the range too.
    auto period = sequential ? rc::gen::weightedOneOf<std::int64_t>({{12, rc::gen::just<std::int64_t>(0)},
                                                                     {4, rc::gen::inRange<std::int64_t>(1, 30)},
                                                                     {1, rc::gen::elementOf(Times{kMax / 2, kMax})}})
                             : rc::gen::just<std::int64_t>(0);
    auto make = [owner, concurrent](Op op, std::uint8_t t, std::uint8_t w, std::int64_t when, std::int64_t period) {
      return Call{op, t, w, owner, concurrent, when, period};
    };
    auto add = rc::gen::apply([make](std::uint8_t t, std::uint8_t w, std::int64_t wh,
                                     std::int64_t p) { return make(Op::add, t, w, wh, p); },
                              timer, worker, when, period);
    auto stop = rc::gen::map(timer, [make](std::uint8_t t) { return make(Op::stop, t, 0, 0, 0); });
    auto reset = rc::gen::apply([make](std::uint8_t t, std::int64_t wh) { return make(Op::reset, t, 0, wh, 0); },
                                timer, reset_when);
    auto modify = rc::gen::apply([make](std::uint8_t t, std::uint8_t w, std::int64_t wh,
                                        std::int64_t p) { return make(Op::modify, t, w, wh, p); },
                                 timer, worker, when, period);
    auto run = rc::gen::map(now, [make](std::int64_t n) { return make(Op::run, 0, 0, n, 0); });
    auto shutdown = rc::gen::just(make(Op::shutdown_worker, 0, 1, 0, 0));
    if (!owner) return rc::gen::weightedOneOf<Call>({{4, add}, {4, stop}, {4, reset}, {2, modify}});
    if (concurrent)  // thread 0: mostly the runner
      return rc::gen::weightedOneOf<Call>({{2, add}, {2, stop}, {2, reset}, {1, modify}, {5, run}, {1, shutdown}});
    return rc::gen::weightedOneOf<Call>({{6, add}, {4, stop}, {4, reset}, {2, modify}, {5, run}, {1, shutdown}});
  }

  // lfcheck verify's alphabet (specs/spec.hpp), on timer t0 (and t1 in a prefix): the
  // other threads add t0 through worker 0 at 1, stop it, reset it to 2 and modify it
  // through worker 1 to 1; the owner runs the workers at time 2 and shuts worker 1 down;
  // a prefix arms t0 on worker 0 or 1, or t1 on worker 1; a suffix runs at the end of
  // time (every pending fire shows). One-shot arms only, as gen_call's in scenarios
  // (step() needs them). Left out: the owner's own stops and resets, periods, whens
  // before the clock or at the extremes (the props and generated scenarios have them).
  static std::vector<Call> alphabet(spec::Slot slot) {
    const bool owner = slot.owner(), concurrent = slot.concurrent();
    auto make = [owner, concurrent](Op op, std::uint8_t t, std::uint8_t w, std::int64_t when) {
      return Call{op, t, w, owner, concurrent, when, 0};
    };
    switch (slot.where) {
      case spec::Where::prefix: return {make(Op::add, 0, 0, 1), make(Op::add, 0, 1, 1), make(Op::add, 1, 1, 1)};
      case spec::Where::suffix: return {make(Op::run, 0, 0, kMax)};
      default:
        if (owner) return {make(Op::run, 0, 0, 2), make(Op::shutdown_worker, 0, 1, 0)};
        return {make(Op::add, 0, 0, 1), make(Op::stop, 0, 0, 0), make(Op::reset, 0, 0, 2), make(Op::modify, 0, 1, 1)};
    }
  }

  // ---- the structure ---------------------------------------------------------------
  template <class Sync, Fault F>
  struct Subject {
    using Clock = VirtualClock<Sync>;
    using Set = Impl<Sync, Clock, F>;
    struct Arg {
      Subject* self;
      std::uint8_t id;
    };

    Clock clock{0};
    Set set{clock, kWorkers};
    typename Set::Timer timer[kTimers];
    Arg args[kTimers];
    // The fires of the run in progress. Harness bookkeeping, written only by the
    // callbacks, which run on the thread that calls run_due: the owner.
    Result fired;

    static void on_fire(void* a, std::uint64_t, std::int64_t when, std::int64_t now) {
      const Arg* arg = static_cast<const Arg*>(a);
      Result& r = arg->self->fired;
      if (now < when || (r.n && now != r.now)) r.broken = true;
      r.now = now;
      add_fire(r, {arg->id, when});
    }

    Subject() {
      for (unsigned i = 0; i < kTimers; ++i) {
        args[i] = {this, static_cast<std::uint8_t>(i)};
        timer[i].init(&on_fire, &args[i]);
      }
    }

    Result run(const Call& c, unsigned /*thread*/) {
      typename Set::Timer& t = timer[c.timer];
      Result r{c.op};
      switch (c.op) {
        case Op::add: r.code = error(set.add(c.worker, t, c.when, c.period)); break;
        case Op::stop: r.code = set.stop(t); break;
        case Op::reset: r.code = set.reset(0, t, c.when); break;
        case Op::modify: {
          const TimerModifyResult m = set.modify(c.worker, t, c.when, c.period, &on_fire, &args[c.timer], 0);
          r.code = error(m.error);
          r.was_armed = m.was_armed;
          break;
        }
        case Op::run: {
          fired = Result{Op::run};
          set.advance(c.when);
          for (unsigned w = 0; w < kWorkers; ++w) set.run_due(w);
          r = fired;
          finish_fires(r, r.now);
          break;
        }
        case Op::shutdown_worker: r.code = error(set.shutdown_worker(1, 0)); break;
      }
      return r;
    }

    const char* check_invariants() const {
      typename Set::Timer* all[kTimers];
      for (unsigned i = 0; i < kTimers; ++i) all[i] = const_cast<typename Set::Timer*>(&timer[i]);
      return set.check_invariants(all, kTimers);
    }
  };
};

// Three timers in the concurrent scenarios; the props use more (property_tests/timers_props.cpp).
using TimersSpec = TimersSpecOf<3>;

}  // namespace lfcheck::specs
