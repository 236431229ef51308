// Progress of a long run on stderr: elapsed time, work done, rate and an ETA when
// the total is known. One updating line on a terminal; on a pipe or file, a
// plain line every 10 seconds so CI logs show the run is alive. In a forked worker
// (--jobs N) the lines go to the parent, which shows every running worker's
// (harness/model/parallel_runs.hpp).
//
// A search whose total is not known (Relacy's bound and full searches) says so:
// update_search() prints the executions, elapsed time and rate, and either an
// estimate of the total — always labelled "estimate", from the explored fraction
// of harness/model/tree_estimate.hpp — or "total unknown" while that fraction is too
// small to mean anything. It never prints an ETA as if the total were known.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

namespace lfcheck {

// Where progress lines go: the terminal (stderr, -1), or, in a forked worker of
// harness/model/parallel_runs.hpp, a pipe to its parent, which shows the lines of
// all its running workers (one line per write: shorter than PIPE_BUF, so whole).
inline int& progress_pipe() {
  static int fd = -1;
  return fd;
}

class ProgressLine {
 public:
  ProgressLine(std::string label, bool enabled, std::string unit = "iterations")
      : label_(std::move(label)), unit_(std::move(unit)), enabled_(enabled),
        tty_(isatty(STDERR_FILENO) != 0 || std::getenv("LFCHECK_STDERR_TTY") != nullptr), start_(std::chrono::steady_clock::now()), last_(start_) {}

  // total == 0: unknown.
  void update(std::uint64_t done, std::uint64_t total) {
    if (!due()) return;
    const double elapsed = std::chrono::duration<double>(last_ - start_).count();
    const double rate = elapsed > 0 ? done / elapsed : 0;
    char eta[48] = "";
    if (total > done && rate > 0) std::snprintf(eta, sizeof eta, "  ETA %.0fs", (total - done) / rate);
    char totals[48] = "";
    if (total) std::snprintf(totals, sizeof totals, "/%llu", static_cast<unsigned long long>(total));
    char line[384];
    std::snprintf(line, sizeof line, "[%s] %llu%s %s  %.1fs  %.0f/s%s", label_.c_str(),
                  static_cast<unsigned long long>(done), totals, unit_.c_str(), elapsed, rate, eta);
    emit(line);
  }
  // A tree search: `done` executions, `fraction` of the tree explored (an
  // estimate, 0 when nothing is known yet); `note`: the search's own counts
  // (DPOR: sleep-set blocked executions).
  void update_search(std::uint64_t done, double fraction, const char* note = "") {
    if (!due()) return;
    const double elapsed = std::chrono::duration<double>(last_ - start_).count();
    const double rate = elapsed > 0 ? done / elapsed : 0;
    char guess[128] = "  total unknown";
    // Below 1e-6 (or before 100 executions) the fraction is mostly the first
    // branches' luck: an "estimate" from it would be noise presented as a number.
    if (fraction >= 1e-6 && done >= 100 && fraction < 1) {
      const double total = done / fraction;
      char left[16];
      duration(rate > 0 ? (total - done) / rate : 0, left);
      std::snprintf(guess, sizeof guess, "  estimate: %.2g%% explored, ~%.2g executions in all, ~%s left",
                    fraction * 100, total, left);
    }
    char line[384];
    std::snprintf(line, sizeof line, "[%s] %llu executions%s  %.1fs  %.0f/s%s", label_.c_str(),
                  static_cast<unsigned long long>(done), note, elapsed, rate, guess);
    emit(line);
  }
  void set_unit(std::string unit) { unit_ = std::move(unit); }
  void finish() {
    if (enabled_ && tty_ && shown_ && progress_pipe() < 0) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  // One line: to the parent's pipe, or to the terminal (updated in place) or a log.
  // No allocation (called from inside a simulation).
  void emit(const char* line) {
    if (progress_pipe() >= 0) {
      char out[400];
      const int n = std::snprintf(out, sizeof out, "%s\n", line);
      if (n > 0) (void)!::write(progress_pipe(), out, static_cast<std::size_t>(n) < sizeof out ? n : sizeof out - 1);
    } else {
      std::fprintf(stderr, "%s%s%s", tty_ ? "\r\033[K" : "", line, tty_ ? "" : "\n");
      std::fflush(stderr);
    }
    shown_ = true;
  }
  // Whether a line is due now (0.25 s on a terminal, 0.5 s to a parent, 10 s
  // otherwise); if so, now is the last one.
  bool due() {
    if (!enabled_) return false;
    const auto now = std::chrono::steady_clock::now();
    const double every = progress_pipe() >= 0 ? 0.5 : tty_ ? 0.25 : 10.0;
    if (std::chrono::duration<double>(now - last_).count() < every) return false;
    last_ = now;
    return true;
  }
  // <1s, 42s, 17m, 3.2h, 4.1d: a coarse duration (an estimate deserves no more
  // digits), into buf: no allocation (called from inside a simulation).
  static void duration(double s, char (&buf)[16]) {
    if (s < 1) std::snprintf(buf, sizeof buf, "<1s");
    else if (s < 120) std::snprintf(buf, sizeof buf, "%.0fs", s);
    else if (s < 7200) std::snprintf(buf, sizeof buf, "%.0fm", s / 60);
    else if (s < 172800) std::snprintf(buf, sizeof buf, "%.1fh", s / 3600);
    else std::snprintf(buf, sizeof buf, "%.1fd", s / 86400);
  }
  std::string label_, unit_;
  bool enabled_, tty_, shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace lfcheck
