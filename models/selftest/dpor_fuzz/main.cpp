// lfcheck-dpor-fuzz: the differential fuzzer of issue 43 — random programs over the
// whole Sync API, each searched by Relacy's full search and by lfcheck's DPOR
// search, which must agree (compare.hpp). `--help` says how to run it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "harness/cli/cli.hpp"
#include "harness/cli/interrupt.hpp"
#include "harness/cli/progress.hpp"
#include "harness/report/report.hpp"
#include "models/selftest/dpor_fuzz/batches.hpp"
#include "models/selftest/dpor_fuzz/compare.hpp"
#include "models/selftest/dpor_fuzz/generator.hpp"
#include "models/selftest/dpor_fuzz/report.hpp"

namespace lfcheck::dpor_fuzz {
namespace {

constexpr const char* kHelp = R"(usage: lfcheck-dpor-fuzz [options]

The differential fuzzer of lfcheck's DPOR search (issue 43). Generates random
programs of 2-3 threads over the whole Sync API (docs/sync-api.md: loads, stores,
read-modify-writes, weak and strong compare-exchanges and fences in every memory
order; cells; create/destroy of blocks holding atomics, cells, mutexes and
condition variables; locks; waits, timed waits and notifies; spin_hint and yield,
alone and in loops whose bodies read, write or notify; before(), invariant() and
after() that read and allocate), runs each as a model scenario under Relacy's full
search and under --scheduler dpor, and requires the same verdict and, where both
pass, the same set of outcomes and the same states seen by the invariant.
Program I of seed S is a function of (S, I, --threads) alone.

options:
  --seed S             the run's seed (default: from the clock); printed first
  --programs N         how many programs (default 1000)
  --first I            the first program's index (default 0)
  --program I          only program I (a replay)
  --keep LIST          with --program: only the statements numbered in LIST
                       (as the program is printed: "0,3,5-7"): a minimised program
  --threads T          threads per program: 2, 3 or 2-3 (default 2-3)
  --load-depth D       1, 2 or both: the load depths each program is compared at
                       (default both; at 2 the oracle is the full search at load
                       depth 2: docs/model.md)
  --full-executions N  cap of one full search (default 200000): a program whose
                       full search goes past it, or past --search-seconds, is
                       skipped ("full search too large"), never an agreement;
                       so is a full search's LIVELOCK against a DPOR pass in a
                       program with a timed wait (DPOR's fairness bound: a timed
                       wait times out eventually; docs/model.md), counted apart
  --search-seconds S   wall-clock cap of each search (default 30)
  --max-seconds S      start no program after S seconds (the summary says how many
                       ran; without --programs, programs run until then)
  --shard I/N          only the programs whose index is I modulo N
  --batch N            run the programs N at a time, each batch in a child process
                       (default 100; Relacy does not free a simulation's memory, so
                       one process for a long run would grow without end); 0: all
                       in this process
  --exclude LIST       leave these program features out (comma-separated:
                       hook-allocations, standalone-hints, invariant,
                       await-writes, timed-waits, block-sync,
                       block-constructors): to look past an
                       open finding about one; the summary and the JSON say what
                       was left out (program I differs with a different LIST)
  --focus FEATURE      more programs of one class: block-sync (blocks whose mutex
                       or condition variable one thread uses while another may free
                       them) or await-writes (await loops whose bodies notify or
                       write, against timed waits); program I differs from the
                       unfocused one, and the replay lines say --focus
  --keep-going         go on after a disagreement (default: stop at the first)
  --no-minimise        print a disagreeing program as generated, not minimised
  --break-dpor F       test only: DPOR is told wrong announcements (F: store-as-load,
                       free-unannounced) — the comparison must find disagreements
  --json FILE          write the run's records ({"runs":[...]}: a summary record
                       with the seed and counts, and a failing record per
                       disagreement with its program, finding and replay line)
  --junit FILE         the same as JUnit XML
  --verbose            one line per program
  --quiet              no progress line
  --help               this text

exit status: 0 every program compared agreed (and at least one was compared),
1 a disagreement (each printed with the program, both verdicts and outcome sets
and the replay command), 2 usage error, or no program compared.
)";

struct Options {
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::uint64_t programs = 1000, first = 0;
  bool programs_given = false;
  std::int64_t only = -1;  // --program
  std::string keep;
  Shape shape;
  std::vector<unsigned> depths = {1, 2};
  Limits limits;
  double max_seconds = 0;
  cli::Shard shard;
  std::uint64_t batch = 100;  // programs per child process (0: none)
  bool keep_going = false, minimise = true, verbose = false, quiet = false;
  Break fault = Break::none;
  std::string json, junit;
};

std::vector<bool> parse_keep(const std::string& program, const std::string& text, std::size_t n) {
  if (n == 0) cli::usage_error(program, "--keep: the program has no statements");
  std::vector<bool> keep(n, false);
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const std::size_t dash = item.find('-');
    const std::uint64_t lo = cli::parse_number(program, "--keep", item.substr(0, dash), 0, n - 1);
    const std::uint64_t hi =
        dash == std::string::npos ? lo : cli::parse_number(program, "--keep", item.substr(dash + 1), lo, n - 1);
    for (std::uint64_t i = lo; i <= hi; ++i) keep[i] = true;
    at = comma + 1;
  }
  return keep;
}

std::string threads_text(const Shape& s) {
  return s.min_threads == s.max_threads ? std::to_string(s.min_threads)
                                        : std::to_string(s.min_threads) + "-" + std::to_string(s.max_threads);
}

std::string excluded_text(const Shape& s) {
  std::string out;
  for (unsigned i = 0; i < static_cast<unsigned>(Feature::count); ++i)
    if (!s.has(static_cast<Feature>(i))) out += (out.empty() ? "" : ",") + std::string(name(static_cast<Feature>(i)));
  return out;
}

std::string replay_command(const Options& o, std::uint64_t index, unsigned depth, const std::string& keep) {
  std::string cmd = "./lfcheck dpor-fuzz --seed " + std::to_string(o.seed) + " --threads " + threads_text(o.shape) +
                    " --program " + std::to_string(index) + " --load-depth " + std::to_string(depth);
  if (o.shape.excluded) cmd += " --exclude " + excluded_text(o.shape);
  if (o.shape.focus != Feature::count) cmd += std::string(" --focus ") + name(o.shape.focus);
  if (!keep.empty()) cmd += " --keep " + keep;
  if (o.fault != Break::none) cmd += std::string(" --break-dpor ") + name(o.fault);
  return cmd;
}

Options parse(int argc, char** argv) {
  Options o;
  cli::Parser p("lfcheck-dpor-fuzz");
  p.flag("--help", [] {
    std::fputs(kHelp, stdout);
    std::exit(0);
  });
  p.option("--seed", [&](std::string_view v) {
    o.seed = cli::parse_number(p.program(), "--seed", v, 0, UINT64_MAX);
    o.seed_given = true;
  });
  p.option("--programs", [&](std::string_view v) {
    o.programs = cli::parse_number(p.program(), "--programs", v, 1, 1'000'000'000);
    o.programs_given = true;
  });
  p.option("--first", [&](std::string_view v) { o.first = cli::parse_number(p.program(), "--first", v, 0, 1ull << 60); });
  p.option("--program", [&](std::string_view v) {
    o.only = static_cast<std::int64_t>(cli::parse_number(p.program(), "--program", v, 0, 1ull << 60));
  });
  p.option("--keep", [&](std::string_view v) { o.keep = v; });
  p.option("--threads", [&](std::string_view v) {
    if (v == "2") o.shape.min_threads = o.shape.max_threads = 2;
    else if (v == "3") o.shape.min_threads = o.shape.max_threads = 3;
    else if (v == "2-3") o.shape.min_threads = 2, o.shape.max_threads = 3;
    else cli::usage_error(p.program(), "--threads takes 2, 3 or 2-3, not '" + std::string(v) + "'");
  });
  p.option("--load-depth", [&](std::string_view v) {
    if (v == "1") o.depths = {1};
    else if (v == "2") o.depths = {2};
    else if (v == "both") o.depths = {1, 2};
    else cli::usage_error(p.program(), "--load-depth takes 1, 2 or both, not '" + std::string(v) + "'");
  });
  p.option("--full-executions", [&](std::string_view v) {
    o.limits.full_executions = cli::parse_number(p.program(), "--full-executions", v, 1, 1'000'000'000);
  });
  p.option("--search-seconds",
           [&](std::string_view v) { o.limits.search_seconds = cli::parse_seconds(p.program(), "--search-seconds", v); });
  p.option("--max-seconds", [&](std::string_view v) { o.max_seconds = cli::parse_seconds(p.program(), "--max-seconds", v); });
  cli::add_shard_option(p, o.shard);
  p.option("--batch", [&](std::string_view v) { o.batch = cli::parse_number(p.program(), "--batch", v, 0, 1'000'000); });
  p.option("--exclude", [&](std::string_view v) {
    std::string list(v);
    for (std::size_t at = 0; at <= list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      Feature f;
      if (!parse_feature(list.substr(at, comma - at), f))
        cli::usage_error(p.program(), "--exclude: no feature '" + list.substr(at, comma - at) + "'");
      o.shape.excluded |= 1u << static_cast<unsigned>(f);
      at = comma + 1;
    }
  });
  p.option("--focus", [&](std::string_view v) {
    Feature f;
    if (!parse_feature(std::string(v), f) || (f != Feature::block_sync && f != Feature::await_writes))
      cli::usage_error(p.program(), "--focus takes block-sync or await-writes, not '" + std::string(v) + "'");
    o.shape.focus = f;
  });
  p.flag("--keep-going", [&] { o.keep_going = true; });
  p.flag("--no-minimise", [&] { o.minimise = false; });
  p.flag("--verbose", [&] { o.verbose = true; });
  p.flag("--quiet", [&] { o.quiet = true; });
  p.option("--break-dpor", [&](std::string_view v) {
    bool ok = false;
    o.fault = parse_break(std::string(v), ok);
    if (!ok || o.fault == Break::none)
      cli::usage_error(p.program(), "--break-dpor takes store-as-load or free-unannounced, not '" + std::string(v) + "'");
  });
  p.option("--json", [&](std::string_view v) { o.json = v; });
  p.option("--junit", [&](std::string_view v) { o.junit = v; });
  const auto positional = p.parse(argc, argv);
  if (!positional.empty()) cli::usage_error(p.program(), "unexpected argument '" + positional[0] + "'");
  if (!o.keep.empty() && o.only < 0) cli::usage_error(p.program(), "--keep needs --program I");
  if (o.shape.focus != Feature::count && !o.shape.has(o.shape.focus))
    cli::usage_error(p.program(), std::string("--focus ") + name(o.shape.focus) + " is also in --exclude");
  if (o.only >= 0 && (o.programs_given || o.first)) cli::usage_error(p.program(), "--program replays one program: no --programs or --first");
  if (!o.seed_given) o.seed = static_cast<std::uint64_t>(std::time(nullptr));
  if (o.max_seconds > 0 && !o.programs_given && o.only < 0) o.programs = 1'000'000'000;
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  if (!o.keep.empty())  // a bad --keep is a usage error before anything runs
    parse_keep("lfcheck-dpor-fuzz", o.keep, positions(generate(o.seed, static_cast<std::uint64_t>(o.only), o.shape)).size());
  cli::catch_interrupts();
  cli::acknowledge_sharding();
  std::printf("seed: %llu\n", static_cast<unsigned long long>(o.seed));
  if (o.shape.excluded)
    std::printf("left out (--exclude): %s — these programs cover less of the Sync API\n", excluded_text(o.shape).c_str());
  if (o.shape.focus != Feature::count) std::printf("focus: %s\n", name(o.shape.focus));
  std::fflush(stdout);

  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const std::uint64_t first = o.only >= 0 ? static_cast<std::uint64_t>(o.only) : o.first;
  const std::uint64_t count = o.only >= 0 ? 1 : o.programs;
  ProgressLine progress("dpor-fuzz", !o.quiet && o.only < 0, "programs");
  const ReplayLine replay = [&](std::uint64_t index, unsigned depth, const std::string& keep) {
    return replay_command(o, index, depth, keep);
  };

  // The programs [lo, hi) of this shard, into `tally` (run in a batch's child, or here).
  const std::uint64_t end = first + count;
  auto run_programs = [&](std::uint64_t lo, std::uint64_t hi, Tally& tally, std::string& stopped) {
    for (std::uint64_t i = lo; i < hi; ++i) {
      if (!o.shard.keeps(i)) continue;
      if (cli::interrupted()) return;
      if (o.max_seconds > 0 && elapsed() >= o.max_seconds) {
        stopped = "the time budget (--max-seconds)";
        return;
      }
      const Program generated = generate(o.seed, i, o.shape);
      const std::size_t statements = positions(generated).size();
      const std::vector<bool> keep =
          o.keep.empty() ? std::vector<bool>(statements, true) : parse_keep("lfcheck-dpor-fuzz", o.keep, statements);
      const Program program = keep_only(generated, keep);
      if (o.only >= 0) std::printf("%s", print(program, kept_numbers(generated, keep)).c_str());
      ++tally.generated;
      bool found = false;
      for (unsigned depth : o.depths) {
        const Comparison c = compare(program, depth, o.limits, o.fault, false);
        if (cli::interrupted()) return;  // a search cut short: not a comparison
        tally.add(c);
        if (o.verbose || o.only >= 0)
          std::printf("program %llu, load depth %u: %s (full search: %s; dpor: %s)\n", static_cast<unsigned long long>(i),
                      depth, name(c.finding), (c.full.verdict + ", " + std::to_string(c.full.executions)).c_str(),
                      c.dpor.executions == 0 ? "not run"
                                             : (c.dpor.verdict + ", " + std::to_string(c.dpor.executions)).c_str());
        if (c.finding == Finding::extra_outcomes) {
          std::printf("%s", superset_note(generated, keep, c, replay).c_str());
          std::fflush(stdout);
        }
        if (!is_disagreement(c.finding)) continue;
        tally.disagreements.push_back(describe(generated, keep, c, o.limits, o.fault, o.minimise, replay));
        std::printf("\n%s", tally.disagreements.back().text.c_str());
        std::fflush(stdout);
        found = true;
      }
      if (found && !o.keep_going) {
        stopped = "the first disagreement (--keep-going goes on)";
        return;
      }
    }
  };

  Tally tally;
  std::string stopped;
  const std::uint64_t total = o.programs_given || o.only >= 0 ? (count + o.shard.total - 1) / o.shard.total : 0;
  for (std::uint64_t lo = first; lo < end && stopped.empty() && !cli::interrupted();) {
    // A batch: the next o.batch programs of this shard (o.batch * shard.total indices).
    const std::uint64_t hi = o.batch == 0 || end - lo <= o.batch * o.shard.total ? end : lo + o.batch * o.shard.total;
    if (o.batch == 0) {
      run_programs(lo, hi, tally, stopped);
    } else {
      progress.finish();  // the batch prints what it finds meanwhile
      const BatchResult b = run_batch([&](Tally& t, std::string& s) { run_programs(lo, hi, t, s); });
      merge(tally, b.tally);
      stopped = b.stopped;
      if (b.died)
        tally.lost.push_back("programs " + std::to_string(lo) + " to " + std::to_string(hi - 1) + ": " +
                             (b.died > 128 ? "the batch's process exited " + std::to_string(b.died - 128)
                                           : "the batch's process died of signal " + std::to_string(b.died)));
    }
    progress.update(tally.generated, total);
    lo = hi;
  }
  progress.finish();

  RunFacts facts;
  facts.seed = o.seed;
  facts.first = first;
  facts.threads = threads_text(o.shape);
  facts.excluded = excluded_text(o.shape);
  facts.focus = o.shape.focus != Feature::count ? name(o.shape.focus) : "";
  for (unsigned d : o.depths) facts.load_depths += (facts.load_depths.empty() ? "" : ",") + std::to_string(d);
  facts.shard = o.shard.text();
  facts.fault = name(o.fault);
  facts.interrupted = cli::interrupted();
  facts.stopped = facts.interrupted ? "an interrupt" : stopped;
  facts.seconds = elapsed();
  const int status = print_summary(facts, tally);
  const std::vector<RunRecord> runs = run_records(facts, tally);
  if (status != exit_status(runs)) {  // never: the records and the exit status say one thing
    std::fprintf(stderr, "lfcheck-dpor-fuzz: internal error: records say exit %d, the run %d\n", exit_status(runs), status);
    return cli::kUsage;
  }
  if (!o.junit.empty() && !write_junit(o.junit, "lfcheck.dpor-fuzz", runs, {"scenario"})) return cli::kUsage;
  if (!o.json.empty() && !write_runs_json(o.json, runs)) return cli::kUsage;
  return status;
}

}  // namespace lfcheck::dpor_fuzz

int main(int argc, char** argv) { return lfcheck::dpor_fuzz::main(argc, argv); }
