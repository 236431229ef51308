// The fuzzer's programs in batches, each in a forked child (batches.hpp).
#include "models/selftest/dpor_fuzz/batches.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <sstream>

#include "harness/cli/interrupt.hpp"

namespace lfcheck::dpor_fuzz {
namespace {

// Length-prefixed fields ("5:hello"), so any text (a program, newlines) goes through.
void put(std::string& out, const std::string& s) { out += std::to_string(s.size()) + ":" + s; }
void put(std::string& out, std::uint64_t n) { put(out, std::to_string(n)); }
bool get(std::istream& in, std::string& s) {
  std::size_t n = 0;
  char colon = 0;
  if (!(in >> n) || !in.get(colon) || colon != ':') return false;
  s.resize(n);
  return static_cast<bool>(in.read(s.data(), static_cast<std::streamsize>(n)));
}
bool get(std::istream& in, std::uint64_t& n) {
  std::string s;
  if (!get(in, s)) return false;
  n = std::strtoull(s.c_str(), nullptr, 10);
  return true;
}

std::string serialize(const Tally& t, const std::string& stopped) {
  std::string out;
  put(out, stopped);
  put(out, t.generated), put(out, t.compared), put(out, t.full_executions), put(out, t.dpor_executions);
  for (const auto* m : {&t.findings, &t.verdicts}) {
    put(out, m->size());
    for (const auto& [k, v] : *m) put(out, k), put(out, v);
  }
  put(out, t.disagreements.size());
  for (const Disagreement& d : t.disagreements) {
    put(out, d.index), put(out, d.load_depth), put(out, static_cast<std::uint64_t>(d.finding));
    put(out, d.statements), put(out, d.kept), put(out, d.keep), put(out, d.replay);
    put(out, d.full), put(out, d.dpor), put(out, d.text);
  }
  return out;
}

bool parse(const std::string& text, Tally& t, std::string& stopped) {
  std::istringstream in(text);
  std::uint64_t n = 0, v = 0;
  if (!get(in, stopped) || !get(in, t.generated) || !get(in, t.compared) || !get(in, t.full_executions) ||
      !get(in, t.dpor_executions))
    return false;
  for (auto* m : {&t.findings, &t.verdicts}) {
    if (!get(in, n)) return false;
    for (std::uint64_t i = 0; i < n; ++i) {
      std::string k;
      if (!get(in, k) || !get(in, v)) return false;
      (*m)[k] = v;
    }
  }
  if (!get(in, n)) return false;
  for (std::uint64_t i = 0; i < n; ++i) {
    Disagreement d;
    std::uint64_t depth = 0, finding = 0, statements = 0, kept = 0;
    if (!get(in, d.index) || !get(in, depth) || !get(in, finding) || !get(in, statements) || !get(in, kept) ||
        !get(in, d.keep) || !get(in, d.replay) || !get(in, d.full) || !get(in, d.dpor) || !get(in, d.text))
      return false;
    d.load_depth = static_cast<unsigned>(depth);
    d.finding = static_cast<Finding>(finding);
    d.statements = statements;
    d.kept = kept;
    t.disagreements.push_back(std::move(d));
  }
  return true;
}

}  // namespace

void merge(Tally& into, const Tally& from) {
  into.generated += from.generated;
  into.compared += from.compared;
  into.full_executions += from.full_executions;
  into.dpor_executions += from.dpor_executions;
  for (const auto& [k, v] : from.findings) into.findings[k] += v;
  for (const auto& [k, v] : from.verdicts) into.verdicts[k] += v;
  into.disagreements.insert(into.disagreements.end(), from.disagreements.begin(), from.disagreements.end());
}

BatchResult run_batch(const std::function<void(Tally&, std::string&)>& work) {
  BatchResult r;
  int fds[2];
  std::fflush(stdout);
  std::fflush(stderr);
  if (pipe(fds) != 0) {
    std::perror("lfcheck-dpor-fuzz: pipe");
    r.died = 128 + 2;
    return r;
  }
  const pid_t child = fork();
  if (child < 0) {
    std::perror("lfcheck-dpor-fuzz: fork");
    close(fds[0]);
    close(fds[1]);
    r.died = 128 + 2;
    return r;
  }
  if (child == 0) {
    close(fds[0]);
    Tally t;
    std::string stopped;
    work(t, stopped);
    const std::string out = serialize(t, stopped);
    std::fflush(stdout);
    for (std::size_t at = 0; at < out.size();) {
      const ssize_t n = write(fds[1], out.data() + at, out.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) _exit(3);
      at += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buffer[65536];
  bool forwarded = false;
  for (;;) {
    if (cli::interrupted() && !forwarded) {  // SIGTERM may have come to the parent alone
      kill(child, SIGTERM);
      forwarded = true;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, 200);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!clean || !parse(text, r.tally, r.stopped)) {
    r.died = WIFSIGNALED(status) ? WTERMSIG(status) : 128 + (WIFEXITED(status) ? WEXITSTATUS(status) : 0);
    r.tally = Tally{};
  }
  return r;
}

}  // namespace lfcheck::dpor_fuzz
