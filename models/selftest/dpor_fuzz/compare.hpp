// One program, both searches: Relacy's full search (the oracle; at load depth 2,
// harness/model/deep_full_search.hpp) and lfcheck's DPOR search, compared on
//   - the verdict: pass, or a failure (any kind: the two searches stop at the
//     first failing execution each finds, which need not be the same one);
//   - for a pass, the set of outcomes of the passing executions (interpreter.hpp)
//     and the union of the states the invariant observed.
// A program whose full search does not end within the caps is skipped ("full
// search too large"), never counted as agreement, and so is one whose full search
// is not reproducible (Relacy's own state at fault); one whose DPOR search does not
// end where the full search did is a disagreement (DPOR must end wherever the
// full search does: it explores no more classes than schedules). A full-search
// LIVELOCK against a DPOR pass, in a program with a timed wait, is skipped too
// ("outside the fairness bound"): Relacy's full search may run a spin loop forever
// beside a thread in a timed wait, a schedule DPOR's documented fairness bound
// leaves out; counted on its own, never as agreement.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/selftest/dpor_fuzz/interpreter.hpp"
#include "models/selftest/dpor_fuzz/program.hpp"

namespace lfcheck::dpor_fuzz {

struct Limits {
  std::uint64_t full_executions = 200'000;  // a full search past this is "too large": skipped
  double search_seconds = 30;               // each search's wall-clock cap (then: skipped, or DPOR unfinished)
};

struct SearchResult {
  bool ended = false;      // ran to its end or to a failure
  bool passed = false;     // ended, every execution passed, and the threads touched something
  bool no_work = false;    // ended, every execution passed, the threads touched nothing (NO WORK)
  std::string verdict;     // "pass", or the failure's words
  std::uint64_t executions = 0;
  std::vector<std::uint64_t> outcomes, states;
  bool outcomes_complete = true;
  bool reproduced = true;  // a failure: its execution failed again when re-run alone
  bool livelock = false;   // the failure is Relacy's LIVELOCK
  std::vector<std::string> outcome_texts, state_texts;  // filled when asked to describe
};

enum class Finding {
  agree,
  skipped_too_large,   // the full search did not end within the caps
  skipped_overflow,    // an execution's log overflowed, or the outcome set did
  skipped_oracle,      // the full search failed, and its failing execution did not fail again alone
  skipped_fairness,    // the full search's LIVELOCK, DPOR's pass, in a program with a timed wait: the
                       // schedule that spins forever beside a timed wait is outside DPOR's stated
                       // fairness bound (a timed wait times out eventually), so there is no oracle
  verdict,             // one passed, the other failed
  missing_outcomes,    // both passed; the full search has outcomes DPOR has not
  extra_outcomes,      // both passed; DPOR has outcomes the full search has not (and none missing):
                       // counted and shown, no disagreement (is_disagreement)
  states,              // both passed, same outcomes; the invariant's observed states differ
  dpor_unfinished,     // the full search ended, DPOR did not within the caps
  dpor_nondeterministic,  // DPOR failed in an execution that did not fail again alone: the program
                          // is deterministic and the full search's failure (if any) reproduced, so
                          // DPOR's replay went astray (a disagreement even if both failed)
};
const char* name(Finding f);
bool is_skip(Finding f);  // not compared: never an agreement
bool is_disagreement(Finding f);

struct Comparison {
  unsigned load_depth = 1;
  Finding finding = Finding::agree;
  SearchResult full, dpor;
};

// Runs both searches on `p` at `load_depth`. `describe`: keep the outcomes'
// readable records (costly; for printing a disagreement).
Comparison compare(const Program& p, unsigned load_depth, const Limits& limits, Break fault, bool describe);

// A smallest program (no single statement can go) that still shows `finding` at
// `load_depth`, from keep_only(p, keep): statements are dropped one at a time
// while the finding persists. Returns the keep mask over `p`'s flat positions.
std::vector<bool> minimise(const Program& p, std::vector<bool> keep, unsigned load_depth, Finding finding,
                           const Limits& limits, Break fault);

}  // namespace lfcheck::dpor_fuzz
