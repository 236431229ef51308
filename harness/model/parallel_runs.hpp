// Runs a plan of independent runs in parallel worker processes (`--jobs N`) and
// hands back their records in plan order.
//
// Guarantees of run_in_parallel(count, jobs, first_failure, show_progress, run_item, crashed, done):
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
//    says error, "CRASHED (signal N)": the run did not finish, so it is no verdict
//    on the code either way — never a pass; a crash in scenario code is contained
//    in the worker and reported as the verdict CRASH: SIGNAL, harness/model/crash.hpp).
//  - `done(i, record)` is called in the parent as each record arrives (progress).
//  - Progress (show_progress): each child's progress line (harness/cli/progress.hpp)
//    comes to the parent through a pipe of its own; the parent shows the latest line
//    of every running child — on a terminal one line updated in place ("A | B",
//    cut to the terminal's width), else every 10 s one line per running child — so
//    a long run shows its progress whatever else runs beside it. Before, --jobs N
//    showed none (N children updating one terminal line would garble it).
//  - An interrupted command (SIGINT, SIGTERM: harness/cli/interrupt.hpp): no item
//    is started, and each running child gets SIGTERM once; a child stops as the
//    command does (its runner records the run as interrupted) and hands back its
//    record. A child that dies of SIGINT or SIGTERM then has no record (not a crash).
//
// Transport: each child writes its record to a temporary file, length-prefixed
// strings (fields, verdict, failure, details), read back after it exits.
//
// Cost: one fork per run (the parent's pages are shared copy-on-write); jobs == 1
// runs everything in this process, no fork.
#pragma once

#include <poll.h>
#include <sys/ioctl.h>

#include <cerrno>
#include <chrono>
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

#include "harness/cli/interrupt.hpp"
#include "harness/cli/progress.hpp"
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

// The latest progress line of every running child, shown by the parent.
class ChildProgress {
 public:
  explicit ChildProgress(bool enabled)
      : enabled_(enabled), tty_(isatty(STDERR_FILENO) != 0 || std::getenv("LFCHECK_STDERR_TTY") != nullptr),
        last_(std::chrono::steady_clock::now()) {}
  // Reads what child i's pipe holds; false once the child closed it.
  bool read_from(std::size_t i, int fd) {
    char buf[4096];
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) return errno == EINTR || errno == EAGAIN;
    if (n == 0) return false;
    std::string& pending = partial_[i];
    pending.append(buf, static_cast<std::size_t>(n));
    for (auto nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n')) {
      latest_[i] = pending.substr(0, nl);
      pending.erase(0, nl + 1);
    }
    return true;
  }
  void forget(std::size_t i) {
    latest_.erase(i);
    partial_.erase(i);
  }
  // Shows the running children's latest lines if it is time to (see the top).
  void show() {
    if (!enabled_ || latest_.empty()) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_).count() < (tty_ ? 0.25 : 10.0)) return;
    last_ = now;
    if (!tty_) {
      for (auto& [i, line] : latest_) std::fprintf(stderr, "%s\n", line.c_str());
    } else {
      std::string all;
      for (auto& [i, line] : latest_) all += (all.empty() ? "" : " | ") + line;
      std::size_t width = 160;
      winsize w{};
      if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 1) width = w.ws_col - 1;
      if (all.size() > width) all.resize(width);
      std::fprintf(stderr, "\r\033[K%s", all.c_str());
      shown_ = true;
    }
    std::fflush(stderr);
  }
  // Clears the terminal line before the parent prints anything else.
  void clear() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  bool enabled_, tty_, shown_ = false;
  std::chrono::steady_clock::time_point last_;
  std::map<std::size_t, std::string> latest_, partial_;
};

inline std::vector<std::optional<RunRecord>> run_in_parallel(
    std::size_t count, unsigned jobs, bool first_failure, bool show_progress,
    const std::function<RunRecord(std::size_t)>& run_item,
    const std::function<RunRecord(std::size_t, const std::string& why)>& crashed,
    const std::function<void(std::size_t, const RunRecord&)>& done) {
  std::vector<std::optional<RunRecord>> results(count);
  if (jobs <= 1) {
    for (std::size_t i = 0; i < count && !cli::interrupted(); ++i) {
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

  struct Child {
    std::size_t item;
    int progress_fd;  // the read end of its progress pipe; -1 once closed
  };
  std::map<pid_t, Child> running;
  std::vector<bool> finished(count, false);
  std::size_t next = 0, printed = 0;
  bool stop = false, stopping_children = false;
  ChildProgress progress(show_progress);
  std::fflush(stdout);
  std::fflush(stderr);
  auto print_ready = [&] {  // captured output, in plan order, as far as items have finished
    while (printed < count && (finished[printed] || ((stop || cli::interrupted()) && running.empty()))) {
      if (finished[printed]) std::fputs(detail::slurp(output_path(printed)).c_str(), stdout);
      ++printed;
    }
    std::fflush(stdout);
  };
  auto reap = [&](pid_t pid, int status) {
    auto it = running.find(pid);
    if (it == running.end()) return;
    const std::size_t i = it->second.item;
    if (it->second.progress_fd >= 0) ::close(it->second.progress_fd);
    running.erase(it);
    progress.forget(i);
    if (stop) return;  // stopped after the first failure: no record
    RunRecord r;
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0 && detail::read_record(record_path(i), r))) {
      // Stopped by the interrupt before it could hand back a record: not a crash.
      if (cli::interrupted() && WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM))
        return;
      r = crashed(i, WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                         : "exit " + std::to_string(WEXITSTATUS(status)));
    }
    progress.clear();
    finished[i] = true;
    results[i] = std::move(r);
    done(i, *results[i]);
    if (first_failure && results[i]->verdict == Verdict::fail) {
      stop = true;
      for (auto& [other, child] : running) kill(other, SIGTERM);
    }
    print_ready();
  };
  while (true) {
    while (!stop && !cli::interrupted() && next < count && running.size() < jobs) {
      const std::size_t i = next++;
      int fds[2] = {-1, -1};
      if (::pipe(fds) != 0) fds[0] = fds[1] = -1;
      const pid_t pid = fork();
      if (pid < 0) {
        std::perror("lfcheck: fork");
        std::exit(2);
      }
      if (pid == 0) {
        if (!std::freopen(output_path(i).c_str(), "w", stdout)) _exit(2);
        for (auto& [other, child] : running)
          if (child.progress_fd >= 0) ::close(child.progress_fd);
        if (fds[0] >= 0) ::close(fds[0]);
        progress_pipe() = fds[1];
        const RunRecord r = run_item(i);
        std::fflush(stdout);
        _exit(detail::write_record(record_path(i), r) ? 0 : 2);
      }
      if (fds[1] >= 0) ::close(fds[1]);
      running[pid] = {i, fds[0]};
    }
    if (running.empty()) break;
    if (cli::interrupted() && !stopping_children) {
      stopping_children = true;
      for (auto& [pid, child] : running) kill(pid, SIGTERM);
    }
    // Wait for progress lines or a child's end (its pipe closes), a quarter second at most.
    std::vector<pollfd> watch;
    std::vector<pid_t> whose;
    for (auto& [pid, child] : running)
      if (child.progress_fd >= 0) watch.push_back({child.progress_fd, POLLIN, 0}), whose.push_back(pid);
    if (watch.empty()) {
      int status = 0;
      const pid_t pid = waitpid(-1, &status, 0);
      if (pid > 0) reap(pid, status);
      else if (errno != EINTR) break;
      continue;
    }
    if (::poll(watch.data(), watch.size(), 250) > 0) {
      for (std::size_t k = 0; k < watch.size(); ++k) {
        if (!watch[k].revents) continue;
        Child& child = running[whose[k]];
        if (!progress.read_from(child.item, child.progress_fd)) {
          ::close(child.progress_fd);
          child.progress_fd = -1;
        }
      }
    }
    for (int status = 0;;) {
      const pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid <= 0) break;
      reap(pid, status);
    }
    progress.show();
  }
  progress.clear();
  print_ready();
  for (std::size_t i = 0; i < next; ++i) unlink(record_path(i).c_str()), unlink(output_path(i).c_str());
  rmdir(dir.c_str());
  return results;
}

}  // namespace lfcheck
