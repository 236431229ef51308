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

#include <cstddef>

#include "harness/lin/outcome.hpp"
#include "harness/lin/scenario.hpp"
#include "lin/checker.hpp"

namespace lfcheck::lin {

inline constexpr const char* kNotLinearizableWords =
    "NOT LINEARIZABLE: no sequential order of these operations gives these results";
inline constexpr const char* kUnknownWords = "LINEARIZABILITY UNKNOWN: the checker's budget ran out on this history";

template <class S>
struct ExecutionBook {
  static constexpr std::size_t kCacheSize = 512;
  const Scenario<S>* scenario = nullptr;
  Budget check_budget;
  Results<S> current;      // the running execution's results
  Returned returned{};     // how many calls of each part returned
  Results<S> good[kCacheSize];  // outcomes the checker accepted
  std::size_t good_count = 0;

  bool known_good() const {
    for (std::size_t i = 0; i < good_count; ++i)
      if (good[i].same_as(current, *scenario)) return true;
    return false;
  }
  void remember() {
    if (good_count < kCacheSize) good[good_count++] = current;
  }
};

// before(): a fresh record, then the sequential prefix.
template <class S, class Subject>
void run_prefix(Subject& subject, ExecutionBook<S>& b) {
  b.current.reset();
  b.returned = Returned{};
  for (std::size_t i = 0; i < b.scenario->prefix.size(); ++i) {
    b.current.prefix[i] = subject.run(b.scenario->prefix[i], kSetupThread);
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
    b.current.threads[t][i] = subject.run(calls[i], t);
    ++b.returned.threads[t];
  }
}

// What after() found: nothing (words == nullptr: the outcome is accepted), a
// broken invariant of the subject (its words), or the checker's rejection.
struct Judgement {
  const char* words = nullptr;
  bool invariant = false;  // words are check_invariants()'s
};

// after(): the suffix, the subject's invariants, then the checker (once per
// distinct outcome). The checker's allocations are freed before it returns.
template <class S, class Subject>
Judgement finish_execution(Subject& subject, ExecutionBook<S>& b) {
  for (std::size_t i = 0; i < b.scenario->suffix.size(); ++i) {
    b.current.suffix[i] = subject.run(b.scenario->suffix[i], kSetupThread);
    ++b.returned.suffix;
  }
  if constexpr (requires { subject.check_invariants(); }) {
    if (const char* broken = subject.check_invariants()) return {broken, true};
  }
  if (b.known_good()) return {};
  const Verdict verdict = check(to_history(*b.scenario, b.current), b.check_budget).verdict;
  if (verdict == Verdict::linearizable) {
    b.remember();
    return {};
  }
  return {verdict == Verdict::unknown ? kUnknownWords : kNotLinearizableWords, false};
}

}  // namespace lfcheck::lin
