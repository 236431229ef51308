// The stress runner under a supervisor process, so a run that a sanitizer ends
// still leaves its evidence.
//
// Why: TSan (and ASan) print a report and end the process from inside the
// reporting thread, under the sanitizer's report lock; the runner's death callback
// may then only call write(2) and open(2) — no allocation, no formatting (two racing
// reports would deadlock). It writes the JSON, the replay file and the raw
// per-thread rings (StressRun::dump_rings); everything that needs ordinary C++
// — the per-thread table, the trace, the short report file — is made here, by the
// parent, after the child is gone.
//
// Guarantees of supervise(): called once, before the runner starts any thread. It
// forks; the child returns and runs the workloads with its stderr on a pipe. The
// parent copies that pipe to its own stderr as it comes (the user sees the run as
// before; a terminal stays a terminal for the progress line through
// LFCHECK_STDERR_TTY), keeps the text (up to 64 MB), forwards SIGINT, SIGTERM and
// SIGHUP to the child (which dies with the parent if the parent is killed), waits for it, calls after_exit(captured stderr, status), and
// ends with the child's exit status (or dies of the child's signal). If the pipe or
// the fork fails, supervise() returns in the one process and the run is unsupervised.
//
// Cost: one fork at start-up and one copy of the run's stderr.
#pragma once

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace lfcheck {

namespace detail {
inline pid_t& supervised_child() {
  static pid_t pid = 0;
  return pid;
}
inline void forward_signal(int sig) {
  if (supervised_child() > 0) ::kill(supervised_child(), sig);
}
}  // namespace detail

template <class AfterExit>
void supervise(AfterExit&& after_exit) {
  int fds[2];
  if (::pipe(fds) != 0) return;
  std::fflush(nullptr);
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const pid_t supervisor = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return;
  }
  if (pid == 0) {  // the runner: dies with its supervisor (a SIGKILLed ctest timeout)
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != supervisor) ::_exit(1);  // the supervisor is gone already
    if (tty) ::setenv("LFCHECK_STDERR_TTY", "1", 1);
    ::dup2(fds[1], STDERR_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    return;
  }
  ::close(fds[1]);
  detail::supervised_child() = pid;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::signal(sig, detail::forward_signal);
  std::string captured;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(STDERR_FILENO, buf + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      done += w;
    }
    if (captured.size() < (64u << 20)) captured.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  after_exit(captured, status);
  std::fflush(nullptr);
  if (WIFSIGNALED(status)) {
    ::signal(WTERMSIG(status), SIG_DFL);
    ::raise(WTERMSIG(status));
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

}  // namespace lfcheck
