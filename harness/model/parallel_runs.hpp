// Runs a plan of independent runs in parallel worker processes (`--jobs N`) and
// hands back their records in plan order.
//
// Guarantees of run_in_parallel(count, jobs, first_failure, run_item, done):
//  - Item i runs in a forked child process of its own (Relacy's context is a
//    process-wide global: one simulation per process), at most `jobs` at a time,
//    started in plan order. What the child prints on stdout (a failure's table,
//    its artifact paths) is captured and printed by the parent in plan order, so
//    the output of `--jobs N` reads like that of one job.
//  - The records come back in plan order, whatever order the children finish in;
//    results[i] is empty only for an item that was not run to its end (see next).
//  - first_failure: after the first record with verdict fail arrives, no item is
//    started and the running children are stopped (SIGTERM to each by its pid);
//    their items, and those never started, have no record. Which failure is
//    "first" is the first to finish, so with several failing items the set of
//    records may differ from one job's; each record is still exactly its run's.
//  - A child that dies without handing back its record (a signal, an exit before
//    the end) yields the record crashed(i, why) — the caller's (the model runner
//    says fail, "CRASHED (signal N)": a crash of checked code under some schedule
//    is a bug found, never a pass).
//  - `done(i, record)` is called in the parent as each record arrives (progress).
//
// Transport: each child writes its record to a temporary file, length-prefixed
// strings (fields, verdict, failure, details), read back after it exits.
//
// Cost: one fork per run (the parent's pages are shared copy-on-write); jobs == 1
// runs everything in this process, no fork.
#pragma once

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "harness/report/report.hpp"

namespace lfcheck {

namespace detail {

inline void put_string(std::FILE* f, const std::string& s) {
  std::fprintf(f, "%zu:", s.size());
  std::fwrite(s.data(), 1, s.size(), f);
}

inline bool get_string(std::FILE* f, std::string& s) {
  std::size_t n = 0;
  if (std::fscanf(f, "%zu:", &n) != 1) return false;
  s.resize(n);
  return std::fread(s.data(), 1, n, f) == n;
}

inline bool write_record(const std::string& path, const RunRecord& r) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  std::fprintf(f, "%d %zu ", static_cast<int>(r.verdict), r.fields.size());
  for (auto& [k, v] : r.fields) put_string(f, k), put_string(f, v);
  put_string(f, r.failure);
  put_string(f, r.details);
  return std::fclose(f) == 0;
}

inline bool read_record(const std::string& path, RunRecord& r) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  int verdict = 0;
  std::size_t n = 0;
  bool ok = std::fscanf(f, "%d %zu ", &verdict, &n) == 2 && verdict >= 0 && verdict <= 2;
  r.verdict = static_cast<Verdict>(verdict);
  for (std::size_t i = 0; ok && i < n; ++i) {
    std::string k, v;
    ok = get_string(f, k) && get_string(f, v);
    r.fields.emplace_back(std::move(k), std::move(v));
  }
  ok = ok && get_string(f, r.failure) && get_string(f, r.details);
  std::fclose(f);
  return ok;
}

inline std::string slurp(const std::string& path) {
  std::string out;
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
    std::fclose(f);
  }
  return out;
}

}  // namespace detail

inline std::vector<std::optional<RunRecord>> run_in_parallel(
    std::size_t count, unsigned jobs, bool first_failure, const std::function<RunRecord(std::size_t)>& run_item,
    const std::function<RunRecord(std::size_t, const std::string& why)>& crashed,
    const std::function<void(std::size_t, const RunRecord&)>& done) {
  std::vector<std::optional<RunRecord>> results(count);
  if (jobs <= 1) {
    for (std::size_t i = 0; i < count; ++i) {
      results[i] = run_item(i);
      std::fflush(stdout);
      done(i, *results[i]);
      if (first_failure && results[i]->verdict == Verdict::fail) break;
    }
    return results;
  }

  char scratch[] = "/tmp/lfcheck-jobs-XXXXXX";
  if (!mkdtemp(scratch)) {
    std::perror("lfcheck: mkdtemp");
    std::exit(2);
  }
  const std::string dir = scratch;
  auto record_path = [&](std::size_t i) { return dir + "/" + std::to_string(i) + ".record"; };
  auto output_path = [&](std::size_t i) { return dir + "/" + std::to_string(i) + ".out"; };

  std::map<pid_t, std::size_t> running;
  std::vector<bool> finished(count, false);
  std::size_t next = 0, printed = 0;
  bool stop = false;
  std::fflush(stdout);
  std::fflush(stderr);
  auto print_ready = [&] {  // captured output, in plan order, as far as items have finished
    while (printed < count && (finished[printed] || (stop && running.empty()))) {
      if (finished[printed]) std::fputs(detail::slurp(output_path(printed)).c_str(), stdout);
      ++printed;
    }
    std::fflush(stdout);
  };
  while (true) {
    while (!stop && next < count && running.size() < jobs) {
      const std::size_t i = next++;
      const pid_t pid = fork();
      if (pid < 0) {
        std::perror("lfcheck: fork");
        std::exit(2);
      }
      if (pid == 0) {
        if (!std::freopen(output_path(i).c_str(), "w", stdout)) _exit(2);
        const RunRecord r = run_item(i);
        std::fflush(stdout);
        _exit(detail::write_record(record_path(i), r) ? 0 : 2);
      }
      running[pid] = i;
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) break;
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const std::size_t i = it->second;
    running.erase(it);
    if (stop) continue;  // stopped after the first failure: no record
    RunRecord r;
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0 && detail::read_record(record_path(i), r)))
      r = crashed(i, WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                         : "exit " + std::to_string(WEXITSTATUS(status)));
    finished[i] = true;
    results[i] = std::move(r);
    done(i, *results[i]);
    if (first_failure && results[i]->verdict == Verdict::fail) {
      stop = true;
      for (auto& [other, item] : running) kill(other, SIGTERM);
    }
    print_ready();
  }
  print_ready();
  for (std::size_t i = 0; i < next; ++i) unlink(record_path(i).c_str()), unlink(output_path(i).c_str());
  rmdir(dir.c_str());
  return results;
}

}  // namespace lfcheck
