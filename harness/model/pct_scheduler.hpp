// PCT (probabilistic concurrency testing, Burckhardt et al., ASPLOS 2010) as a
// Relacy scheduler: lfcheck's own class deriving from rl::scheduler, plugged into
// rl::run_test<Test, pct_scheduler<N>> (harness/model/run.hpp); no Relacy header
// is changed.
//
// One execution: every thread gets a distinct random priority in [d, d + n) and
// the highest-priority enabled thread always runs; d - 1 change points are drawn
// uniformly from the steps 1..k, and when the execution reaches change point j
// the running thread's priority drops to d - 1 - j (below every initial
// priority). A bug of depth d (d ordering constraints) among n threads and k
// steps is then hit with probability at least 1 / (n * k^(d-1)) per execution,
// where uniform random scheduling can be exponentially less likely.
//
// Relacy specifics:
//  - A step is one scheduling point (Relacy calls schedule() before every
//    atomic or shared-variable access and at every yield).
//  - A yield (Sync::spin_hint: a spin or retry loop waiting for someone else)
//    drops the yielding thread below every other thread (a thread that parks
//    keeps its priority: it is blocked, and runs when woken), so a high-priority
//    spinner lets the thread it waits for run, instead of spinning until
//    Relacy's execution-depth limit calls it a livelock.
//  - Timed waits time out, and condition variables wake spuriously, with the
//    same odds as under Relacy's random scheduler (1/4 and 1/8 per step).
//  - Relacy's other choices (which store a load reads, spurious CAS failures,
//    deferred frees) come from rand_impl: the same per-execution generator.
//    The run declares itself a sampled search (SearchKind::sampled), so those
//    choices are drawn as under the random scheduler.
//
// Seeds and replay, like Relacy's random scheduler: execution i is a pure
// function of (i, d, k) — the generator is seeded from them and nothing else, so
// a run split into iteration ranges (jobs, shards) does exactly what one run
// does. k is not learned during the run (that would make execution i depend on
// the executions before it): the runner (harness/model/run.cpp) measures it once
// per simulation with 8 calibration executions at depth 1 — executions of the
// scenario like any other, counted and checked — and fixes k at twice the longest
// of them; executions that still run past k are counted (`longer_than_steps`:
// no change point lands there, so the paper's bound covers executions of at most
// k steps in which no thread yields; a yield lowers the yielding thread, which the
// paper's analysis does not include). The state
// Relacy saves with a failure ("ITERATION d k", get_state) restores d and k, so
// a replay re-runs exactly the failing schedule.
//
// Cost: O(n) per step (the highest-priority scan); priorities and change points
// are fixed-size arrays: nothing is allocated inside the simulation.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>

#include "sync/relacy_sync.hpp"  // Relacy, with its macros put away

namespace lfcheck {

constexpr unsigned kMaxPctDepth = 16;

// What the next pct simulation uses, set by run_model (one simulation at a time
// per process) and overridden by a replayed state.
struct PctSettings {
  unsigned depth = 3;            // d: d - 1 priority change points per execution
  std::uint64_t steps = 0;       // k: change points are drawn from 1..k (0: not calibrated)
  std::uint64_t max_steps_seen = 0;  // calibration: the longest execution seen
  std::uint64_t longer_than_steps = 0;  // executions that went past step k (none of their steps past k is a change point)
};

inline PctSettings& pct_settings() {
  static PctSettings settings;
  return settings;
}

// splitmix64: a well-mixed 64-bit stream from any seed (consecutive iteration
// numbers give unrelated schedules).
class PctRandom {
 public:
  void seed(std::uint64_t s) { state_ = s; }
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  unsigned below(unsigned limit) { return static_cast<unsigned>(next() % limit); }

 private:
  std::uint64_t state_ = 0;
};

template <rl::thread_id_t thread_count>
class pct_scheduler
    : public rl::scheduler<pct_scheduler<thread_count>, rl::scheduler_thread_info, thread_count> {
 public:
  using base_t = rl::scheduler<pct_scheduler<thread_count>, rl::scheduler_thread_info, thread_count>;
  using thread_info_t = typename base_t::thread_info_t;
  using shared_context_t = typename base_t::shared_context_t;
  struct task_t {};

  pct_scheduler(rl::test_params& params, shared_context_t& ctx, rl::thread_id_t dynamic_thread_count)
      : base_t(params, ctx, dynamic_thread_count),
        depth_(pct_settings().depth),
        steps_(pct_settings().steps ? pct_settings().steps : 1) {}

  rl::thread_id_t iteration_begin_impl() {
    random_.seed(this->iter_ * 0x100000001b3ull ^ (std::uint64_t(depth_) << 56) ^ steps_ * 0x9e3779b1ull);
    // Initial priorities: a random permutation of depth_ .. depth_ + n - 1.
    for (rl::thread_id_t i = 0; i != thread_count; ++i) priority_[i] = static_cast<long>(depth_ + i);
    for (rl::thread_id_t i = thread_count - 1; i > 0; --i) {
      const unsigned j = random_.below(i + 1);
      const long t = priority_[i];
      priority_[i] = priority_[j];
      priority_[j] = t;
    }
    // d - 1 distinct change points in 1..k, as the paper draws them (a drawn
    // step already taken moves to the next free one; when k < d - 1 every step
    // is one and the rest repeat).
    for (unsigned j = 0; j + 1 < depth_; ++j) {
      std::uint64_t at = 1 + random_.next() % steps_;
      for (std::uint64_t moved = 0; j < steps_ && moved < steps_ && is_change_point(at, j); ++moved)
        at = at % steps_ + 1;
      change_at_[j] = at;
    }
    step_ = 0;
    lowest_ = 0;  // yields go below this (change points use 0 .. depth_ - 2)
    rl::unpark_reason reason;
    return schedule_impl(reason, 0);
  }

  bool iteration_end_impl() { return this->iter_ == this->params_.iteration_count; }

  rl::thread_id_t schedule_impl(rl::unpark_reason& reason, unsigned yield) {
    ++step_;
    if (thread_info_t* current = this->thread_) {
      for (unsigned j = 0; j + 1 < depth_; ++j)
        if (change_at_[j] == step_) priority_[current->index_] = static_cast<long>(depth_ - 2 - j);
      // A thread that parks is blocked, not yielding: it keeps its priority.
      if (yield && current->state_ == rl::thread_state_running) priority_[current->index_] = --lowest_;
    }
    // Calibration (no k yet): the longest execution, a failing one included.
    if (pct_settings().steps == 0 && step_ > pct_settings().max_steps_seen) pct_settings().max_steps_seen = step_;
    // Past k: no change point can come any more; counted, so the run can say so.
    if (pct_settings().steps != 0 && step_ == steps_ + 1) ++pct_settings().longer_than_steps;

    const rl::thread_id_t running = this->running_threads_count;
    // Timed waits and spurious wake-ups: the odds of Relacy's random scheduler.
    if (const rl::thread_id_t timed = this->timed_thread_count_) {
      const auto idx = static_cast<rl::thread_id_t>(random_.below(running ? timed * 4 : timed));
      if (idx < timed) return wake(this->timed_threads_[idx], rl::unpark_reason_timeout, reason);
    }
    if (const rl::thread_id_t spurious = this->spurious_thread_count_; spurious && running) {
      const auto idx = static_cast<rl::thread_id_t>(random_.below(spurious * 8));
      if (idx < spurious) return wake(this->spurious_threads_[idx], rl::unpark_reason_spurious, reason);
    }
    RL_VERIFY(running);
    rl::thread_id_t best = this->running_threads[0];
    for (rl::thread_id_t i = 1; i != running; ++i) {
      const rl::thread_id_t t = this->running_threads[i];
      if (priority_[t] > priority_[best]) best = t;
    }
    reason = rl::unpark_reason_normal;
    return best;
  }

  unsigned rand_impl(unsigned limit, rl::sched_type) { return random_.below(limit); }
  rl::iteration_t iteration_count_impl() { return this->params_.iteration_count; }

  // The state saved with a failure: what a replay needs besides the iteration.
  void get_state_impl(std::ostream& out) { out << depth_ << " " << steps_; }
  void set_state_impl(std::istream& in) {
    unsigned depth = 0;
    std::uint64_t steps = 0;
    if (in >> depth >> steps && depth >= 1 && depth <= kMaxPctDepth && steps >= 1) {
      depth_ = depth;
      steps_ = steps;
    }
  }
  void on_thread_block(rl::thread_id_t, bool) {}

 private:
  bool is_change_point(std::uint64_t at, unsigned drawn) const {
    for (unsigned i = 0; i < drawn; ++i)
      if (change_at_[i] == at) return true;
    return false;
  }
  rl::thread_id_t wake(thread_info_t* thread, rl::unpark_reason why, rl::unpark_reason& reason) {
    const rl::thread_id_t th = thread->index_;
    RL_VERIFY(1 == thread->block_count_);
    this->unpark_thread(th);
    reason = why;
    return th;
  }

  PctRandom random_;
  unsigned depth_;
  std::uint64_t steps_;
  std::uint64_t step_ = 0;
  long lowest_ = 0;
  long priority_[thread_count] = {};
  std::uint64_t change_at_[kMaxPctDepth] = {};
};

}  // namespace lfcheck
