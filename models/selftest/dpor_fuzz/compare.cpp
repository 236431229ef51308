// One program, both searches (compare.hpp).
#include "models/selftest/dpor_fuzz/compare.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>

#include "harness/cli/interrupt.hpp"
#include "harness/model/run.hpp"

namespace lfcheck::dpor_fuzz {
namespace {

SearchResult search(const Program& p, const char* scheduler, unsigned load_depth, std::uint64_t execution_limit,
                    double seconds, Break fault, bool describe) {
  set_program(&p, fault);
  clear_run_records();
  ModelRequest request;
  request.collect_outcomes = true;
  request.load_depth = load_depth;
  request.execution_limit = execution_limit;
  request.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  const ModelOutcome o = run_scenario(interpreter_hooks(), static_cast<unsigned>(p.threads.size()), scheduler, request);
  SearchResult r;
  r.executions = o.executions;
  const bool success = o.result == rl::test_result_success;
  r.ended = !(success && o.stopped != Stop::none);
  // NO WORK (no thread touched anything through Sync) is the runner's error verdict,
  // not a pass: a verdict of its own, whose outcomes are not compared.
  r.passed = success && r.ended && !o.no_shared_access;
  r.no_work = success && r.ended && o.no_shared_access;
  if (!success) r.verdict = o.reproduced ? failure_words(o) : "NONDETERMINISTIC SCENARIO (" + failure_words(o) + ")";
  else if (!r.ended) r.verdict = o.stopped == Stop::interrupt ? "interrupted" : "did not end";
  else r.verdict = o.no_shared_access ? kNoSharedAccessWords : "pass";
  r.reproduced = o.reproduced;
  r.livelock = !success && o.result == rl::test_result_livelock;
  if (describe && o.crash.signal && !o.crash.stack.empty())  // where: in the program's code, or in Relacy's
    r.verdict += " in " + o.crash.stack.front().function + " (" + o.crash.stack.front().file + ":" +
                 std::to_string(o.crash.stack.front().line) + ")";
  r.outcomes = o.outcomes;
  r.outcomes_complete = o.outcomes_complete && !log_overflowed();
  r.states = observed_states();
  if (describe) {
    for (auto v : r.outcomes) r.outcome_texts.push_back(outcome_text(p, v));
    for (auto s : r.states) r.state_texts.push_back(state_text(p, s));
  }
  set_program(nullptr);
  return r;
}

bool has_timed_wait(const std::vector<Op>& ops) {
  for (const Op& op : ops)
    if ((op.kind == Kind::wait && op.timed) || has_timed_wait(op.body)) return true;
  return false;
}

bool has_timed_wait(const Program& p) {
  for (const auto& t : p.threads)
    if (has_timed_wait(t)) return true;
  return has_timed_wait(p.before) || has_timed_wait(p.invariant) || has_timed_wait(p.after);
}

bool subset(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {  // a ⊆ b, both sorted
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

}  // namespace

const char* name(Finding f) {
  switch (f) {
    case Finding::agree: return "agree";
    case Finding::skipped_too_large: return "skipped: full search too large";
    case Finding::skipped_overflow: return "skipped: outcome log overflowed";
    case Finding::skipped_oracle: return "skipped: the full search is not reproducible";
    case Finding::skipped_fairness: return "skipped: full search's LIVELOCK beside a timed wait (fairness bound)";
    case Finding::verdict: return "verdicts differ";
    case Finding::missing_outcomes: return "outcomes missing from dpor";
    case Finding::extra_outcomes: return "outcomes only dpor found";
    case Finding::states: return "invariant states differ";
    case Finding::dpor_unfinished: return "dpor did not end";
    case Finding::dpor_nondeterministic: return "dpor's failure is not reproducible";
  }
  return "?";
}

bool is_skip(Finding f) {
  return f == Finding::skipped_too_large || f == Finding::skipped_overflow || f == Finding::skipped_oracle ||
         f == Finding::skipped_fairness;
}

// Outcomes only DPOR found, where it missed none, are no disagreement: DPOR lets a
// thread that gave way at a spin hint go on after any other thread's step, Relacy's yield
// priorities only once every thread holding it back has stepped (docs/model.md), so DPOR
// runs schedules of the program the full search does not — real ones (every execution
// is Relacy's). They are counted and shown (superset_note), not failed; an outcome DPOR
// misses is (missing_outcomes).
bool is_disagreement(Finding f) { return f != Finding::agree && f != Finding::extra_outcomes && !is_skip(f); }

Comparison compare(const Program& p, unsigned load_depth, const Limits& limits, Break fault, bool describe) {
  Comparison c;
  c.load_depth = load_depth;
  c.full = search(p, "full", load_depth, limits.full_executions, limits.search_seconds, fault, describe);
  if (!c.full.ended) {
    c.finding = Finding::skipped_too_large;
    return c;
  }
  // The program is deterministic by construction: a full search whose failing
  // execution does not fail again alone is Relacy's own state at fault (seen: a
  // SIGSEGV inside Relacy's wait sets with two timed waiters) — no oracle here.
  if (!c.full.passed && !c.full.reproduced) {
    c.finding = Finding::skipped_oracle;
    return c;
  }
  // DPOR explores one execution per class, never more executions than the full search
  // has schedules — except its redundant (sleep-set blocked) ones: a margin.
  const std::uint64_t dpor_limit = std::max<std::uint64_t>(10'000, 4 * c.full.executions);
  c.dpor = search(p, "dpor", load_depth, dpor_limit, limits.search_seconds, fault, describe);
  if (!c.dpor.ended) c.finding = Finding::dpor_unfinished;
  else if (!c.dpor.passed && !c.dpor.reproduced) c.finding = Finding::dpor_nondeterministic;
  else if (c.full.livelock && c.dpor.passed && has_timed_wait(p)) c.finding = Finding::skipped_fairness;
  else if (c.full.passed != c.dpor.passed || c.full.no_work != c.dpor.no_work) c.finding = Finding::verdict;
  else if (!c.full.passed) c.finding = Finding::agree;  // both failed (each its first failure), or both NO WORK
  else if (!c.full.outcomes_complete || !c.dpor.outcomes_complete) c.finding = Finding::skipped_overflow;
  else if (!subset(c.full.outcomes, c.dpor.outcomes)) c.finding = Finding::missing_outcomes;
  else if (c.full.outcomes != c.dpor.outcomes) c.finding = Finding::extra_outcomes;
  else if (c.full.states != c.dpor.states) c.finding = Finding::states;
  return c;
}

std::vector<bool> minimise(const Program& p, std::vector<bool> keep, unsigned load_depth, Finding finding,
                           const Limits& limits, Break fault) {
  const std::vector<Position> at = positions(p);
  const std::size_t n = at.size();
  keep.resize(n, false);
  // Dropping a statement drops its body: a parent first removes most at once.
  auto inside = [&](std::size_t j, std::size_t parent) {
    return at[j].part == at[parent].part && at[j].path.size() > at[parent].path.size() &&
           std::equal(at[parent].path.begin(), at[parent].path.end(), at[j].path.begin());
  };
  for (bool changed = true; changed && !cli::interrupted();) {
    changed = false;
    for (std::size_t i = 0; i < n && !cli::interrupted(); ++i) {  // interrupted: as far as it got
      if (!keep[i]) continue;
      std::vector<bool> trial = keep;
      trial[i] = false;
      for (std::size_t j = i + 1; j < n && inside(j, i); ++j) trial[j] = false;
      const Program q = keep_only(p, trial);
      if (compare(q, load_depth, limits, fault, false).finding == finding) {
        keep = std::move(trial);
        changed = true;
      }
    }
  }
  return keep;
}

}  // namespace lfcheck::dpor_fuzz
