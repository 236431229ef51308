// What running one generated scenario produced, in either layer, and the
// options of a lin run. Shared by the layer runners (harness/lin/model.hpp, the lin
// stress workloads) and the driver that generates and shrinks (harness/lin/driver.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "harness/lin/scenario.hpp"
#include "lin/checker.hpp"

namespace lfcheck::lin {

struct LinOptions {
  Shape shape;
  std::uint64_t scenarios = 100;           // generated scenarios per structure
  std::uint64_t first_scenario = 0;        // run scenarios first .. first + scenarios - 1
  std::uint64_t seed = 0;                  // scenario i is generated from (seed, i)
  std::uint64_t shard = 0, shards = 1;     // only the scenarios i with i % shards == shard
  // model layer, per scenario
  std::uint64_t random_iterations = 1000;  // sampled executions per scenario
  std::string sampler = "pct";             // their scheduler: "pct" (lfcheck's) or "random" (Relacy's)
  unsigned pct_depth = 3;                  // pct: bug depth
  // Each scenario's search: DPOR up to dpor_executions (0: none); where it does not
  // end, the bound-K search up to bound_executions (K = 0: none).
  std::uint64_t dpor_executions = 20000;   // the dpor search stops here (then: the bound search)
  unsigned load_depth = 1;                 // dpor: stores back a load may read
  unsigned bound = 2;                      // context bound of the fallback search
  std::uint64_t bound_executions = 20000;  // the bound search stops here (then: not exhaustive)
  // stress layer, per scenario
  std::uint64_t executions = 1000;         // real-thread executions from the start line
  // both
  std::uint64_t shrink_runs = 150;         // candidate scenarios tried while shrinking
  Budget check_budget{200000, 5.0};        // per history; exhaustion is a failure (unknown)
  bool quiet = false;
};

struct LinOutcome {
  bool failed = false;
  std::uint64_t executions = 0;
  bool verified = false;    // model: the dpor search of this scenario ended (every execution class)
  bool exhaustive = false;  // model: the bound search of this scenario finished (up to its bound)
  bool no_shared_access = false;  // model: no thread touched anything through the Sync policy
  std::string failure;      // the checker's words
  std::string table;        // the failing execution: lin's per-thread table
  std::string history;      // model: Relacy's raw history of the failing execution
  std::string scheduler;    // model: which scheduler found it ("pct", "random", "dpor", "bound")
  std::string state;        // model: Relacy's state of the failing execution (replay)
  bool interrupted = false; // the command was interrupted during the run (harness/cli/interrupt.hpp)
  // model: why a search ended before its scheduler did ("limit": its execution limit,
  // "budget": a deadline, "interrupt"), "" when it did not stop early.
  std::string stopped;
  // A relaxed spec (lin/relaxed.hpp): the largest out_of_order over the linearizations
  // its accepted executions were given; -1 when not measured (a strict spec).
  int worst_out_of_order = -1;
};

// Calls as a Lincheck-style table when the checker did not get to run (the
// execution failed before all calls returned): each call with its result, or
// "(no result)" for the calls that never returned.
template <class S, class Done>
std::string scenario_listing(const Scenario<S>& sc, const Results<S>& r, Done&& done) {
  std::string out;
  auto line = [&](const std::string& who, const std::vector<typename S::Call>& calls, const auto* results,
                  unsigned returned) {
    out += "  " + who + ":";
    for (std::size_t i = 0; i < calls.size(); ++i)
      out += (i ? ", " : " ") + S::show(calls[i]) + ": " +
             (i < returned ? S::show(results[i]) : std::string("(no result)"));
    out += "\n";
  };
  if (!sc.prefix.empty()) line("prefix", sc.prefix, r.prefix, done.prefix);
  for (std::size_t t = 0; t < sc.threads.size(); ++t)
    line("thread " + std::to_string(t), sc.threads[t], r.threads[t], done.threads[t]);
  if (!sc.suffix.empty()) line("suffix", sc.suffix, r.suffix, done.suffix);
  return out;
}

// How many calls of each part returned.
struct Returned {
  unsigned prefix = 0, suffix = 0;
  unsigned threads[kMaxThreads] = {};
};

}  // namespace lfcheck::lin
