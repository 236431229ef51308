// An interrupted command (SIGINT: Ctrl-C; SIGTERM: a CI's cancel, `kill`) ends the
// way a budget does, not the way a crash does: the runners stop their work at the
// next point where they can (the model runners at the start of the next execution,
// the stress runner at the next operation or litmus execution), write what finished,
// and record every run that did not finish as "interrupted" — verdict error, so the
// exit status is 2 unless a run failed (1) — in the summary, the JSON and the JUnit.
//
// catch_interrupts() installs the handler (a runner calls it once, at start-up); it
// only sets a flag, which interrupted() reads. A signal the command was started with
// ignored (a background job of a non-interactive shell ignores SIGINT) stays
// ignored. Forked workers inherit the handler: a worker stopped by its parent with
// SIGTERM stops the same way and hands back what it did.
//
// Cost: one relaxed load per check.
#pragma once

#include <atomic>
#include <csignal>

namespace lfcheck::cli {

// The signal that interrupted the command, 0 if none.
inline std::atomic<int>& interrupt_signal() {
  static std::atomic<int> signal{0};
  return signal;
}

inline int interrupting_signal() {
  return interrupt_signal().load(std::memory_order_relaxed);  // relaxed: a flag; it publishes no data
}
inline bool interrupted() { return interrupting_signal() != 0; }

inline void on_interrupt(int sig) {
  interrupt_signal().store(sig, std::memory_order_relaxed);  // relaxed: a flag; it publishes no data
}

inline void catch_interrupts() {
  static_assert(std::atomic<int>::is_always_lock_free, "the handler's flag must be async-signal-safe");
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    struct sigaction act {};
    act.sa_handler = on_interrupt;
    sigemptyset(&act.sa_mask);
    act.sa_flags = SA_RESTART;
    sigaction(sig, &act, nullptr);
  }
}

// What a run that did not finish says, in every report.
inline constexpr const char* kInterruptedWords = "interrupted";

}  // namespace lfcheck::cli
