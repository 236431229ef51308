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
//               "empty" while values are held): its lin verdict is NOT LINEARIZABLE.
// A test-only fixture: the race is the point, and nothing suppresses it.
#include "harness/lin_registry.hpp"
#include "stress/selftest/probe_rare_stack.hpp"

namespace lfcheck::probe_stress {

template <bool kGivesUp>
struct ProbeRacyStackSpec : ProbeRareStackSpec<kGivesUp> {
  using Stack = ProbeRareStackSpec<kGivesUp>;
  static constexpr const char* name = kGivesUp ? "probe_racy_stack_gives_up" : "probe_racy_stack";
  using typename Stack::Call;
  using typename Stack::Result;
  struct Subject : Stack::Subject {
    static inline long calls = 0;  // every thread's calls, unsynchronized on purpose: the race
    Result run(const Call& c, unsigned t) {
      calls = calls + 1;
      return Stack::Subject::run(c, t);
    }
  };
};
using ProbeRacyStack = ProbeRacyStackSpec<false>;
using ProbeRacyStackGivesUp = ProbeRacyStackSpec<true>;
LFCHECK_LIN(ProbeRacyStack);
LFCHECK_LIN(ProbeRacyStackGivesUp);

}  // namespace lfcheck::probe_stress
