// lfcheck-model: runs the registered Relacy scenarios (./lfcheck model ...).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>

#include "harness/report/artifacts.hpp"
#include "harness/cli/cli.hpp"
#include "harness/cli/interrupt.hpp"
#include "harness/model/pct_scheduler.hpp"  // kMaxPctDepth
#include "harness/report/failure_views.hpp"
#include "harness/report/steps.hpp"
#include "harness/model/parallel_runs.hpp"
#include "harness/model/plan_slices.hpp"
#include "harness/cli/progress.hpp"
#include "harness/report/replay_file.hpp"
#include "harness/report/report.hpp"
#include "harness/model/dpor/bounds.hpp"
#include "harness/model/failure_report.hpp"
#include "harness/model_registry.hpp"

namespace lfcheck {
namespace {

constexpr const char* kHelp = R"(usage: lfcheck model [NAME] [options]

Model-checks the Relacy scenarios of structure NAME (all structures if omitted).
A scenario passes only if Relacy reports success for every scheduler run.

options:
  --scheduler S     random | pct | bound | full | dpor | default (default: pct
                    at --depth, then dpor up to --dpor-executions; a scenario
                    whose dpor search does not end falls back to the bound
                    search, and to the full search if it declares that finishes)
  --iterations N    sampled (random, pct) iterations (default 100000)
  --depth D         pct scheduler: bug depth D, i.e. D - 1 priority change
                    points per execution (1 to 16, default 3)
  --bound K         context bound for the exhaustive bound search (default 2)
  --dpor-executions N  the default plan's dpor budget per scenario (default
                    500000; --scheduler dpor alone has none)
  --load-depth D    dpor, full: a load may read D stores back: 1 as Relacy's
                    tree searches (default), 2 as its sampled runs (the full
                    search at 2 keeps the tree searches' other choices:
                    docs/model.md, "The full search at load depth 2")
  --max-seconds S   wall-clock budget of each run (any scheduler); a run the
                    budget ends is "stopped at budget" (verdict error, exit 2
                    unless a run failed), never a pass, never exhaustive.
                    Without it a full search gets a budget of 300 s (a full
                    search rarely finishes: the estimate on its progress line
                    says how far it got; LFCHECK_FULL_SEARCH_SECONDS=S changes
                    this default)
  --scenario NAME   only this scenario
  --fault F         run the variant with seeded fault F (see ./lfcheck faults);
                    a fault is caught when any run fails (exit 1)
  --json FILE       write {"runs":[...]} (DESIGN §6)
  --junit FILE      write JUnit XML
  --artifacts DIR   where a failure's table, trace (Chrome/Perfetto JSON), Relacy
                    history and replay file go (default: $LFCHECK_ARTIFACTS or
                    ${TMPDIR:-/tmp}/lfcheck-artifacts)
  --seed S          random, pct: sample iterations starting at S * 4000000
                    (S from 0 to 1000, default 0); the exhaustive schedulers ignore it
  --replay FILE     re-run exactly the execution recorded in a replay file
  --history         also print Relacy's raw execution history of a failure
  --outcomes        record each run's distinct outcomes (what a scenario's
                    outcome() returns after its after(), over the executions
                    that passed) in the JSON: "outcomes", "outcomes_complete"
  --first-failure   stop at the first failing run; every scenario's sampled
                    run comes before any exhaustive search, in round-robin slices
                    of 1000 iterations (the same iterations in all)
  --shard I/N       only shard I (0 to N-1) of N: runs I, I+N, I+2N, ... of the
                    plan; N shards together do the plan's runs once each (the
                    default: GTEST_SHARD_INDEX of GTEST_TOTAL_SHARDS, if set);
                    each record says "shard" (I/N), "of_runs" (the plan's size)
                    and "plan", and lfcheck merge requires all of the plan's runs
  --jobs N          runs in N worker processes at once (default: one per core);
                    output and reports in the same order as with --jobs 1
  --quiet           no progress line (under --jobs N the progress line shows
                    every running worker's)
  --list            list scenarios and exit
  --list-faults     list seeded faults and exit
  --help            this text

SIGINT (Ctrl-C) or SIGTERM stops the command: the runs that finished are reported
as usual, every other run is "interrupted" (verdict error) in the table, JSON and
JUnit, and the exit status is 2 unless a run failed.

exit status: 0 all runs passed, 1 a check failed (a bug was found), 2 usage error,
or a run that did not check all its work (stopped at budget, interrupted)
)";

struct Options {
  std::string structure, scenario, scheduler = "default", fault, json, junit, artifacts, replay;
  std::uint64_t iterations = 100000;
  unsigned bound = 2;
  unsigned depth = 3;       // pct: bug depth
  double max_seconds = 0;   // 0: no budget
  unsigned jobs = 0;        // 0: one per core
  cli::Shard shard;         // --shard I/N: runs I, I+N, ... of the plan
  bool quiet = false, list = false, list_faults = false, first_failure = false, history = false;
  bool outcomes = false;      // --outcomes: each run's distinct outcome() values in the JSON
  unsigned load_depth = 1;    // dpor, full: stores back a load may read
  std::uint64_t dpor_executions = 500000;  // the default plan's dpor budget (then bound, full)
  std::string initial_state;  // replay: Relacy's scheduler state of the failing iteration
  std::uint64_t seed = 0;     // random scheduler: start at iteration seed * kSeedStride
  bool list_faults_json = false;
};

// Relacy's random scheduler seeds iteration i's choices with i, so a "seed" is a
// starting iteration: seed s samples iterations [s * kSeedStride, s * kSeedStride + N).
// They must stay below 2^32: Relacy's generator takes its multiplier shift and
// increment from bits 32-39 of the iteration number, and with those bits set it
// degenerates (the low bits that decide spurious CAS failures barely change, so a
// correct retry loop "fails" spuriously 2000 times in a row and is reported as a
// LIVELOCK — found by the mutants run's false-alarm check).
constexpr std::uint64_t kSeedStride = 4'000'000ull;
constexpr std::uint64_t kMaxSeed = 1000;

// A full search without --max-seconds: its default budget (a full search rarely
// finishes, and one that does not would run for days, silently, under --jobs).
constexpr double kFullSearchSeconds = 300;
double full_search_budget() {
  if (const char* s = std::getenv("LFCHECK_FULL_SEARCH_SECONDS"); s && *s) {
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    if (end && *end == 0 && v > 0) return v;
    cli::usage_error("lfcheck model", "LFCHECK_FULL_SEARCH_SECONDS is a positive number of seconds, not '" +
                                          std::string(s) + "'");
  }
  return kFullSearchSeconds;
}

// The budget of one run: --max-seconds, else the default of a full search, else none (0).
double budget_of(const std::string& scheduler, const Options& o) {
  if (o.max_seconds > 0) return o.max_seconds;
  return scheduler == "full" && o.initial_state.empty() ? full_search_budget() : 0;
}

// The record of a run the interrupt stopped or never let start (harness/cli/interrupt.hpp).
RunRecord interrupted_record(const ModelEntry& e, const std::string& scheduler, const Options& o,
                             std::uint64_t executions, double seconds) {
  RunRecord r;
  r.str("structure", e.structure).str("scenario", e.scenario).str("scheduler", scheduler);
  r.num("iterations", executions).boolean("exhaustive", false);
  r.set_verdict(Verdict::error).real("seconds", seconds);
  r.failure = cli::kInterruptedWords;
  r.details = executions ? "the command was interrupted after " + std::to_string(executions) +
                               " executions that passed; the run's work was not done"
                         : "the command was interrupted before this run started";
  r.str("failure", r.failure).str("stopped", "interrupt");
  if (!o.fault.empty()) r.str("fault", o.fault);
  return r;
}

// Prints the per-thread table and writes the artifacts of one failing run.
void report_failure(RunRecord& r, const ModelEntry& e, const Options& o, const std::string& state) {
  std::printf("\n=== %s/%s (%s scheduler%s) FAILED: %s (after %s iterations) ===\n",
              e.structure.c_str(), e.scenario.c_str(), r.get("scheduler").c_str(),
              o.fault.empty() ? "" : (", fault " + o.fault).c_str(), r.failure.c_str(),
              r.get("iterations").c_str());
  std::vector<Step> steps = parse_relacy_history(r.details);
  name_variables(steps, [](const std::string& address) {
    return RelacySync::label_of(reinterpret_cast<const void*>(std::strtoull(address.c_str(), nullptr, 16)));
  });
  for (auto& s : steps) s.file = project_path(s.file);
  std::printf("\n%s", render_thread_table(steps, static_cast<int>(e.threads)).c_str());
  if (o.history) std::printf("\n%s\n", r.details.c_str());

  const std::string dir = artifacts_dir(o.artifacts);
  if (!make_dirs(dir)) {
    std::fprintf(stderr, "lfcheck model: cannot create %s; no artifacts written\n", dir.c_str());
    return;
  }
  std::string stem = dir + "/" + e.structure + "." + e.scenario + "." + r.get("scheduler");
  if (!o.fault.empty()) stem += "." + std::string(fault_short_name(o.fault));
  write_whole_file(stem + ".history.txt", r.details);
  write_whole_file(stem + ".table.txt", render_thread_table(steps, static_cast<int>(e.threads)));
  write_trace(stem + ".trace.json", steps, static_cast<int>(e.threads),
              e.structure + "/" + e.scenario + ": " + r.failure);
  ReplayFile replay;
  replay.set("layer", "model").set("structure", e.structure).set("scenario", e.scenario);
  replay.set("scheduler", r.get("scheduler")).set("bound", std::to_string(o.bound));
  replay.set("fault", o.fault).set("failure", r.failure).set("state", state);
  replay.write(stem + ".replay");
  r.str("trace", stem + ".trace.json").str("replay", stem + ".replay");
  std::printf("\ntrace:  %s.trace.json (open in ui.perfetto.dev or chrome://tracing)\n", stem.c_str());
  std::printf("table:  %s.table.txt   history: %s.history.txt\n", stem.c_str(), stem.c_str());
  std::printf("replay: %s replay %s\n", driver_command().c_str(), shell_word(stem + ".replay").c_str());
}

// Where a crash happened: the crashing thread's stack, the project's frames first.
void print_crash(const CrashReport& c) {
  std::printf("\n%s", c.desc.c_str());
  if (c.signal == SIGSEGV || c.signal == SIGBUS) std::printf(", touching address 0x%llx", static_cast<unsigned long long>(c.address));
  if (const CrashFrame* site = c.site())
    std::printf("\n  at %s:%u in %s", project_path(site->file).c_str(), site->line, site->function.c_str());
  std::printf("\ncrashing thread's stack (innermost first; also in the history file):\n");
  for (auto& f : c.stack)
    std::printf("  %s  %s\n", f.function.c_str(),
                f.file.empty() ? f.object.c_str() : (project_path(f.file) + ":" + std::to_string(f.line)).c_str());
}

// A failure that did not happen again when its execution was re-run alone.
void report_nondeterministic(const RunRecord& r, const ModelEntry& e, const Options& o,
                             const ModelOutcome& outcome) {
  if (outcome.diverged) {
    std::printf("\n=== %s/%s (%s scheduler%s) FAILED: NONDETERMINISTIC SCENARIO ===\n"
                "execution %llu did not repeat the choices of the path it replayed: the search cannot\n"
                "cover what it did not run. The scenario does not depend on the schedule alone: look\n"
                "for ::rand(), static or global state, or values of addresses in the scenario or the structure.\n",
                e.structure.c_str(), e.scenario.c_str(), r.get("scheduler").c_str(),
                o.fault.empty() ? "" : (", fault " + o.fault).c_str(),
                static_cast<unsigned long long>(outcome.failing_iteration));
    return;
  }
  std::printf("\n=== %s/%s (%s scheduler%s) FAILED: NONDETERMINISTIC SCENARIO ===\n"
              "iteration %llu failed (%s), but re-run alone from the same scheduler state it %s.\n"
              "The scenario does not depend on the schedule alone: look for ::rand(), static or\n"
              "global state, or values of addresses in the scenario or the structure.\n",
              e.structure.c_str(), e.scenario.c_str(), r.get("scheduler").c_str(),
              o.fault.empty() ? "" : (", fault " + o.fault).c_str(),
              static_cast<unsigned long long>(outcome.failing_iteration), failure_words(outcome).c_str(),
              outcome.rerun_result == rl::test_result_success ||
                      outcome.rerun_result == rl::test_result_until_condition_hit
                  ? "passed"
                  : (std::string("failed differently (") + rl::test_result_str(outcome.rerun_result) + ")").c_str());
}

std::set<std::string> structures() {
  std::set<std::string> names;
  for (auto& e : model_registry()) names.insert(e.structure);
  return names;
}

// What to ask of Relacy for one (scenario, scheduler) run.
ModelRequest request_for(const std::string& scheduler, const Options& o) {
  ModelRequest q;
  q.iterations = o.iterations;
  q.context_bound = o.bound;
  if ((scheduler == "random" || scheduler == "pct") && o.seed != 0) q.first_iteration = o.seed * kSeedStride;
  q.pct_depth = o.depth;
  q.collect_outcomes = o.outcomes;
  q.load_depth = o.load_depth;
  if (!o.initial_state.empty()) {
    // Replay: the recorded execution alone (its iteration and scheduler state). A
    // tree search would otherwise go on through the rest of its tree from there:
    // work no one asked for, and never an exhaustive search.
    q.initial_state = o.initial_state;
    q.iterations = 1;
    q.execution_limit = 1;
  }
  return q;
}

// Runs one scenario under one scheduler; returns its record.
RunRecord run_one(const ModelEntry& e, const std::string& scheduler, const Options& o,
                  bool show_progress, std::uint64_t slice_first = 0, std::uint64_t slice_iterations = 0,
                  std::uint64_t execution_limit = UINT64_MAX) {
  ProgressLine progress(e.structure + "/" + e.scenario + " " + scheduler, show_progress);
  ModelRequest request = request_for(scheduler, o);
  if (execution_limit != UINT64_MAX && o.initial_state.empty()) request.execution_limit = execution_limit;
  if (slice_iterations) {  // one slice of a sampled run (harness/model/plan_slices.hpp)
    request.first_iteration = slice_first;
    request.iterations = slice_iterations;
  }
  // Progress after every execution's start: a sampled run knows its total; a tree
  // search only its explored fraction (an estimate, harness/model/tree_estimate.hpp).
  struct Watch {
    ProgressLine* line;
    std::uint64_t total;  // 0: a tree search
    bool dpor;
    static void on(void* self, std::uint64_t started) {
      auto* w = static_cast<Watch*>(self);
      if (w->total) return w->line->update(started - 1, w->total);
      char note[128] = "";
      if (w->dpor) {  // executions = classes explored + redundant ones (sleep-set blocked, reordered loads)
        const DporProgress p = current_dpor_progress();
        std::snprintf(note, sizeof note, " (%llu classes, %llu redundant; at least %llu more, open from choice %zu of %zu)",
                      static_cast<unsigned long long>(started - 1 - p.redundant),
                      static_cast<unsigned long long>(p.redundant), static_cast<unsigned long long>(p.pending),
                      p.open_depth, p.path_length);
        // No explored fraction: DPOR's tree grows as it goes (dpor/exploration.hpp, pending_alternatives).
        return w->line->update_search(started - 1, 0, note);
      }
      w->line->update_search(started - 1, current_search_fraction(), note);
    }
  } watch{&progress, scheduler == "random" || scheduler == "pct" ? request.iterations : 0, scheduler == "dpor"};
  if (show_progress) request.observer = {&Watch::on, &watch};
  ModelOutcome outcome;
  const auto start = std::chrono::steady_clock::now();
  const double budget = budget_of(scheduler, o);
  if (budget > 0)
    request.deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget));
  if (!e.run(scheduler, request, o.fault, outcome)) {
    // The plan holds only scenarios of the fault's structure: this is a harness bug.
    std::fprintf(stderr, "lfcheck model: %s/%s has no fault '%s'\n", e.structure.c_str(),
                 e.scenario.c_str(), o.fault.c_str());
    std::exit(cli::kUsage);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.finish();

  const bool passed = outcome.result == rl::test_result_success;
  if (passed && outcome.stopped == Stop::interrupt) {
    std::printf("%s/%s (%s scheduler): interrupted after %llu executions\n", e.structure.c_str(), e.scenario.c_str(),
                scheduler.c_str(), static_cast<unsigned long long>(outcome.executions));
    return interrupted_record(e, scheduler, o, outcome.executions, seconds);
  }
  // Stopped by the budget: what ran passed, but the run did not do its work.
  const bool budget_stop = passed && outcome.stopped == Stop::budget;
  // No thread touched anything through the Sync policy: Relacy had nothing to
  // interleave and nothing was checked (a scenario on std::atomic, say).
  const bool no_work = passed && !budget_stop && outcome.no_shared_access;
  // Exhaustive: a tree scheduler enumerated its whole space from the root (bound:
  // every schedule with at most K preemptions). A failing run stops early.
  const bool exhaustive = outcome.whole_space && !outcome.no_shared_access;
  RunRecord r;
  r.str("structure", e.structure).str("scenario", e.scenario).str("scheduler", scheduler);
  r.num("iterations", outcome.executions).boolean("exhaustive", exhaustive);
  if (scheduler == "bound") r.num("bound", o.bound);
  if (scheduler == "full") r.num("load_depth", o.load_depth);
  if (scheduler == "dpor") {
    // The bounds that remain on an exhaustive DPOR verdict (docs/model.md, "What a
    // verified verdict means"), and the search's counts.
    r.num("load_depth", o.load_depth).num("sleep_set_blocked", outcome.sleep_blocked).num("races", outcome.races);
    r.num("redundant", outcome.redundant).num("pruned_older_loads", outcome.pruned_older_loads);
    r.num("pruned_free_deferrals", outcome.pruned_free_deferrals);
    r.num("classes", outcome.executions - outcome.redundant);
    r.str("bounds", model::dpor::bounds(o.load_depth));
  }
  if (scheduler == "pct") {
    // k and the executions that ran past it (PCT's guarantee covers executions of at most k steps).
    r.num("depth", o.depth).num("pct_steps", outcome.pct_steps).num("longer_than_pct_steps", outcome.pct_longer_than_steps);
    if (outcome.failed_in_calibration) r.str("failed_in", "calibration (depth 1)");
    // The depth-1 executions that measured k before sampling, counted in "iterations"
    // too: a run that sampled all it was asked ran exactly that many beyond them.
    if (passed && !budget_stop && outcome.stopped == Stop::none && outcome.executions >= request.iterations)
      r.num("calibration_executions", outcome.executions - request.iterations);
  }
  r.set_verdict(budget_stop || no_work ? Verdict::error : passed ? Verdict::pass : Verdict::fail).real("seconds", seconds);
  if (request.collect_outcomes) {
    std::string list = "[";
    for (std::size_t i = 0; i < outcome.outcomes.size(); ++i)
      list += (i ? "," : "") + std::to_string(outcome.outcomes[i]);
    r.fields.emplace_back("outcomes", list + "]");
    r.boolean("outcomes_complete", outcome.outcomes_complete);
  }
  if (no_work) {
    r.failure = kNoSharedAccessWords;
    r.details = "no thread of any execution touched an atomic, cell, mutex or condition variable of the Sync "
                "policy: Relacy had nothing to interleave (std::atomic and plain data are invisible to it)";
    r.str("failure", r.failure);
    std::printf("%s/%s (%s scheduler): %s\n", e.structure.c_str(), e.scenario.c_str(), scheduler.c_str(),
                r.failure.c_str());
  }
  if (budget_stop) {
    r.failure = "stopped at budget";
    const std::string why = o.max_seconds > 0 ? "--max-seconds" : "the default budget of a full search";
    r.details = "stopped by " + why + " after " + std::to_string(outcome.executions) +
                " executions that passed; the run's work was not done";
    r.str("failure", r.failure).str("stopped", "budget");
    if (scheduler == "bound" || scheduler == "full") {
      // How far the search got: an estimate (harness/model/tree_estimate.hpp), labelled as one.
      char fraction[32];
      std::snprintf(fraction, sizeof fraction, "%.3g", outcome.search_fraction);
      r.fields.emplace_back("explored_estimate", fraction);
    } else if (scheduler == "dpor") {
      // DPOR has no honest explored fraction (its tree grows as races are found):
      // what it knew it still had to run, a lower bound.
      r.num("pending_at_least", outcome.pending);
    }
    char more[64] = "";
    if (scheduler == "dpor")
      std::snprintf(more, sizeof more, "; at least %llu more to run", static_cast<unsigned long long>(outcome.pending));
    std::printf("%s/%s (%s scheduler): stopped at budget (%s, %g s) after %llu executions, "
                "not exhaustive%s\n", e.structure.c_str(), e.scenario.c_str(), scheduler.c_str(), why.c_str(), budget,
                static_cast<unsigned long long>(outcome.executions), more);
  }
  if (!o.fault.empty()) r.str("fault", o.fault);
  if (!o.replay.empty()) r.str("replay_of", o.replay);
  if (!passed) {
    r.failure = failure_words(outcome);
    if (!outcome.reproduced) {
      r.failure = "NONDETERMINISTIC SCENARIO";
      r.str("first_failure", outcome.diverged ? "an execution did not repeat the choices of the path it replayed"
                                              : failure_words(outcome));
    }
    r.str("failure", r.failure);
    if (outcome.reproduced) {
      r.details = outcome.history;
      report_failure(r, e, o, outcome.state);
      if (outcome.crash.signal) print_crash(outcome.crash);
    } else {
      r.details = "the failure did not reproduce when its execution was re-run alone";
      report_nondeterministic(r, e, o, outcome);
    }
  }
  return r;
}

// The default plan's search of one scenario: DPOR, up to --dpor-executions
// executions; where it ends, its verdict is the scenario's (every execution class
// explored: "verified") and the bound and full searches are not needed. Where it
// does not, the plan falls back to them and the record says so: scheduler "bound"
// (or "bound+full"), with what DPOR did ("dpor_executions", "dpor": "stopped at
// its budget"). One record either way, so a plan is a function of its options.
RunRecord run_search(const ModelEntry& e, const Options& o, bool show_progress) {
  RunRecord dpor = run_one(e, "dpor", o, show_progress, 0, 0, o.dpor_executions);
  if (dpor.verdict != Verdict::pass || dpor.get("exhaustive") == "true") return dpor;
  const std::string dpor_executions = dpor.get("iterations");
  std::printf("%s/%s: dpor did not end within %llu executions; falling back to the bound-%u search%s\n",
              e.structure.c_str(), e.scenario.c_str(), static_cast<unsigned long long>(o.dpor_executions), o.bound,
              e.full_search ? " and the full search" : "");
  RunRecord r = run_one(e, "bound", o, show_progress);
  if (e.full_search && r.verdict == Verdict::pass) {
    RunRecord full = run_one(e, "full", o, show_progress);
    const std::uint64_t executions = std::stoull(r.get("iterations")) + std::stoull(full.get("iterations"));
    full.fields.erase(std::remove_if(full.fields.begin(), full.fields.end(),
                                     [](const auto& f) { return f.first == "scheduler" || f.first == "iterations"; }),
                      full.fields.end());
    full.fields.insert(full.fields.begin() + 2, {"scheduler", RunRecord::quote("bound+full")});
    full.fields.insert(full.fields.begin() + 3, {"iterations", std::to_string(executions)});
    r = std::move(full);
  }
  r.str("dpor", "stopped at its budget (--dpor-executions)").num("dpor_executions", std::stoull(dpor_executions));
  return r;
}

int main_impl(int argc, char** argv) {
  Options o;
  cli::Parser p("lfcheck model");
  bool help = false;
  p.flag("--help", [&] { help = true; });
  p.flag("--quiet", [&] { o.quiet = true; });
  p.flag("--list", [&] { o.list = true; });
  p.flag("--list-faults", [&] { o.list_faults = true; });
  p.flag("--history", [&] { o.history = true; });
  p.flag("--outcomes", [&] { o.outcomes = true; });
  p.option("--dpor-executions", [&](std::string_view v) {
    o.dpor_executions = cli::parse_number(p.program(), "--dpor-executions", v, 1, 1'000'000'000'000ull);
  });
  p.option("--load-depth", [&](std::string_view v) {
    o.load_depth = static_cast<unsigned>(cli::parse_number(p.program(), "--load-depth", v, 1, 2));
  });
  p.option("--artifacts", [&](std::string_view v) { o.artifacts = v; });
  p.option("--seed", [&](std::string_view v) {
    o.seed = cli::parse_number(p.program(), "--seed", v, 0, kMaxSeed);
  });
  p.flag("--list-faults-json", [&] { o.list_faults_json = true; });
  p.option("--replay", [&](std::string_view v) { o.replay = v; });
  p.flag("--first-failure", [&] { o.first_failure = true; });
  p.option("--scheduler", [&](std::string_view v) {
    if (v != "random" && v != "pct" && v != "bound" && v != "full" && v != "dpor" && v != "default")
      cli::usage_error(p.program(), "--scheduler is random, pct, bound, full, dpor or default, not '" +
                                        std::string(v) + "'");
    o.scheduler = v;
  });
  p.option("--iterations", [&](std::string_view v) {
    o.iterations = cli::parse_number(p.program(), "--iterations", v, 1, 1'000'000'000'000ull);
  });
  p.option("--depth", [&](std::string_view v) {
    o.depth = static_cast<unsigned>(cli::parse_number(p.program(), "--depth", v, 1, kMaxPctDepth));
  });
  cli::add_shard_option(p, o.shard);
  p.option("--jobs", [&](std::string_view v) {
    o.jobs = static_cast<unsigned>(cli::parse_number(p.program(), "--jobs", v, 1, 256));
  });
  p.option("--max-seconds", [&](std::string_view v) {
    o.max_seconds = cli::parse_seconds(p.program(), "--max-seconds", v);
  });
  p.option("--bound", [&](std::string_view v) {
    o.bound = static_cast<unsigned>(cli::parse_number(p.program(), "--bound", v, 1, 20));
  });
  p.option("--scenario", [&](std::string_view v) { o.scenario = v; });
  p.option("--fault", [&](std::string_view v) { o.fault = v; });
  p.option("--json", [&](std::string_view v) { o.json = v; });
  p.option("--junit", [&](std::string_view v) { o.junit = v; });
  auto positional = p.parse(argc, argv);
  if (help) {
    std::fputs(kHelp, stdout);
    return cli::kPass;
  }
  if (positional.size() > 1) cli::usage_error(p.program(), "at most one structure name");
  if (!o.replay.empty()) {
    ReplayFile replay;
    if (!replay.read(o.replay)) cli::usage_error(p.program(), "cannot read replay file " + o.replay);
    if (replay.get("layer") != "model")
      cli::usage_error(p.program(), o.replay + " is not a model replay file");
    positional = {replay.get("structure")};
    o.scenario = replay.get("scenario");
    o.scheduler = replay.get("scheduler");
    o.bound = static_cast<unsigned>(std::atoi(replay.get("bound").c_str()));
    o.fault = replay.get("fault");
    o.initial_state = replay.get("state");
    if (o.initial_state.empty()) cli::usage_error(p.program(), o.replay + " has no scheduler state");
    std::printf("replaying %s/%s (%s scheduler%s), recorded failure: %s\n", positional[0].c_str(),
                o.scenario.c_str(), o.scheduler.c_str(),
                o.fault.empty() ? "" : (", fault " + o.fault).c_str(), replay.get("failure").c_str());
  }
  const auto names = structures();
  if (!positional.empty()) {
    o.structure = positional[0];
    if (!names.count(o.structure)) {
      std::string known;
      for (auto& n : names) known += (known.empty() ? "" : ", ") + n;
      cli::usage_error(p.program(), "unknown structure '" + o.structure + "' (known: " + known + ")");
    }
  }

  if (o.list_faults_json) {
    std::printf("{\"faults\":[");
    bool first = true;
    for (auto& f : fault_registry()) {
      if (!o.structure.empty() && f.mechanism != o.structure) continue;
      RunRecord r;
      r.str("name", f.name).str("mechanism", f.mechanism).str("breaks", f.breaks);
      r.str("real_bug", f.real_bug).str("expected_layers", f.expected_layer);
      std::printf("%s\n%s", first ? "" : ",", r.json().c_str());
      first = false;
    }
    std::printf("\n]}\n");
    return cli::kPass;
  }
  if (o.list_faults) {
    print_fault_list(stdout, o.structure);
    return cli::kPass;
  }

  if (!o.fault.empty() && !is_known_fault(o.structure, o.fault))
    cli::usage_error(p.program(), "unknown fault '" + o.fault + "' (see ./lfcheck faults)");
  // With a fault, only the scenarios of the structure that has it: the others
  // would run their correct code and report passes that say nothing of the fault.
  std::vector<const ModelEntry*> selected;
  for (auto& e : model_registry())
    if ((o.structure.empty() || e.structure == o.structure) &&
        (o.scenario.empty() || e.scenario == o.scenario) &&
        (o.fault.empty() || is_known_fault(e.structure, o.fault)))
      selected.push_back(&e);
  if (selected.empty()) cli::usage_error(p.program(), "no scenario named '" + o.scenario + "'");
  if (!o.replay.empty()) selected.resize(1);

  if (o.list) {
    for (auto* e : selected)
      std::printf("%s/%s  %u threads%s  %s\n", e->structure.c_str(), e->scenario.c_str(),
                  e->threads, e->full_search ? ", full search" : "", e->description.c_str());
    return cli::kPass;
  }

  if (o.seed * kSeedStride + o.iterations >= (1ull << 32))
    cli::usage_error(p.program(), "--seed times 4000000 plus --iterations must stay below 2^32 "
                                  "(Relacy's random scheduler degenerates above)");

  const bool show_progress = !o.quiet;
  std::vector<RunRecord> runs;
  cli::catch_interrupts();
  // The plan: (scenario, scheduler) runs, scenario by scenario. The default sampled
  // scheduler is PCT (at --depth): over the 33 model-layer faults it finds each
  // in at most the executions Relacy's random scheduler needs, give or take tens,
  // and treiber.no_aba_tag in 3,043 instead of 368,750 (bench/scheduler_compare.py,
  // README). With --first-failure the sampled runs of every scenario come before
  // any exhaustive search, so a bug that sampling shows is not found only after
  // earlier scenarios' searches.
  std::vector<std::pair<const ModelEntry*, std::string>> plan;
  for (auto* e : selected) {
    if (o.scheduler != "default") {
      plan.emplace_back(e, o.scheduler);
      continue;
    }
    plan.emplace_back(e, "pct");
    plan.emplace_back(e, "search");  // dpor; where it does not end, bound (and full): run_search
  }
  if (o.first_failure)
    std::stable_partition(plan.begin(), plan.end(), [](const auto& run) { return sampled_scheduler(run.second); });
  // A shard's records name their shard, the whole plan's size and the plan itself
  // (the options it is a function of), so lfcheck merge can require every run of it.
  const std::size_t plan_size = plan.size();
  std::string plan_name = "model " + (o.structure.empty() ? std::string("(all)") : o.structure);
  if (!o.scenario.empty()) plan_name += " --scenario " + o.scenario;
  plan_name += " --scheduler " + o.scheduler + " --iterations " + std::to_string(o.iterations) + " --depth " +
               std::to_string(o.depth) + " --bound " + std::to_string(o.bound) + " --seed " + std::to_string(o.seed) +
               " --dpor-executions " + std::to_string(o.dpor_executions) + " --load-depth " + std::to_string(o.load_depth);
  if (!o.fault.empty()) plan_name += " --fault " + o.fault;
  if (o.max_seconds > 0) plan_name += " --max-seconds " + std::to_string(o.max_seconds);
  if (o.first_failure) plan_name += " --first-failure";
  // A full search without --max-seconds has a default budget (budget_of): say so at
  // the start, for --scheduler full and for the default plan's search step of a
  // scenario that declares its full search finishes (run_search).
  if (o.max_seconds <= 0 && o.replay.empty() && std::any_of(plan.begin(), plan.end(), [](const auto& run) {
        return run.second == "full" || (run.second == "search" && run.first->full_search);
      }))
    std::printf("full search: the default budget of %g s per run (a full search rarely finishes; "
                "--max-seconds S sets every run's)\n", full_search_budget());
  if (o.shard.sharded()) {
    // Shard I keeps runs I, I+N, ...: every run in exactly one shard. The plan is a
    // function of the options alone, so every shard computes the same one.
    std::vector<std::pair<const ModelEntry*, std::string>> mine;
    for (std::size_t i = 0; i < plan.size(); ++i)
      if (o.shard.keeps(i)) mine.push_back(plan[i]);
    std::printf("shard %s: %zu of the plan's %zu runs\n", o.shard.text().c_str(), mine.size(), plan.size());
    plan = std::move(mine);
    cli::acknowledge_sharding();
  }
  // With --first-failure the sampled runs go in round-robin slices (harness/model/plan_slices.hpp),
  // so a bug one scenario's sampling shows waits for a slice of each other
  // scenario, not for their whole runs. Not with --max-seconds (a budget per run)
  // or --replay (one execution).
  std::vector<PlanItem<ModelEntry>> items;
  const bool sliced = o.first_failure && o.replay.empty() && o.max_seconds <= 0 && o.iterations > kSliceIterations;
  if (sliced) {
    items = slice_plan(plan, o.iterations, o.seed ? o.seed * kSeedStride : 1);
    std::printf("first failure: sampled runs in round-robin slices of %llu iterations (%zu items for %zu runs)\n",
                static_cast<unsigned long long>(kSliceIterations), items.size(), plan.size());
  } else {
    for (std::size_t r = 0; r < plan.size(); ++r) items.push_back({plan[r].first, plan[r].second, r, 0, 0});
  }
  // Runs in worker processes (harness/model/parallel_runs.hpp); records in plan order either way.
  unsigned jobs = o.jobs ? o.jobs : static_cast<unsigned>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, items.size()));
  if (!o.replay.empty() || jobs == 0) jobs = 1;
  std::size_t finished = 0;
  auto item_results = run_in_parallel(
      items.size(), jobs, o.first_failure, show_progress,
      [&](std::size_t i) {
        if (items[i].scheduler == "search") return run_search(*items[i].entry, o, show_progress);
        return run_one(*items[i].entry, items[i].scheduler, o, show_progress, items[i].first, items[i].iterations);
      },
      [&](std::size_t i, const std::string& why) {
        const ModelEntry& e = *items[i].entry;
        RunRecord r;
        r.str("structure", e.structure).str("scenario", e.scenario).str("scheduler", items[i].scheduler);
        r.num("iterations", 0).boolean("exhaustive", false);
        r.failure = "CRASHED (" + why + ")";
        r.details = "the worker process of this run ended (" + why + ") before it reported: no verdict on the "
                    "code (a crash in scenario code is its own verdict, CRASH: SIGNAL); --jobs 1 shows where";
        r.set_verdict(Verdict::error).real("seconds", 0).str("failure", r.failure);
        if (!o.fault.empty()) r.str("fault", o.fault);
        std::printf("\n=== %s/%s (%s scheduler) NOT CHECKED: %s ===\n", e.structure.c_str(), e.scenario.c_str(),
                    items[i].scheduler.c_str(), r.failure.c_str());
        return r;
      },
      [&](std::size_t, const RunRecord& r) {
        ++finished;
        if (jobs > 1 && show_progress)
          std::fprintf(stderr, "[%zu/%zu] %s/%s %s: %s  %ss\n", finished, items.size(), r.get("structure").c_str(),
                       r.get("scenario").c_str(), r.get("scheduler").c_str(), r.get("verdict").c_str(),
                       r.get("seconds").c_str());
      });
  std::uint64_t ran = 0;  // every finished item's executions: the work done before a first failure
  for (auto& r : item_results)
    if (r && !r->get("iterations").empty()) ran += std::stoull(r->get("iterations"));
  auto results = fold_slices(items, std::move(item_results), plan.size());
  std::size_t interrupted = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!results[i] && cli::interrupted()) results[i] = interrupted_record(*plan[i].first, plan[i].second, o, 0, 0);
    if (results[i]) {
      interrupted += results[i]->get("stopped") == "interrupt";
      runs.push_back(std::move(*results[i]));
    }
  }
  if (o.shard.sharded())
    for (auto& r : runs) r.str("shard", o.shard.text()).num("of_runs", plan_size).str("plan", plan_name);
  if (runs.size() < plan.size())
    std::printf("\n%zu of %zu runs not run to their end: stopped after the first failure (%llu executions ran)\n",
                plan.size() - runs.size(), plan.size(), static_cast<unsigned long long>(ran));
  if (interrupted)
    std::fprintf(stderr, "lfcheck model: interrupted (signal %d): %zu of %zu runs did not finish\n",
                 cli::interrupting_signal(), interrupted, plan.size());

  std::printf("\n");
  print_table(stdout, runs, {"structure", "scenario", "scheduler", "iterations", "exhaustive", "verdict", "seconds", "failure"});
  std::size_t verified = 0;
  for (auto& r : runs) verified += r.get("scheduler") == "dpor" && r.get("exhaustive") == "true";
  if (verified)
    std::printf("\nverified (dpor ended: every execution class explored): %zu run%s — within these bounds: %s\n",
                verified, verified == 1 ? "" : "s", model::dpor::bounds(o.load_depth).c_str());
  // Errors: interrupted runs, and the others no verdict covers (stopped at budget,
  // NO WORK, a worker that died).
  std::size_t failed = 0, unchecked = 0;
  for (auto& r : runs) failed += r.verdict == Verdict::fail, unchecked += r.verdict == Verdict::error;
  std::printf("\nmodel: %zu runs, %zu passed, %zu failed%s%s%s\n", runs.size(), runs.size() - failed - unchecked,
              failed,
              unchecked > interrupted ? (", " + std::to_string(unchecked - interrupted) + " not checked (error)").c_str() : "",
              interrupted ? (", " + std::to_string(interrupted) + " interrupted").c_str() : "",
              o.fault.empty() ? "" : (" (fault " + o.fault + ")").c_str());
  if (!o.json.empty() && !write_runs_json(o.json, runs)) return cli::kUsage;
  if (!o.junit.empty() && !write_junit(o.junit, "lfcheck.model", runs, {"scenario", "scheduler"}))
    return cli::kUsage;
  return exit_status(runs);
}

}  // namespace
}  // namespace lfcheck

int main(int argc, char** argv) { return lfcheck::main_impl(argc, argv); }
