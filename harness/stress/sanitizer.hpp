// Which sanitizer this binary was built with, the hook that lets a run be
// recorded as failed when the sanitizer ends the process on a report, and the two
// guards that keep a sanitizer's findings in the run's verdict:
//  - sanitizer_reporting_disabled(): environment options (TSAN_OPTIONS, ...) that
//    would stop reports from ending the run with exit 1, hide them, or replace the
//    compiled-in option files are refused (the runner exits 2): with
//    halt_on_error=0 a report gave "pass" and exit 1, with report_bugs=0 "pass" and
//    exit 0 — a run that checked nothing TSan would.
//  - leaks_reported_now(): LeakSanitizer's check, run after each workload, so a
//    leak fails that workload's record (JSON, JUnit, replay line) instead of only
//    the exit status at exit.
#pragma once

#include <cstdlib>
#include <string>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LFCHECK_TSAN 1
#endif
#if __has_feature(address_sanitizer)
#define LFCHECK_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define LFCHECK_TSAN 1
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LFCHECK_ASAN 1
#endif

#if defined(LFCHECK_TSAN) || defined(LFCHECK_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(LFCHECK_ASAN)
#include <sanitizer/lsan_interface.h>
#endif

namespace lfcheck {

#if defined(LFCHECK_TSAN)
inline constexpr const char* kSanitizerName = "thread";
inline constexpr const char* kSanitizerReportKind = "ThreadSanitizer report";
#elif defined(LFCHECK_ASAN)
inline constexpr const char* kSanitizerName = "address";
inline constexpr const char* kSanitizerReportKind = "AddressSanitizer/UBSan report";
#else
inline constexpr const char* kSanitizerName = "none";
inline constexpr const char* kSanitizerReportKind = "crash (signal)";
#endif

inline void install_death_callback(void (*callback)()) {
#if defined(LFCHECK_TSAN) || defined(LFCHECK_ASAN)
  __sanitizer_set_death_callback(callback);
#else
  (void)callback;
#endif
}

namespace detail {

// The first option of one *SAN_OPTIONS string that would switch reporting off or
// out of the verdict, as "NAME=VALUE", or "". Flags are separated by spaces,
// commas, colons, tabs or newlines (the sanitizers' own syntax); values may be quoted.
inline std::string disabling_option(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t end = text.find_first_of(" ,:\t\r\n", i);
    const std::string flag = text.substr(i, end == std::string::npos ? std::string::npos : end - i);
    i = end == std::string::npos ? text.size() : end + 1;
    const std::size_t eq = flag.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = flag.substr(0, eq);
    std::string value = flag.substr(eq + 1);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'')) value = value.substr(1, value.size() - 2);
    const bool off = value == "0" || value == "false" || value == "no";
    if (name == "suppressions" || name == "include" || name == "include_if_exists") return flag;
    if (off && (name == "halt_on_error" || name == "report_bugs" || name == "exitcode" ||
                name == "detect_leaks" || name == "leak_check_at_exit"))
      return flag;
  }
  return "";
}

}  // namespace detail

// "" if the environment leaves this build's sanitizer reporting as configured;
// otherwise one line saying which option switches it off.
inline std::string sanitizer_reporting_disabled() {
#if defined(LFCHECK_TSAN) || defined(LFCHECK_ASAN)
#if defined(LFCHECK_TSAN)
  const char* variables[] = {"TSAN_OPTIONS"};
#else
  const char* variables[] = {"ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"};
#endif
  for (const char* variable : variables) {
    const char* text = std::getenv(variable);
    if (!text) continue;
    const std::string option = detail::disabling_option(text);
    if (!option.empty())
      return std::string(variable) + " sets " + option + ": sanitizer reporting disabled, this run would check "
             "nothing the sanitizer reports (lfcheck's options are compiled in from sanitizer_configs/; unset it)";
  }
#endif
  return "";  // the plain build has no sanitizer to disable
}

// Runs LeakSanitizer's check now (ASan builds; it prints its report); true if it
// found leaks. Other builds: false.
inline bool leaks_reported_now() {
#if defined(LFCHECK_ASAN)
  return __lsan_do_recoverable_leak_check() != 0;
#else
  return false;
#endif
}

}  // namespace lfcheck
