// The sanitizers' default options, taken from sanitizer_configs/*.options at
// build time (cmake/LfcheckFlags.cmake). The environment variables (TSAN_OPTIONS,
// ...) still take precedence, as the sanitizer runtimes define.
#include "harness/stress/sanitizer.hpp"

#define LFCHECK_DEFAULT_OPTIONS(function, text) \
  extern "C" const char* function() { return text; }

#if defined(LFCHECK_TSAN)
LFCHECK_DEFAULT_OPTIONS(__tsan_default_options, LFCHECK_TSAN_DEFAULTS)
#endif
#if defined(LFCHECK_ASAN)
LFCHECK_DEFAULT_OPTIONS(__asan_default_options, LFCHECK_ASAN_DEFAULTS)
LFCHECK_DEFAULT_OPTIONS(__lsan_default_options, LFCHECK_LSAN_DEFAULTS)
LFCHECK_DEFAULT_OPTIONS(__ubsan_default_options, LFCHECK_UBSAN_DEFAULTS)
#endif
