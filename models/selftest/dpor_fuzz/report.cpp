// What a fuzzing run reports (report.hpp).
#include "models/selftest/dpor_fuzz/report.hpp"

#include <algorithm>
#include <cstdio>

#include "harness/cli/cli.hpp"

namespace lfcheck::dpor_fuzz {
namespace {

std::string fmt(const char* f, auto... args) {
  char text[512];
  std::snprintf(text, sizeof text, f, args...);
  return text;
}

std::string keep_text(const std::vector<unsigned>& numbers) {
  std::string out;
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(numbers[i]) + (j > i ? "-" + std::to_string(numbers[j]) : "");
    i = j;
  }
  return out;
}

// Both searches' sets: what only one has first, then what both have.
std::string sets_text(const char* what, const std::vector<std::uint64_t>& full, const std::vector<std::string>& full_text,
                      const std::vector<std::uint64_t>& dpor, const std::vector<std::string>& dpor_text) {
  auto text_of = [](const std::vector<std::uint64_t>& v, const std::vector<std::string>& t, std::size_t i) {
    return i < t.size() ? t[i] : fmt("%016llx", static_cast<unsigned long long>(v[i]));
  };
  auto in = [](const std::vector<std::uint64_t>& v, std::uint64_t x) { return std::binary_search(v.begin(), v.end(), x); };
  std::string out = fmt("%s: full search %zu, dpor %zu\n", what, full.size(), dpor.size());
  for (std::size_t i = 0; i < full.size(); ++i)
    if (!in(dpor, full[i])) out += "  only in full: " + text_of(full, full_text, i) + "\n";
  for (std::size_t i = 0; i < dpor.size(); ++i)
    if (!in(full, dpor[i])) out += "  only in dpor: " + text_of(dpor, dpor_text, i) + "\n";
  for (std::size_t i = 0; i < full.size(); ++i)
    if (in(dpor, full[i])) out += "  in both:      " + text_of(full, full_text, i) + "\n";
  return out;
}

std::string search_line(const SearchResult& r) {
  return r.verdict + ", " + std::to_string(r.executions) + (r.executions == 1 ? " execution" : " executions");
}

}  // namespace

void Tally::add(const Comparison& c) {
  ++findings["load depth " + std::to_string(c.load_depth) + ": " + name(c.finding)];
  full_executions += c.full.executions;
  dpor_executions += c.dpor.executions;
  if (is_skip(c.finding)) return;
  ++compared;
  ++verdicts[c.full.passed ? "pass" : c.full.verdict];
}

std::string superset_note(const Program& generated, const std::vector<bool>& keep, const Comparison& c,
                          const ReplayLine& replay) {
  const std::vector<unsigned> numbers = kept_numbers(generated, keep);
  const std::string k = numbers.size() == positions(generated).size() ? "" : keep_text(numbers);
  std::size_t only = 0;
  for (auto o : c.dpor.outcomes) only += !std::binary_search(c.full.outcomes.begin(), c.full.outcomes.end(), o);
  return fmt("program %llu, load depth %u: outcomes only dpor found: %zu of its %zu (the full search's %zu all among "
             "them; a superset, not a failure)\n  replay: ",
             static_cast<unsigned long long>(generated.index), c.load_depth, only, c.dpor.outcomes.size(),
             c.full.outcomes.size()) +
         replay(generated.index, c.load_depth, k) + "\n";
}

Disagreement describe(const Program& generated, std::vector<bool> keep, const Comparison& found, const Limits& limits,
                      Break fault, bool minimise_it, const ReplayLine& replay) {
  Disagreement d;
  d.index = generated.index;
  d.load_depth = found.load_depth;
  d.finding = found.finding;
  d.statements = positions(generated).size();
  if (minimise_it) keep = minimise(generated, keep, found.load_depth, found.finding, limits, fault);
  const Program shown = keep_only(generated, keep);
  const std::vector<unsigned> numbers = kept_numbers(generated, keep);
  d.kept = numbers.size();
  d.keep = d.kept == d.statements ? "" : keep_text(numbers);
  const Comparison c = compare(shown, found.load_depth, limits, fault, /*describe=*/true);
  d.full = search_line(c.full);
  d.dpor = search_line(c.dpor);
  d.replay = replay(d.index, d.load_depth, d.keep);
  std::string& t = d.text;
  t = fmt("DISAGREEMENT (%s) at load depth %u: program %llu of seed %llu", name(found.finding), found.load_depth,
          static_cast<unsigned long long>(d.index), static_cast<unsigned long long>(generated.seed));
  if (d.kept != d.statements) t += fmt(", minimised from %zu statements to %zu", d.statements, d.kept);
  t += "\n" + print(shown, numbers);
  t += "full search: " + d.full + "\ndpor:        " + d.dpor + "\n";
  if (c.full.passed && c.dpor.passed) {
    t += sets_text("outcomes of the passing executions", c.full.outcomes, c.full.outcome_texts, c.dpor.outcomes,
                   c.dpor.outcome_texts);
    if (!c.full.states.empty() || !c.dpor.states.empty())
      t += sets_text("states the invariant observed", c.full.states, c.full.state_texts, c.dpor.states,
                     c.dpor.state_texts);
  }
  if (c.finding != found.finding)  // never silently: what is shown is not what was found
    t += fmt("(the comparison shown found: %s — not deterministic here)\n", name(c.finding));
  t += "replay: " + d.replay + "\n";
  return d;
}

int print_summary(const RunFacts& f, const Tally& t) {
  std::printf("\n%llu program%s generated, %llu comparisons (load depth %s), %.1f s, %.2f programs/s\n",
              static_cast<unsigned long long>(t.generated), t.generated == 1 ? "" : "s",
              static_cast<unsigned long long>(t.compared), f.load_depths.c_str(), f.seconds,
              f.seconds > 0 ? t.generated / f.seconds : 0.0);
  for (const auto& [what, n] : t.findings) std::printf("  %s: %llu\n", what.c_str(), static_cast<unsigned long long>(n));
  std::printf("  the full search's verdicts of the comparisons:");
  for (const auto& [what, n] : t.verdicts) std::printf(" %s %llu;", what.c_str(), static_cast<unsigned long long>(n));
  std::printf("\n  executions: full search %llu, dpor %llu\n", static_cast<unsigned long long>(t.full_executions),
              static_cast<unsigned long long>(t.dpor_executions));
  if (!f.stopped.empty()) std::printf("stopped at %s\n", f.stopped.c_str());
  for (const auto& l : t.lost) std::printf("NOT COMPARED: %s\n", l.c_str());
  if (!f.excluded.empty()) std::printf("left out (--exclude): %s\n", f.excluded.c_str());
  if (!f.focus.empty()) std::printf("focus: %s\n", f.focus.c_str());
  const int status = !t.disagreements.empty()               ? cli::kCheckFailed
                     : t.compared == 0 || f.interrupted || !t.lost.empty() ? cli::kUsage
                                                        : cli::kPass;
  if (!t.lost.empty() && status == cli::kUsage)
    std::printf("dpor-fuzz: %zu batch%s not compared (above), 0 disagreements in the rest\n", t.lost.size(),
                t.lost.size() == 1 ? "" : "es");
  else if (f.interrupted && status == cli::kUsage)
    std::printf("dpor-fuzz: interrupted after %llu comparisons, 0 disagreements\n",
                static_cast<unsigned long long>(t.compared));
  else if (status == cli::kPass)
    std::printf("dpor-fuzz: %llu comparisons, 0 disagreements\n", static_cast<unsigned long long>(t.compared));
  std::uint64_t superset = 0;  // comparisons where DPOR found outcomes the full search did not (shown above)
  for (const auto& [what, n] : t.findings)
    if (what.size() > std::string(name(Finding::extra_outcomes)).size() &&
        what.compare(what.size() - std::string(name(Finding::extra_outcomes)).size(), std::string::npos,
                     name(Finding::extra_outcomes)) == 0)
      superset += n;
  if (superset)
    std::printf("dpor-fuzz: %llu comparison%s with outcomes only dpor found (above: schedules DPOR runs and the "
                "full search does not, not a failure)\n",
                static_cast<unsigned long long>(superset), superset == 1 ? "" : "s");
  if (status == cli::kCheckFailed)
    std::printf("dpor-fuzz: %zu disagreement%s (each above, with its replay line)\n", t.disagreements.size(),
                t.disagreements.size() == 1 ? "" : "s");
  else if (t.compared == 0 && t.lost.empty() && !f.interrupted)
    std::printf("dpor-fuzz: no program compared: every program was skipped (above: why)\n");
  return status;
}

std::vector<RunRecord> run_records(const RunFacts& f, const Tally& t) {
  std::vector<RunRecord> runs;
  RunRecord s;
  s.str("structure", "dpor-fuzz").str("scenario", "random programs").str("scheduler", "full vs dpor");
  s.num("seed", f.seed).num("first", f.first).str("threads", f.threads).json("load_depths", "[" + f.load_depths + "]");
  s.str("excluded", f.excluded).str("focus", f.focus).str("shard", f.shard).str("break_dpor", f.fault);
  s.num("programs", t.generated).num("comparisons", t.compared).num("disagreements", t.disagreements.size());
  std::string findings = "{", verdicts = "{";
  for (const auto& [what, n] : t.findings) findings += (findings.size() > 1 ? "," : "") + RunRecord::quote(what) + ":" + std::to_string(n);
  for (const auto& [what, n] : t.verdicts) verdicts += (verdicts.size() > 1 ? "," : "") + RunRecord::quote(what) + ":" + std::to_string(n);
  s.json("findings", findings + "}").json("full_verdicts", verdicts + "}");
  s.num("full_executions", t.full_executions).num("dpor_executions", t.dpor_executions);
  s.num("executions", t.full_executions + t.dpor_executions);  // the work: Relacy executions, both searches
  s.real("programs_per_second", f.seconds > 0 ? t.generated / f.seconds : 0.0);
  if (!f.stopped.empty()) s.str("stopped", f.stopped);
  if (!t.lost.empty()) {
    std::string lost = "[";
    for (const auto& l : t.lost) lost += (lost.size() > 1 ? "," : "") + RunRecord::quote(l);
    s.json("not_compared", lost + "]");
  }
  if (!t.disagreements.empty()) {
    s.set_verdict(Verdict::fail);
    s.failure = fmt("%zu DISAGREEMENT%s between dpor and the full search", t.disagreements.size(),
                    t.disagreements.size() == 1 ? "" : "S");
  } else if (f.interrupted) {
    s.set_verdict(Verdict::error);
    s.failure = "interrupted";
  } else if (!t.lost.empty()) {
    s.set_verdict(Verdict::error);
    s.failure = "NOT COMPARED: " + t.lost.front() + (t.lost.size() > 1 ? fmt(" (and %zu more)", t.lost.size() - 1) : "");
  } else if (t.compared == 0) {
    s.set_verdict(Verdict::error);
    s.failure = "NOTHING COMPARED: every program was skipped";
  } else {
    s.set_verdict(Verdict::pass);
  }
  if (!s.passed()) s.str("failure", s.failure);
  s.real("seconds", f.seconds);
  runs.push_back(std::move(s));
  for (const Disagreement& d : t.disagreements) {
    RunRecord r;
    r.str("structure", "dpor-fuzz").str("scenario", fmt("program %llu, load depth %u",
                                                         static_cast<unsigned long long>(d.index), d.load_depth));
    r.str("scheduler", "full vs dpor").num("seed", f.seed).num("program", d.index).num("load_depth", d.load_depth);
    r.str("finding", name(d.finding)).str("full", d.full).str("dpor", d.dpor);
    r.num("statements", d.statements).num("kept", d.kept).str("keep", d.keep).str("replay", d.replay);
    r.set_verdict(Verdict::fail);
    r.failure = std::string("DPOR DISAGREES WITH THE FULL SEARCH: ") + name(d.finding);
    r.str("failure", r.failure).str("text", d.text).real("seconds", 0);
    r.details = d.text;
    runs.push_back(std::move(r));
  }
  return runs;
}

}  // namespace lfcheck::dpor_fuzz
