// The fuzzer's programs run in batches, each batch in a forked child process.
//
// Why: Relacy does not give a simulation's memory back — rl::context_impl never frees
// its fibers' stacks (platform.hpp's create_fiber mallocs them) nor its test object's
// storage (valgrind: "definitely lost", from context_impl's constructor), about 60 KB
// per simulation. A program is four simulations (two searches at two load depths) and
// more where one fails (its re-run): the process grew by ~150 KB a program (67 MB
// after 400), so 100,000 programs would need ~15 GB. A child that runs a batch and
// exits hands all of it back. It also keeps a crash that escapes the runner's crash
// guard to its batch: the run goes on, and reports the batch as not compared.
//
// The child prints what it finds (each disagreement, verbose lines) to the shared
// stdout as it goes, and hands its counts back through a pipe (serialize / parse).
// The parent forwards SIGINT/SIGTERM to it, waits, and merges.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "models/selftest/dpor_fuzz/report.hpp"

namespace lfcheck::dpor_fuzz {

// What one batch did: its counts and why it stopped before its end ("" if it did not).
struct BatchResult {
  Tally tally;
  std::string stopped;
  int died = 0;  // the child died: the signal (or 128 + an exit status), its batch not compared
};

// Runs `work(tally, stopped)` in a forked child and returns what it reported.
BatchResult run_batch(const std::function<void(Tally&, std::string&)>& work);

// Adds one batch's counts to the run's.
void merge(Tally& into, const Tally& from);

}  // namespace lfcheck::dpor_fuzz
