// `lfcheck verify`: one scenario of a spec's enumeration (harness/lin/enumeration.hpp)
// under lfcheck's DPOR search, run to its end — every execution class of the
// scenario, each execution's results checked for linearizability in program order
// (harness/lin/model.hpp's test) — or to its limits: an execution limit per scenario
// and a deadline for the whole command. No sampled runs, no bound search to fall back
// on: a scenario is verified (its search ended), failed, or not ended, and the
// runner (harness/lin/verify_main.cpp) says which.
//
// Compiled per spec (the registrar, harness/lin_registry.hpp); the loop over the
// scenarios, shards, jobs, verdicts and reports are the runner's, compiled once.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "harness/lin/enumeration.hpp"
#include "harness/lin/model.hpp"

namespace lfcheck::lin {

// What bounds one scenario's search in verify.
struct VerifyLimits {
  std::uint64_t executions = 5'000'000;  // the search stops here: the scenario did not end
  unsigned load_depth = 1;               // a load may read this many stores back
  Clock::time_point deadline = Clock::time_point::max();  // the command's budget
  Budget check_budget{200000, 1e9};      // per history: a state budget only (deterministic verdicts)
};

// One scenario's DPOR search: verified when it ended (its scheduler ran out of
// alternatives, from the root) with every execution passing. A scenario in which no
// thread touched the Sync policy (calls the Subject answers from its own bookkeeping)
// ended too; it says so (no_shared_access), and a bound none of whose scenarios touched
// anything is no verdict (verify_runner.hpp).
template <class S>
LinOutcome verify_scenario(const model::ScenarioHooks& hooks, const Scenario<S>& sc, const VerifyLimits& l) {
  LinOptions o;
  o.check_budget = l.check_budget;
  ModelRequest search;
  search.execution_limit = l.executions;
  search.load_depth = l.load_depth;
  search.deadline = l.deadline;
  LinOutcome out = detail::run_lin(hooks, sc, o, "dpor", search);
  // Ended only on the search's own word that it covered its whole space (from its root,
  // ended by the scheduler: `exhaustive`, or a search in which nothing was shared),
  // never merely because nothing failed and nothing stopped it (the two coincide in
  // harness/model/run.cpp today; this does not rely on it).
  out.verified = !out.failed && out.stopped.empty() && (out.exhaustive || out.no_shared_access);
  if (!out.failed && !out.verified && out.stopped.empty()) out.stopped = "the search did not cover its whole space";
  out.exhaustive = false;
  return out;
}

// `lfcheck-lin-model verify ...` (harness/lin/verify_main.cpp): argv[0] is "verify".
int verify_main(int argc, char** argv);

}  // namespace lfcheck::lin
