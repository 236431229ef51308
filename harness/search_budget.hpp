// A budget for any Relacy search: a scheduler adaptor that ends the search after
// at most `max_executions` executions or past a deadline, and says so.
//
// Relacy's tree schedulers (context-bound, full) run until their tree is
// exhausted and ignore iteration_count, so a bound search of a large scenario can
// run for hours. budgeted<Scheduler> hides the scheduler's iteration_end(): the
// context calls it on its own scheduler type after every execution, so the
// adaptor sees every execution without any change to Relacy's headers. When the
// budget ends a search that had more to explore, `stopped_early` is set: such a
// search is NOT exhaustive and must never be reported as if it were.
#pragma once

#include <chrono>
#include <cstdint>

#include "sync/relacy_sync.hpp"

namespace lfcheck {

struct SearchBudget {
  std::uint64_t max_executions = UINT64_MAX;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  // Filled in by the search.
  std::uint64_t executions = 0;
  bool stopped_early = false;

  bool spent() const {
    return executions >= max_executions ||
           (deadline != std::chrono::steady_clock::time_point::max() &&
            std::chrono::steady_clock::now() >= deadline);
  }
};

// The budget of the search that runs now (one search at a time per process).
inline SearchBudget*& active_search_budget() {
  static SearchBudget* budget = nullptr;
  return budget;
}

template <class Scheduler>
class budgeted : public Scheduler {
 public:
  using typename Scheduler::shared_context_t;
  budgeted(rl::test_params& params, shared_context_t& ctx, rl::thread_id_t dynamic_thread_count)
      : Scheduler(params, ctx, dynamic_thread_count) {}

  // Called by the context once per execution, after it ended.
  bool iteration_end() {
    const bool finished = Scheduler::iteration_end();
    SearchBudget* b = active_search_budget();
    if (!b) return finished;
    ++b->executions;
    if (finished) return true;
    if (b->spent()) {
      b->stopped_early = true;
      return true;
    }
    return false;
  }
};

}  // namespace lfcheck
