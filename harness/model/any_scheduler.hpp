// AnyScheduler<N>: one scheduler type for rl::run_test that is any of the
// schedulers lfcheck offers, chosen by name at run time (internal to the runner
// library, harness/model/run.cpp).
//
// Why: Relacy's context (rl::context_impl<Test, Scheduler>) is a template over the
// scheduler type, and it is the costly part to compile. With one scheduler type
// per thread count, the runner library instantiates it once per N, not once per
// (N, scheduler) — and a structure's translation unit never instantiates it.
//
// It holds the chosen scheduler in place (a variant: nothing is allocated, and
// Relacy constructs the scheduler with its context) and forwards every call
// Relacy's context makes of a scheduler (relacy/context.hpp). Each scheduler keeps
// its own shared context, as it would under rl::run_test<Test, ThatScheduler>.
//
// Cost: one switch per scheduling call, next to Relacy's fiber switch.
#pragma once

#include <istream>
#include <ostream>
#include <variant>

#include "harness/model/deep_full_search.hpp"
#include "harness/model/dpor/scheduler.hpp"
#include "harness/model/pct_scheduler.hpp"
#include "harness/model/tree_estimate.hpp"
#include "sync/relacy_sync.hpp"

namespace lfcheck::model {

// full_deep: the full search at load depth 2 (deep_full_search.hpp).
enum class SchedulerKind { random, pct, bound, full, full_deep, dpor };

// The kind the next simulation's AnyScheduler is (one simulation at a time).
inline SchedulerKind& next_scheduler_kind() {
  static SchedulerKind kind = SchedulerKind::random;
  return kind;
}

template <rl::thread_id_t N>
class AnyScheduler {
  template <class S>
  struct With {
    typename S::shared_context_t shared;
    S scheduler;
    With(rl::test_params& params, rl::thread_id_t dynamic) : scheduler(params, shared, dynamic) {}
  };
  using Random = With<rl::random_scheduler<N>>;
  using Pct = With<pct_scheduler<N>>;
  using Bound = With<estimating_scheduler<rl::context_bound_scheduler<N>>>;
  using Full = With<estimating_scheduler<rl::full_search_scheduler<N>>>;
  using FullDeep = With<deep_full_search<N>>;
  using Dpor = With<dpor_scheduler<N>>;

 public:
  struct shared_context_t {};

  AnyScheduler(rl::test_params& params, shared_context_t&, rl::thread_id_t dynamic) {
    switch (next_scheduler_kind()) {
      case SchedulerKind::random: impl_.template emplace<Random>(params, dynamic); break;
      case SchedulerKind::pct: impl_.template emplace<Pct>(params, dynamic); break;
      case SchedulerKind::bound: impl_.template emplace<Bound>(params, dynamic); break;
      case SchedulerKind::full: impl_.template emplace<Full>(params, dynamic); break;
      case SchedulerKind::full_deep: impl_.template emplace<FullDeep>(params, dynamic); break;
      case SchedulerKind::dpor: impl_.template emplace<Dpor>(params, dynamic); break;
    }
  }

  rl::thread_id_t iteration_begin(rl::iteration_t iter) {
    return visit([&](auto& s) { return s.iteration_begin(iter); });
  }
  bool iteration_end() {
    return visit([](auto& s) { return s.iteration_end(); });
  }
  rl::thread_id_t schedule(rl::unpark_reason& reason, unsigned yield) {
    return visit([&](auto& s) { return s.schedule(reason, yield); });
  }
  unsigned rand(unsigned limit, rl::sched_type t) {
    return visit([&](auto& s) { return s.rand(limit, t); });
  }
  rl::iteration_t iteration_count() {
    return visit([](auto& s) { return s.iteration_count(); });
  }
  bool park_current_thread(bool is_timed, bool allow_spurious_wakeup) {
    return visit([&](auto& s) { return s.park_current_thread(is_timed, allow_spurious_wakeup); });
  }
  void unpark_thread(rl::thread_id_t th, bool do_switch = false) {
    visit([&](auto& s) { s.unpark_thread(th, do_switch); });
  }
  rl::thread_finish_result thread_finished() {
    return visit([](auto& s) { return s.thread_finished(); });
  }
  rl::thread_id_t create_thread() {
    return visit([](auto& s) { return s.create_thread(); });
  }
  void get_state(std::ostream& out) {
    visit([&](auto& s) { s.get_state(out); });
  }
  void set_state(std::istream& in) {
    visit([&](auto& s) { s.set_state(in); });
  }

 private:
  template <class F>
  decltype(auto) visit(F&& f) {
    return std::visit(
        [&](auto& alternative) -> decltype(auto) {
          if constexpr (std::is_same_v<std::decay_t<decltype(alternative)>, std::monostate>) {
            RL_VERIFY(false);
            return f(std::get<Random>(impl_).scheduler);  // unreachable: a scheduler is always chosen
          } else {
            return f(alternative.scheduler);
          }
        },
        impl_);
  }

  std::variant<std::monostate, Random, Pct, Bound, Full, FullDeep, Dpor> impl_;
};

}  // namespace lfcheck::model
