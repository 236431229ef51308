// lfcheck verify's loop over one bound's scenarios (harness/lin/enumeration.hpp): each
// of this shard's scenarios under DPOR (harness/lin/verify.hpp), in order, in --jobs
// worker processes, until one fails, the budget ends or the command is interrupted.
//
// Guarantees of run_bound():
//  - Every scenario it counts as ended had a DPOR search that ended with every
//    execution passing; anything else is not ended, with its reason (the execution
//    limit, the budget, an interrupt, a worker that died), never counted as verified.
//    Scenarios in which no thread touched the Sync policy are counted (no_access): a
//    bound all of whose scenarios are such checked nothing (a Subject on std::atomic)
//    and is not verified.
//  - The failure it reports is the first failing scenario in the enumeration's order
//    (a smallest one): the worker processes start scenarios in order and stop at the
//    first failure to arrive; every earlier scenario they stopped is then run again,
//    until no earlier one fails. The failing scenario's outcome (table, Relacy's
//    history, state) is the run's own with one job; with more it is re-run in this
//    process, and a failure that does not come back is NONDETERMINISTIC SCENARIO.
//  - Scenarios within `skip` (bounds a ladder verified already) are not run again and
//    count as ended.
// Cost: one fork per scenario with --jobs N > 1 (none with one job).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/cli/interrupt.hpp"
#include "harness/cli/progress.hpp"
#include "harness/lin/verify.hpp"
#include "harness/lin_registry.hpp"
#include "harness/model/parallel_runs.hpp"

namespace lfcheck::lin {

struct VerifyRunOptions {
  VerifyLimits limits;
  std::string fault;
  unsigned jobs = 1;
  std::uint64_t shard = 0, shards = 1;
  bool quiet = false;
};

// One scenario that did not end, and why.
struct NotEnded {
  std::size_t index = 0;  // in the enumeration
  std::string why;        // "limit", "budget", "interrupt", "crashed (...)"
};

struct BoundRun {
  VerifyBound bound;
  Enumeration enumeration;
  std::uint64_t mine = 0;        // this shard's scenarios
  std::uint64_t ended = 0;       // ... whose search ended and passed (skipped ones included)
  std::uint64_t skipped = 0;     // ... of them within a bound verified before (not run again)
  std::uint64_t no_access = 0;   // ... of them in which no thread touched the Sync policy
  std::uint64_t not_run = 0;     // ... never started (after a failure, the budget or an interrupt)
  std::uint64_t ended_in_order = 0;  // how far it got: the first this many, in order, all ended
  std::vector<NotEnded> not_ended;  // started, and did not end
  std::uint64_t executions = 0;
  double seconds = 0;
  bool failed = false;
  std::size_t failing_index = 0;  // in the enumeration
  LinOutcome failure;             // the failing scenario's run
  bool interrupted = false, budget_hit = false;

  // Every scenario of this shard ended (unsharded: and some touched the Sync policy;
  // a shard's part leaves that to lfcheck merge, over every shard).
  bool all_ended() const { return !failed && mine > 0 && ended == mine; }
  bool nothing_checked() const { return ended > 0 && skipped == 0 && no_access == ended; }
  bool verified(bool sharded) const { return all_ended() && (sharded || !nothing_checked()); }
};

namespace detail {

inline RunRecord item_record(const LinOutcome& out) {
  RunRecord r;
  r.num("executions", out.executions).boolean("verified", out.verified).str("stopped", out.stopped);
  r.boolean("no_shared_access", out.no_shared_access);
  r.set_verdict(out.failed ? lfcheck::Verdict::fail : out.verified ? lfcheck::Verdict::pass : lfcheck::Verdict::error);
  r.failure = out.failure;
  return r;
}

inline std::string why_not_ended(const RunRecord& r) {
  if (!r.get("stopped").empty()) return r.get("stopped");  // limit, budget, interrupt, or the harness's words
  return r.failure.empty() ? "did not end" : r.failure;
}

}  // namespace detail

// Runs this shard's scenarios of `bound` (enumerated in `run.enumeration`).
inline void run_bound(const LinEntry& e, const VerifyRunOptions& o, const std::vector<VerifyBound>& skip,
                      BoundRun& run) {
  const auto start = std::chrono::steady_clock::now();
  const auto& all = run.enumeration.scenarios;
  std::vector<std::size_t> mine;  // enumeration indices, in order
  for (std::size_t i = o.shard; i < all.size(); i += o.shards) mine.push_back(i);
  run.mine = mine.size();
  std::vector<std::size_t> todo;  // positions in `mine` to run
  for (std::size_t p = 0; p < mine.size(); ++p) {
    bool within = false;
    for (const VerifyBound& b : skip) within = within || all[mine[p]].within(b);
    if (within) ++run.skipped;
    else todo.push_back(p);
  }
  run.ended = run.skipped;

  std::map<std::size_t, RunRecord> done;  // position -> its record
  std::map<std::size_t, LinOutcome> failures;  // position -> its outcome (one job: the run's own)
  ProgressLine progress("verify " + e.structure + " " + run.bound.text(), !o.quiet, "scenarios");
  std::size_t finished = 0;
  const std::size_t total = todo.size();
  while (!todo.empty()) {
    const auto batch = run_in_parallel(
        todo.size(), o.jobs, true, false,
        [&](std::size_t k) {
          LinOutcome out;
          if (Clock::now() >= o.limits.deadline) {  // not started: the budget ended
            RunRecord r;
            r.boolean("started", false).set_verdict(lfcheck::Verdict::error);
            return r;
          }
          if (!e.verify(all[mine[todo[k]]].encoded, o.limits, o.fault, out)) {
            out = LinOutcome{};  // the harness's error, not a verdict on the code: not ended
            out.stopped = "cannot run it: the scenario does not decode, or the fault is unknown";
          }
          if (out.failed && o.jobs <= 1) failures[todo[k]] = out;
          return detail::item_record(out);
        },
        [](std::size_t, const std::string& why) {
          RunRecord r;
          r.str("stopped", "").set_verdict(lfcheck::Verdict::error);
          r.failure = "crashed (" + why + ")";
          return r;
        },
        [&](std::size_t, const RunRecord&) { progress.update(++finished, total); });
    for (std::size_t k = 0; k < todo.size(); ++k)
      if (batch[k]) done[todo[k]] = *batch[k];
    std::optional<std::size_t> first_fail;
    for (auto& [p, r] : done)
      if (r.verdict == lfcheck::Verdict::fail) {
        first_fail = p;
        break;
      }
    if (!first_fail || cli::interrupted()) break;
    // Earlier scenarios the first failure stopped: run them again, until none fails first.
    std::vector<std::size_t> again;
    for (std::size_t p : todo)
      if (p < *first_fail && !done.count(p)) again.push_back(p);
    todo = std::move(again);
  }
  progress.finish();

  std::optional<std::size_t> first_fail;
  for (auto& [p, r] : done)
    if (r.verdict == lfcheck::Verdict::fail) {
      first_fail = p;
      break;
    }
  for (std::size_t p = 0; p < mine.size(); ++p) {
    if (first_fail && p > *first_fail) break;
    const auto it = done.find(p);
    bool within = false;
    for (const VerifyBound& b : skip) within = within || all[mine[p]].within(b);
    if (within) continue;
    if (it == done.end()) {
      ++run.not_run;
      continue;
    }
    const RunRecord& r = it->second;
    if (r.get("started") == "false") {
      ++run.not_run;
      run.budget_hit = true;
      continue;
    }
    run.executions += std::strtoull(r.get("executions").c_str(), nullptr, 10);
    if (r.verdict == lfcheck::Verdict::pass) {
      ++run.ended;
      run.no_access += r.get("no_shared_access") == "true";
    }
    else if (r.verdict == lfcheck::Verdict::error) {
      run.not_ended.push_back({mine[p], detail::why_not_ended(r)});
      run.budget_hit = run.budget_hit || r.get("stopped") == "budget";
    }
  }
  for (std::size_t p = 0; p < mine.size(); ++p, ++run.ended_in_order) {
    bool within = false;
    for (const VerifyBound& b : skip) within = within || all[mine[p]].within(b);
    const auto it = done.find(p);
    if (!within && (it == done.end() || it->second.verdict != lfcheck::Verdict::pass)) break;
  }
  if (first_fail) {
    // Scenarios after the failure were not run (or not waited for): not counted.
    for (std::size_t p = *first_fail + 1; p < mine.size(); ++p) {
      bool within = false;
      for (const VerifyBound& b : skip) within = within || all[mine[p]].within(b);
      if (!within) ++run.not_run;
    }
    run.failed = true;
    run.failing_index = mine[*first_fail];
    const auto kept = failures.find(*first_fail);
    if (kept != failures.end()) {
      run.failure = kept->second;
    } else {  // a worker's: run it again here for its table, history and replay state
      LinOutcome again;
      e.verify(all[run.failing_index].encoded, o.limits, o.fault, again);
      if (again.failed) {
        run.failure = again;
      } else {
        run.failure = again;
        run.failure.failed = true;
        run.failure.failure = "NONDETERMINISTIC SCENARIO (" + done[*first_fail].failure +
                              " in a worker process, then it passed when re-run)";
      }
    }
  }
  run.interrupted = cli::interrupted();
  run.budget_hit = run.budget_hit || (Clock::now() >= o.limits.deadline && run.ended < run.mine && !run.failed);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace lfcheck::lin
