// lfcheck verify (`lfcheck-lin-model verify`): every scenario of a spec up to a bound,
// each under DPOR to its end (harness/lin/enumeration.hpp, verify.hpp, verify_runner.hpp).
// The verdicts, the ladder, the terminal summary, the JSON and JUnit records.
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "harness/cli/cli.hpp"
#include "harness/cli/interrupt.hpp"
#include "harness/fault_registry.hpp"
#include "harness/lin/model_failure.hpp"
#include "harness/lin/verify_runner.hpp"
#include "harness/lin_registry.hpp"
#include "harness/model/dpor/bounds.hpp"
#include "harness/report/report.hpp"

namespace lfcheck::lin {
namespace {

constexpr const char* kHelp = R"(usage: lfcheck verify NAME [options]   (binary: lfcheck-lin-model verify)

Enumerates EVERY scenario of NAME's spec up to a bound T x K (+P) — a prefix of 0..P
calls, 2..T threads of 1..K calls each (and the spec's closing call, if it has one),
a suffix of 0..S calls, each call a letter of the spec's declared alphabet for its
slot (alphabet(Slot): docs/your-structure.md) — smallest first, and runs each under
lfcheck's DPOR search to its end: every execution class of the scenario, every
execution's results checked for linearizability in program order (each thread's
calls in order, the threads concurrent), as lfcheck lin's model layer checks them.
  VERIFIED up to T x K (+P)  every scenario's search ended, every execution passed
                             (exit 0)
  FAILED                     a scenario failed: the first in the order, a smallest
                             one, with its table, Relacy's step table, trace and
                             replay file (exit 1)
  NOT VERIFIED               some scenario's search did not end (its execution limit,
                             the budget, an interrupt) or checked nothing: how many
                             ended, which did not and why (exit 2) — never a pass
A spec without an alphabet is refused (exit 2): verify enumerates, it never samples.
Threads that run the same calls are run once (and, for a data-independent spec,
values renamed in order of first appearance): the counts before and after are printed.

options:
  --threads T          2..T threads (2..3, default 2)
  --calls K            1..K calls per thread (1..8, default 2)
  --prefix P           0..P calls before the threads (0..4, default 1)
  --suffix S           0..S calls after them (0..4, default 0)
  --ladder             the bounds 2x1, 3x1, 2x2, 2x3, 3x2, 2x4, 3x3, ... (at --prefix and
                       --suffix) one after another, each skipping the scenarios a
                       smaller one verified, until the budget ends: the verdict names
                       the largest bounds verified (pass if at least one was; a bound
                       the budget cut short is named as unfinished, never verified)
  --max-seconds S      budget for each structure (default: none; --ladder: 300)
  --dpor-executions N  a scenario's search stops here and the scenario has not ended
                       (default 5000000)
  --load-depth D       a load may read D stores back (1 or 2, default 1)
  --reduce R           threads,values (default), threads, values or none: which
                       reductions (harness/lin/enumeration.hpp)
  --jobs N             run scenarios in N worker processes (default 1)
  --shard I/N          only scenarios I, I+N, ... of the enumeration (the default:
                       GTEST_SHARD_INDEX of GTEST_TOTAL_SHARDS, if set); lfcheck merge of
                       all N shards' JSON is the verdict, INCOMPLETE without every shard
  --fault F            the variant with seeded fault F
  --list               print the alphabets and every scenario of the bound, run none
  --alphabets          print the structures whose spec declares an alphabet, run none
  --check-reduction    (tests) run every scenario of the bound unreduced and hold each
                       reduction's claim to it, scenario by scenario; --letters-seed S
                       takes a pseudo-random subset of each slot's letters (another spec)
  --json FILE          {"runs":[{"structure","check":"verify","verify_bound","scenarios",
                       "of_scenarios","unreduced_scenarios","ended","not_ended","not_run",
                       "executions","seconds","cpu_seconds","bounds",...,"verdict"}]}
  --junit FILE         JUnit XML
  --artifacts DIR      where a failure's table, trace and replay file go
  --history            also print Relacy's raw history of a failure
  --quiet              no progress line
  --help               this text

SIGINT or SIGTERM stops it after the execution in progress; the report says how far
it got (which scenarios ended, in order) and is NOT VERIFIED.
exit status: 0 verified, 1 a scenario failed, 2 not verified, usage or set-up error
)";

struct Options {
  VerifyRunOptions run;
  VerifyBound bound;
  Reduction reduce;
  bool ladder = false, list = false, history = false, alphabets = false, check_reduction = false;
  double max_seconds = 0;
  std::string structure, json, junit, artifacts;
};

std::string with_commas(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

double cpu_seconds() {
  double total = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    getrusage(who, &u);
    total += u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  }
  return total;
}

std::string reductions_text(const Enumeration& en) {
  std::string t;
  if (en.thread_symmetry) t = "threads";
  if (en.values_reduced) t += t.empty() ? "values" : ", values";
  return t.empty() ? "none" : t;
}

// The ladder's bounds, smallest first: by T x K, then T.
std::vector<VerifyBound> ladder_bounds(const Options& o) {
  std::vector<VerifyBound> all;
  for (unsigned k = 1; k <= kMaxOpsPerThread; ++k)
    for (unsigned t = 2; t <= kMaxThreads; ++t) all.push_back({t, k, o.bound.prefix, o.bound.suffix});
  std::stable_sort(all.begin(), all.end(), [](const VerifyBound& a, const VerifyBound& b) {
    return a.threads * a.calls != b.threads * b.calls ? a.threads * a.calls < b.threads * b.calls : a.threads < b.threads;
  });
  return all;
}

bool contains(const VerifyBound& big, const VerifyBound& small) {
  return small.threads <= big.threads && small.calls <= big.calls && small.prefix <= big.prefix &&
         small.suffix <= big.suffix;
}

// The verified bounds no other verified bound contains: "2×2 (+1) and 3×1 (+1)".
std::string largest(const std::vector<VerifyBound>& verified) {
  std::string t;
  for (const VerifyBound& b : verified) {
    bool dominated = false;
    for (const VerifyBound& c : verified) dominated = dominated || (!(c == b) && contains(c, b));
    if (!dominated) t += (t.empty() ? "" : " and ") + b.text();
  }
  return t;
}

// Why the scenarios that did not end did not, counted: "3 at the execution limit (5,000,000), 1 budget".
std::string not_ended_text(const BoundRun& run, const Options& o) {
  std::map<std::string, std::uint64_t> by;
  for (const NotEnded& n : run.not_ended) ++by[n.why];
  std::string t;
  for (auto& [why, n] : by) {
    std::string words = why == "limit"       ? "stopped at the execution limit (" + with_commas(o.run.limits.executions) + ")"
                        : why == "budget"    ? "stopped by the budget"
                        : why == "interrupt" ? "interrupted"
                                             : why;
    t += (t.empty() ? "" : ", ") + with_commas(n) + " " + words;
  }
  if (run.not_run) t += (t.empty() ? "" : ", ") + with_commas(run.not_run) + " not run";
  return t;
}

void print_header(const LinEntry& e, const Options& o, const BoundRun& run) {
  const Enumeration& en = run.enumeration;
  const std::uint64_t mine =
      en.scenarios.size() > o.run.shard ? (en.scenarios.size() - o.run.shard + o.run.shards - 1) / o.run.shards : 0;
  const double factor = en.scenarios.empty() ? 0 : double(en.unreduced) / double(en.scenarios.size());
  std::printf("verify %s up to %s%s: %s scenarios (%s before reduction by %s: x%.2f)%s\n", e.structure.c_str(),
              run.bound.text().c_str(), o.run.fault.empty() ? "" : (", fault " + o.run.fault).c_str(),
              with_commas(en.scenarios.size()).c_str(), with_commas(en.unreduced).c_str(),
              reductions_text(en).c_str(), factor,
              o.run.shards > 1 ? (", shard " + std::to_string(o.run.shard) + "/" + std::to_string(o.run.shards) + ": " +
                                  with_commas(mine) + " of them")
                                     .c_str()
                               : "");
  std::fflush(stdout);
}

// A failing bound's verdict and failure in its record (or a ladder's).
void add_failure(const LinEntry& e, const BoundRun& run, RunRecord& r) {
  r.set_verdict(lfcheck::Verdict::fail);
  r.failure = run.failure.failure;
  r.str("failure", r.failure).str("scenario", e.describe(run.enumeration.scenarios[run.failing_index].encoded));
  r.num("failing_index", run.failing_index);
}

// The record of one bound's run (one shard's part of it, if sharded).
RunRecord bound_record(const LinEntry& e, const Options& o, const BoundRun& run, double cpu) {
  const Enumeration& en = run.enumeration;
  RunRecord r;
  r.str("structure", e.structure).str("check", "verify").str("verify_bound", run.bound.text());
  r.num("max_threads", run.bound.threads).num("max_calls", run.bound.calls).num("max_prefix", run.bound.prefix);
  r.num("max_suffix", run.bound.suffix);
  r.num("scenarios", run.mine).num("of_scenarios", en.scenarios.size()).num("unreduced_scenarios", en.unreduced);
  r.str("reduction", reductions_text(en));
  r.num("ended", run.ended).num("not_ended", run.not_ended.size()).num("not_run", run.not_run);
  r.num("no_shared_access_scenarios", run.no_access).num("ended_in_order", run.ended_in_order);
  r.num("executions", run.executions);
  r.num("dpor_executions", o.run.limits.executions).num("load_depth", o.run.limits.load_depth);
  r.str("bounds", lfcheck::model::dpor::bounds(o.run.limits.load_depth));
  if (o.run.shards > 1) r.str("shard", std::to_string(o.run.shard) + "/" + std::to_string(o.run.shards));
  if (!o.run.fault.empty()) r.str("fault", o.run.fault);
  // How far it got, in order: the scenarios of this part before the first that did not end.
  std::string names;
  for (std::size_t i = 0; i < run.not_ended.size() && i < 20; ++i)
    names += (names.empty() ? "[" : ",") + RunRecord::quote(e.describe(en.scenarios[run.not_ended[i].index].encoded) +
                                                             " (" + run.not_ended[i].why + ")");
  if (!names.empty()) r.json("not_ended_scenarios", names + "]");
  if (run.failed) {
    add_failure(e, run, r);
  } else if (run.verified(o.run.shards > 1)) {
    r.set_verdict(lfcheck::Verdict::pass);
    if (o.run.shards <= 1) r.str("verified_up_to", run.bound.text());
  } else {
    r.set_verdict(lfcheck::Verdict::error);
    r.failure = run.nothing_checked() ? std::string(kNoSharedAccessWords) + " (in none of the " +
                                            with_commas(run.ended) + " scenarios)"
                : run.mine == 0 ? "NO WORK: shard " + std::to_string(o.run.shard) + "/" + std::to_string(o.run.shards) +
                                    " has none of the " + std::to_string(en.scenarios.size()) + " scenarios"
                : run.interrupted ? std::string(cli::kInterruptedWords) + ": NOT VERIFIED up to " + run.bound.text() + ": " +
                                        with_commas(run.ended) + " of " + with_commas(run.mine) + " scenarios ended"
                                  : "NOT VERIFIED up to " + run.bound.text() + ": " + with_commas(run.ended) + " of " +
                                        with_commas(run.mine) + " scenarios ended; " + not_ended_text(run, o);
    r.str("failure", r.failure);
    if (run.interrupted) r.str("stopped", "interrupt");
    else if (run.budget_hit) r.str("stopped", "budget");
  }
  r.real("seconds", run.seconds).real("cpu_seconds", cpu);
  return r;
}

// Prints a failure (as lfcheck lin does) and writes its artifacts; sets the record's.
void report_failure(const LinEntry& e, const Options& o, const BoundRun& run, RunRecord& r) {
  const LinOutcome& out = run.failure;
  const std::string text = e.describe(run.enumeration.scenarios[run.failing_index].encoded);
  std::printf("\n=== verify %s up to %s (dpor%s) FAILED: %s ===\n", e.structure.c_str(), run.bound.text().c_str(),
              o.run.fault.empty() ? "" : (", fault " + o.run.fault).c_str(), out.failure.c_str());
  // It is the smallest only if every scenario before it ended (passing); one whose search
  // did not end might fail too.
  std::size_t unended_before = 0;
  for (const auto& n : run.not_ended) unended_before += n.index < run.failing_index;
  const std::string which =
      unended_before == 0 ? "the smallest failing scenario"
                          : "a failing scenario (the smallest only if the " + std::to_string(unended_before) +
                                " before it whose search did not end pass)";
  std::printf("%s: number %zu of the %s in order (%u calls): %s\n\n%s", which.c_str(), run.failing_index,
              with_commas(run.enumeration.scenarios.size()).c_str(), run.enumeration.scenarios[run.failing_index].calls,
              text.c_str(), out.table.c_str());
  if (unended_before) r.num("unended_before_failing", unended_before);
  std::string stem = "verify." + e.structure;
  if (!o.run.fault.empty()) stem += "." + std::string(fault_short_name(o.run.fault));
  const std::string artifacts =
      save_lin_model_failure(out, {e.structure, o.run.fault, run.enumeration.scenarios[run.failing_index].encoded, 0,
                                   o.run.limits.load_depth, 3, o.artifacts, stem, o.history});
  if (!artifacts.empty()) r.str("replay", artifacts + ".replay").str("trace", artifacts + ".trace.json");
  r.details = text + "\n" + out.table;
}

void print_outcome(const LinEntry& e, const Options& o, const BoundRun& run, const RunRecord& r) {
  if (run.failed) return;
  const std::string head = run.verified(o.run.shards > 1) ? (o.run.shards > 1 ? "shard verified" : "VERIFIED") : "NOT VERIFIED";
  std::printf("%s up to %s: %s — %s of %s scenarios ended%s, %s executions, %.1f s (cpu %s s)\n", head.c_str(),
              run.bound.text().c_str(), e.structure.c_str(), with_commas(run.ended).c_str(),
              with_commas(run.mine).c_str(),
              run.skipped ? (" (" + with_commas(run.skipped) + " of them verified by a smaller bound)").c_str() : "",
              with_commas(run.executions).c_str(), run.seconds, r.get("cpu_seconds").c_str());
  if (run.verified(o.run.shards > 1) && o.run.shards > 1)
    std::printf("  (this shard's %s scenarios only: lfcheck merge of all %llu shards' JSON is the verdict)\n",
                with_commas(run.mine).c_str(), static_cast<unsigned long long>(o.run.shards));
  if (run.verified(o.run.shards > 1)) std::printf("  within: %s\n", r.get("bounds").c_str());
  if (!run.verified(o.run.shards > 1)) {
    std::printf("  %s\n", r.failure.c_str());
    std::printf("  how far it got: the first %s of the %s scenarios (in order) ended\n",
                with_commas(run.ended_in_order).c_str(), with_commas(run.mine).c_str());
    for (std::size_t i = 0; i < run.not_ended.size() && i < 10; ++i)
      std::printf("  not ended (%s): %s\n", run.not_ended[i].why.c_str(),
                  e.describe(run.enumeration.scenarios[run.not_ended[i].index].encoded).c_str());
    if (run.not_ended.size() > 10) std::printf("  ... and %zu more\n", run.not_ended.size() - 10);
  }
}

bool enumerate_bound(const LinEntry& e, const Options& o, const VerifyBound& b, BoundRun& run, std::string& why) {
  run.bound = b;
  return e.enumerate(b, o.reduce, run.enumeration, why);
}

// One bound: the record of this shard's part of it.
RunRecord verify_bound(const LinEntry& e, const Options& o, const VerifyBound& b) {
  const double cpu0 = cpu_seconds();
  BoundRun run;
  std::string why;
  if (!enumerate_bound(e, o, b, run, why)) cli::usage_error("lfcheck verify", why);
  print_header(e, o, run);
  run_bound(e, o.run, {}, run);
  RunRecord r = bound_record(e, o, run, cpu_seconds() - cpu0);
  if (run.failed) report_failure(e, o, run, r);
  print_outcome(e, o, run, r);
  return r;
}

// The ladder: bound after bound until the budget ends; the record names the largest verified.
RunRecord verify_ladder(const LinEntry& e, const Options& o) {
  const double cpu0 = cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  std::vector<VerifyBound> verified, unverifiable;
  std::string unfinished;
  std::uint64_t scenarios = 0, executions = 0;
  std::optional<BoundRun> failing;
  for (const VerifyBound& b : ladder_bounds(o)) {
    bool hopeless = false;  // it holds a bound that did not verify
    for (const VerifyBound& u : unverifiable) hopeless = hopeless || contains(b, u);
    if (hopeless) continue;
    if (Clock::now() >= o.run.limits.deadline || cli::interrupted()) break;
    BoundRun run;
    std::string why;
    if (!enumerate_bound(e, o, b, run, why)) {
      if (verified.empty() && unverifiable.empty()) cli::usage_error("lfcheck verify", why);
      std::printf("the ladder ends before %s: %s\n", b.text().c_str(), why.c_str());
      break;  // a bound beyond what the spec or the enumeration allows
    }
    print_header(e, o, run);
    run_bound(e, o.run, verified, run);
    scenarios += run.mine - run.skipped - run.not_run;
    executions += run.executions;
    if (run.failed) {
      failing = std::move(run);
      break;
    }
    if (run.verified(o.run.shards > 1)) {
      std::printf("VERIFIED up to %s: %s — %s scenarios (%s run here), %s executions, %.1f s\n", b.text().c_str(),
                  e.structure.c_str(), with_commas(run.mine).c_str(), with_commas(run.mine - run.skipped).c_str(),
                  with_commas(run.executions).c_str(), run.seconds);
      verified.push_back(b);
      continue;
    }
    unfinished = b.text() + ": " + with_commas(run.ended) + " of " + with_commas(run.mine) + " scenarios ended (" +
                 not_ended_text(run, o) + ")";
    std::printf("not verified up to %s: %s\n", b.text().c_str(), unfinished.c_str());
    if (run.budget_hit || run.interrupted) break;
    unverifiable.push_back(b);  // its scenarios did not all end: the bounds holding it cannot verify
  }
  RunRecord r;
  r.str("structure", e.structure).str("check", "verify").str("mode", "ladder");
  r.num("max_prefix", o.bound.prefix).num("max_suffix", o.bound.suffix);
  r.num("scenarios", scenarios).num("executions", executions);
  std::string list;
  for (const VerifyBound& b : verified) list += (list.empty() ? "[" : ",") + RunRecord::quote(b.text());
  r.json("verified_bounds", list.empty() ? "[]" : list + "]");
  // verified_up_to is the ladder's verdict, so only a pass carries it (a failing or
  // interrupted ladder keeps the bounds it verified in verified_bounds).
  if (!verified.empty() && !failing && !cli::interrupted()) r.str("verified_up_to", largest(verified));
  if (!unfinished.empty()) r.str("unfinished", unfinished);
  r.num("dpor_executions", o.run.limits.executions).num("load_depth", o.run.limits.load_depth);
  r.str("bounds", lfcheck::model::dpor::bounds(o.run.limits.load_depth));
  if (!o.run.fault.empty()) r.str("fault", o.run.fault);
  if (failing) {
    r.str("verify_bound", failing->bound.text());
    add_failure(e, *failing, r);
    report_failure(e, o, *failing, r);
  } else if (!verified.empty() && !cli::interrupted()) {
    r.set_verdict(lfcheck::Verdict::pass);
  } else {
    // Interrupted, it is no verdict even on the bounds it verified (they stay in the record).
    r.set_verdict(lfcheck::Verdict::error);
    r.failure = cli::interrupted() ? std::string(cli::kInterruptedWords) + ": the ladder did not run to its budget"
                                   : "NOT VERIFIED: no bound verified";
    if (!unfinished.empty()) r.failure += "; " + unfinished;
    r.str("failure", r.failure);
    if (cli::interrupted()) r.str("stopped", "interrupt");
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.real("seconds", seconds).real("cpu_seconds", cpu_seconds() - cpu0);
  if (failing) {
  } else if (cli::interrupted()) {
    std::printf("%s: NOT VERIFIED: interrupted%s%s\n", e.structure.c_str(),
                verified.empty() ? "" : (" (bounds verified before it: " + largest(verified) + ")").c_str(),
                unfinished.empty() ? "" : ("; unfinished: " + unfinished).c_str());
  } else {
    std::printf("%s: %s%s\n", e.structure.c_str(),
                verified.empty() ? "NOT VERIFIED at any bound" : ("VERIFIED up to " + largest(verified)).c_str(),
                unfinished.empty() ? "" : ("; unfinished: " + unfinished).c_str());
  }
  return r;
}

// --check-reduction: the reductions held to the unreduced enumeration of the bound, scenario
// by scenario (tests/verify_reduction_truth.sh). Every scenario s over the alphabets runs
// (DPOR to its end), and so do the scenarios the reductions claim stand with it:
//   threads  every image of s under a permutation of interchangeable threads has s's
//            verdict (passed, failed or not ended);
//   values   if s fails, s with a value of its own for every value-carrying call fails;
//   kept     the reduced enumeration holds one of those (s's class is run);
// and the reduced enumeration's verdict is the unreduced one's (the same faults caught).
// A claim that does not hold is a failure, printed with both scenarios and verdicts. A
// scenario whose search did not end (its --dpor-executions, or the --max-seconds budget)
// has no verdict to compare: a claim that rests on one is unknown, never broken, and the
// check is NOT CHECKED (exit 2), never a pass.
RunRecord check_reduction(const LinEntry& e, const Options& o) {
  const auto start = std::chrono::steady_clock::now();
  const double cpu0 = cpu_seconds();
  Enumeration all, reduced;
  std::string why;
  Reduction none{false, false, o.reduce.letters_seed};
  if (!e.enumerate(o.bound, none, all, why) || !e.enumerate(o.bound, o.reduce, reduced, why))
    cli::usage_error("lfcheck verify", why);
  std::set<std::string> kept;
  for (const auto& s : reduced.scenarios) kept.insert(e.describe(s.encoded));
  std::map<std::string, char> verdicts;  // encoded -> 'p' passed, 'f' failed, 'n' not ended
  std::uint64_t executions = 0;
  auto verdict = [&](const std::string& encoded) {
    const auto at = verdicts.find(encoded);
    if (at != verdicts.end()) return at->second;
    LinOutcome out;
    if (!e.verify(encoded, o.run.limits, o.run.fault, out)) cli::usage_error("lfcheck verify", "a scenario does not decode");
    executions += out.executions;
    return verdicts[encoded] = out.failed ? 'f' : out.verified ? 'p' : 'n';
  };
  auto words = [](char v) { return v == 'f' ? "failed" : v == 'p' ? "passed" : "did not end"; };
  std::vector<std::string> broken;
  std::uint64_t checked = 0;
  bool any_unreduced_fail = false, any_not_ended = false, budget_ended = false;
  auto out_of_time = [&] {
    budget_ended = budget_ended || Clock::now() >= o.run.limits.deadline;
    return budget_ended || cli::interrupted();
  };
  // Two verdicts disagree only when both searches ended; an unended one makes the
  // claim unknown (the check cannot pass), not broken.
  auto differ = [&](char a, char b) {
    if (a == 'n' || b == 'n') {
      any_not_ended = true;
      return false;
    }
    return a != b;
  };
  for (const auto& s : all.scenarios) {
    if (out_of_time()) break;
    const char v = verdict(s.encoded);
    any_unreduced_fail = any_unreduced_fail || v == 'f';
    any_not_ended = any_not_ended || v == 'n';
    std::vector<std::string> same, fresh;
    if (!e.relatives(o.bound, o.reduce.letters_seed, s.encoded, same, fresh))
      cli::usage_error("lfcheck verify", "no relatives for " + e.describe(s.encoded));
    if (o.reduce.threads)
      for (const auto& q : same)
        if (differ(v, verdict(q)))
          broken.push_back("threads: " + e.describe(s.encoded) + " " + words(v) + ", but " + e.describe(q) + " " +
                           words(verdict(q)));
    if (o.reduce.values && v == 'f' && verdict(fresh[0]) != 'f') {
      if (verdict(fresh[0]) == 'n')
        any_not_ended = true;  // unknown: its search did not end
      else
        broken.push_back("values: " + e.describe(s.encoded) + " failed, but " + e.describe(fresh[0]) + " " +
                         words(verdict(fresh[0])));
    }
    if (out_of_time()) break;  // its relatives' runs may have been cut: s is not checked
    ++checked;
    // Its class's scenario in the reduced enumeration: s (or s with fresh values), or an image.
    bool represented = kept.count(e.describe(o.reduce.values ? fresh[0] : s.encoded)) > 0;
    if (o.reduce.threads)
      for (std::size_t i = 0; i < same.size(); ++i)
        represented = represented || kept.count(e.describe(o.reduce.values ? fresh[i + 1] : same[i])) > 0;
    if (!represented) broken.push_back("kept: no scenario of the reduced enumeration stands for " + e.describe(s.encoded));
  }
  bool any_reduced_fail = false;
  std::uint64_t reduced_run = 0;
  for (const auto& s : reduced.scenarios) {
    if (out_of_time()) break;
    ++reduced_run;
    const char v = verdict(s.encoded);
    any_reduced_fail = any_reduced_fail || v == 'f';
    any_not_ended = any_not_ended || v == 'n';
  }
  // Both enumerations' verdicts are known only when every scenario of each ran to its end.
  if (checked == all.scenarios.size() && reduced_run == reduced.scenarios.size() && !any_not_ended &&
      any_reduced_fail != any_unreduced_fail)
    broken.push_back(std::string("verdicts: the unreduced enumeration ") + (any_unreduced_fail ? "failed" : "passed") +
                     ", the reduced one " + (any_reduced_fail ? "failed" : "passed"));
  RunRecord r;
  r.str("structure", e.structure).str("check", "verify-reduction").str("verify_bound", o.bound.text());
  r.num("letters_seed", o.reduce.letters_seed).str("reduction", reductions_text(reduced));
  r.num("unreduced_scenarios", all.scenarios.size()).num("scenarios", reduced.scenarios.size());
  r.num("checked", checked).num("runs", verdicts.size()).num("executions", executions);
  r.num("broken_claims", broken.size());
  if (!o.run.fault.empty()) r.str("fault", o.run.fault);
  std::printf("check-reduction %s up to %s (letters seed %llu, %s): %zu scenarios before, %zu after; %llu checked, %zu "
              "runs, %s failed\n",
              e.structure.c_str(), o.bound.text().c_str(), static_cast<unsigned long long>(o.reduce.letters_seed),
              reductions_text(reduced).c_str(), all.scenarios.size(), reduced.scenarios.size(),
              static_cast<unsigned long long>(checked), verdicts.size(), any_unreduced_fail ? "some" : "none");
  for (std::size_t i = 0; i < broken.size() && i < 10; ++i) std::printf("  BROKEN %s\n", broken[i].c_str());
  if (!broken.empty()) {
    r.set_verdict(lfcheck::Verdict::fail);
    r.failure = "REDUCTION UNSOUND: " + broken[0];
  } else if (cli::interrupted() || budget_ended || any_not_ended || checked < all.scenarios.size() ||
             reduced_run < reduced.scenarios.size()) {
    r.set_verdict(lfcheck::Verdict::error);
    r.failure = cli::interrupted() ? std::string(cli::kInterruptedWords)
                : budget_ended     ? "NOT CHECKED: the --max-seconds budget ended after " + std::to_string(checked) +
                                     " of " + std::to_string(all.scenarios.size()) + " scenarios"
                                   : "NOT CHECKED: some scenario's search did not end (raise --dpor-executions)";
    if (budget_ended) r.str("stopped", "budget");
  } else {
    r.set_verdict(lfcheck::Verdict::pass);
  }
  if (!r.passed()) r.str("failure", r.failure);
  r.real("seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  r.real("cpu_seconds", cpu_seconds() - cpu0);
  return r;
}

void list_bound(const LinEntry& e, const Options& o) {
  BoundRun run;
  std::string why;
  if (!enumerate_bound(e, o, o.bound, run, why)) cli::usage_error("lfcheck verify", why);
  print_header(e, o, run);
  std::printf("alphabets:\n%s", run.enumeration.alphabets.c_str());
  for (std::size_t i = 0; i < run.enumeration.scenarios.size(); ++i)
    if (i % o.run.shards == o.run.shard)
      std::printf("%zu  %s\n", i, e.describe(run.enumeration.scenarios[i].encoded).c_str());
}

}  // namespace

int verify_main(int argc, char** argv) {
  Options o;
  cli::Parser p("lfcheck verify");
  bool help = false;
  p.flag("--help", [&] { help = true; });
  p.flag("--quiet", [&] { o.run.quiet = true; });
  p.flag("--list", [&] { o.list = true; });
  p.flag("--ladder", [&] { o.ladder = true; });
  p.flag("--alphabets", [&] { o.alphabets = true; });
  p.flag("--check-reduction", [&] { o.check_reduction = true; });
  p.option("--letters-seed", [&](std::string_view v) {
    o.reduce.letters_seed = cli::parse_number(p.program(), "--letters-seed", v, 0, UINT64_MAX);
  });
  p.flag("--history", [&] { o.history = true; });
  p.option("--threads", [&](std::string_view v) {
    o.bound.threads = static_cast<unsigned>(cli::parse_number(p.program(), "--threads", v, 2, kMaxThreads));
  });
  p.option("--calls", [&](std::string_view v) {
    o.bound.calls = static_cast<unsigned>(cli::parse_number(p.program(), "--calls", v, 1, kMaxOpsPerThread));
  });
  p.option("--prefix", [&](std::string_view v) {
    o.bound.prefix = static_cast<unsigned>(cli::parse_number(p.program(), "--prefix", v, 0, kMaxPrefix));
  });
  p.option("--suffix", [&](std::string_view v) {
    o.bound.suffix = static_cast<unsigned>(cli::parse_number(p.program(), "--suffix", v, 0, kMaxSuffix));
  });
  p.option("--max-seconds", [&](std::string_view v) {
    o.max_seconds = cli::parse_seconds(p.program(), "--max-seconds", v);
  });
  p.option("--dpor-executions", [&](std::string_view v) {
    o.run.limits.executions = cli::parse_number(p.program(), "--dpor-executions", v, 1, 1'000'000'000'000);
  });
  p.option("--load-depth", [&](std::string_view v) {
    o.run.limits.load_depth = static_cast<unsigned>(cli::parse_number(p.program(), "--load-depth", v, 1, 2));
  });
  p.option("--reduce", [&](std::string_view v) {
    // (Member by member: --letters-seed, given before, keeps its value.)
    if (v == "threads,values" || v == "values,threads") o.reduce.threads = true, o.reduce.values = true;
    else if (v == "threads") o.reduce.threads = true, o.reduce.values = false;
    else if (v == "values") o.reduce.threads = false, o.reduce.values = true;
    else if (v == "none") o.reduce.threads = false, o.reduce.values = false;
    else cli::usage_error(p.program(), "--reduce is threads,values, threads, values or none, not '" + std::string(v) + "'");
  });
  p.option("--jobs", [&](std::string_view v) {
    o.run.jobs = static_cast<unsigned>(cli::parse_number(p.program(), "--jobs", v, 1, 999));
  });
  p.option("--fault", [&](std::string_view v) { o.run.fault = v; });
  p.option("--json", [&](std::string_view v) { o.json = v; });
  p.option("--junit", [&](std::string_view v) { o.junit = v; });
  p.option("--artifacts", [&](std::string_view v) { o.artifacts = v; });
  cli::Shard shard;
  cli::add_shard_option(p, shard);
  const auto positional = p.parse(argc, argv);
  o.run.shard = shard.index;
  o.run.shards = shard.total;
  if (help) {
    std::fputs(kHelp, stdout);
    return cli::kPass;
  }
  // The reports are written at the end: an earlier run's must not stand beside this
  // run's exit status if it stops before (a usage error below, a kill).
  if (!o.json.empty()) std::remove(o.json.c_str());
  if (!o.junit.empty()) std::remove(o.junit.c_str());
  o.structure = named_spec(p.program(), positional);
  // A subset of the alphabet is another, smaller spec: only the reduction check, which
  // compares two enumerations of the same letters, may take one. Elsewhere a verdict over
  // a subset would read as the spec's (VERIFIED over 3 of a bound's 24 scenarios).
  if (o.reduce.letters_seed != 0 && !o.check_reduction)
    cli::usage_error(p.program(), "--letters-seed is for --check-reduction only (a verdict over a subset of the "
                                  "alphabet is not the spec's)");
  if ((o.ladder || o.check_reduction) && o.run.shards > 1)
    cli::usage_error(p.program(), "--ladder and --check-reduction are not sharded (shard one bound instead)");
  if (!o.run.fault.empty() && !is_known_fault(o.structure, o.run.fault))
    cli::usage_error(p.program(), "unknown fault '" + o.run.fault + "' (see ./lfcheck faults)");
  if (o.ladder && o.max_seconds == 0) o.max_seconds = 300;
  if (shard.sharded()) cli::acknowledge_sharding();

  if (o.alphabets) {
    for (auto& e : lin_registry()) {
      Enumeration probe;
      std::string why;
      if ((o.structure.empty() || e.structure == o.structure) && e.enumerate({2, 1, 0, 0}, o.reduce, probe, why))
        std::printf("%s\n", e.structure.c_str());
    }
    return cli::kPass;
  }
  // Refused before anything runs: a spec without an alphabet is never sampled instead
  // (named, it is an error; among all of a build's, it is left out and said so).
  std::vector<const LinEntry*> chosen;
  for (auto& e : lin_registry()) {
    if ((!o.structure.empty() && e.structure != o.structure) ||
        (!o.run.fault.empty() && !is_known_fault(e.structure, o.run.fault)))
      continue;
    Enumeration probe;
    std::string why;
    if (e.enumerate({2, 1, 0, 0}, o.reduce, probe, why)) {
      chosen.push_back(&e);
      continue;
    }
    const std::string words = "cannot verify " + e.structure + ": " + why +
                              " (a static std::vector<Call> alphabet(lfcheck::spec::Slot) member: "
                              "docs/your-structure.md, \"A call alphabet\"); verify never samples";
    if (!o.structure.empty()) cli::usage_error(p.program(), words);
    std::fprintf(stderr, "lfcheck verify: %s: left out\n", words.c_str());
  }
  if (chosen.empty()) cli::usage_error(p.program(), "nothing to verify: no spec here declares a call alphabet");
  if (o.list) {
    for (const LinEntry* e : chosen) list_bound(*e, o);
    return cli::kPass;
  }

  cli::catch_interrupts();
  std::vector<RunRecord> runs;
  for (const LinEntry* e : chosen) {
    // (Interrupted, the ones not started still get their record: interrupted, not verified.)
    // Each structure's budget starts with it.
    Options mine = o;
    if (o.max_seconds > 0)
      mine.run.limits.deadline =
          Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.max_seconds));
    runs.push_back(o.check_reduction ? check_reduction(*e, mine)
                   : o.ladder        ? verify_ladder(*e, mine)
                                     : verify_bound(*e, mine, o.bound));
    std::fflush(stdout);
  }
  if (runs.empty()) cli::usage_error(p.program(), "nothing to verify");
  if (!o.json.empty() && !write_runs_json(o.json, runs)) return cli::kUsage;
  if (!o.junit.empty() && !write_junit(o.junit, "lfcheck.verify", runs, {"check"})) return cli::kUsage;
  return exit_status(runs);
}

}  // namespace lfcheck::lin
