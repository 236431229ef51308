// lfcheck-dpor-fuzz: the differential fuzzer of issue 43 — random programs over the
// whole Sync API, each searched by Relacy's full search and by lfcheck's DPOR
// search, which must agree (compare.hpp). `--help` says how to run it.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <utility>
#include <algorithm>
#include <string>
#include <vector>

#include "harness/cli/cli.hpp"
#include "harness/cli/interrupt.hpp"
#include "harness/cli/progress.hpp"
#include "harness/report/report.hpp"
#include "models/selftest/dpor_fuzz/compare.hpp"
#include "models/selftest/dpor_fuzz/generator.hpp"

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
                       skipped ("full search too large"), never an agreement
  --search-seconds S   wall-clock cap of each search (default 30)
  --max-seconds S      start no program after S seconds (the summary says how many
                       ran; without --programs, programs run until then)
  --shard I/N          only the programs whose index is I modulo N
  --exclude LIST       leave these program features out (comma-separated:
                       hook-allocations, standalone-hints, invariant,
                       await-writes, timed-waits, block-sync): to look past an
                       open finding about one; the summary and the JSON say what
                       was left out (program I differs with a different LIST)
  --keep-going         go on after a disagreement (default: stop at the first)
  --no-minimise        print a disagreeing program as generated, not minimised
  --break-dpor F       test only: DPOR is told wrong announcements (F: store-as-load,
                       free-unannounced) — the comparison must find disagreements
  --json FILE          write the run's record (seed, counts, each disagreement)
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
  bool keep_going = false, minimise = true, verbose = false, quiet = false;
  Break fault = Break::none;
  std::string json;
};

std::vector<bool> parse_keep(const std::string& program, const std::string& text, std::size_t n) {
  std::vector<bool> keep(n, false);
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const std::size_t dash = item.find('-');
    const std::uint64_t lo = cli::parse_number(program, "--keep", item.substr(0, dash), 0, n ? n - 1 : 0);
    const std::uint64_t hi =
        dash == std::string::npos ? lo : cli::parse_number(program, "--keep", item.substr(dash + 1), lo, n ? n - 1 : 0);
    if (n == 0) cli::usage_error(program, "--keep: the program has no statements");
    for (std::uint64_t i = lo; i <= hi; ++i) keep[i] = true;
    at = comma + 1;
  }
  return keep;
}

std::string keep_text(const std::vector<bool>& keep) {
  std::string out;
  for (std::size_t i = 0; i < keep.size(); ++i) {
    if (!keep[i]) continue;
    std::size_t j = i;
    while (j + 1 < keep.size() && keep[j + 1]) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(i) + (j > i ? "-" + std::to_string(j) : "");
    i = j;
  }
  return out;
}

std::vector<bool> keep_mask(const std::vector<unsigned>& numbers, std::size_t n) {
  std::vector<bool> keep(n, false);
  for (unsigned i : numbers) keep[i] = true;
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
  std::string cmd = "lfcheck-dpor-fuzz --seed " + std::to_string(o.seed) + " --threads " + threads_text(o.shape) +
                    " --program " + std::to_string(index) + " --load-depth " + std::to_string(depth);
  if (o.shape.excluded) cmd += " --exclude " + excluded_text(o.shape);
  if (!keep.empty()) cmd += " --keep " + keep;
  if (o.fault != Break::none) cmd += std::string(" --break-dpor ") + name(o.fault);
  return cmd;
}

// Both searches' sets side by side: what only one has, then what both have.
void print_sets(const char* what, const std::vector<std::uint64_t>& full, const std::vector<std::string>& full_text,
                const std::vector<std::uint64_t>& dpor, const std::vector<std::string>& dpor_text) {
  std::printf("%s: full search %zu, dpor %zu\n", what, full.size(), dpor.size());
  auto text_of = [](const std::vector<std::uint64_t>& v, const std::vector<std::string>& t, std::uint64_t x) {
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] == x && i < t.size()) return t[i];
    return std::string("?");
  };
  for (std::size_t i = 0; i < full.size(); ++i)
    if (!std::binary_search(dpor.begin(), dpor.end(), full[i]))
      std::printf("  only in full: %s\n", text_of(full, full_text, full[i]).c_str());
  for (std::size_t i = 0; i < dpor.size(); ++i)
    if (!std::binary_search(full.begin(), full.end(), dpor[i]))
      std::printf("  only in dpor: %s\n", text_of(dpor, dpor_text, dpor[i]).c_str());
  for (std::size_t i = 0; i < full.size(); ++i)
    if (std::binary_search(dpor.begin(), dpor.end(), full[i]))
      std::printf("  in both:      %s\n", text_of(full, full_text, full[i]).c_str());
}

std::string search_line(const SearchResult& r) {
  return r.verdict + ", " + std::to_string(r.executions) + (r.executions == 1 ? " execution" : " executions");
}

struct Disagreement {
  std::uint64_t index;
  unsigned depth;
  Finding finding;
  std::string program, keep, replay, full, dpor;
  std::size_t statements, kept;
};

// Prints one disagreement in full (minimised unless asked not to) of
// keep_only(generated, keep); returns its record.
Disagreement report(const Options& o, const Program& generated, std::vector<bool> keep, const Comparison& found) {
  Disagreement d;
  d.index = generated.index;
  d.depth = found.load_depth;
  d.finding = found.finding;
  d.statements = positions(generated).size();
  if (o.minimise) keep = minimise(generated, keep, found.load_depth, found.finding, o.limits, o.fault);
  const Program shown = keep_only(generated, keep);
  d.kept = positions(shown).size();
  d.keep = d.kept == d.statements ? "" : keep_text(keep_mask(kept_numbers(generated, keep), d.statements));
  const Comparison c = compare(shown, found.load_depth, o.limits, o.fault, /*describe=*/true);
  std::printf("\nDISAGREEMENT (%s) at load depth %u: program %llu of seed %llu", name(c.finding), c.load_depth,
              static_cast<unsigned long long>(d.index), static_cast<unsigned long long>(o.seed));
  if (d.kept != d.statements) std::printf(", minimised from %zu statements to %zu", d.statements, d.kept);
  const std::vector<unsigned> numbers = kept_numbers(generated, keep);
  std::printf("\n%s", print(shown, numbers).c_str());
  std::printf("full search: %s\ndpor:        %s\n", search_line(c.full).c_str(), search_line(c.dpor).c_str());
  if (c.full.passed && c.dpor.passed) {
    print_sets("outcomes of the passing executions", c.full.outcomes, c.full.outcome_texts, c.dpor.outcomes,
               c.dpor.outcome_texts);
    if (!c.full.states.empty() || !c.dpor.states.empty())
      print_sets("states the invariant observed", c.full.states, c.full.state_texts, c.dpor.states,
                 c.dpor.state_texts);
  }
  if (c.finding != found.finding)
    std::printf("(re-run for printing found: %s — the searches are not deterministic here)\n", name(c.finding));
  d.replay = replay_command(o, d.index, d.depth, d.keep);
  std::printf("replay: %s\n", d.replay.c_str());
  d.program = print(shown, numbers);
  d.full = search_line(c.full);
  d.dpor = search_line(c.dpor);
  return d;
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
  const auto positional = p.parse(argc, argv);
  if (!positional.empty()) cli::usage_error(p.program(), "unexpected argument '" + positional[0] + "'");
  if (!o.keep.empty() && o.only < 0) cli::usage_error(p.program(), "--keep needs --program I");
  if (o.only >= 0 && (o.programs_given || o.first)) cli::usage_error(p.program(), "--program replays one program: no --programs or --first");
  if (!o.seed_given) o.seed = static_cast<std::uint64_t>(std::time(nullptr));
  if (o.max_seconds > 0 && !o.programs_given && o.only < 0) o.programs = 1'000'000'000;
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  cli::catch_interrupts();
  cli::acknowledge_sharding();
  std::printf("seed: %llu\n", static_cast<unsigned long long>(o.seed));
  if (o.shape.excluded)
    std::printf("left out (--exclude): %s — these programs cover less of the Sync API\n", excluded_text(o.shape).c_str());
  std::fflush(stdout);

  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const std::uint64_t first = o.only >= 0 ? static_cast<std::uint64_t>(o.only) : o.first;
  const std::uint64_t count = o.only >= 0 ? 1 : o.programs;
  ProgressLine progress("dpor-fuzz", !o.quiet && o.only < 0, "programs");

  std::map<std::string, std::uint64_t> findings;  // per depth and finding
  std::map<std::string, std::uint64_t> verdicts;   // the full search's verdicts of the compared programs
  std::vector<Disagreement> disagreements;
  std::uint64_t generated = 0, compared = 0, full_executions = 0, dpor_executions = 0;
  const char* stopped = nullptr;
  for (std::uint64_t i = first; i < first + count; ++i) {
    if (!o.shard.keeps(i)) continue;
    if (cli::interrupted()) {
      stopped = "interrupted";
      break;
    }
    if (o.max_seconds > 0 && elapsed() >= o.max_seconds) {
      stopped = "time budget";
      break;
    }
    const Program generated_program = generate(o.seed, i, o.shape);
    const std::size_t statements = positions(generated_program).size();
    const std::vector<bool> keep =
        o.keep.empty() ? std::vector<bool>(statements, true) : parse_keep("lfcheck-dpor-fuzz", o.keep, statements);
    const Program program = keep_only(generated_program, keep);
    if (o.only >= 0) std::printf("%s", print(program, kept_numbers(generated_program, keep)).c_str());
    ++generated;
    bool found = false;
    for (unsigned depth : o.depths) {
      const Comparison c = compare(program, depth, o.limits, o.fault, false);
      ++findings["load depth " + std::to_string(depth) + ": " + name(c.finding)];
      full_executions += c.full.executions;
      dpor_executions += c.dpor.executions;
      if (c.finding != Finding::skipped_too_large && c.finding != Finding::skipped_overflow) {
        ++compared;
        ++verdicts[c.full.passed ? "pass" : c.full.verdict];
      }
      if (o.verbose || o.only >= 0)
        std::printf("program %llu, load depth %u: %s (full: %s; dpor: %s)\n", static_cast<unsigned long long>(i), depth,
                    name(c.finding), search_line(c.full).c_str(),
                    c.finding == Finding::skipped_too_large ? "not run" : search_line(c.dpor).c_str());
      if (!is_disagreement(c.finding)) continue;
      progress.finish();
      disagreements.push_back(report(o, generated_program, keep, c));
      std::fflush(stdout);
      found = true;
    }
    progress.update(generated, o.programs_given || o.only >= 0 ? count / o.shard.total : 0);
    if (found && !o.keep_going) {
      stopped = "the first disagreement (--keep-going goes on)";
      break;
    }
  }
  progress.finish();
  const double seconds = elapsed();

  std::printf("\n%llu program%s generated, %llu comparisons (%zu load depth%s each), %.1f s, %.2f programs/s\n",
              static_cast<unsigned long long>(generated), generated == 1 ? "" : "s",
              static_cast<unsigned long long>(compared), o.depths.size(), o.depths.size() == 1 ? "" : "s", seconds,
              seconds > 0 ? generated / seconds : 0.0);
  for (const auto& [what, n] : findings) std::printf("  %s: %llu\n", what.c_str(), static_cast<unsigned long long>(n));
  std::printf("  full search verdicts of the programs compared:");
  for (const auto& [what, n] : verdicts) std::printf(" %s %llu;", what.c_str(), static_cast<unsigned long long>(n));
  std::printf("\n  executions: full %llu, dpor %llu\n", static_cast<unsigned long long>(full_executions),
              static_cast<unsigned long long>(dpor_executions));
  if (stopped) std::printf("stopped at %s\n", stopped);
  if (o.shape.excluded) std::printf("left out (--exclude): %s\n", excluded_text(o.shape).c_str());
  const int status = !disagreements.empty() ? cli::kCheckFailed : compared == 0 ? cli::kUsage : cli::kPass;
  if (status == cli::kPass)
    std::printf("dpor-fuzz: %llu comparisons, 0 disagreements\n", static_cast<unsigned long long>(compared));
  else if (status == cli::kCheckFailed)
    std::printf("dpor-fuzz: %zu disagreement%s\n", disagreements.size(), disagreements.size() == 1 ? "" : "s");
  else
    std::printf("dpor-fuzz: no program compared (every full search too large?)\n");

  if (!o.json.empty()) {
    std::ofstream out(o.json);
    auto q = [](const std::string& s) { return RunRecord::quote(s); };
    out << "{\"tool\":\"dpor-fuzz\",\"seed\":" << o.seed << ",\"threads\":" << q(threads_text(o.shape))
        << ",\"excluded\":" << q(excluded_text(o.shape)) << ",\"load_depths\":[";
    for (std::size_t i = 0; i < o.depths.size(); ++i) out << (i ? "," : "") << o.depths[i];
    out << "],\"first\":" << first << ",\"shard\":" << q(o.shard.text()) << ",\"break_dpor\":" << q(name(o.fault))
        << ",\"programs\":" << generated << ",\"comparisons\":" << compared << ",\"seconds\":" << seconds
        << ",\"programs_per_second\":" << (seconds > 0 ? generated / seconds : 0.0)
        << ",\"full_executions\":" << full_executions << ",\"dpor_executions\":" << dpor_executions
        << ",\"stopped\":" << (stopped ? q(stopped) : std::string("null")) << ",\"findings\":{";
    bool comma = false;
    for (const auto& [what, n] : findings) out << (std::exchange(comma, true) ? "," : "") << q(what) << ":" << n;
    out << "},\"full_verdicts\":{";
    comma = false;
    for (const auto& [what, n] : verdicts) out << (std::exchange(comma, true) ? "," : "") << q(what) << ":" << n;
    out << "},\"disagreements\":[";
    for (std::size_t i = 0; i < disagreements.size(); ++i) {
      const Disagreement& d = disagreements[i];
      out << (i ? "," : "") << "{\"program\":" << d.index << ",\"load_depth\":" << d.depth
          << ",\"finding\":" << q(name(d.finding)) << ",\"statements\":" << d.statements << ",\"kept\":" << d.kept
          << ",\"keep\":" << q(d.keep) << ",\"text\":" << q(d.program) << ",\"full\":" << q(d.full)
          << ",\"dpor\":" << q(d.dpor) << ",\"replay\":" << q(d.replay) << "}";
    }
    out << "],\"exit\":" << status << "}\n";
    if (!out) {
      std::fprintf(stderr, "lfcheck-dpor-fuzz: cannot write %s\n", o.json.c_str());
      return cli::kUsage;
    }
  }
  return status;
}

}  // namespace lfcheck::dpor_fuzz

int main(int argc, char** argv) { return lfcheck::dpor_fuzz::main(argc, argv); }
