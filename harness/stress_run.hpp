// StressRun: what a stress workload gets from the runner — options, a seeded
// random stream per thread, rounds of real threads separated by quiescent
// points, a budget (operations or seconds), progress, and failure reporting.
//
// Rounds: every thread runs `round_ops` operations, then all wait at a barrier;
// with every thread stopped, one of them runs the workload's quiescent check
// (accounting, check_invariants()) and decides whether another round follows.
// The barrier is a mutex and a condition variable, so the quiescent check is
// ordered after every operation of the round for TSan and for the C++ model.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "harness/progress.hpp"

namespace lfcheck {

struct StressOptions {
  unsigned threads = 4;
  std::uint64_t ops = 0;   // operation budget (0: use duration)
  double duration = 0;     // seconds (0: use ops)
  std::uint64_t seed = 0;
  bool progress = true;
};

// splitmix64: derives independent per-thread seeds from the run's seed.
inline std::uint64_t mix_seed(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class StressRun {
 public:
  explicit StressRun(const StressOptions& options, std::string label)
      : options_(options), progress_(std::move(label), options.progress, "ops") {}

  const StressOptions& options() const { return options_; }

  // Records a failure (the first one is kept) and ends the run after this round.
  void fail(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_.empty()) failure_ = what;
  }
  bool failed() {
    std::lock_guard<std::mutex> lock(mutex_);
    return !failure_.empty();
  }
  std::string failure() {
    std::lock_guard<std::mutex> lock(mutex_);
    return failure_;
  }
  std::uint64_t ops_done() const { return ops_done_; }  // after run_rounds returned

  std::mt19937_64 thread_rng(unsigned thread) const {
    return std::mt19937_64(mix_seed(options_.seed * 1000003u + thread));
  }

  // op(thread, rng) performs one operation; at_quiescence() runs with all threads
  // stopped after each round. Returns when the budget is spent or a failure is
  // recorded.
  template <class Op, class Quiescent>
  void run_rounds(Op&& op, Quiescent&& at_quiescence, std::uint64_t round_ops = 1024) {
    const unsigned n = options_.threads;
    const auto start = std::chrono::steady_clock::now();
    bool stop = false;               // guarded by mutex_
    std::uint64_t generation = 0;    // guarded by mutex_
    unsigned waiting = 0;            // guarded by mutex_
    std::condition_variable round_done;

    auto worker = [&](unsigned thread) {
      auto rng = thread_rng(thread);
      std::uint64_t my_generation = 0;
      for (;;) {
        for (std::uint64_t i = 0; i < round_ops; ++i) op(thread, rng);
        std::unique_lock<std::mutex> lock(mutex_);
        if (++waiting == n) {
          // Last to arrive: every other thread is blocked here, the round is quiescent.
          waiting = 0;
          ops_done_ += round_ops * n;
          lock.unlock();
          at_quiescence();
          lock.lock();
          const double elapsed =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          const bool budget_spent = options_.ops ? ops_done_ >= options_.ops
                                                 : elapsed >= options_.duration;
          stop = budget_spent || !failure_.empty();
          progress_.update(ops_done_, options_.ops);
          ++generation;
          round_done.notify_all();
        } else {
          round_done.wait(lock, [&] { return generation != my_generation; });
        }
        ++my_generation;
        if (stop) return;
      }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < n; ++t) threads.emplace_back(worker, t);
    for (auto& t : threads) t.join();
    progress_.finish();
  }

 private:
  const StressOptions& options_;
  ProgressLine progress_;
  std::mutex mutex_;
  std::string failure_;
  std::uint64_t ops_done_ = 0;
};

}  // namespace lfcheck
