// deep_full_search<N>: Relacy's full search at load depth 2 — the oracle DPOR's
// `--load-depth 2` is held to (`--scheduler full --load-depth 2`).
//
// Relacy decides how far back a load may read by the run's search type, not by
// its scheduler (`get_load_index` in relacy/thread.hpp: 2 stores back when
// params.search_type is the random scheduler's, else 1). Under that search type
// Relacy's full search reads 2 back, each step back a branch of its tree — but the
// same switch (`context::is_random_sched`, the only one) also turns on three
// sampled-run behaviours that a tree search otherwise does not have and that DPOR
// does not explore (docs/model.md, "What a verified verdict means"):
//   - a spurious compare_exchange_weak failure drawn as rand(4) at every weak CAS
//     that would succeed (a tree search: rand(2), at most once per atomic object,
//     Relacy's `already_failed_`);
//   - a free's deferral drawn as rand(4), 0 meaning deferred (a tree search: rand(2));
//   - spurious wake-ups of condition variables (up to 10 per condition variable;
//     a tree search has none).
// This class is Relacy's full search with exactly those three narrowed back to
// what its tree searches allow — so every choice it explores is one Relacy's own
// full search would explore, except that a load may read 2 stores back:
//   - a weak CAS's rand(4) is asked as rand(2) (0: fail spuriously), and only
//     once per atomic object: an object whose CAS failed spuriously in this
//     execution gets no branch (1: it succeeds). The object is the address of the
//     read-modify-write the thread announced last (sync/relacy_access.hpp); a free
//     covering it forgets it (a new object there may fail once again, as
//     Relacy's per-object flag would);
//   - a free's rand(4) is asked as rand(2) (0: deferred, 1: handed back at once);
//   - a thread parks without being registered for spurious wake-ups.
// Nothing else changes: every scheduling choice is the full search's
// (full_search_scheduler's schedule_impl, yields and timed waits included).
//
// AnyScheduler calls these members on this type, so hiding the base's
// iteration_begin, rand and park_current_thread is enough (the base's own calls
// of rand() for thread and timed-wait choices go to its rand_impl directly and
// keep their counts).
//
// Cost: one scan of the execution's spurious-failure list per weak CAS (a few
// entries), one per free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "harness/model/simulation.hpp"
#include "harness/model/tree_estimate.hpp"
#include "sync/relacy_access.hpp"
#include "sync/relacy_sync.hpp"

namespace lfcheck::model {

template <rl::thread_id_t N>
class deep_full_search : public estimating_scheduler<rl::full_search_scheduler<N>>, public SchedulerObserver {
  using Base = estimating_scheduler<rl::full_search_scheduler<N>>;

 public:
  deep_full_search(rl::test_params& params, typename Base::shared_context_t& ctx, rl::thread_id_t dynamic)
      : Base(params, ctx, dynamic) {
    scheduler_observer() = this;
  }
  ~deep_full_search() {
    if (scheduler_observer() == this) scheduler_observer() = nullptr;
  }

  rl::thread_id_t iteration_begin(rl::iteration_t iter) {
    for (auto& a : last_rmw_) a = 0;
    failed_count_ = 0;
    return Base::iteration_begin(iter);
  }

  unsigned rand(unsigned limit, rl::sched_type type) {
    if (limit == 4 && type == rl::sched_type_mem_realloc) return Base::rand(2, type);
    if (limit == 4 && type == rl::sched_type_cas_fail) {
      const std::uintptr_t object = this->thread_ ? last_rmw_[this->thread_->index_] : 0;
      if (failed_before(object)) return 1;  // at most one spurious failure per object
      const unsigned r = Base::rand(2, type);
      if (r == 0) remember(object);
      return r;
    }
    return Base::rand(limit, type);
  }

  bool park_current_thread(bool is_timed, bool /*allow_spurious_wakeup*/) {
    return Base::park_current_thread(is_timed, false);
  }

  // --- the Sync policy's announcements (forwarded by the runner) ---------------
  void announce(const Access& a) override {
    if (a.op == Op::rmw && this->thread_) last_rmw_[this->thread_->index_] = reinterpret_cast<std::uintptr_t>(a.addr);
    if (a.op == Op::free) forget(a);
  }
  // The single-threaded code runs on some thread's fiber: the same bookkeeping.
  void harness_announce(const Access& a, HarnessPart) override { announce(a); }
  void completed(bool) override {}

 private:
  static constexpr unsigned kMaxFailed = 64;  // distinct objects failed per execution (each fails once)

  void remember(std::uintptr_t object) {
    if (failed_count_ == kMaxFailed) {  // never silently: a forgotten object could fail twice
      std::fprintf(stderr, "lfcheck: full search at load depth 2: more than %u objects failed spuriously\n", kMaxFailed);
      std::abort();
    }
    failed_[failed_count_++] = object;
  }
  bool failed_before(std::uintptr_t object) const {
    for (unsigned i = 0; i < failed_count_; ++i)
      if (failed_[i] == object) return true;
    return false;
  }
  // A freed block's objects are gone: one allocated there later is a new object.
  void forget(const Access& a) {
    const auto begin = reinterpret_cast<std::uintptr_t>(a.addr);
    const std::uintptr_t size = a.size ? a.size : 1;
    for (unsigned i = 0; i < failed_count_;) {
      if (failed_[i] >= begin && failed_[i] - begin < size) failed_[i] = failed_[--failed_count_];
      else ++i;
    }
  }

  std::uintptr_t last_rmw_[N] = {};          // per thread: the object of its latest read-modify-write
  std::uintptr_t failed_[kMaxFailed] = {};   // objects whose weak CAS failed spuriously in this execution
  unsigned failed_count_ = 0;
};

}  // namespace lfcheck::model
