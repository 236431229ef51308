// The TSan build's lin probes (tests/stress_runner_truth.sh; stress/CMakeLists.txt links
// this file into the TSan build of lfcheck-stress-probes only). A ThreadSanitizer report
// must not end the lin.* workloads: they run to their end, and the record gives both
// findings, the report and the linearizability verdict (issue 47).
//   probe_racy_stack  probe_rare_stack (correct: a mutex and a vector) whose every call
//               also bumps a plain counter outside the lock: a data race TSan reports,
//               whose stacks are all in code built with TSan (so the record names the
//               loaded library built without it, liblfcheck_probe_uninstrumented.so, as
//               a hint). Its lin verdict: linearizable;
//   probe_racy_stack_gives_up  the same race on probe_rare_stack_gives_up (its pop says
//               "empty" while values are held): its lin verdict is NOT LINEARIZABLE;
//   probe_racy_stack_hangs  the race, then thread 0's 1,000th call never returns: the
//               HANG's record gives the report too.
// A test-only fixture: the race is the point, and nothing suppresses it.
#include <chrono>
#include <thread>

#include "harness/lin_registry.hpp"
#include "stress/selftest/probe_rare_stack.hpp"

namespace lfcheck::probe_stress {

enum class RacyMode { linearizable, gives_up, hangs };

template <RacyMode kMode>
struct ProbeRacyStackSpec : ProbeRareStackSpec<kMode == RacyMode::gives_up> {
  using Stack = ProbeRareStackSpec<kMode == RacyMode::gives_up>;
  static constexpr const char* name = kMode == RacyMode::gives_up ? "probe_racy_stack_gives_up"
                                      : kMode == RacyMode::hangs  ? "probe_racy_stack_hangs"
                                                                  : "probe_racy_stack";
  using typename Stack::Call;
  using typename Stack::Result;
  struct Subject : Stack::Subject {
    static inline long calls = 0;  // every thread's calls, unsynchronized on purpose: the race
    static inline thread_local unsigned own_calls = 0;
    Result run(const Call& c, unsigned t) {
      calls = calls + 1;
      if (kMode == RacyMode::hangs && t == 0 && ++own_calls == 1000)
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));  // the watchdog ends the process
      return Stack::Subject::run(c, t);
    }
  };
};
using ProbeRacyStack = ProbeRacyStackSpec<RacyMode::linearizable>;
using ProbeRacyStackGivesUp = ProbeRacyStackSpec<RacyMode::gives_up>;
using ProbeRacyStackHangs = ProbeRacyStackSpec<RacyMode::hangs>;
LFCHECK_LIN(ProbeRacyStack);
LFCHECK_LIN(ProbeRacyStackGivesUp);
LFCHECK_LIN(ProbeRacyStackHangs);

}  // namespace lfcheck::probe_stress
