// Small helpers shared by the benchmark files: a deterministic RNG, a cheap
// monotonic clock read, percentiles of latency samples, and a start/finish gate
// for a fixed pool of worker threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <ctime>
#include <cstdint>
#include <vector>

namespace lfcheck::bench {

// splitmix64: deterministic, fast, good enough to draw keys and pick timers.
struct Rng {
  std::uint64_t s;
  explicit Rng(std::uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (n > 0); the modulo bias is irrelevant here.
  std::uint64_t below(std::uint64_t n) { return next() % n; }
};

inline std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The calling thread's CPU time (ns): what a benchmark that runs its own threads sums
// for its "cpu_per_real" counter (Google Benchmark's cpu_time is its main thread's only).
inline std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// The q-quantile (0..1) of the samples (sorts them in place). 0 if none.
inline double percentile(std::vector<std::int64_t>& v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())));
  return static_cast<double>(v[i]);
}

}  // namespace lfcheck::bench
