// The lin loop, the same in both layers: generate scenario after scenario from
// the seed, run each with the layer's runner, and shrink the first one that
// fails — RapidCheck's shrinks of the scenario (fewer threads, fewer calls,
// simpler arguments), greedily: the first smaller scenario that still fails
// replaces it, until none does or the shrink budget is spent. The runner is
// the layer's: Relacy (harness/lin/model.hpp) or real threads (harness/lin/stress.hpp).
//
// Scenario i of seed s is a pure function of (s, i): a run replays from its seed,
// and a shard (LinOptions::shard of shards) runs the scenarios i = shard mod shards.
// The model layer goes over the scenarios twice (drive_two_pass): sampled runs
// of all, then the searches of all.
#pragma once

#include <rapidcheck.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "harness/cli/interrupt.hpp"
#include "harness/lin/outcome.hpp"
#include "harness/lin/scenario.hpp"
#include "harness/cli/progress.hpp"

namespace lfcheck::lin {

struct LinSummary {
  std::uint64_t scenarios = 0;         // scenarios run (not counting shrink candidates)
  std::uint64_t executions = 0;        // executions of those scenarios
  std::uint64_t verified = 0;          // model: scenarios whose dpor search ended
  std::uint64_t exhaustive = 0;        // model: scenarios whose bound search finished (dpor did not)
  std::uint64_t no_shared_access = 0;  // model: scenarios in which no thread touched the Sync policy
  std::uint64_t shrink_runs = 0;       // shrink candidates run
  std::uint64_t shrink_executions = 0;
  double seconds = 0;
  double first_failure_seconds = 0;    // when the first failing run ended (before shrinking)
  bool failed = false;
  bool interrupted = false;            // the command was interrupted: the scenarios did not all run
  std::uint64_t failing_index = 0;     // which generated scenario failed
  unsigned failing_pass = 0;           // in which pass: 0 the sampled runs (or drive's one pass), 1 the searches
  std::string scenario;                // the shrunk failing scenario, as text
  std::string encoded;                 // ... as bytes, for the replay file
  LinOutcome outcome;                  // its failing run
};

inline rc::Random scenario_random(std::uint64_t seed, std::uint64_t index) {
  return rc::Random(rc::Random::Key{seed, index, 0x6c66636865636b21ull, 0x6c696e0000000000ull});
}

template <class S>
rc::Shrinkable<Scenario<S>> generate(const LinOptions& o, std::uint64_t index) {
  return gen_scenario<S>(o.shape)(scenario_random(o.seed, index), rc::kNominalSize);
}

namespace detail {

// Shrinks a failing scenario with `run`: the first smaller scenario that still
// fails replaces it, until none does or the shrink budget is spent.
template <class S, class Run>
void shrink(const LinOptions& o, rc::Shrinkable<Scenario<S>> current, LinOutcome out, Run&& run, LinSummary& sum) {
  bool smaller = true;
  while (smaller && sum.shrink_runs < o.shrink_runs && !cli::interrupted()) {
    smaller = false;
    auto candidates = current.shrinks();
    while (sum.shrink_runs < o.shrink_runs && !cli::interrupted()) {
      rc::Maybe<rc::Shrinkable<Scenario<S>>> next = candidates.next();
      if (!next) break;
      ++sum.shrink_runs;
      LinOutcome again = run(next->value());
      sum.shrink_executions += again.executions;
      if (again.failed) {
        current = std::move(*next);
        out = std::move(again);
        smaller = true;
        break;
      }
    }
  }
  sum.scenario = describe(current.value());
  sum.encoded = encode(current.value());
  sum.outcome = std::move(out);
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One pass over the scenarios with `run`; the first failing one is shrunk with
// `shrink_with` and ends the pass (returns true). `first_visit`: this pass is
// the first to run these scenarios (it counts them).
template <class S, class Run, class ShrinkWith>
bool one_pass(const LinOptions& o, const std::string& label, Run&& run, ShrinkWith&& shrink_with, bool first_visit,
              std::chrono::steady_clock::time_point start, LinSummary& sum) {
  ProgressLine progress(label, !o.quiet, "scenarios");
  const std::uint64_t end = o.first_scenario + o.scenarios;
  std::uint64_t mine = 0, done = 0;  // this shard's scenarios, and how many ran
  for (std::uint64_t i = o.first_scenario; i < end; ++i) mine += i % o.shards == o.shard;
  for (std::uint64_t i = o.first_scenario; i < end; ++i) {
    if (i % o.shards != o.shard) continue;  // another shard's
    rc::Shrinkable<Scenario<S>> current = generate<S>(o, i);
    LinOutcome out = run(current.value());
    sum.scenarios += first_visit;
    sum.executions += out.executions;
    sum.verified += out.verified;
    sum.exhaustive += out.exhaustive;
    sum.no_shared_access += first_visit && out.no_shared_access;
    progress.update(++done, mine);
    if (out.interrupted && !out.failed) {  // the rest of the pass is not run
      progress.finish();
      sum.interrupted = true;
      return false;
    }
    if (!out.failed) continue;
    progress.finish();
    sum.failed = true;
    sum.failing_index = i;
    sum.failing_pass = first_visit ? 0 : 1;  // only drive_two_pass's second pass (the searches) revisits
    sum.first_failure_seconds = seconds_since(start);
    shrink<S>(o, std::move(current), std::move(out), shrink_with, sum);
    return true;
  }
  progress.finish();
  return false;
}

}  // namespace detail

// run(scenario) -> LinOutcome: one pass over the scenarios, the first failing one
// shrunk with the same runner.
template <class S, class Run>
LinSummary drive(const LinOptions& o, const std::string& label, Run&& run) {
  LinSummary sum;
  const auto start = std::chrono::steady_clock::now();
  detail::one_pass<S>(o, label, run, run, true, start, sum);
  sum.seconds = detail::seconds_since(start);
  return sum;
}

// Two passes over the same scenarios, as the model layer's --first-failure
// slices do for its scenarios: first every scenario's cheap sampled run, then
// every scenario's costly search (`rest`), so a bug that one scenario's sampling
// shows does not wait for the searches of all the scenarios before it (e.g.
// deliqueue.barrier_token_race, scenario 4 of seed 1: 84,042 executions in one
// pass, 4,042 in two). Every scenario gets both runs unless a failure ends the
// loop, so a passing run checks exactly what one pass of sampled-then-rest does.
// A failure is shrunk with the runner that found it: `sampled` for a sampled
// failure (a candidate that fails only in the search is then not taken, which
// costs shrinking, never soundness: every shrunk scenario is seen to fail), and
// `whole` (sampled, then rest) for a failure of the search.
template <class S, class Sampled, class Rest, class Whole>
LinSummary drive_two_pass(const LinOptions& o, const std::string& label, Sampled&& sampled, Rest&& rest,
                          Whole&& whole) {
  LinSummary sum;
  const auto start = std::chrono::steady_clock::now();
  if (!detail::one_pass<S>(o, label + " (sampled runs)", sampled, sampled, true, start, sum) && !sum.interrupted)
    detail::one_pass<S>(o, label + " (searches)", rest, whole, false, start, sum);
  sum.seconds = detail::seconds_since(start);
  return sum;
}

}  // namespace lfcheck::lin
