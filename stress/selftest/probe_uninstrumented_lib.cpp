// A shared object built without any sanitizer (stress/CMakeLists.txt), standing for
// a library from a distribution package: probe_uninstrumented frees memory from
// here, so the TSan report of that free has a frame in code built without TSan.
#include <cstdlib>

extern "C" [[gnu::noinline]] void lfcheck_probe_free_in_library(void* p) {
  std::free(p);
  asm volatile("" ::: "memory");  // keeps the call a call (no tail call): this frame stays on the stack
}
