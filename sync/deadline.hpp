// Saturating deadline arithmetic on int64 nanoseconds, for every place that
// turns a deadline into a wait or a wait into a deadline: the policies' timed
// waits (StdSync::condvar::wait_for_ns adds a duration to steady_clock::now())
// and the structures (a Looper or timer worker waiting until an absolute `when`
// converts it to "ns from now").
//
// Why: every int64 is a legal deadline (DeliQueue's `when`, a timer far in the
// future), and clock readings come from an arbitrary epoch, so they may be
// negative. Plain `until - now` or `now + ns` then overflows (undefined
// behaviour; in practice it wraps into the past) and a wait meant to last
// centuries returns at once — a Looper that spins re-taking its mutex, a timer
// worker that burns a core. These functions clamp to the int64 range instead:
// a deadline past the end of time stays at the end of time.
//
// Cost: one add/sub with an overflow check (a flag test), no branch taken in
// the common case.
#pragma once

#include <cstdint>
#include <limits>

namespace lfcheck {

inline constexpr std::int64_t kTimeMin = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kTimeMax = std::numeric_limits<std::int64_t>::max();

// a + b, clamped to [INT64_MIN, INT64_MAX].
inline constexpr std::int64_t saturating_add(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? kTimeMax : kTimeMin;
  return r;
}

// a - b, clamped to [INT64_MIN, INT64_MAX].
inline constexpr std::int64_t saturating_sub(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? kTimeMax : kTimeMin;
  return r;
}

// How long to wait, in ns, from `now` until `until`: 0 if it has come, at most
// INT64_MAX (the farthest wait an int64 can say) if it is further than that.
inline constexpr std::int64_t ns_until(std::int64_t until, std::int64_t now) noexcept {
  const std::int64_t d = saturating_sub(until, now);
  return d > 0 ? d : 0;
}

}  // namespace lfcheck
