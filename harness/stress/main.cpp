// lfcheck-stress: runs the registered stress workloads on real threads
// (./lfcheck stress ...). Built three times: plain, under TSan, under ASan+UBSan.
#include <chrono>
#include <atomic>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>
#include <fcntl.h>
#include <cstdio>
#include <cstring>
#include <deque>
#include <random>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "harness/report/artifacts.hpp"
#include "harness/cli/cli.hpp"
#include "harness/cli/interrupt.hpp"
#include "harness/report/failure_views.hpp"
#include "harness/report/replay_file.hpp"
#include "harness/report/report.hpp"
#include "harness/stress/sanitizer.hpp"
#include "harness/stress/sanitizer_findings.hpp"
#include "harness/stress/sanitizer_report.hpp"
#include "harness/stress/thread_stacks.hpp"
#include "harness/stress/uninstrumented.hpp"
#include "harness/stress_registry.hpp"
#include "harness/stress/supervisor.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck {
namespace {

constexpr const char* kHelp = R"(usage: lfcheck stress [NAME] [options]

Runs the stress workload of structure NAME (all if omitted) on real threads,
built with ThreadSanitizer (or ASan+UBSan with --sanitizer address). The seed is
printed first; a failure prints the line that replays it.

options:
  --threads N       threads (default 4)
  --ops N           operation budget per workload (default 2000000 if no --duration);
                    a litmus workload (a model scenario on real threads) runs N/100
                    executions and reports executions
  --duration S      run for S seconds in all instead (rounds end early at the
                    deadline): the time left is shared evenly by the workloads
                    still to run
  --seed S          seed (default: random, printed)
  --fault F         run the variant with seeded fault F
  --artifacts DIR   where a failure's table, trace and replay file go (default:
                    $LFCHECK_ARTIFACTS or ${TMPDIR:-/tmp}/lfcheck-artifacts)
  --hang-seconds S  a run that completes no round for S seconds is a HANG: the
                    run fails with its replay line (default: a quarter of
                    --duration, at least 5 and at most 60; 60 with --ops)
  --json FILE       write {"runs":[...]} (DESIGN §6)
  --junit FILE      write JUnit XML
  --first-failure   stop after the first failing workload
  --shard I/N       only shard I (0 to N-1) of N: workloads I, I+N, I+2N, ... of
                    the ones this command selects, each with the seed and budget
                    it has unsharded (a --duration share is the whole run's
                    --duration over all its workloads); N shards together run
                    every workload once (the default: GTEST_SHARD_INDEX of
                    GTEST_TOTAL_SHARDS, if set); each record says "shard" (I/N),
                    "of_runs" (the selection's size) and "plan", and lfcheck
                    merge requires every workload of the plan
  --quiet           no progress line
  --workload W      only workload W (a trailing * matches any ending: 'lin.*');
                    the lin.* workloads run only when selected so (./lfcheck lin)
  --lin-scenarios N lin.scenarios: run N generated scenarios (default: as many
                    as the budget allows), each up to 1000 executions
  --lin-threads T   lin.scenarios: threads per scenario, at most (2..3, default 3)
  --lin-ops K       lin.scenarios: calls per thread, at most (1..8, default 5)
  --list            list workloads and exit
  --list-faults     list the seeded faults and exit
  --help            this text
  (--sanitizer is handled by ./lfcheck, which picks the binary)

SIGINT (Ctrl-C) or SIGTERM stops the command at the next operation: the workloads
that finished are reported as usual, the one running and the ones after it are
"interrupted" (verdict error) in the summary, JSON and JUnit.

exit status: 0 all runs passed, 1 a check failed (a bug was found), 2 usage error
or a run that did no work (0 operations: it checked nothing), an interrupted one,
or a shard with no workload
)";

struct Options {
  double hang_seconds = 0;       // 0: from the budget (see --help)
  double nominal_share = 0;      // --duration / workloads: what a replay asks per workload
  std::string structure, fault, json, junit, artifacts;
  std::string workload;  // only this workload ("lin.*": every workload named lin.something)
  StressOptions run;
  cli::Shard shard;  // --shard I/N: workloads I, I+N, ... of the selection
  std::size_t of_runs = 0;  // a shard: the workloads of the whole selection
  std::string plan;         // a shard: the whole run's command line (command_line)
  bool list = false, list_faults = false, seed_given = false, first_failure = false;
};


// "" matches every workload but the lin layer's (lin.*: ./lfcheck lin runs them,
// so the kill matrix keeps the layers apart) — except for a structure that has no
// other workload (one checked from its spec alone), whose stress layer they are;
// "lin.*" every one that starts with "lin."; else exact.
bool workload_matches(const std::string& pattern, const StressEntry& entry) {
  const auto is_lin = [](const std::string& w) { return w.rfind("lin.", 0) == 0; };
  if (pattern.empty()) {
    if (!is_lin(entry.workload)) return true;
    for (auto& e : stress_registry())
      if (e.structure == entry.structure && !is_lin(e.workload)) return false;
    return true;
  }
  if (pattern.back() == '*') return entry.workload.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0;
  return entry.workload == pattern;
}

// "stress STRUCTURE --threads ... --seed ...": the options that decide what a run
// of STRUCTURE does, with `duration` as its --duration (unless it has --ops).
std::string command_line(const Options& o, const std::string& structure, double duration) {
  std::string line = "stress " + structure + " --threads " + std::to_string(o.run.threads);
  if (o.run.ops) line += " --ops " + std::to_string(o.run.ops);
  else {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", duration);
    line += std::string(" --duration ") + buf;
  }
  line += " --seed " + std::to_string(o.run.seed);
  if (!o.workload.empty()) line += " --workload '" + o.workload + "'";
  if (o.run.lin_scenarios) line += " --lin-scenarios " + std::to_string(o.run.lin_scenarios);
  if (o.run.lin_threads != 3) line += " --lin-threads " + std::to_string(o.run.lin_threads);
  if (o.run.lin_ops != 5) line += " --lin-ops " + std::to_string(o.run.lin_ops);
  if (!o.fault.empty()) line += " --fault " + o.fault;
  if (std::strcmp(kSanitizerName, "address") == 0) line += " --sanitizer address";
  if (std::strcmp(kSanitizerName, "none") == 0) line += " --sanitizer none";
  return line;
}

// The driver's arguments that re-run this seed: "stress NAME --threads ...".
std::string replay_args(const Options& o, const std::string& structure) {
  // Each workload's nominal share; the replay runs this structure's workloads
  // only, so it asks for their shares' sum.
  std::size_t workloads = 0;
  for (auto& e : stress_registry()) workloads += e.structure == structure && workload_matches(o.workload, e);
  return command_line(o, structure, o.nominal_share * static_cast<double>(workloads));
}

// The replay line as printed: this build's driver and build tree, so it works as
// printed from any directory (harness/report/replay_file.hpp).
std::string replay_line(const Options& o, const std::string& structure) {
  const std::string build = driver_build();
  return driver_command() + (build.empty() ? "" : " --build " + shell_word(build)) + " " + replay_args(o, structure);
}

// "replay file: DRIVER replay FILE", as printed after a failure.
std::string replay_file_line(const std::string& file) {
  return "replay file: " + driver_command() + " replay " + shell_word(file);
}

// A run's record: failed if `failure` is set; a run the interrupt stopped (or never
// started) did not do its work, and a run that did no work (0 operations or
// executions) checked nothing: both are errors, never a pass. `threads` are the
// threads the workload starts (a litmus workload: its scenario's), `ops` its work
// in `unit`.
RunRecord record(const Options& o, const StressEntry& e, std::uint64_t ops, double seconds,
                 const std::string& failure, const std::string& unit, bool interrupted = false) {
  const Verdict verdict = !failure.empty() ? Verdict::fail : interrupted || ops == 0 ? Verdict::error : Verdict::pass;
  RunRecord r;
  r.str("structure", e.structure).str("workload", e.workload).num("threads", e.threads ? e.threads : o.run.threads);
  r.num("seed", o.run.seed).num("ops", ops).real("seconds", seconds);
  r.set_verdict(verdict).str("sanitizer", kSanitizerName);
  if (unit != "ops") r.str("unit", unit);
  if (!o.fault.empty()) r.str("fault", o.fault);
  // A shard's record: its shard, the size and the command of the whole plan (lfcheck
  // merge requires every workload of it).
  if (o.shard.sharded()) r.str("shard", o.shard.text()).num("of_runs", o.of_runs).str("plan", o.plan);
  if (verdict == Verdict::fail) {
    r.failure = failure;
    r.str("failure", failure);
    r.str("replay", replay_line(o, e.structure));
  } else if (interrupted) {
    r.failure = cli::kInterruptedWords;
    r.str("failure", r.failure).str("stopped", "interrupt");
  } else if (verdict == Verdict::error) {
    r.failure = "NO WORK: the workload ran 0 operations, so it checked nothing";
    r.str("failure", r.failure);
  }
  return r;
}

void write_history_views(const std::string& stem, const std::vector<std::vector<RecordedOp>>& history,
                         const std::string& title);

// Writes the replay file (and, when the rings are readable, the recent history
// as table and trace); returns the replay file's path or "".
std::string write_artifacts(const Options& o, const StressEntry& e, const std::string& failure,
                            const std::vector<std::vector<RecordedOp>>* history) {
  const std::string dir = artifacts_dir(o.artifacts);
  if (!make_dirs(dir)) return "";
  const std::string stem = dir + "/" + e.structure + "." + e.workload + ".seed" + std::to_string(o.run.seed);
  ReplayFile replay;
  replay.set("layer", "stress").set("structure", e.structure).set("workload", e.workload);
  replay.set("fault", o.fault).set("failure", failure).set("seed", std::to_string(o.run.seed));
  replay.set("command", replay_line(o, e.structure)).set("args", replay_args(o, e.structure));
  replay.write(stem + ".replay");
  if (history) write_history_views(stem, *history, e.structure + "/" + e.workload + " seed " + std::to_string(o.run.seed) + ": " + failure);
  return stem + ".replay";
}

// A recorded operation as the per-thread table, the trace and a hang report show it
// ("execution 17", "pop(0x3) -> 5"; running: no result yet).
std::string op_words(const RecordedOp& op, bool finished) {
  char text[128];
  const char* name = op.name ? op.name : "op";
  if (op.result == RecordedOp::kNoResult || !finished)
    std::snprintf(text, sizeof text, "%s %llu", name, static_cast<unsigned long long>(op.argument));
  else
    std::snprintf(text, sizeof text, "%s(%#llx) -> %lld", name, static_cast<unsigned long long>(op.argument),
                  static_cast<long long>(op.result));
  return text;
}

// The per-thread table (stem.table.txt, its tail on the terminal) and the trace
// (stem.trace.json) of the rings' last operations.
void write_history_views(const std::string& stem, const std::vector<std::vector<RecordedOp>>& history_rings,
                         const std::string& title) {
  const auto* history = &history_rings;
  {
    std::vector<Step> rows, spans;
    for (std::size_t t = 0; t < history->size(); ++t) {
      for (const RecordedOp& op : (*history)[t]) {
        const std::string text = op_words(op, true);
        Step row;
        row.thread = static_cast<int>(t);
        row.text = text;
        row.time_us = op.begin_us;
        rows.push_back(row);
        Step b = row, en = row;
        b.kind = Step::Kind::op_begin;
        b.value = text;
        en.kind = Step::Kind::op_end;
        en.value = text;
        en.time_us = std::max(op.end_us, op.begin_us + 0.001);
        spans.push_back(b);
        spans.push_back(en);
      }
    }
    auto by_time = [](const Step& a, const Step& b) { return a.time_us < b.time_us; };
    std::stable_sort(rows.begin(), rows.end(), by_time);
    std::stable_sort(spans.begin(), spans.end(), by_time);
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].index = static_cast<unsigned>(i);
    for (std::size_t i = 0; i < spans.size(); ++i) spans[i].index = static_cast<unsigned>(i);
    const int threads = static_cast<int>(history->size());
    const std::string table = render_thread_table(rows, threads, threads <= 4 ? 36 : 28);
    write_whole_file(stem + ".table.txt", table);
    // A thread the report ended before its first operation has no track (its table
    // column is empty).
    write_trace(stem + ".trace.json", spans, threads, title, /*idle_tracks=*/false);
    // The tail of the table on the terminal: the last moments before the failure.
    std::istringstream lines(table);
    std::vector<std::string> all;
    for (std::string l; std::getline(lines, l);) all.push_back(l);
    std::printf("  last operations per thread (times in µs from the start; full table in %s.table.txt):\n",
                stem.c_str());
    for (std::size_t i = 0; i < all.size(); ++i)
      if (i < 2 || i + 24 >= all.size()) std::printf("    %s\n", all[i].c_str());
    std::printf("  trace: %s.trace.json (ui.perfetto.dev or chrome://tracing)\n", stem.c_str());
  }
}

// What to write if the process dies during a run (sanitizer report, signal):
// prepared before the run, so the death path only calls write(2) and open(2) —
// it must not allocate or lock (a TSan death callback runs under TSan's report
// lock; two racing reports would deadlock on an allocation).
struct DeathPlan {
  std::string message;  // to stderr
  // The JSON around its two numbers known only at death: the run's work so far
  // (StressRun::work_so_far) and its seconds.
  std::string json_path, json_before_ops, json_before_seconds, json_after_seconds;
  std::string junit_path, junit_text;
  std::string replay_path, replay_text;
  std::string rings_path;  // the rings, as text, for the supervisor to render
  std::chrono::steady_clock::time_point start;
  std::atomic<bool> armed{false};
} death;

LFCHECK_NOT_SANITIZED void write_all(int fd, const std::string& text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n <= 0) return;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

LFCHECK_NOT_SANITIZED void write_file(const std::string& path, const std::string& a, const char* b = "",
                                      const std::string& c = "", const char* d = "", const std::string& e = "") {
  if (path.empty()) return;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  write_all(fd, a);
  ::write(fd, b, std::strlen(b));
  write_all(fd, c);
  ::write(fd, d, std::strlen(d));
  write_all(fd, e);
  ::close(fd);
}

// v in decimal, written backwards from `end` (no allocation: the death path); returns the first digit.
LFCHECK_NOT_SANITIZED char* decimal(unsigned long long v, char* end) {
  *--end = 0;
  do { *--end = static_cast<char>('0' + v % 10); v /= 10; } while (v > 0);
  return end;
}

void prepare_death_plan(const Options& o, const StressEntry& e, const std::vector<RunRecord>& finished) {
  death.armed.store(false, std::memory_order_relaxed);
  const std::string failure = kSanitizerReportKind;
  const std::string replay = replay_line(o, e.structure);
  auto runs = finished;
  RunRecord dying = record(o, e, 0, 0, failure, e.unit);
  for (auto& [k, v] : dying.fields) {
    if (k == "seconds") v = "@SECONDS@";
    if (k == "ops") v = "@OPS@";
  }
  runs.push_back(dying);
  death.json_path = o.json;
  if (!o.json.empty()) {
    std::string text = "{\"runs\":[";
    for (std::size_t i = 0; i < runs.size(); ++i) text += (i ? ",\n" : "\n") + runs[i].json();
    text += "\n]}\n";
    const auto ops = text.find("@OPS@"), at = text.find("@SECONDS@");  // "ops" comes before "seconds"
    death.json_before_ops = text.substr(0, ops);
    death.json_before_seconds = text.substr(ops + 5, at - ops - 5);
    death.json_after_seconds = text.substr(at + 9);
  }
  death.junit_path = o.junit;
  death.junit_text.clear();
  if (!o.junit.empty()) {
    for (auto& [k, v] : runs.back().fields)
      if (k == "seconds") v = "0";
    const std::string tmp = o.junit + ".tmp";
    write_junit(tmp, "lfcheck.stress", runs, {"workload"});
    std::ifstream in(tmp);
    std::stringstream buf;
    buf << in.rdbuf();
    death.junit_text = buf.str();
    std::remove(tmp.c_str());
  }
  const std::string dir = artifacts_dir(o.artifacts);
  death.replay_path.clear();
  if (make_dirs(dir)) {
    death.replay_path = dir + "/" + e.structure + "." + e.workload + ".seed" + std::to_string(o.run.seed) + ".replay";
    ReplayFile file;
    file.set("layer", "stress").set("structure", e.structure).set("workload", e.workload);
    file.set("fault", o.fault).set("failure", failure).set("seed", std::to_string(o.run.seed));
    file.set("command", replay).set("args", replay_args(o, e.structure));
    const std::string tmp = death.replay_path + ".tmp";
    file.write(tmp);
    std::ifstream in(tmp);
    std::stringstream buf;
    buf << in.rdbuf();
    death.replay_text = buf.str();
    std::remove(tmp.c_str());
    death.rings_path = death.replay_path.substr(0, death.replay_path.size() - 7) + ".rings";
  }
  death.message = "\nlfcheck stress: " + e.structure + "/" + e.workload + " FAILED (" + failure +
                  ", see the report above)\nreplay: " + replay + "\n" +
                  (death.replay_path.empty() ? "" : replay_file_line(death.replay_path) + "\n");
  death.start = std::chrono::steady_clock::now();
  death.armed.store(true, std::memory_order_release);
}

// The run in progress (its rings are dumped if the process dies).
StressRun* current_run = nullptr;

// Called by the sanitizer runtime before it exits on a report, and by the signal
// handler: records the run as failed, with its replay line and its rings (for the
// supervisor's table and trace). Runs at most once. Not instrumented (nor are the
// writers it calls): it runs inside the sanitizer's report, whose locks it must not need.
LFCHECK_NOT_SANITIZED void on_death() {
  if (!death.armed.exchange(false, std::memory_order_acq_rel)) return;
  write_all(STDERR_FILENO, death.message);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - death.start).count();
  char seconds[32];
  char* p = seconds + sizeof seconds;
  *--p = 0;
  long long v = ms;
  for (int digit = 0; digit < 3; ++digit, v /= 10) *--p = static_cast<char>('0' + v % 10);
  *--p = '.';
  do { *--p = static_cast<char>('0' + v % 10); v /= 10; } while (v > 0);
  char work[24];
  const char* ops = decimal(current_run ? current_run->work_so_far() : 0, work + sizeof work);
  if (!death.json_path.empty())
    write_file(death.json_path, death.json_before_ops, ops, death.json_before_seconds, p, death.json_after_seconds);
  if (!death.junit_path.empty()) write_file(death.junit_path, death.junit_text);
  if (!death.replay_path.empty()) write_file(death.replay_path, death.replay_text);
  if (current_run && !death.rings_path.empty()) {
    const int fd = ::open(death.rings_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      current_run->dump_rings(fd);
      ::close(fd);
    }
  }
}

// A TSan report whose stacks pass through code built without TSan
// (harness/stress/uninstrumented.hpp): the verdict's words say so, here and in the
// JSON ("uninstrumented": [...]) and JUnit the dying run wrote, whose failure was
// the bare report kind. The verdict stays a failure.
std::string label_uninstrumented(const std::string& captured, const std::string& json_path,
                                 const std::string& junit_path) {
  if (std::strcmp(kSanitizerName, "thread") != 0) return "";
  const std::vector<std::string> modules = uninstrumented_modules(captured);
  if (modules.empty()) return "";
  std::string names, list;
  for (const auto& m : modules) {
    names += (names.empty() ? "" : ", ") + m;
    list += std::string(list.empty() ? "" : ",") + RunRecord::quote(m);
  }
  const std::string words = std::string(kSanitizerReportKind) + " through code built without TSan (" + names +
                            "): TSan cannot see that code's synchronization, so this may not be a race";
  std::fprintf(stderr,
               "lfcheck stress: the report's stacks pass through code built without TSan: %s. TSan cannot see how\n"
               "  that code synchronizes. Ways out: build it with -fsanitize=thread, state the order it documents\n"
               "  with lfcheck::tsan::happens_before/after, or rely on ASan and lin for it (docs/your-structure.md,\n"
               "  \"Checking a library you did not write\"). Nothing is suppressed: the verdict stays FAIL.\n",
               names.c_str());
  const auto patch = [](const std::string& path, const std::string& from, const std::string& to) {
    if (path.empty()) return;
    std::ifstream in(path);
    if (!in) return;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    const auto at = text.rfind(from);  // the dying run's record is the last one
    if (at == std::string::npos) return;
    text.replace(at, from.size(), to);
    std::ofstream(path) << text;
  };
  const std::string bare = "\"failure\":" + RunRecord::quote(kSanitizerReportKind);
  patch(json_path, bare, "\"failure\":" + RunRecord::quote(words) + ",\"uninstrumented\":[" + list + "]");
  patch(junit_path, std::string("message=\"") + kSanitizerReportKind + "\"", "message=\"" + xml_escape(words) + "\"");
  return words;
}

// The supervisor's part after a run a sanitizer ended (harness/stress/supervisor.hpp):
// the short report (stem.report.txt) from the captured stderr, and the table and
// trace from the rings the death callback dumped.
void after_sanitizer_death(const std::string& captured, int, const std::string& json_path,
                           const std::string& junit_path) {
  const std::string labelled = label_uninstrumented(captured, json_path, junit_path);
  const std::string report = short_sanitizer_report(captured) + (labelled.empty() ? "" : labelled + "\n");
  // The runner's death message ends with replay_file_line(path): the path is what
  // follows its " replay ", unquoted.
  const auto at = captured.rfind("replay file: ");
  if (report.empty() || at == std::string::npos) return;
  const auto end = captured.find('\n', at);
  const std::string line = captured.substr(at, end == std::string::npos ? std::string::npos : end - at);
  const auto word = line.rfind(" replay ");
  if (word == std::string::npos) return;
  std::string replay_path = line.substr(word + 8);
  if (replay_path.size() >= 2 && replay_path.front() == '\'' && replay_path.back() == '\'') {
    std::string plain;
    for (std::size_t i = 1; i + 1 < replay_path.size(); ++i) {
      if (replay_path.compare(i, 4, "'\\''") == 0) plain += '\'', i += 3;
      else plain += replay_path[i];
    }
    replay_path = plain;
  }
  if (replay_path.size() < 8 || replay_path.compare(replay_path.size() - 7, 7, ".replay") != 0) return;
  const std::string stem = replay_path.substr(0, replay_path.size() - 7);
  std::ofstream(stem + ".report.txt") << report << "\n(cut from the sanitizer's report of " << captured.size()
                                      << " bytes on the run's stderr: first report, project frames, short names)\n";
  std::fprintf(stderr, "  report: %s.report.txt (the first report, short)\n", stem.c_str());
  std::ifstream rings(stem + ".rings");
  if (!rings) return;
  std::vector<std::vector<RecordedOp>> history;
  std::deque<std::string> names;  // the rings' operation names (stable addresses)
  for (std::string line; std::getline(rings, line);) {
    if (line.rfind("threads ", 0) == 0) {
      history.resize(std::min<std::size_t>(std::strtoul(line.c_str() + 8, nullptr, 10), 4096));
      continue;
    }
    std::istringstream in(line);
    unsigned thread = 0;
    unsigned long long begin_ns = 0, end_ns = 0, argument = 0;
    long long result = 0;
    std::string name;
    if (!(in >> thread >> begin_ns >> end_ns >> name >> argument >> result) || thread > 4096) continue;
    if (history.size() <= thread) history.resize(thread + 1);
    // END_NS 0: the operation the thread was running when the process died.
    names.push_back((name == "-" ? std::string("op") : name) + (end_ns == 0 ? "[running]" : ""));
    RecordedOp op;
    op.begin_us = static_cast<double>(begin_ns) / 1000;
    op.end_us = end_ns == 0 ? op.begin_us : static_cast<double>(end_ns) / 1000;
    op.name = names.back().c_str();
    op.argument = argument;
    op.result = result;
    history[thread].push_back(op);
  }
  rings.close();
  if (!std::getenv("LFCHECK_KEEP_RINGS")) std::remove((stem + ".rings").c_str());
  ReplayFile replay;
  replay.read(replay_path);
  std::fflush(stdout);
  write_history_views(stem, history,
                      replay.get("structure") + "/" + replay.get("workload") + " seed " + replay.get("seed") + ": " +
                          replay.get("failure"));
  std::fflush(stdout);
}

// Several threads can take a fatal signal at once (a broken structure crashes
// every thread that walks it). The first writes the verdict and ends the process;
// the others wait for that here, so none of them _exits while the JSON is half
// written (it was lost in 4 of 10 runs of probe_crash before).
std::atomic<bool> dying{false};

void on_signal(int) {
  // acq_rel: one thread wins; pairs with nothing else (the winner's writes need no reader here).
  if (dying.exchange(true, std::memory_order_acq_rel))
    for (;;) ::pause();  // the first thread's _exit ends this one too
  const char text[] = "\nlfcheck stress: fatal signal\n";
  ::write(STDERR_FILENO, text, sizeof text - 1);
  on_death();
  _exit(cli::kCheckFailed);
}

// The run in progress, for a hang report from any thread (set while it runs).
struct HangContext {
  const Options* o = nullptr;
  const StressEntry* e = nullptr;
  const StressRun* run = nullptr;
  const std::vector<RunRecord>* finished = nullptr;
  std::chrono::steady_clock::time_point started;
} hang_context;
std::mutex hang_context_mutex;  // guards hang_context

// Where every thread of the hung run was: a table on stderr and the record's
// "thread_positions" (JSON array). The times are milliseconds since the run
// started; `now_ms` is the time of the report.
std::string report_positions(const StressRun& run) {
  const auto where = run.innermost().positions();
  const double now_ms = run.innermost().report_now_us() / 1000;
  std::vector<long> tids;
  for (const auto& p : where) tids.push_back(p.tid);
  const auto stacks = thread_stacks::capture(tids);
  std::fprintf(stderr, "where each thread was (ms since the run started; now %.1f ms):\n", now_ms);
  std::fprintf(stderr, "  %-7s %-10s %-40s %s\n", "thread", "finished", "last finished operation", "running");
  std::string json = "[";
  for (const auto& p : where) {
    std::string last = p.has_last ? op_words(p.last, true) : "-";
    char last_at[48] = "", running[200];
    if (p.has_last) std::snprintf(last_at, sizeof last_at, " (ended %.1f)", p.last.end_us / 1000);
    if (p.running)
      std::snprintf(running, sizeof running, "%s since %.1f, for %.1f ms", op_words(p.current, false).c_str(),
                    p.current.begin_us / 1000, now_ms - p.current.begin_us / 1000);
    else
      std::snprintf(running, sizeof running, "nothing: between operations (waiting for the round or its team)");
    std::fprintf(stderr, "  t%-6u %-10llu %-40s %s\n", p.thread, static_cast<unsigned long long>(p.finished),
                 (last + last_at).c_str(), running);
    char head[96];
    std::snprintf(head, sizeof head, "%s{\"thread\":%u,\"finished\":%llu", json.size() > 1 ? "," : "", p.thread,
                  static_cast<unsigned long long>(p.finished));
    json += head;
    if (p.has_last) {
      char at[48];
      std::snprintf(at, sizeof at, ",\"ended_ms\":%.3f}", p.last.end_us / 1000);
      json += ",\"last_finished\":{\"op\":" + RunRecord::quote(op_words(p.last, true)) + at;
    }
    if (p.running) {
      char at[48];
      std::snprintf(at, sizeof at, ",\"since_ms\":%.3f}", p.current.begin_us / 1000);
      json += ",\"running\":{\"op\":" + RunRecord::quote(op_words(p.current, false)) + at;
    }
    const thread_stacks::Stack& stack = stacks[&p - where.data()];
    if (stack.frames.empty()) {
      json += ",\"stack\":null,\"stack_missing\":" + RunRecord::quote(stack.missing);
      std::fprintf(stderr, "          stack: %s\n", stack.missing.c_str());
    } else {
      json += ",\"stack\":[";
      for (std::size_t f = 0; f < stack.frames.size(); ++f) {
        json += (f ? "," : "") + RunRecord::quote(stack.frames[f]);
        if (f < 12) std::fprintf(stderr, "          #%zu %s\n", f, stack.frames[f].c_str());
      }
      if (stack.frames.size() > 12)
        std::fprintf(stderr, "          ... %zu more frames in the JSON\n", stack.frames.size() - 12);
      json += "]";
    }
    json += "}";
  }
  return json + "]";
}

// The record's fields for the TSan reports of a workload that went on after them.
void add_tsan_findings(RunRecord& r, const TsanFindings& tsan, const std::string& lin) {
  r.num("sanitizer_reports", tsan.reports).str("sanitizer_first_report", tsan.first).str("lin", lin);
  const auto list = [](const std::vector<std::string>& names) {
    std::string out = "[";
    for (const auto& n : names) out += (out.size() > 1 ? "," : "") + RunRecord::quote(n);
    return out + "]";
  };
  if (!tsan.uninstrumented.empty()) r.json("uninstrumented", list(tsan.uninstrumented));
  if (!tsan.loaded.empty()) r.json("uninstrumented_loaded", list(tsan.loaded));
}

// Reports the run in progress as a HANG (JSON, JUnit, replay file and line) and
// ends the process with status 1. Threads stuck in the rounds cannot be joined,
// so nothing else can end the run. Called by the runner's watchdog below and by
// a workload's own (StressRun::hang).
[[noreturn]] void report_hang_and_exit(const char* what) {
  // acq_rel: the first reporter (a hang or a fatal signal) wins, the others wait for its exit.
  if (dying.exchange(true, std::memory_order_acq_rel))
    for (;;) ::pause();
  death.armed.store(false, std::memory_order_release);  // this report replaces the crash plan
  std::lock_guard<std::mutex> lock(hang_context_mutex);
  const HangContext& c = hang_context;
  std::fprintf(stderr, "\nlfcheck stress: %s/%s: %s\n", c.e ? c.e->structure.c_str() : "?",
               c.e ? c.e->workload.c_str() : "?", what);
  const std::string positions = c.run ? report_positions(*c.run) : "[]";
  if (c.o && c.e && c.run && c.finished) {
    auto runs = *c.finished;
    // The time the run really took, not the window.
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - c.started).count();
    // A lin.* workload that went on after TSan reports: the record gives them too.
    const TsanFindings tsan = tsan_findings();
    const std::string failure = tsan.reports ? tsan.words() + "; lin: " + what : std::string(what);
    runs.push_back(record(*c.o, *c.e, c.run->work_so_far(), seconds, failure, c.e->unit));
    if (tsan.reports) {
      add_tsan_findings(runs.back(), tsan, what);
      std::fprintf(stderr, "  and before it: %s\n", tsan.words().c_str());
    }
    runs.back().json("thread_positions", positions);
    if (!c.o->json.empty()) write_runs_json(c.o->json, runs);
    if (!c.o->junit.empty()) write_junit(c.o->junit, "lfcheck.stress", runs, {"workload"});
    const std::string file = write_artifacts(*c.o, *c.e, what, nullptr);
    std::fprintf(stderr, "replay: %s\n", replay_line(*c.o, c.e->structure).c_str());
    if (!file.empty()) std::fprintf(stderr, "%s\n", replay_file_line(file).c_str());
  }
  std::fflush(nullptr);
  _exit(cli::kCheckFailed);
}

void on_workload_hang(const char* what) {
  report_hang_and_exit((std::string("HANG (") + what + ")").c_str());
}

// The hang watchdog: a deadlock, a lost wake-up or a livelock stops the rounds;
// it reports the run as a HANG when no round completed for --hang-seconds. A
// linearizability check (StressRun::BoundedWork) is no round either: within its bound
// it is waited for, and one still running --hang-seconds past it ends the run as
// LINEARIZABILITY UNKNOWN (exit 1, not a rejection), never as a HANG.
class HangWatchdog {
 public:
  HangWatchdog(const Options& o, const StressEntry& e, const StressRun& run,
               const std::vector<RunRecord>& finished) {
    {
      std::lock_guard<std::mutex> lock(hang_context_mutex);
      hang_context = HangContext{&o, &e, &run, &finished, std::chrono::steady_clock::now()};
    }
    thread_ = std::thread([this, &o, &run] {
      std::uint64_t last = run.heartbeats();
      auto since = std::chrono::steady_clock::now();
      std::unique_lock<std::mutex> lock(mutex_);
      while (!done_) {
        cv_.wait_for(lock, std::chrono::milliseconds(200));
        const std::uint64_t now_beats = run.heartbeats();
        const auto now = std::chrono::steady_clock::now();
        if (now_beats != last || run.in_bounded_work()) {  // progress, or bounded work in its window
          last = now_beats;
          since = now;
        } else if (std::chrono::duration<double>(now - since).count() > o.hang_seconds) {
          char what[200];
          if (run.bounded_work_overran())  // the checker overran, not the code under test: no verdict
            std::snprintf(what, sizeof what,
                          "LINEARIZABILITY UNKNOWN: a check ran past its budget and %g s more without deciding "
                          "(the checker was running, not the code under test)",
                          o.hang_seconds);
          else
            std::snprintf(what, sizeof what, "HANG (no round completed for %g s)", o.hang_seconds);
          report_hang_and_exit(what);
        }
      }
    });
  }
  ~HangWatchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
    std::lock_guard<std::mutex> lock(hang_context_mutex);
    hang_context = HangContext{};
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// A failed Sync::check inside a structure or workload: the run's failure, with
// its replay line, instead of an abort the sanitizer builds would not record.
// It belongs to the innermost run in progress (a lin scenario's own litmus run inside
// lin.scenarios): that scenario fails with it, and is reported with it.
void on_check_failed(const char* what) {
  if (current_run) current_run->innermost().fail(std::string("ASSERT: ") + what);
}

// A lin.* workload's own verdict, for a record that TSan reports also fail: its
// failure, or "linearizable" and the work it checked (lin.history's calls, lin.scenarios'
// executions); a workload interrupted or without work says so, never "linearizable".
std::string lin_words(StressRun& run) {
  if (!run.failure().empty()) return run.failure();
  std::uint64_t work = run.ops_done();
  std::string unit = run.unit();
  for (auto& [key, value] : run.notes())
    if (key == "calls_checked") work = value, unit = "calls";
  const std::string done = std::to_string(work) + " " + unit + " checked";
  if (cli::interrupted()) return "not finished (interrupted), " + done;
  if (work == 0) return "nothing checked (the workload did no work)";
  return "linearizable, " + done;
}

int main_impl(int argc, char** argv) {
  Options o;
  cli::Parser p("lfcheck stress");
  bool help = false;
  p.flag("--help", [&] { help = true; });
  p.flag("--quiet", [&] { o.run.progress = false; });
  p.flag("--list", [&] { o.list = true; });
  p.flag("--list-faults", [&] { o.list_faults = true; });
  p.flag("--first-failure", [&] { o.first_failure = true; });
  p.option("--workload", [&](std::string_view v) { o.workload = v; });
  p.option("--lin-scenarios", [&](std::string_view v) {
    o.run.lin_scenarios = cli::parse_number(p.program(), "--lin-scenarios", v, 1, 100'000'000);
  });
  p.option("--lin-threads", [&](std::string_view v) {
    o.run.lin_threads = static_cast<unsigned>(cli::parse_number(p.program(), "--lin-threads", v, 2, 3));
  });
  p.option("--lin-ops", [&](std::string_view v) {
    o.run.lin_ops = static_cast<unsigned>(cli::parse_number(p.program(), "--lin-ops", v, 1, 8));
  });
  p.option("--threads", [&](std::string_view v) {
    o.run.threads = static_cast<unsigned>(cli::parse_number(p.program(), "--threads", v, 1, 256));
  });
  p.option("--ops", [&](std::string_view v) {
    o.run.ops = cli::parse_number(p.program(), "--ops", v, 1, 1'000'000'000'000'000ull);
  });
  p.option("--duration", [&](std::string_view v) {
    o.run.duration = cli::parse_seconds(p.program(), "--duration", v);
  });
  p.option("--seed", [&](std::string_view v) {
    o.run.seed = cli::parse_number(p.program(), "--seed", v, 0, UINT64_MAX);
    o.seed_given = true;
  });
  p.option("--fault", [&](std::string_view v) { o.fault = v; });
  p.option("--json", [&](std::string_view v) { o.json = v; });
  p.option("--artifacts", [&](std::string_view v) { o.artifacts = v; });
  p.option("--hang-seconds", [&](std::string_view v) {
    o.hang_seconds = cli::parse_seconds(p.program(), "--hang-seconds", v);
  });
  p.option("--junit", [&](std::string_view v) { o.junit = v; });
  cli::add_shard_option(p, o.shard);
  auto positional = p.parse(argc, argv);
  if (help) {
    std::fputs(kHelp, stdout);
    return cli::kPass;
  }
  if (const std::string why = sanitizer_reporting_disabled(); !why.empty()) cli::usage_error(p.program(), why);
  if (o.run.ops && o.run.duration > 0) cli::usage_error(p.program(), "give --ops or --duration, not both");
  if (!o.run.ops && o.run.duration <= 0) o.run.ops = 2'000'000;
  if (positional.size() > 1) cli::usage_error(p.program(), "at most one structure name");

  std::set<std::string> names;
  for (auto& e : stress_registry()) names.insert(e.structure);
  if (!positional.empty() && !names.count(positional[0])) {
    std::string known;
    for (auto& n : names) known += (known.empty() ? "" : ", ") + n;
    cli::usage_error(p.program(), "unknown structure '" + positional[0] + "' (known: " + known + ")");
  }
  if (!positional.empty()) o.structure = positional[0];
  if (o.list_faults) {
    print_fault_list(stdout, o.structure);
    return cli::kPass;
  }

  if (!o.fault.empty() && !is_known_fault(o.structure, o.fault))
    cli::usage_error(p.program(), "unknown fault '" + o.fault + "' (see ./lfcheck faults)");
  // The workloads this command runs, in registry order; with a fault, only those
  // of the structure that owns it.
  std::vector<const StressEntry*> selected;
  bool any_matched = false;
  for (auto& e : stress_registry())
    if ((o.structure.empty() || e.structure == o.structure) && workload_matches(o.workload, e)) {
      any_matched = true;
      if (o.fault.empty() || is_known_fault(e.structure, o.fault)) selected.push_back(&e);
    }
  if (!any_matched)
    cli::usage_error(p.program(), "no workload '" + o.workload + "'" +
                                      (o.structure.empty() ? "" : " for " + o.structure) + " (see --list)");
  if (selected.empty())
    cli::usage_error(p.program(), "fault '" + o.fault + "' belongs to no selected workload's structure");
  const std::size_t unsharded = selected.size();
  if (o.shard.sharded()) {
    std::vector<const StressEntry*> mine;
    for (std::size_t i = 0; i < selected.size(); ++i)
      if (o.shard.keeps(i)) mine.push_back(selected[i]);
    selected = std::move(mine);
  }
  if (o.list) {
    for (auto* e : selected)
      std::printf("%s/%s  %s\n", e->structure.c_str(), e->workload.c_str(), e->description.c_str());
    return cli::kPass;
  }
  if (o.shard.sharded()) {
    cli::acknowledge_sharding();
    if (selected.empty()) {
      std::fprintf(stderr, "%s: shard %s has no workload (%zu workloads, %llu shards): it checks nothing\n",
                   p.program().c_str(), o.shard.text().c_str(), unsharded,
                   static_cast<unsigned long long>(o.shard.total));
      return cli::kUsage;
    }
  }

  // A sanitizer ends the process on a report: a supervisor process then writes the
  // table, trace and short report the dying runner cannot (harness/stress/supervisor.hpp).
  if (std::strcmp(kSanitizerName, "none") != 0)
    supervise([&o](const std::string& captured, int status) { after_sanitizer_death(captured, status, o.json, o.junit); });

  if (!o.seed_given) o.run.seed = std::random_device{}() ^ (std::uint64_t(std::random_device{}()) << 32);
  // The seed first, before anything can go wrong.
  std::printf("seed: %llu\n", static_cast<unsigned long long>(o.run.seed));
  if (o.shard.sharded()) {
    std::printf("shard %s: %zu of the %zu workloads\n", o.shard.text().c_str(), selected.size(), unsharded);
    o.of_runs = unsharded;
    o.plan = command_line(o, o.structure.empty() ? "(all)" : o.structure, o.run.duration);
  }
  std::fflush(stdout);

  std::vector<RunRecord> runs;
  cli::catch_interrupts();  // in the runner (under a supervisor, the supervisor forwards the signals)
  install_death_callback(&on_death);
  // Any fatal signal the sanitizers leave to us (abort from std::terminate, or a
  // crash in the plain build) is recorded too.
  for (int sig : {SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV})
    if (std::strcmp(kSanitizerName, "none") == 0 || sig == SIGABRT) std::signal(sig, on_signal);
  StdSync::check_failure_handler().store(&on_check_failed, std::memory_order_release);
  // release: pairs with StressRun::hang's acquire load
  StressRun::hang_handler_slot().store(&on_workload_hang, std::memory_order_release);

  // --duration is the whole run's time: before each workload, the time left is
  // shared evenly by the workloads still to run (so one that overran costs the
  // others, not the deadline).
  std::size_t to_run = selected.size();
  // A shard gets its workloads' shares of the unsharded --duration.
  const double total_duration = o.run.duration * static_cast<double>(selected.size()) / static_cast<double>(unsharded);
  const auto run_deadline = std::chrono::steady_clock::now() +
                            std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(total_duration));
  if (total_duration > 0) o.nominal_share = o.run.nominal_duration = o.run.duration / static_cast<double>(unsharded);
  if (o.hang_seconds <= 0) o.hang_seconds = o.run.duration > 0 ? std::clamp(o.run.duration / 4, 5.0, 60.0) : 60.0;
  o.run.hang_seconds = o.hang_seconds;

  bool all_passed = true;
  for (auto* e : selected) {
    if (cli::interrupted()) {  // not started: the command was interrupted
      runs.push_back(record(o, *e, 0, 0, "", e->unit, true));
      std::printf("%s/%s: INTERRUPTED before it started\n", e->structure.c_str(), e->workload.c_str());
      continue;
    }
    if (total_duration > 0) {
      // At least 10 ms: a workload that runs gets to do some work (run_rounds runs a round anyway).
      const double left = std::chrono::duration<double>(run_deadline - std::chrono::steady_clock::now()).count();
      o.run.duration = std::max(left / static_cast<double>(to_run), 0.01);
    }
    if (to_run) --to_run;
    prepare_death_plan(o, *e, runs);
    // A TSan report ends the run, but not a lin.* workload's: it runs to its end, and
    // its record gives both findings (harness/stress/sanitizer_findings.hpp).
    tsan_reports_begin(e->workload.rfind("lin.", 0) == 0);
    const auto start = std::chrono::steady_clock::now();
    StressRun run(o.run, "stress " + e->structure + "/" + e->workload);
    current_run = &run;
    {
      HangWatchdog watchdog(o, *e, run, runs);
      e->run(run, o.fault);
    }
    current_run = nullptr;
    // The workload's objects are gone: what LeakSanitizer finds now leaked in this run.
    if (leaks_reported_now()) run.fail("LeakSanitizer: memory leak (see the report above)");
    death.armed.store(false, std::memory_order_release);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const TsanFindings tsan = tsan_findings();
    const std::string lin = tsan.reports ? lin_words(run) : "";
    const std::string failure = tsan.reports ? tsan.words() + "; lin: " + lin : run.failure();
    RunRecord r = record(o, *e, run.ops_done(), seconds, failure, run.unit(), cli::interrupted());
    for (auto& [key, value] : run.notes()) r.num(key, value);
    if (tsan.reports) add_tsan_findings(r, tsan, lin);
    std::printf("%s/%s: %s  %llu %s  %.2fs  %.0f %s/s  (%s threads, %s)\n", e->structure.c_str(),
                e->workload.c_str(),
                r.passed() ? "pass" : r.verdict == Verdict::fail ? "FAIL" : cli::interrupted() ? "INTERRUPTED" : "ERROR",
                static_cast<unsigned long long>(run.ops_done()), run.unit(), seconds,
                seconds > 0 ? run.ops_done() / seconds : 0.0, run.unit(), r.get("threads").c_str(), kSanitizerName);
    if (r.verdict == Verdict::error) {
      all_passed = false;
      std::printf("  error: %s\n", r.failure.c_str());
    } else if (!r.passed()) {
      all_passed = false;
      std::printf("  failure: %s\n", r.failure.c_str());
      const auto history = run.recent_history();
      const std::string file = write_artifacts(o, *e, r.failure, &history);
      std::printf("  replay: %s\n", r.get("replay").c_str());
      if (!file.empty()) std::printf("  %s\n", replay_file_line(file).c_str());
    }
    runs.push_back(std::move(r));
    std::fflush(stdout);
    if (!all_passed && o.first_failure && !cli::interrupted()) break;
  }
  std::size_t failed = 0, errors = 0, interrupted = 0;
  for (auto& r : runs) {
    failed += r.verdict == Verdict::fail;
    interrupted += r.get("stopped") == "interrupt";
    errors += r.verdict == Verdict::error && r.get("stopped") != "interrupt";
  }
  std::printf("stress: %zu runs, %zu passed, %zu failed%s%s\n", runs.size(), runs.size() - failed - errors - interrupted,
              failed, errors ? (", " + std::to_string(errors) + " did no work (error)").c_str() : "",
              interrupted ? (", " + std::to_string(interrupted) + " interrupted (error)").c_str() : "");
  if (interrupted)
    std::fprintf(stderr, "lfcheck stress: interrupted (signal %d): %zu of %zu runs did not finish\n",
                 cli::interrupting_signal(), interrupted, runs.size());
  if (!o.json.empty() && !write_runs_json(o.json, runs)) return cli::kUsage;
  if (!o.junit.empty() && !write_junit(o.junit, "lfcheck.stress", runs, {"workload"})) return cli::kUsage;
  return exit_status(runs);
}

}  // namespace
}  // namespace lfcheck

#if defined(LFCHECK_TSAN)
// TSan calls this after it printed a report (it runs with halt_on_error=0): a lin.*
// workload goes on and the report is counted; in any other, the report ends the process
// as halt_on_error=1 did: the death callback, then exit status 1 (exit_group directly,
// as TSan's own Die(): under TSan's report lock, exit() would re-enter the runtime).
extern "C" LFCHECK_NOT_SANITIZED void __tsan_on_report(void* report) {
  if (lfcheck::record_tsan_report(report)) return;
  lfcheck::on_death();
  ::syscall(SYS_exit_group, lfcheck::cli::kCheckFailed);
}
#endif

int main(int argc, char** argv) { return lfcheck::main_impl(argc, argv); }
