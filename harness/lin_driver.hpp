// The lin loop, the same in both layers: generate scenario after scenario from
// the seed, run each with the layer's runner, and shrink the first one that
// fails — RapidCheck's shrinks of the scenario (fewer threads, fewer calls,
// simpler arguments), greedily: the first smaller scenario that still fails
// replaces it, until none does or the shrink budget is spent. The runner is
// the layer's: Relacy (lin_model.hpp) or real threads (lin_stress.hpp).
//
// Scenario i of seed s is a pure function of (s, i): a run replays from its seed.
#pragma once

#include <rapidcheck.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "harness/lin_outcome.hpp"
#include "harness/lin_scenario.hpp"
#include "harness/progress.hpp"

namespace lfcheck::lin {

struct LinSummary {
  std::uint64_t scenarios = 0;         // scenarios run (not counting shrink candidates)
  std::uint64_t executions = 0;        // executions of those scenarios
  std::uint64_t exhaustive = 0;        // model: scenarios whose bound search finished
  std::uint64_t shrink_runs = 0;       // shrink candidates run
  std::uint64_t shrink_executions = 0;
  double seconds = 0;
  bool failed = false;
  std::uint64_t failing_index = 0;     // which generated scenario failed
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

// run(scenario) -> LinOutcome.
template <class S, class Run>
LinSummary drive(const LinOptions& o, const std::string& label, Run&& run) {
  LinSummary sum;
  const auto start = std::chrono::steady_clock::now();
  ProgressLine progress(label, !o.quiet, "scenarios");
  for (std::uint64_t i = o.first_scenario; i < o.first_scenario + o.scenarios; ++i) {
    rc::Shrinkable<Scenario<S>> current = generate<S>(o, i);
    LinOutcome out = run(current.value());
    ++sum.scenarios;
    sum.executions += out.executions;
    sum.exhaustive += out.exhaustive;
    progress.update(sum.scenarios, o.scenarios);
    if (!out.failed) continue;

    // Shrink: take the first smaller scenario that still fails, and start over from it.
    sum.failed = true;
    sum.failing_index = i;
    bool smaller = true;
    while (smaller && sum.shrink_runs < o.shrink_runs) {
      smaller = false;
      auto candidates = current.shrinks();
      while (sum.shrink_runs < o.shrink_runs) {
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
    break;
  }
  progress.finish();
  sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return sum;
}

}  // namespace lfcheck::lin
