// A crash in scenario code under Relacy becomes a failing verdict, not a dead checker.
//
// Guarantees: while a simulation runs (CrashGuard alive), SIGFPE, SIGSEGV, SIGBUS,
// SIGILL and SIGABRT raised on one of Relacy's thread fibers end that execution as a
// failure, exactly as an RL_ASSERT failing at that point would: Relacy records the
// verdict as the crashing thread's last step, stops the simulation, and (on the
// history re-run) prints the execution's history up to that step. The runner then
// calls it "CRASH: SIGFPE" (failure_words), writes its table, trace, replay and JSON,
// and goes on with the other scenarios. A signal anywhere else (the main fiber,
// Relacy's own bookkeeping, a second signal while one is handled) keeps its default
// action: that is a bug of the checker, not of the scenario, and must not be hidden.
//
// Design (why this and not a forked child): Relacy runs every thread of a
// simulation as a ucontext fiber of one OS thread and already knows how to abandon
// a fiber mid-call — fail_test() saves the failing fiber and swapcontext()s to the
// main fiber, which ends the simulation and destroys the context; the abandoned
// fiber is never resumed. The handler runs on an alternate signal stack (a fiber's
// 64 KB stack may be the thing that overflowed) and calls that same fail_test(), so
// the crash gets everything a Relacy verdict gets (history, iteration number,
// scheduler state for the replay file) with no second mechanism. swapcontext()
// restores the main fiber's signal mask, and the kernel sees the alternate stack as
// free again once the stack pointer leaves it. A forked child per run would cost a
// fork per scenario and need the execution count, verdict and history passed back
// through a pipe; a re-run in a child would give the evidence but not keep the
// other scenarios of the same process honest.
//
// Limits: the handler calls Relacy (which allocates) from signal context. That is
// safe when the fault is in scenario code, as it is here (one OS thread, so no
// other thread can hold the allocator's lock); a crash inside malloc itself (heap
// corruption) may hang instead. The crash site is resolved afterwards, outside the
// handler, with addr2line (binutils); without it the report names the binary and
// the offset.
//
// Cost: three sigaction calls and one sigaltstack per simulation; nothing per step.
#pragma once

#include <dlfcn.h>
#include <link.h>  // ElfW, the ELF header type of this platform
#include <execinfo.h>
#include <signal.h>
#include <ucontext.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sync/relacy_sync.hpp"  // Relacy, with its macros put away

namespace lfcheck {

// The result code a crash is reported to Relacy with. Relacy itself never produces
// INCONSISTENT TEST SUITE, so it says "crash" unambiguously; failure_words() gives
// the checker's words.
inline constexpr rl::test_result_e kCrashResult = rl::test_result_inconsistent_test_suite;

// What the handler saw. Plain fields written in signal context, read afterwards.
struct CrashRecord {
  int signal = 0;  // 0: no crash in this simulation
  int code = 0;    // siginfo si_code
  void* pc = nullptr;
  void* address = nullptr;  // SIGSEGV/SIGBUS: the address touched
  void* frames[32] = {};
  int frame_count = 0;
  char desc[128] = {};  // "CRASH: SIGFPE (integer divide by zero)"
};

inline CrashRecord& crash_record() {
  static CrashRecord record;
  return record;
}

inline const char* signal_name(int sig) {
  switch (sig) {
    case SIGFPE: return "SIGFPE";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    default: return "SIGNAL";
  }
}

inline const char* signal_cause(int sig, int code) {
  if (sig == SIGFPE) return code == FPE_INTDIV ? "integer divide by zero" : code == FPE_INTOVF ? "integer overflow" : "arithmetic exception";
  if (sig == SIGSEGV) return code == SEGV_MAPERR ? "address not mapped" : code == SEGV_ACCERR ? "access not permitted" : "invalid memory access";
  if (sig == SIGBUS) return "bus error";
  if (sig == SIGILL) return "illegal instruction";
  if (sig == SIGABRT) return "abort";
  return "signal";
}

// The placeholder location the crash step is recorded at; resolve_crash() puts the
// crash site in its place in the history text.
inline constexpr const char* kCrashFunction = "@lfcheck-crash-function@";
inline constexpr const char* kCrashFile = "@lfcheck-crash-file@";

namespace detail {

inline bool& crash_armed() {
  static bool armed = false;
  return armed;
}

inline void* interrupted_pc(void* uc) {
  auto* u = static_cast<ucontext_t*>(uc);
#if defined(__x86_64__)
  return reinterpret_cast<void*>(u->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return reinterpret_cast<void*>(u->uc_mcontext.pc);
#else
  (void)u;
  return nullptr;
#endif
}

inline void lfcheck_crash_handler(int sig, siginfo_t* info, void* uc) {
  CrashRecord& r = crash_record();
  const bool on_thread_fiber = crash_armed() && r.signal == 0 && rl::context::is_instance() &&
                               rl::ctx().threadx_ != nullptr;
  if (!on_thread_fiber) {
    // Not scenario code (or a second signal): the default action, so it is seen.
    ::signal(sig, SIG_DFL);
    ::raise(sig);
    return;  // a hardware fault re-executes and now dies with the signal
  }
  r.signal = sig;
  r.code = info->si_code;
  r.address = info->si_addr;
  r.pc = interrupted_pc(uc);
  r.frame_count = ::backtrace(r.frames, 32);
  std::snprintf(r.desc, sizeof r.desc, "CRASH: %s (%s)", signal_name(sig), signal_cause(sig, r.code));
  static const rl::debug_info site(kCrashFunction, kCrashFile, 0);
  rl::ctx().fail_test(r.desc, kCrashResult, site);  // swapcontext to the main fiber; never returns
}

}  // namespace detail

// Arms the handlers for one simulation (and resets the record); restores the old
// ones when it goes.
class CrashGuard {
 public:
  static constexpr int kSignals[] = {SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGABRT};

  CrashGuard() {
    static std::vector<char> alt_stack(1 << 16);
    static bool warmed = false;
    if (!warmed) {  // backtrace() loads libgcc on its first call: not in the handler
      void* f[2];
      ::backtrace(f, 2);
      warmed = true;
    }
    stack_t ss{};
    ss.ss_sp = alt_stack.data();
    ss.ss_size = alt_stack.size();
    ::sigaltstack(&ss, &old_stack_);
    crash_record() = CrashRecord{};
    struct sigaction sa {};
    sa.sa_sigaction = detail::lfcheck_crash_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (std::size_t i = 0; i < std::size(kSignals); ++i) ::sigaction(kSignals[i], &sa, &old_[i]);
    detail::crash_armed() = true;
  }
  ~CrashGuard() {
    detail::crash_armed() = false;
    for (std::size_t i = 0; i < std::size(kSignals); ++i) ::sigaction(kSignals[i], &old_[i], nullptr);
    ::sigaltstack(&old_stack_, nullptr);
  }
  CrashGuard(const CrashGuard&) = delete;
  CrashGuard& operator=(const CrashGuard&) = delete;

 private:
  struct sigaction old_[std::size(kSignals)] {};
  stack_t old_stack_{};
};

// One resolved frame of the crashing thread.
struct CrashFrame {
  std::string function, file;  // file "" when unknown
  unsigned line = 0;
  std::string object;  // the binary or library, with the offset, when unresolved
  bool in_program = false;  // in the checker's own binary (scenario, structure, lfcheck), not a library
};

// A crash as the report shows it.
struct CrashReport {
  int signal = 0;              // 0: not a crash
  std::string words;           // "CRASH: SIGFPE"
  std::string desc;            // "CRASH: SIGFPE (integer divide by zero)"
  std::uintptr_t pc = 0, address = 0;
  std::vector<CrashFrame> stack;  // innermost first, from the faulting instruction

  // The innermost frame of the program's own code (not a library such as libc,
  // not Relacy's headers), else the first.
  const CrashFrame* site() const {
    for (auto& f : stack)
      if (f.in_program && !f.file.empty() && f.file.find("/relacy/") == std::string::npos) return &f;
    return stack.empty() ? nullptr : &stack.front();
  }
};

namespace detail {

// addr2line's answer for `addresses` (offsets into `object`), one frame list per address.
inline std::vector<std::vector<CrashFrame>> addr2line(const std::string& object,
                                                      const std::vector<std::uintptr_t>& addresses) {
  std::vector<std::vector<CrashFrame>> out(addresses.size());
  std::string cmd = "addr2line -a -C -f -i -e '" + object + "'";
  char buf[32];
  for (auto a : addresses) {
    std::snprintf(buf, sizeof buf, " 0x%llx", static_cast<unsigned long long>(a));
    cmd += buf;
  }
  cmd += " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  std::vector<std::string> lines;
  char line[4096];
  while (std::fgets(line, sizeof line, p)) {
    std::string l(line);
    while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
    lines.push_back(l);
  }
  ::pclose(p);
  int which = -1;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("0x", 0) == 0) {
      ++which;
      continue;
    }
    if (which < 0 || which >= static_cast<int>(out.size()) || i + 1 >= lines.size()) continue;
    CrashFrame f;
    f.function = lines[i];
    std::string where = lines[++i];
    auto cut = where.find(" (discriminator");
    if (cut != std::string::npos) where.resize(cut);
    auto colon = where.rfind(':');
    if (colon != std::string::npos && where.compare(0, 2, "??") != 0) {
      f.file = where.substr(0, colon);
      f.line = static_cast<unsigned>(std::strtoul(where.c_str() + colon + 1, nullptr, 10));
    }
    out[which].push_back(f);
  }
  return out;
}

// The address addr2line wants for `pc` in its object: an offset for a position-
// independent object (PIE executable, shared library), else the address itself.
inline bool object_offset(void* pc, std::string& object, std::uintptr_t& offset, bool& in_program) {
  Dl_info info{}, self{};
  if (!::dladdr(pc, &info) || !info.dli_fname || !info.dli_fbase) return false;
  in_program = ::dladdr(reinterpret_cast<void*>(&lfcheck_crash_handler), &self) && self.dli_fbase == info.dli_fbase;
  object = info.dli_fname;
  if (object.empty() || object.find('/') == std::string::npos) object = "/proc/self/exe";
  const auto* elf = static_cast<const ElfW(Ehdr)*>(info.dli_fbase);
  offset = reinterpret_cast<std::uintptr_t>(pc);
  if (elf->e_type == ET_DYN) offset -= reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  return true;
}

inline void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (auto p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

}  // namespace detail

// The crash of the simulation that just ended, its stack resolved (outside the handler).
inline CrashReport resolve_crash(const CrashRecord& r) {
  CrashReport c;
  if (r.signal == 0) return c;
  c.signal = r.signal;
  c.words = std::string("CRASH: ") + signal_name(r.signal);
  c.desc = r.desc;
  c.pc = reinterpret_cast<std::uintptr_t>(r.pc);
  c.address = reinterpret_cast<std::uintptr_t>(r.address);
  // The frames from the faulting instruction outwards (backtrace() starts in the
  // handler); the faulting pc is exact, the others are return addresses (minus 1 to
  // name the call's line).
  int first = 0;
  while (first < r.frame_count && r.frames[first] != r.pc) ++first;
  std::vector<void*> pcs;
  if (first == r.frame_count) pcs.push_back(r.pc);
  for (int i = first; i < r.frame_count; ++i) pcs.push_back(r.frames[i]);
  for (std::size_t i = 0; i < pcs.size(); ++i) {
    std::string object;
    std::uintptr_t offset = 0;
    bool in_program = false;
    if (!pcs[i] || !detail::object_offset(pcs[i], object, offset, in_program)) continue;
    if (i > 0) offset -= 1;
    auto resolved = detail::addr2line(object, {offset});
    if (resolved[0].empty() || resolved[0][0].file.empty()) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "+0x%llx", static_cast<unsigned long long>(offset));
      CrashFrame f;
      f.function = resolved[0].empty() ? "??" : resolved[0][0].function;
      f.object = object + buf;
      f.in_program = in_program;
      c.stack.push_back(f);
    } else {
      for (auto& f : resolved[0]) {
        f.in_program = in_program;
        c.stack.push_back(f);
      }
    }
    if (c.stack.back().function.find("fiber_proc") != std::string::npos) break;  // Relacy's fiber entry
  }
  return c;
}

// The history with the crash step at the crash site and in the checker's words, and
// the crashing thread's stack appended (after Relacy's per-thread listings, which
// the step parser does not read).
inline std::string crash_history(std::string history, const CrashReport& c) {
  if (c.signal == 0) return history;
  detail::replace_all(history, std::string(rl::test_result_str(kCrashResult)) + " (" + c.desc + ")", c.desc);
  const CrashFrame* site = c.site();
  std::string where = site ? site->function + ", " + (site->file.empty() ? site->object : site->file) + "(" +
                                 std::to_string(site->line) + ")"
                           : std::string("unknown, unknown(0)");
  detail::replace_all(history, std::string(kCrashFunction) + ", " + kCrashFile + "(0)", where);
  history += "\ncrash: " + c.desc + "\ncrashing thread's stack (innermost first):\n";
  for (auto& f : c.stack)
    history += "  " + f.function + "  " +
               (f.file.empty() ? f.object : f.file + ":" + std::to_string(f.line)) + "\n";
  return history;
}

}  // namespace lfcheck
