// Which sanitizer this binary was built with, and the hook that lets a run be
// recorded as failed when the sanitizer ends the process on a report.
#pragma once

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

}  // namespace lfcheck
