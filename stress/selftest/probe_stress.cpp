// Probe workloads for the stress runner's own tests: linked with harness/stress/main.cpp
// into the plain lfcheck-stress-probes, never into lfcheck-stress (the three the sanitizer
// builds run too, probe_leak, probe_hang and probe_uninstrumented, are in
// probe_sanitizer_stress.cpp). Each makes a claim of the runner checkable from outside
// (tests/stress_runner_truth.sh):
//   probe_idle  a workload that never calls run_rounds: 0 operations ran, so the
//               run checked nothing — an error (exit 2), never a pass;
//   probe_slow  operations of 20 ms in rounds of 1024 (a round: 20 s): --duration 1
//               must end within about a second of its budget (rounds end at the
//               deadline), reporting the operations really done and real seconds;
//   probe_crash every thread takes SIGSEGV at the same moment (plain build: the
//               runner's own handler): one verdict is written whole — the JSON
//               says "crash (signal)" — however many threads die at once;
//   probe_litmus two-thread model scenarios on real threads (litmus workloads):
//               check_fails fails its check after its third execution, crash_later
//               takes SIGSEGV in its fifth: the record says 2 threads, the
//               executions done and the unit, and the table shows each thread's
//               last executions (issue 27); quiet and quiet_too pass (an
//               interrupted command marks the one running and the one after it);
//   probe_lin   a spec whose boom() call fails a Sync::check and returns a wrong
//               result: the lin.scenarios failure is the check's, in what is
//               printed and in the JSON alike (issue 27);
//   probe_hooks a spec with per-thread hooks (spec_hooks.hpp) whose Subject fails a
//               check when called from a thread its thread_begin did not register,
//               or when a thread ends registered twice: lin.scenarios and lin.history
//               pass only if every thread the harness starts is hooked (issue 30);
//   probe_relaxed a queue whose pop takes any of the 3 oldest values (a mutex
//               and a deque: each call atomic), checked against its 3-out-of-order
//               spec (specs/relaxed.hpp: pass, and the record says how far out of
//               order it went) and, as probe_relaxed_strict, against a strict FIFO
//               (fail); its seeded fault probe_relaxed.window_4 takes any of the 4
//               oldest, beyond the bound (fail). Its empty() is exempt. probe_relaxed_lifo:
//               the same for a stack that pops any of the 3 newest (issue 30);
//   probe_rare_stack  a stack (a mutex and a vector, each call atomic) that declares its
//               collection type and with_value, so lin.history checks its 100,000-call
//               histories with the stack monitor: probe_rare_stack is correct (pass);
//               probe_rare_stack_gives_up's pop, every 256th time in a thread that it
//               finds values, says "empty" (fail: the monitor must see it);
//   probe_slow_check  a quiescent check that beats no heartbeat: within its
//               bound (StressRun::BoundedWork) it is no HANG; past it, it is one.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <csignal>

#include <rapidcheck.h>

#include "harness/lin_registry.hpp"
#include "lin/collection.hpp"
#include "harness/model_registry.hpp"
#include "harness/scenario.hpp"
#include "harness/stress_registry.hpp"
#include "specs/relaxed.hpp"
#include "specs/spec.hpp"
#include "stress/selftest/probe_faults.hpp"
#include "stress/selftest/probe_rare_stack.hpp"

// The probes' fault catalogues. Those with seeded faults come from one list each
// (LFCHECK_FAULTS); the others name only their mechanism (LFCHECK_PROBE_WITHOUT_FAULTS).
#define PROBE_RELAXED_FAULTS(X) \
  X(window_4, "a pop takes any of the 4 oldest values, one more than its relaxed spec allows", "", "stress")
#define PROBE_RELAXED_LIFO_FAULTS(X) \
  X(window_4, "a pop takes any of the 4 newest values, one more than its relaxed spec allows", "", "stress")
LFCHECK_FAULTS(ProbeRelaxedFault, "probe_relaxed", PROBE_RELAXED_FAULTS);
LFCHECK_FAULTS(ProbeRelaxedLifoFault, "probe_relaxed_lifo", PROBE_RELAXED_LIFO_FAULTS);

LFCHECK_PROBE_WITHOUT_FAULTS(ProbeIdleFault, "probe_idle");
LFCHECK_PROBE_WITHOUT_FAULTS(ProbeSlowFault, "probe_slow");
LFCHECK_PROBE_WITHOUT_FAULTS(ProbeCrashFault, "probe_crash");
LFCHECK_PROBE_WITHOUT_FAULTS(ProbeLitmusFault, "probe_litmus");
LFCHECK_PROBE_WITHOUT_FAULTS(ProbeSlowCheckFault, "probe_slow_check");

namespace lfcheck {

namespace probe_stress {

template <ProbeIdleFault F>
struct Idle {
  static constexpr const char* name = "does_nothing";
  static constexpr const char* description = "returns without running a round (runner self-test)";
  static void run(StressRun&) {}
};

template <ProbeSlowFault F>
struct Slow {
  static constexpr const char* name = "slow_rounds";
  static constexpr const char* description = "20 ms operations, 1024 per round (runner self-test)";
  static void run(StressRun& run) {
    run.run_rounds([](unsigned, auto&) { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }, [] {},
                   /*round_ops=*/1024);
  }
};

template <ProbeCrashFault F>
struct Crash {
  static constexpr const char* name = "all_threads_crash";
  static constexpr const char* description = "every thread raises SIGSEGV at once in its first operation (runner self-test)";
  static void run(StressRun& run) {
    const unsigned n = run.options().threads;
    std::atomic<unsigned> arrived{0};
    run.run_rounds(
        [&](unsigned, auto&) {
          // acq_rel / acquire: only a start line (every thread arrives, then all raise);
          // nothing is published.
          arrived.fetch_add(1, std::memory_order_acq_rel);
          while (arrived.load(std::memory_order_acquire) < n) {
          }
          std::raise(SIGSEGV);
        },
        [] {});
  }
};

// A quiescent check that beats no heartbeat but ends within its bound (2 s of a
// 4 s window, as a long history's linearizability check): not a HANG under a
// 1 s --hang-seconds. Its twin overruns its bound (1 s window, never ends): a HANG.
template <ProbeSlowCheckFault F>
struct SlowCheck {
  static constexpr const char* name = "slow_bounded_check";
  static constexpr const char* description =
      "one quiescent check takes 2 s within a 4 s bound, beating no heartbeat (runner self-test)";
  static void run(StressRun& run) {
    bool checked = false;  // touched only at quiescence, which the round barrier's mutex orders
    run.run_rounds(
        [](unsigned, auto&) {},
        [&] {
          if (checked) return;
          checked = true;
          const StressRun::BoundedWork checking(run, 4);
          std::this_thread::sleep_for(std::chrono::seconds(2));
        },
        /*round_ops=*/8);
  }
};
template <ProbeSlowCheckFault F>
struct OverrunCheck {
  static constexpr const char* name = "overrun_bounded_check";
  static constexpr const char* description =
      "one quiescent check outlives its 1 s bound and never ends (runner self-test)";
  static void run(StressRun& run) {
    run.run_rounds(
        [](unsigned, auto&) {},
        [&] {
          const StressRun::BoundedWork checking(run, 1);
          for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));  // the runner's watchdog ends the process
        },
        /*round_ops=*/8);
  }
};

// Executions of a litmus probe so far in this process (harness bookkeeping, the
// driver thread's: after() runs there).
inline unsigned litmus_executions = 0;

template <class Sync, ProbeLitmusFault F>
struct CheckFails : ScenarioBase {
  static constexpr const char* name = "check_fails";
  static constexpr const char* description = "its check fails after its third execution (runner self-test)";
  static constexpr unsigned threads = 2;
  static constexpr bool real_threads = true;
  typename Sync::template atomic<int> x{0};
  void thread(unsigned) { x.fetch_add(1, std::memory_order_relaxed); }  // relaxed: read after the join
  void after() { Sync::check(++litmus_executions < 3, "probe_litmus: the third execution's check fails"); }
};

template <class Sync, ProbeLitmusFault F>
struct CrashLater : ScenarioBase {
  static constexpr const char* name = "crash_later";
  static constexpr const char* description = "thread 1 takes SIGSEGV in the fifth execution (runner self-test)";
  static constexpr unsigned threads = 2;
  static constexpr bool real_threads = true;
  typename Sync::template atomic<int> x{0};
  void before() { ++litmus_executions; }
  void thread(unsigned i) {
    x.fetch_add(1, std::memory_order_relaxed);  // relaxed: a counter
    if (i == 1 && litmus_executions == 5) std::raise(SIGSEGV);
  }
};

template <class Sync, ProbeLitmusFault F>
struct Quiet : ScenarioBase {
  static constexpr const char* name = "quiet";
  static constexpr const char* description = "two increments, always right (runner self-test)";
  static constexpr unsigned threads = 2;
  static constexpr bool real_threads = true;
  typename Sync::template atomic<int> x{0};
  void thread(unsigned) { x.fetch_add(1, std::memory_order_relaxed); }  // relaxed: read after the join
  void after() { Sync::check(x.load(std::memory_order_relaxed) == 2, "an increment was lost"); }
};

template <class Sync, ProbeLitmusFault F>
struct QuietToo : Quiet<Sync, F> {
  static constexpr const char* name = "quiet_too";
};

LFCHECK_MODEL(ProbeLitmusFault, CheckFails);
LFCHECK_MODEL(ProbeLitmusFault, CrashLater);
LFCHECK_MODEL(ProbeLitmusFault, Quiet);
LFCHECK_MODEL(ProbeLitmusFault, QuietToo);

// get() answers 0; boom() answers 1 by the spec, but the subject's boom() fails a
// Sync::check and answers 0: a check failure and a wrong result in one call.
struct ProbeLinSpec {
  static constexpr const char* name = "probe_lin";
  static constexpr const char* long_histories_off = "a runner self-test: lin.scenarios only";
  struct Call {
    bool boom;
  };
  struct Result {
    int value;
    bool operator==(const Result&) const = default;
  };
  using State = int;
  static State initial() { return 0; }
  static Result apply(State&, const Call& c) { return {c.boom ? 1 : 0}; }
  static std::string show(const Call& c) { return c.boom ? "boom()" : "get()"; }
  static std::string show(const Result& r) { return std::to_string(r.value); }
  static rc::Gen<Call> gen_call(spec::Slot) { return rc::gen::element(Call{false}, Call{true}); }
  template <class Sync>
  struct Subject {
    Result run(const Call& c, unsigned) {
      if (c.boom) Sync::check(false, "probe_lin: boom() always fails its check");
      return {0};
    }
  };
};

LFCHECK_LIN(ProbeLinSpec);

// A spec with the per-thread hooks a reclamation library asks for: thread_begin
// registers the calling thread, thread_end unregisters it; the Subject refuses a
// call from a thread that is not registered, and its construction and destruction
// too (the driver must be registered around them).
struct ProbeHooksSpec {
  static constexpr const char* name = "probe_hooks";
  static inline thread_local int registrations = 0;  // this thread's begin minus end
  static inline std::atomic<int> setups{0};            // relaxed: a count read by checks
  static void setup() { setups.fetch_add(1, std::memory_order_relaxed); }
  static void thread_begin(unsigned) {
    StdSync::check(setups.load(std::memory_order_relaxed) == 1, "probe_hooks: thread_begin before setup(), or setup() twice");
    StdSync::check(++registrations == 1, "probe_hooks: a thread registered twice");
  }
  static void thread_end(unsigned) { StdSync::check(--registrations == 0, "probe_hooks: thread_end without thread_begin"); }
  struct Call {
    int value;
  };
  struct Result {
    int value;
    bool operator==(const Result&) const = default;
  };
  using State = int;
  static State initial() { return 0; }
  static Result apply(State&, const Call& c) { return {c.value}; }
  static std::string show(const Call& c) { return "echo(" + std::to_string(c.value) + ")"; }
  static std::string show(const Result& r) { return std::to_string(r.value); }
  static rc::Gen<Call> gen_call(spec::Slot) { return rc::gen::construct<Call>(rc::gen::inRange(0, 3)); }
  static void require_registered() {
    StdSync::check(registrations == 1, "probe_hooks: a call from a thread its spec's thread_begin did not register");
  }
  struct Subject {
    Subject() { require_registered(); }
    ~Subject() { require_registered(); }
    Result run(const Call& c, unsigned) {
      require_registered();
      return {c.value};
    }
  };
};

LFCHECK_LIN(ProbeHooksSpec);

// A 3-out-of-order FIFO: a mutex and a deque, pop takes one of the 3 oldest values
// at random (the seeded fault: of the 4 oldest). empty() is exempt from checking.
struct ProbeRelaxedBase {
  static constexpr const char* long_histories_off = "a runner self-test: lin.scenarios only";
  static constexpr unsigned kK = 3;
  enum class Op : std::uint8_t { push, pop, empty };
  struct Call {
    Op op;
    int value;
  };
  struct Result {
    bool ok;
    int value;
    bool operator==(const Result&) const = default;
  };
  static std::string show(const Call& c) {
    return c.op == Op::push ? "push(" + std::to_string(c.value) + ")" : c.op == Op::pop ? "pop()" : "empty()";
  }
  static std::string show(const Result& r) { return r.ok ? (r.value ? std::to_string(r.value) : "true") : "false"; }
  static rc::Gen<Call> gen_call(spec::Slot) {
    return rc::gen::weightedOneOf<Call>({{3, rc::gen::construct<Call>(rc::gen::just(Op::push), rc::gen::inRange(1, 5))},
                                         {2, rc::gen::just(Call{Op::pop, 0})},
                                         {1, rc::gen::just(Call{Op::empty, 0})}});
  }
  // kLifo: the 3 (seeded fault: 4) newest values instead of the oldest.
  template <class Sync, bool kWide, bool kLifo = false>
  struct Queue {
    std::mutex mutex;
    std::deque<int> items;
    // A new seed per Subject (per execution): each execution draws other positions.
    static inline std::atomic<unsigned> subjects{0};  // relaxed: only a counter
    std::mt19937 rng{subjects.fetch_add(1, std::memory_order_relaxed)};
    Result run(const Call& c, unsigned) {
      std::lock_guard<std::mutex> lock(mutex);
      if (c.op == Op::push) return items.push_back(c.value), Result{true, 0};
      if (c.op == Op::empty) return {items.empty(), 0};
      if (items.empty()) return {false, 0};
      const std::size_t window = std::min<std::size_t>(items.size(), kWide ? 4 : kK);
      const std::size_t at = kLifo ? items.size() - 1 - rng() % window : rng() % window;
      const int v = items[at];
      items.erase(items.begin() + static_cast<std::ptrdiff_t>(at));
      return {true, v};
    }
  };
};

struct ProbeRelaxedSpec : ProbeRelaxedBase {
  static constexpr const char* name = "probe_relaxed";
  using Fault = ProbeRelaxedFault;
  template <class Sync, Fault F>
  using Subject = Queue<Sync, F == Fault::window_4>;
  using State = std::vector<int>;  // oldest first
  static State initial() { return {}; }
  static constexpr unsigned out_of_order_bound = kK - 1;
  static bool step(State& s, const Call& c, const Result& r) {
    if (c.op == Op::push) return s.push_back(c.value), r == Result{true, 0};
    if (c.op == Op::empty) return true;  // exempt: documented as not linearizable
    if (!r.ok) return s.empty();
    const int at = spec::within_first(s, r.value, kK);
    if (at < 0) return false;
    s.erase(s.begin() + at);
    return true;
  }
  static unsigned out_of_order(const State& s, const Call& c, const Result& r) {
    return c.op == Op::pop && r.ok ? static_cast<unsigned>(std::max(spec::within_first(s, r.value, kK), 0)) : 0;
  }
};

// The same queue against a strict FIFO (empty() strict too): it must fail.
struct ProbeRelaxedStrictSpec : ProbeRelaxedBase {
  static constexpr const char* name = "probe_relaxed_strict";
  template <class Sync>
  using Subject = Queue<Sync, false>;
  using State = std::vector<int>;  // oldest first
  static State initial() { return {}; }
  static Result apply(State& s, const Call& c) {
    if (c.op == Op::push) return s.push_back(c.value), Result{true, 0};
    if (c.op == Op::empty) return {s.empty(), 0};
    if (s.empty()) return {false, 0};
    const int v = s.front();
    s.erase(s.begin());
    return {true, v};
  }
};

// A 3-out-of-order LIFO: pop takes one of the 3 newest values. Its state is the set
// of stacks the history may have left (specs/relaxed.hpp, LifoStates).
struct ProbeRelaxedLifoSpec : ProbeRelaxedBase {
  static constexpr const char* name = "probe_relaxed_lifo";
  using Fault = ProbeRelaxedLifoFault;
  template <class Sync, Fault F>
  using Subject = Queue<Sync, F == Fault::window_4, /*kLifo=*/true>;
  using State = spec::LifoStates<int>;
  static State initial() { return {}; }
  static std::size_t hash(const State& s) { return s.hash(); }
  static constexpr unsigned out_of_order_bound = kK - 1;
  static bool step(State& s, const Call& c, const Result& r) {
    if (c.op == Op::push) return s.push(c.value), r == Result{true, 0};
    if (c.op == Op::empty) return true;  // exempt, as for the FIFO
    if (!r.ok) return s.empty();
    return s.pop(r.value, kK);
  }
  static unsigned out_of_order(const State& s, const Call& c, const Result& r) {
    return c.op == Op::pop && r.ok ? s.depth_of(r.value, kK) : 0;
  }
};

LFCHECK_LIN(ProbeRelaxedSpec);
LFCHECK_LIN(ProbeRelaxedStrictSpec);
LFCHECK_LIN(ProbeRelaxedLifoSpec);

LFCHECK_LIN(ProbeRareStack);
LFCHECK_LIN(ProbeRareStackGivesUp);


LFCHECK_STRESS(ProbeIdleFault, Idle);
LFCHECK_STRESS(ProbeCrashFault, Crash);
LFCHECK_STRESS(ProbeSlowFault, Slow);
LFCHECK_STRESS(ProbeSlowCheckFault, SlowCheck);
LFCHECK_STRESS(ProbeSlowCheckFault, OverrunCheck);

}  // namespace probe_stress
}  // namespace lfcheck
