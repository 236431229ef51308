// What a fuzzing run reports: each disagreement in full (the program, minimised;
// both searches' verdicts and executions; both sets of outcomes and of invariant
// states, what only one has first; the replay command), the run's counts, and the
// same as run records ({"runs":[...]}: harness/report/report.hpp) for --json and
// --junit — a summary record, and one failing record per disagreement.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "harness/report/report.hpp"
#include "models/selftest/dpor_fuzz/compare.hpp"
#include "models/selftest/dpor_fuzz/program.hpp"

namespace lfcheck::dpor_fuzz {

struct Disagreement {
  std::uint64_t index = 0;
  unsigned load_depth = 1;
  Finding finding = Finding::agree;
  std::size_t statements = 0, kept = 0;  // of the generated program, of the one shown
  std::string keep;                      // --keep's list for the one shown ("": all)
  std::string replay;                    // the command that shows it again
  std::string full, dpor;                // each search's verdict and executions
  std::string text;                      // the whole printed report of it
};

// The replay command of program `index` at `load_depth` (with --keep `keep` if not empty).
using ReplayLine = std::function<std::string(std::uint64_t index, unsigned load_depth, const std::string& keep)>;

// The disagreement `found` of keep_only(generated, keep), minimised if asked (its
// statements dropped while it persists), compared again with the outcomes'
// records kept, rendered.
// A comparison whose DPOR found outcomes the full search did not (and missed none):
// one line with the counts and the replay line (no failure: is_disagreement).
std::string superset_note(const Program& generated, const std::vector<bool>& keep, const Comparison& c,
                          const ReplayLine& replay);

Disagreement describe(const Program& generated, std::vector<bool> keep, const Comparison& found, const Limits& limits,
                      Break fault, bool minimise, const ReplayLine& replay);

struct Tally {
  std::uint64_t generated = 0, compared = 0, full_executions = 0, dpor_executions = 0;
  std::map<std::string, std::uint64_t> findings;  // "load depth D: FINDING" -> comparisons
  std::map<std::string, std::uint64_t> verdicts;  // the full search's verdicts of the comparisons made
  std::vector<Disagreement> disagreements;
  std::vector<std::string> lost;  // batches whose process died: their programs were not compared
  void add(const Comparison& c);
};

// The run's settings, as the summary and the records name them.
struct RunFacts {
  std::uint64_t seed = 0, first = 0;
  std::string threads, excluded, focus, load_depths, shard, fault, stopped;  // stopped: "" if it ran to its end
  bool interrupted = false;  // SIGINT/SIGTERM: what ran is reported, the run is an error (exit 2) unless it found a disagreement
  double seconds = 0;
};

// The summary lines; returns the exit status (0 agreed and compared, 1 a
// disagreement, 2 nothing compared or interrupted).
int print_summary(const RunFacts& facts, const Tally& tally);
// The run records: a summary record, then one failing record per disagreement.
std::vector<RunRecord> run_records(const RunFacts& facts, const Tally& tally);

}  // namespace lfcheck::dpor_fuzz
