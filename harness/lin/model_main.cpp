// lfcheck-lin-model: linearizability of generated scenarios under Relacy
// (./lfcheck lin --layer model). Every structure with a spec (models/NAME_lin.cpp).
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "harness/cli/cli.hpp"
#include "harness/cli/interrupt.hpp"
#include "harness/model/pct_scheduler.hpp"  // kMaxPctDepth
#include "harness/lin_registry.hpp"
#include "harness/lin/model_failure.hpp"
#include "harness/model/failure_report.hpp"
#include "harness/report/replay_file.hpp"
#include "harness/report/report.hpp"

namespace lfcheck::lin {
namespace {

constexpr const char* kHelp = R"(usage: lfcheck lin --layer model [NAME] [options]   (binary: lfcheck-lin-model)

Generates concurrent scenarios from each structure's sequential spec (specs/) —
a prefix, 2-3 threads of a few calls, a suffix — and runs them under Relacy in
two passes: every scenario's sampled iterations (PCT unless --scheduler random),
then every scenario's exhaustive context-bound search (up to a budget), so a bug
that sampling shows is found before the searches of the scenarios ahead of it.
Every execution's results must be explained by a sequential order of the calls
that respects program order (lin/): else the scenario is shrunk and shown as a
per-thread table, with Relacy's step table, trace and a replay file.

options:
  --scenarios N        scenarios per structure (default 100)
  --threads T          threads per scenario, at most (2..3, default 3)
  --ops K              calls per thread, at most (1..8, default 5)
  --seed S             scenario seed (default: random, printed first)
  --iterations N       sampled executions per scenario (default 1000)
  --scheduler S        their scheduler: pct or random (Relacy's; default pct)
  --depth D            pct: bug depth, D - 1 priority change points (1..16,
                       default 3)
  --dpor-executions N  each scenario's dpor search stops here (0: no dpor search;
                       default 20000); where it ends the scenario is verified:
                       every execution class checked
  --load-depth D       dpor: a load may read D stores back (1 or 2, default 1)
  --bound K            context bound of the search a scenario falls back to when
                       its dpor search does not end (0: none; default 2)
  --bound-executions N the bound search stops here and is then not exhaustive
                       (default 20000)
  --shrink-runs N      shrink candidates to try (default 150)
  --fault F            the variant with seeded fault F
  --json FILE          {"runs":[{"structure","layer","scenarios","executions",
                       "exhaustive_scenarios","verdict","seconds"}]} with the
                       settings (sampler, depth, iterations_per_scenario, bound,
                       bound_executions, max_threads, max_ops; a shard: shard,
                       of_scenarios) (+ failure, scenario, failing_index and
                       failing_pass: which generated scenario failed in which
                       pass, sampled or search, first_failure_seconds: when the
                       failing run ended, before shrinking)
  --junit FILE         JUnit XML
  --artifacts DIR      where a failure's table, trace and replay file go
  --replay FILE        re-run the execution recorded in a lin model replay file
  --shard I/N          only shard I (0 to N-1) of N: scenarios I, I+N, I+2N, ...
                       of each structure's --scenarios (same seed); N shards
                       together run every scenario once, and lfcheck merge sums
                       their runs into the unsharded one (the default:
                       GTEST_SHARD_INDEX of GTEST_TOTAL_SHARDS, if set)
  --history            also print Relacy's raw history of a failure
  --quiet              no progress line
  --list               list the structures with a spec
  --list-faults        list the seeded faults and exit
  --help               this text

SIGINT (Ctrl-C) or SIGTERM stops the command after the execution in progress: a
structure whose scenarios did not all run is "interrupted" (verdict error) in the
JSON and JUnit, with the scenarios that ran.

exit status: 0 every history linearizable, 1 a check failed (not linearizable,
undecided within the checker's budget, or any other Relacy failure), 2 usage error,
a run that executed nothing (e.g. a shard with no scenario) or an interrupted one
)";

struct Options {
  LinOptions lin;
  std::string structure, fault, json, junit, artifacts, replay;
  bool seed_given = false, list = false, list_faults = false, history = false;
};

// Prints and saves one structure's failure; returns the record's details, and in
// `artifacts` the stem of the artifacts written (STEM.replay, STEM.trace.json; "" if none).
std::string report(const LinEntry& e, const Options& o, const LinSummary& sum, std::string& artifacts) {
  const LinOutcome& out = sum.outcome;
  std::printf("\n=== lin %s (model, %s scheduler%s) FAILED: %s ===\n", e.structure.c_str(),
              out.scheduler.c_str(), o.fault.empty() ? "" : (", fault " + o.fault).c_str(), out.failure.c_str());
  std::printf("scenario %llu of seed %llu, failed after %.2fs, shrunk in %llu runs to: %s\n\n%s",
              static_cast<unsigned long long>(sum.failing_index), static_cast<unsigned long long>(o.lin.seed),
              sum.first_failure_seconds, static_cast<unsigned long long>(sum.shrink_runs), sum.scenario.c_str(),
              out.table.c_str());
  std::string stem = "lin." + e.structure + "." + out.scheduler;
  if (!o.fault.empty()) stem += "." + std::string(fault_short_name(o.fault));
  artifacts = save_lin_model_failure(out, {e.structure, o.fault, sum.encoded, o.lin.bound, o.lin.load_depth,
                                           o.lin.pct_depth, o.artifacts, stem, o.history});
  return sum.scenario + "\n" + out.table;
}

int replay_main(const Options& o, const std::string& program) {
  ReplayFile file;
  if (!file.read(o.replay)) cli::usage_error(program, "cannot read replay file " + o.replay);
  if (file.get("layer") != "lin-model") cli::usage_error(program, o.replay + " is not a lin model replay file");
  const std::string structure = file.get("structure");
  for (auto& e : lin_registry()) {
    if (e.structure != structure) continue;
    LinOptions lin = o.lin;
    lin.bound = static_cast<unsigned>(std::atoi(file.get("bound").c_str()));
    if (!file.get("load_depth").empty()) lin.load_depth = static_cast<unsigned>(std::atoi(file.get("load_depth").c_str()));
    LinOutcome out;
    if (!e.replay(file.get("scenario"), lin, file.get("fault"), file.get("scheduler"), file.get("state"), out))
      cli::usage_error(program, o.replay + ": its scenario or fault does not fit this binary");
    std::printf("replaying lin %s (%s scheduler), recorded failure: %s\n", structure.c_str(),
                file.get("scheduler").c_str(), file.get("failure").c_str());
    // The replay's record: fail either way — the failure again, or a recorded failure
    // that does not reproduce (itself a finding: the scenario is not deterministic).
    RunRecord r;
    r.str("structure", structure).str("layer", "model").str("scheduler", file.get("scheduler"));
    r.num("scenarios", 1).num("executions", out.executions).str("replay_of", o.replay);
    r.set_verdict(lfcheck::Verdict::fail).real("seconds", 0);
    if (!file.get("fault").empty()) r.str("fault", file.get("fault"));
    if (!out.failed) {
      std::printf("the recorded execution passed on replay: it does not reproduce\n");
      r.failure = "NOT REPRODUCED: the recorded execution passed on replay";
    } else {
      std::printf("reproduced: %s\n\n%s", out.failure.c_str(), out.table.c_str());
      if (!out.history.empty()) {
        const std::vector<Step> steps = model_steps(out.history);
        std::printf("\n%s", render_thread_table(steps, static_cast<int>(kMaxThreads)).c_str());
      }
      r.failure = out.failure;
      r.details = out.table;
    }
    r.str("failure", r.failure);
    const std::vector<RunRecord> runs{r};
    if (!o.json.empty() && !write_runs_json(o.json, runs)) return cli::kUsage;
    if (!o.junit.empty() && !write_junit(o.junit, "lfcheck.lin.model", runs, {"layer"})) return cli::kUsage;
    return cli::kCheckFailed;
  }
  cli::usage_error(program, "no structure '" + structure + "' in this binary");
}

int main_impl(int argc, char** argv) {
  Options o;
  o.lin.check_budget.max_seconds = 1e9;  // in the model: a state budget only (deterministic verdicts)
  cli::Parser p("lfcheck lin");
  bool help = false;
  p.flag("--help", [&] { help = true; });
  p.flag("--quiet", [&] { o.lin.quiet = true; });
  p.flag("--list", [&] { o.list = true; });
  p.flag("--list-faults", [&] { o.list_faults = true; });
  p.flag("--history", [&] { o.history = true; });
  p.option("--scenarios", [&](std::string_view v) {
    o.lin.scenarios = cli::parse_number(p.program(), "--scenarios", v, 1, 100'000'000);
  });
  p.option("--threads", [&](std::string_view v) {
    o.lin.shape.threads = static_cast<unsigned>(cli::parse_number(p.program(), "--threads", v, 2, kMaxThreads));
  });
  p.option("--ops", [&](std::string_view v) {
    o.lin.shape.ops = static_cast<unsigned>(cli::parse_number(p.program(), "--ops", v, 1, kMaxOpsPerThread));
  });
  p.option("--seed", [&](std::string_view v) {
    o.lin.seed = cli::parse_number(p.program(), "--seed", v, 0, UINT64_MAX);
    o.seed_given = true;
  });
  p.option("--iterations", [&](std::string_view v) {
    o.lin.random_iterations = cli::parse_number(p.program(), "--iterations", v, 1, 1'000'000'000);
  });
  p.option("--scheduler", [&](std::string_view v) {
    if (v != "random" && v != "pct")
      cli::usage_error(p.program(), "--scheduler is random or pct, not '" + std::string(v) + "'");
    o.lin.sampler = v;
  });
  p.option("--depth", [&](std::string_view v) {
    o.lin.pct_depth = static_cast<unsigned>(cli::parse_number(p.program(), "--depth", v, 1, kMaxPctDepth));
  });
  p.option("--dpor-executions", [&](std::string_view v) {
    o.lin.dpor_executions = cli::parse_number(p.program(), "--dpor-executions", v, 0, 1'000'000'000'000);
  });
  p.option("--load-depth", [&](std::string_view v) {
    o.lin.load_depth = static_cast<unsigned>(cli::parse_number(p.program(), "--load-depth", v, 1, 2));
  });
  p.option("--bound", [&](std::string_view v) {
    o.lin.bound = static_cast<unsigned>(cli::parse_number(p.program(), "--bound", v, 0, 20));
  });
  p.option("--bound-executions", [&](std::string_view v) {
    o.lin.bound_executions = cli::parse_number(p.program(), "--bound-executions", v, 1, 1'000'000'000'000);
  });
  p.option("--shrink-runs", [&](std::string_view v) {
    o.lin.shrink_runs = cli::parse_number(p.program(), "--shrink-runs", v, 0, 1'000'000);
  });
  p.option("--fault", [&](std::string_view v) { o.fault = v; });
  p.option("--json", [&](std::string_view v) { o.json = v; });
  p.option("--junit", [&](std::string_view v) { o.junit = v; });
  p.option("--artifacts", [&](std::string_view v) { o.artifacts = v; });
  p.option("--replay", [&](std::string_view v) { o.replay = v; });
  cli::Shard shard;
  cli::add_shard_option(p, shard);
  auto positional = p.parse(argc, argv);
  o.lin.shard = shard.index;
  o.lin.shards = shard.total;
  if (help) {
    std::fputs(kHelp, stdout);
    return cli::kPass;
  }
  o.structure = named_spec(p.program(), positional);
  if (!o.replay.empty()) return replay_main(o, p.program());

  std::set<std::string> names;
  for (auto& e : lin_registry()) names.insert(e.structure);
  if (o.list) {
    for (auto& n : names) std::printf("%s\n", n.c_str());
    return cli::kPass;
  }
  if (o.list_faults) {
    print_fault_list(stdout, o.structure);
    return cli::kPass;
  }
  if (!o.fault.empty() && !is_known_fault(o.structure, o.fault))
    cli::usage_error(p.program(), "unknown fault '" + o.fault + "' (see ./lfcheck faults)");

  if (!o.seed_given) o.lin.seed = std::random_device{}() ^ (std::uint64_t(std::random_device{}()) << 32);
  std::printf("seed: %llu\n", static_cast<unsigned long long>(o.lin.seed));
  if (shard.sharded()) {
    std::printf("shard %s: scenarios %llu, %llu, ... of %llu per structure\n", shard.text().c_str(),
                static_cast<unsigned long long>(shard.index),
                static_cast<unsigned long long>(shard.index + shard.total),
                static_cast<unsigned long long>(o.lin.scenarios));
    cli::acknowledge_sharding();
  }
  std::fflush(stdout);

  std::vector<RunRecord> runs;
  cli::catch_interrupts();
  for (auto& e : lin_registry()) {
    if (!o.structure.empty() && e.structure != o.structure) continue;
    if (!o.fault.empty() && !is_known_fault(e.structure, o.fault)) continue;  // the fault's owner only
    LinSummary sum;
    sum.interrupted = cli::interrupted();  // then it does not start
    if (!sum.interrupted && !e.run(o.lin, o.fault, sum))
      cli::usage_error(p.program(), "unknown fault '" + o.fault + "'");
    RunRecord r;
    r.str("structure", e.structure).str("layer", "model").num("scenarios", sum.scenarios);
    r.num("executions", sum.executions).num("verified_scenarios", sum.verified);
    r.num("exhaustive_scenarios", sum.exhaustive).num("seed", o.lin.seed);
    // The settings every scenario ran with: parts of runs with other settings are not
    // parts of one run (lfcheck merge refuses to sum them).
    r.str("sampler", o.lin.sampler);
    if (o.lin.sampler == "pct") r.num("depth", o.lin.pct_depth);
    r.num("iterations_per_scenario", o.lin.random_iterations).num("dpor_executions", o.lin.dpor_executions);
    r.num("load_depth", o.lin.load_depth).num("bound", o.lin.bound);
    r.num("bound_executions", o.lin.bound_executions).num("max_threads", o.lin.shape.threads);
    r.num("max_ops", o.lin.shape.ops);
    if (shard.sharded()) r.str("shard", shard.text()).num("of_scenarios", o.lin.scenarios);
    // No scenario ran, none executed, or no thread of any touched the Sync policy
    // (a Subject on std::atomic: Relacy saw nothing to interleave): nothing was
    // checked, which is not a pass; nor is a run the interrupt stopped (a failure
    // it found stands).
    const bool no_access = sum.scenarios > 0 && sum.no_shared_access == sum.scenarios;
    r.set_verdict(sum.failed                                                 ? lfcheck::Verdict::fail
                  : sum.executions == 0 || no_access || sum.interrupted ? lfcheck::Verdict::error
                                                                             : lfcheck::Verdict::pass);
    r.real("seconds", sum.seconds);
    if (!o.fault.empty()) r.str("fault", o.fault);
    std::printf("lin %s (model): %s  %llu scenarios, %llu executions, verified (dpor ended) %llu, bound-%u search "
                "exhaustive for %llu more  %.2fs\n",
                e.structure.c_str(), r.passed()        ? "pass"
                                     : sum.failed      ? "FAIL"
                                     : sum.interrupted ? "INTERRUPTED"
                                                       : "ERROR (nothing checked)",
                static_cast<unsigned long long>(sum.scenarios), static_cast<unsigned long long>(sum.executions),
                static_cast<unsigned long long>(sum.verified), o.lin.bound,
                static_cast<unsigned long long>(sum.exhaustive), sum.seconds);
    if (r.verdict == lfcheck::Verdict::error) {
      r.failure = sum.interrupted      ? std::string(cli::kInterruptedWords)
                  : sum.scenarios == 0 ? "NO WORK: shard " + shard.text() + " has none of the " +
                                             std::to_string(o.lin.scenarios) + " scenarios"
                  : no_access          ? std::string(kNoSharedAccessWords)
                                       : std::string("NO WORK: the scenarios executed nothing");
      r.str("failure", r.failure);
      if (sum.interrupted) r.str("stopped", "interrupt");
      std::printf("  error: %s\n", r.failure.c_str());
    }
    if (sum.failed) {
      r.failure = sum.outcome.failure;
      r.str("failure", sum.outcome.failure).str("scenario", sum.scenario);
      r.num("shrink_runs", sum.shrink_runs).real("first_failure_seconds", sum.first_failure_seconds);
      // Which generated scenario, in which pass: the unsharded run stops at the first failure
      // in (pass, index) order, so lfcheck merge keeps the part whose failure comes first so.
      r.num("failing_index", sum.failing_index).str("failing_pass", sum.failing_pass ? "search" : "sampled");
      std::string artifacts;
      r.details = report(e, o, sum, artifacts);
      if (!artifacts.empty()) r.str("replay", artifacts + ".replay").str("trace", artifacts + ".trace.json");
    }
    runs.push_back(std::move(r));
    std::fflush(stdout);
  }
  if (runs.empty()) cli::usage_error(p.program(), "nothing to run");
  if (!o.json.empty() && !write_runs_json(o.json, runs)) return cli::kUsage;
  if (!o.junit.empty() && !write_junit(o.junit, "lfcheck.lin.model", runs, {"layer"})) return cli::kUsage;
  return exit_status(runs);
}

}  // namespace
}  // namespace lfcheck::lin

int main(int argc, char** argv) {
  // `lfcheck-lin-model verify NAME ...` is lfcheck verify (harness/lin/verify_main.cpp).
  if (argc >= 2 && std::string(argv[1]) == "verify") return lfcheck::lin::verify_main(argc - 1, argv + 1);
  return lfcheck::lin::main_impl(argc, argv);
}
