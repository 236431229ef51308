// The stacks of the runner's threads, for a hang report: each thread is asked, by a
// signal sent to it alone (tgkill), to record its own return addresses; the reporter
// waits for the answers (at most a second in all) and turns the addresses into
// frames: the sanitizers' symbolizer in TSan and ASan builds (function, file:line),
// otherwise the dynamic symbol table (dladdr: exported names, and module+offset for
// the rest, for addr2line).
//
// What may be missing, each with its own reason in the report (Stack::missing): a
// thread that cannot take the signal within the wait (TSan delivers a signal to a
// thread only at its next intercepted call or blocking system call, so a thread
// spinning in instrumented code may not answer); a thread past the first kMaxThreads
// (the slots the handler writes into are a fixed array: it cannot allocate); a thread
// whose id is not known; and every thread when the signal's handler cannot be
// installed. Nothing here changes a verdict: the run is a HANG already.
//
// Signal-safety: the handler only reads its thread id, finds its slot with atomics
// and calls backtrace(), which capture() calls once before any signal is sent so
// that its lazy loading (libgcc's unwinder) is done outside a handler.
// Cost: a hang report only: one signal per thread, one symbolization per frame.
#pragma once

#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <string>
#include <thread>
#include <vector>

#if defined(LFCHECK_TSAN) || defined(LFCHECK_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif

namespace lfcheck::thread_stacks {

inline constexpr int kMaxThreads = 64;
inline constexpr int kMaxFrames = 32;

struct Slot {
  std::atomic<long> tid{0};
  std::atomic<int> state{0};  // 0 free, 1 asked, 2 answered
  void* pcs[kMaxFrames];
  int depth = 0;
};

inline Slot* slots() {
  static Slot s[kMaxThreads];
  return s;
}

// The calling thread's id (what tgkill needs).
inline long current_tid() { return static_cast<long>(::syscall(SYS_gettid)); }

inline void on_stack_signal(int) {
  const long me = current_tid();
  for (int i = 0; i < kMaxThreads; ++i) {
    Slot& s = slots()[i];
    // acquire: pairs with capture()'s release store of the slot's tid and state
    if (s.tid.load(std::memory_order_acquire) == me && s.state.load(std::memory_order_acquire) == 1) {
      s.depth = ::backtrace(s.pcs, kMaxFrames);
      s.state.store(2, std::memory_order_release);  // release: pairs with capture()'s acquire
      return;
    }
  }
}

inline std::string frame_words(void* pc) {
  char buf[512];
#if defined(LFCHECK_TSAN) || defined(LFCHECK_ASAN)
  // The return address points after the call: pc - 1 names the call's line.
  __sanitizer_symbolize_pc(static_cast<char*>(pc) - 1, "%f %S", buf, sizeof buf);
  return buf;
#else
  Dl_info info{};
  if (::dladdr(pc, &info) && info.dli_fname) {
    const char* slash = std::strrchr(info.dli_fname, '/');
    const char* module = slash ? slash + 1 : info.dli_fname;
    const auto offset = static_cast<unsigned long>(static_cast<char*>(pc) - static_cast<char*>(info.dli_fbase));
    if (info.dli_sname) {
      int status = 0;
      char* demangled = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
      std::snprintf(buf, sizeof buf, "%s (%s+%#lx)", status == 0 && demangled ? demangled : info.dli_sname, module,
                    offset);
      std::free(demangled);
    } else {
      // Not exported: module and offset, for `addr2line -f -C -e MODULE OFFSET`. No
      // helper process is started here: a hung thread may hold a lock it would need.
      std::snprintf(buf, sizeof buf, "?? (%s+%#lx)", module, offset);
    }
    return buf;
  }
  std::snprintf(buf, sizeof buf, "?? (%p)", pc);
  return buf;
#endif
}

// One thread's stack: its frames, innermost first, or why there are none.
struct Stack {
  std::vector<std::string> frames;
  std::string missing;  // "" when frames were captured
};

// The stacks of the threads `tids` (0: a thread whose id is not known), innermost
// frame first; for a thread without one, the reason (Stack::missing).
inline std::vector<Stack> capture(const std::vector<long>& tids,
                                  std::chrono::milliseconds wait = std::chrono::milliseconds(1000)) {
  std::vector<Stack> out(tids.size());
  void* warm[2];
  (void)::backtrace(warm, 2);  // loads the unwinder here, not in a handler
  const int sig = SIGRTMIN + 5;
  struct sigaction sa {};
  sa.sa_handler = on_stack_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (::sigaction(sig, &sa, nullptr) != 0) {
    for (auto& stack : out) stack.missing = std::string("not captured: the stack signal's handler could not be installed (") +
                                            std::strerror(errno) + ")";
    return out;
  }
  const std::size_t n = std::min<std::size_t>(tids.size(), kMaxThreads);
  for (std::size_t i = 0; i < tids.size(); ++i) {
    if (tids[i] == 0) out[i].missing = "not captured: the thread's id is not known (it had not started)";
    else if (i >= n)
      out[i].missing = "not captured: only the first " + std::to_string(kMaxThreads) + " threads' stacks are (the "
                       "signal handler writes into " + std::to_string(kMaxThreads) + " fixed slots)";
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (tids[i] == 0) continue;
    Slot& s = slots()[i];
    s.depth = 0;
    s.state.store(1, std::memory_order_release);  // release: pairs with the handler's acquire
    s.tid.store(tids[i], std::memory_order_release);
    ::syscall(SYS_tgkill, static_cast<long>(::getpid()), tids[i], sig);
  }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  for (;;) {
    bool all = true;
    for (std::size_t i = 0; i < n; ++i)
      if (tids[i] != 0 && slots()[i].state.load(std::memory_order_acquire) != 2) all = false;
    if (all || std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (std::size_t i = 0; i < n; ++i) {
    Slot& s = slots()[i];
    if (tids[i] == 0) continue;
    // acquire: pairs with the handler's release (its pcs and depth are written)
    if (s.state.load(std::memory_order_acquire) != 2) {
      out[i].missing = "not captured: the thread did not take the signal within " + std::to_string(wait.count()) +
                       " ms (under TSan a thread takes it only at an intercepted call)";
      continue;
    }
    // The first frames are the handler's and the signal trampoline's (under TSan also
    // the runtime's signal delivery): drop them, through the trampoline.
    std::vector<std::string> frames;
    for (int f = 0; f < s.depth; ++f) frames.push_back(frame_words(s.pcs[f]));
    std::size_t first = std::min<std::size_t>(2, frames.size());
    for (std::size_t f = 0; f < frames.size() && f < 6; ++f)
      if (frames[f].find("sighandler") != std::string::npos || frames[f].find("CallUserSignalHandler") != std::string::npos ||
          frames[f].find("on_stack_signal") != std::string::npos)
        first = std::min(frames.size(), f + 2);  // the handler, then the trampoline
    out[i].frames.assign(frames.begin() + static_cast<std::ptrdiff_t>(first), frames.end());
    if (out[i].frames.empty()) out[i].missing = "not captured: the unwinder found no frame past the signal handler";
  }
  return out;
}

}  // namespace lfcheck::thread_stacks
