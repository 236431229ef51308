// ThreadSanitizer reports as findings of a run, and when they end it.
//
// TSan runs with halt_on_error=0 (sanitizer_configs/tsan.options) and calls the runner's
// report hook (__tsan_on_report, harness/stress/main.cpp) after it printed each report.
// The hook asks record_tsan_report():
//  - in a workload that keeps going after reports (the lin.* workloads: their
//    linearizability verdict does not depend on the report), the report is counted and
//    the first one's description and stack addresses are kept; the workload runs to its
//    end, and the runner then gives both findings in its record (tsan_findings_words);
//  - in every other workload, the hook ends the process as halt_on_error=1 did: the
//    death callback, then exit status 1.
// The hook runs inside TSan's report, under its report lock: it neither allocates nor
// locks, and writes only the fixed buffers below, which the runner reads after the
// workload's threads were joined.
//
// After the workload, the first report's top frame is symbolized, and its stacks'
// modules are judged (harness/stress/uninstrumented.hpp): a module built without TSan
// labels the report "possibly through code built without TSan"; when every module is
// built with TSan, the shared objects the process loaded without it are named as a
// hint (their synchronization, which no frame shows, may be what TSan could not see).
//
// Cost: nothing until a report; per report, a copy of at most 4 x 64 addresses.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/stress/run.hpp"
#include "harness/stress/sanitizer.hpp"
#include "harness/stress/sanitizer_report.hpp"
#include "harness/stress/uninstrumented.hpp"

#if defined(LFCHECK_TSAN)
extern "C" {
// TSan's report API (compiler-rt tsan_interface.h; not in the installed headers).
int __tsan_get_report_data(void* report, const char** description, int* count, int* stack_count, int* mop_count,
                           int* loc_count, int* mutex_count, int* thread_count, int* unique_tid_count,
                           void** sleep_trace, unsigned long trace_size);
int __tsan_get_report_stack(void* report, unsigned long idx, void** trace, unsigned long trace_size);
int __tsan_get_report_mop(void* report, unsigned long idx, int* tid, void** addr, int* size, int* write,
                          int* atomic, void** trace, unsigned long trace_size);
}
#endif

namespace lfcheck {

struct TsanFirstReport {
  static constexpr std::size_t kStacks = 4, kFrames = 64;
  char description[64] = {};          // TSan's words: "data-race", "heap-use-after-free", ...
  void* frames[kStacks][kFrames] = {};  // the report's access stacks, then its other stacks
};

namespace detail {
// Whether the workload now running keeps going after a TSan report (set by the runner
// before and after each workload, no thread of it running). Release/acquire: the hook's
// load on a worker thread pairs with the runner's store before it started the threads
// (which orders it anyway); relaxed would do, the orders make it plain.
inline std::atomic<bool> tsan_keep_going{false};
// Reports since the workload started. The hook runs under TSan's report lock (one report
// at a time): its release increment publishes tsan_first to the runner's acquire load.
inline std::atomic<unsigned> tsan_reports{0};
inline TsanFirstReport tsan_first;
}  // namespace detail

// The runner, before a workload: whether a TSan report lets it go on; no report yet.
inline void tsan_reports_begin(bool keep_going) {
  detail::tsan_reports.store(0, std::memory_order_relaxed);  // no report hook runs between workloads
  detail::tsan_first = TsanFirstReport{};
  detail::tsan_keep_going.store(keep_going, std::memory_order_release);  // pairs with the hook's acquire load
}

// The hook's part (TSan builds): counts the report and keeps the first one's words and
// stacks; true if the workload goes on, false if the report must end the process.
LFCHECK_NOT_SANITIZED inline bool record_tsan_report([[maybe_unused]] void* report) {
  if (!detail::tsan_keep_going.load(std::memory_order_acquire)) return false;  // pairs with tsan_reports_begin
#if defined(LFCHECK_TSAN)
  if (detail::tsan_reports.load(std::memory_order_relaxed) == 0) {  // the report lock orders the hook's calls
    TsanFirstReport& first = detail::tsan_first;
    const char* description = nullptr;
    int count = 0, stacks = 0, mops = 0, locs = 0, mutexes = 0, threads = 0, tids = 0;
    void* sleep = nullptr;
    if (__tsan_get_report_data(report, &description, &count, &stacks, &mops, &locs, &mutexes, &threads, &tids,
                               &sleep, 1)) {
      for (std::size_t i = 0; description && description[i] && i + 1 < sizeof first.description; ++i)
        first.description[i] = description[i];
      std::size_t kept = 0;
      for (int m = 0; m < mops && kept < TsanFirstReport::kStacks; ++m) {
        int tid = 0, size = 0, write = 0, atomic = 0;
        void* addr = nullptr;
        __tsan_get_report_mop(report, static_cast<unsigned long>(m), &tid, &addr, &size, &write, &atomic,
                              first.frames[kept++], TsanFirstReport::kFrames);
      }
      for (int s = 0; s < stacks && kept < TsanFirstReport::kStacks; ++s)
        __tsan_get_report_stack(report, static_cast<unsigned long>(s), first.frames[kept++], TsanFirstReport::kFrames);
    }
  }
#endif
  detail::tsan_reports.fetch_add(1, std::memory_order_release);  // pairs with tsan_findings()'s acquire load
  return true;
}

// What the reports of the workload that just ended found: nothing (reports == 0), or
// their count, the first one's summary and the modules that may explain it.
struct TsanFindings {
  unsigned reports = 0;
  std::string first;                    // "data race probe_lin_race.cpp:28 in Subject::run(…)"
  std::vector<std::string> uninstrumented;  // modules of its stacks built without TSan
  std::vector<std::string> loaded;      // else: loaded modules built without TSan (a hint)
  // "ThreadSanitizer: 2 reports (first: ...), possibly through code built without TSan (libx.so)"
  std::string words() const;
};

namespace detail {

inline std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// "data race FILE:LINE in FUNCTION" for the first report's top frame.
inline std::string first_report_summary([[maybe_unused]] const TsanFirstReport& first) {
  std::string kind = first.description[0] ? first.description : "report";
  for (char& c : kind)
    if (c == '-') c = ' ';
#if defined(LFCHECK_TSAN)
  for (const auto& stack : first.frames) {
    if (!stack[0]) continue;
    char text[1024] = {};
    // The frames hold return-style addresses, as the symbolizer expects.
    __sanitizer_symbolize_pc(stack[0], "%s\x1f%l\x1f%f", text, sizeof text);
    const std::string line = text;
    const auto a = line.find('\x1f'), b = a == std::string::npos ? a : line.find('\x1f', a + 1);
    if (b == std::string::npos) break;
    const std::string file = line.substr(0, a), number = line.substr(a + 1, b - a - 1), function = line.substr(b + 1);
    if (file.empty() || file == "<null>") break;
    return kind + " " + short_path(file) + (number.empty() || number == "0" ? "" : ":" + number) + " in " +
           short_function(function);
  }
#endif
  return kind;
}

// The base names of the modules the first report's frames are in.
inline std::vector<std::string> first_report_modules([[maybe_unused]] const TsanFirstReport& first) {
  std::vector<std::string> out;
#if defined(LFCHECK_TSAN)
  for (const auto& stack : first.frames)
    for (void* pc : stack) {
      if (!pc) break;
      char module[4096] = {};
      void* offset = nullptr;
      if (!__sanitizer_get_module_and_offset_for_pc(pc, module, sizeof module, &offset)) continue;
      const std::string path = module;
      bool seen = false;
      for (const auto& m : out) seen = seen || m == path;
      if (!seen && !path.empty()) out.push_back(path);
    }
#endif
  return out;
}

}  // namespace detail

// The findings of the workload that just ended (its threads joined).
inline TsanFindings tsan_findings() {
  TsanFindings f;
  f.reports = detail::tsan_reports.load(std::memory_order_acquire);  // pairs with the hook's release
  detail::tsan_keep_going.store(false, std::memory_order_release);   // reports end the run again
  if (f.reports == 0) return f;
  f.first = detail::first_report_summary(detail::tsan_first);
  f.uninstrumented = built_without_tsan(detail::first_report_modules(detail::tsan_first));
  if (f.uninstrumented.empty()) f.loaded = loaded_without_tsan();
  return f;
}

inline std::string TsanFindings::words() const {
  std::string out = "ThreadSanitizer: " + std::to_string(reports) + (reports == 1 ? " report" : " reports") +
                    " (first: " + first + ")";
  if (!uninstrumented.empty())
    out += ", possibly through code built without TSan (" + detail::joined(uninstrumented) + ")";
  else if (!loaded.empty())
    out += "; its stacks are all in code built with TSan, and the process loaded code built without it, which may "
           "synchronize what TSan cannot see (" + detail::joined(loaded) + ")";
  return out;
}

}  // namespace lfcheck
