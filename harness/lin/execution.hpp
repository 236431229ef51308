// One execution of a generated scenario, written once for both layers: the model
// layer's Relacy test (harness/lin/model.hpp, a Subject over RelacySync) and the stress
// layer's litmus (harness/lin/stress.hpp, a Subject over StdSync) call these from their
// before(), thread(t) and after(), and differ only in how a rejected outcome
// fails the execution (a Relacy assertion, or the stress run's failure).
//
// Bookkeeping (ExecutionBook): the running execution's results and how many calls
// of each part returned, and a fixed-size cache of the outcomes the checker has
// accepted (distinct outcomes are few: the checker runs once per distinct one).
// Thread t writes only current.threads[t] and returned.threads[t]; before() and
// after() run alone (both runners order every thread's writes before after()).
// Nothing here allocates an object that outlives a call, so Relacy's leak check
// stays exact.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "harness/lin/outcome.hpp"
#include "harness/lin/scenario.hpp"
#include "lin/checker.hpp"
#include "lin/relaxed.hpp"

namespace lfcheck::lin {

inline std::uint64_t monotonic_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

inline constexpr const char* kNotLinearizableWords =
    "NOT LINEARIZABLE: no sequential order of these operations gives these results";
inline constexpr const char* kUnknownWords = "LINEARIZABILITY UNKNOWN: the checker's budget ran out on this history";

template <class S>
struct ExecutionBook {
  static constexpr std::size_t kCacheSize = 512;
  const Scenario<S>* scenario = nullptr;
  Budget check_budget;
  // Real threads: every call is stamped (invoke, response) and the execution is
  // checked in real-time order — a call must see every call that returned before
  // it was invoked. Under Relacy there is no clock: program order (threads' calls
  // concurrent with each other), the order the model's happens-before can keep.
  bool real_time = false;
  Results<S> current;      // the running execution's results
  Stamps stamps;           // ... and, real_time, when each call ran
  Returned returned{};     // how many calls of each part returned
  Results<S> good[kCacheSize];  // outcomes the checker accepted
  Precedence good_order[kCacheSize];  // ... and their real-time order (real_time only)
  std::size_t good_count = 0;
  // A relaxed spec: the largest out_of_order of the linearizations found so far
  // (lin/relaxed.hpp), -1 while none was measured.
  int worst_out_of_order = -1;

  bool known_good() const {
    const Precedence now = real_time ? precedence(*scenario, stamps) : Precedence{};
    for (std::size_t i = 0; i < good_count; ++i)
      if (good[i].same_as(current, *scenario) && good_order[i] == now) return true;
    return false;
  }
  void remember() {
    if (good_count == kCacheSize) return;
    good_order[good_count] = real_time ? precedence(*scenario, stamps) : Precedence{};
    good[good_count++] = current;
  }
};

// Runs call() between two stamps of the monotonic clock: its invoke before, its
// response after a seq_cst fence, so that everything the call did is globally
// visible by its response stamp (a store-buffer drain, paired with no load in
// particular). Every real-thread history is stamped this way (scenarios here, long
// histories in stress.hpp).
template <class Call>
auto stamped(Call&& call, std::uint64_t& invoke, std::uint64_t& response) {
  invoke = monotonic_ns();
  auto result = call();
  std::atomic_thread_fence(std::memory_order_seq_cst);
  response = monotonic_ns();
  return result;
}

// Runs one call; on real threads stamps it.
template <class S, class Subject>
typename S::Result timed_call(Subject& subject, const typename S::Call& call, std::uint32_t thread, bool real_time,
                              Stamps::Span& span) {
  if (!real_time) return subject.run(call, thread);
  return stamped([&] { return subject.run(call, thread); }, span.invoke, span.response);
}

// before(): a fresh record, then the sequential prefix.
template <class S, class Subject>
void run_prefix(Subject& subject, ExecutionBook<S>& b) {
  b.current.reset();
  b.returned = Returned{};
  for (std::size_t i = 0; i < b.scenario->prefix.size(); ++i) {
    b.current.prefix[i] = timed_call<S>(subject, b.scenario->prefix[i], kSetupThread, b.real_time, b.stamps.prefix[i]);
    ++b.returned.prefix;
  }
}

// thread(t): thread t's calls in program order (a scenario of fewer threads than
// the runner starts leaves the others idle).
template <class S, class Subject>
void run_thread(Subject& subject, ExecutionBook<S>& b, unsigned t) {
  if (t >= b.scenario->threads.size()) return;
  const auto& calls = b.scenario->threads[t];
  for (std::size_t i = 0; i < calls.size(); ++i) {
    b.current.threads[t][i] = timed_call<S>(subject, calls[i], t, b.real_time, b.stamps.threads[t][i]);
    ++b.returned.threads[t];
  }
}

// What after() found: nothing (words == nullptr: the outcome is accepted), a
// broken invariant of the subject (its words), or the checker's rejection.
struct Judgement {
  const char* words = nullptr;
  bool invariant = false;  // words are check_invariants()'s
};

// The checker's judgement of the execution recorded in b (once per distinct
// outcome: the cache). One per spec, whatever the Subject: a seeded fault changes
// the Subject alone, so the checker is not compiled again for each fault. The
// checker's allocations are freed before it returns.
template <class S>
Judgement judge_execution(ExecutionBook<S>& b) {
  if (b.known_good()) return {};
  const History<S> h = to_history(*b.scenario, b.current, b.real_time ? &b.stamps : nullptr);
  const Report report = check(h, b.check_budget);
  const Verdict verdict = report.verdict;
  if (verdict == Verdict::linearizable) {
    if constexpr (HasOutOfOrder<S>) {
      const OutOfOrder o = worst_out_of_order(h, report);
      if (static_cast<int>(o.worst) > b.worst_out_of_order) b.worst_out_of_order = static_cast<int>(o.worst);
    }
    b.remember();
    return {};
  }
  return {verdict == Verdict::unknown ? kUnknownWords : kNotLinearizableWords, false};
}

// after(): the suffix, the subject's invariants, then the checker's judgement.
template <class S, class Subject>
Judgement finish_execution(Subject& subject, ExecutionBook<S>& b) {
  for (std::size_t i = 0; i < b.scenario->suffix.size(); ++i) {
    b.current.suffix[i] = timed_call<S>(subject, b.scenario->suffix[i], kSetupThread, b.real_time, b.stamps.suffix[i]);
    ++b.returned.suffix;
  }
  if constexpr (requires { subject.check_invariants(); }) {
    if (const char* broken = subject.check_invariants()) return {broken, true};
  }
  return judge_execution(b);
}

}  // namespace lfcheck::lin
