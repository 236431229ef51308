// Progress of a long run on stderr: elapsed time, work done, rate and an ETA when
// the total is known. One updating line on a terminal; on a pipe or file, a
// plain line every 10 seconds so CI logs show the run is alive.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <streambuf>
#include <string>
#include <unistd.h>

namespace lfcheck {

class ProgressLine {
 public:
  ProgressLine(std::string label, bool enabled, std::string unit = "iterations")
      : label_(std::move(label)), unit_(std::move(unit)), enabled_(enabled),
        tty_(isatty(STDERR_FILENO) != 0 || std::getenv("LFCHECK_STDERR_TTY") != nullptr), start_(std::chrono::steady_clock::now()), last_(start_) {}

  // total == 0: unknown.
  void update(std::uint64_t done, std::uint64_t total) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    const double since_last = std::chrono::duration<double>(now - last_).count();
    if (since_last < (tty_ ? 0.25 : 10.0)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double rate = elapsed > 0 ? done / elapsed : 0;
    char eta[48] = "";
    if (total > done && rate > 0) std::snprintf(eta, sizeof eta, "  ETA %.0fs", (total - done) / rate);
    char totals[48] = "";
    if (total) std::snprintf(totals, sizeof totals, "/%llu", static_cast<unsigned long long>(total));
    std::fprintf(stderr, "%s[%s] %llu%s %s  %.1fs  %.0f/s%s%s", tty_ ? "\r\033[K" : "",
                 label_.c_str(), static_cast<unsigned long long>(done), totals, unit_.c_str(),
                 elapsed, rate, eta, tty_ ? "" : "\n");
    std::fflush(stderr);
    shown_ = true;
  }
  void finish() {
    if (enabled_ && tty_ && shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  std::string label_, unit_;
  bool enabled_, tty_, shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// An ostream for Relacy's progress_stream: it writes lines "P% (iter/total)";
// each one becomes a ProgressLine update.
class ProgressStream : public std::ostream {
  class Buf : public std::streambuf {
   public:
    explicit Buf(ProgressLine& line) : line_(line) {}

   protected:
    int overflow(int c) override {
      // No allocation here: Relacy calls this from inside a simulation.
      if (c == '\n') {
        text_[length_] = 0;
        unsigned long long done = 0, total = 0;
        const char* open = std::strchr(text_, '(');
        if (open && std::sscanf(open, "(%llu/%llu)", &done, &total) == 2) line_.update(done, total);
        length_ = 0;
      } else if (c != EOF && length_ + 1 < sizeof text_) {
        text_[length_++] = static_cast<char>(c);
      }
      return c;
    }

   private:
    ProgressLine& line_;
    char text_[128] = {};
    std::size_t length_ = 0;
  };

 public:
  explicit ProgressStream(ProgressLine& line) : std::ostream(nullptr), buf_(line) { rdbuf(&buf_); }

 private:
  Buf buf_;
};

}  // namespace lfcheck
