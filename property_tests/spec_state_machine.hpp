// The props layer from a spec: a RapidCheck property that runs a generated
// sequence of calls on the structure (StdSync, one thread) and on the spec's
// sequential model side by side, and requires the same result from both after
// every call, plus the structure's check_invariants() where it has one.
//
// The spec is the only reference model (specs/spec.hpp): this file holds none.
// A failure is shrunk by RapidCheck to a minimal sequence and shown as a table
// (call, what the structure returned, what the model expects), followed by
// RapidCheck's reproduce line (RC_PARAMS="reproduce=...").
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "property_tests/fault_selection.hpp"
#include "harness/lin/spec_hooks.hpp"
#include "harness/lin/spec_subject.hpp"
#include "specs/spec.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck::props {

// One generated call, printable in RapidCheck's counterexample.
template <class S>
struct SpecCall {
  typename S::Call call;
  friend std::ostream& operator<<(std::ostream& os, const SpecCall& c) { return os << S::show(c.call); }
};

template <class S>
rc::Gen<std::vector<SpecCall<S>>> gen_sequence() {
  return rc::gen::container<std::vector<SpecCall<S>>>(
      rc::gen::map(S::gen_call(spec::Slot{spec::Where::sequential}),
                   [](typename S::Call c) { return SpecCall<S>{c}; }));
}

template <class Subject>
const char* invariants_of(const Subject& s) {
  if constexpr (requires { s.check_invariants(); }) return s.check_invariants();
  else return nullptr;
}

// The property: every call's result equals the model's.
template <class S, class Subject>
void sequence_matches_model_on(Subject& subject, const std::vector<SpecCall<S>>& calls) {
  typename S::State model = S::initial();
  std::ostringstream done;  // the calls so far, for the failure message
  for (const auto& c : calls) {
    const typename S::Result got = subject.run(c.call, 0);
    const typename S::Result want = S::apply(model, c.call);
    done << "  " << S::show(c.call) << ": " << S::show(got);
    if (!(got == want)) {
      done << "   <- the spec says " << S::show(want) << "\n";
      RC_FAIL(std::string(S::name) + ": the structure's result differs from the spec's\n" + done.str());
    }
    done << "\n";
    if (const char* broken = invariants_of(subject))
      RC_FAIL(std::string(S::name) + ": check_invariants: " + broken + " after\n" + done.str());
  }
}

// A case that fails leaks its subject instead of destroying it: a structure that
// gave a wrong answer may be in any state, and its teardown can free a message
// twice (removal.backlink_not_rebuilt did: glibc's "double free" abort ended the
// process before RapidCheck printed its reproduce line).
template <class S, spec::FaultOf<S> F>
void sequence_matches_model(const std::vector<SpecCall<S>>& calls) {
  // The spec's hooks (harness/lin/spec_hooks.hpp): this thread is the driver, and
  // the one thread that calls the Subject.
  const spec::ThreadScope<S> driver(spec::kDriverThread);
  auto owned = std::make_unique<spec::SubjectOf<S, StdSync, F>>();
  try {
    sequence_matches_model_on<S>(*owned, calls);
  } catch (...) {
    (void)owned.release();  // leaked on purpose (above)
    throw;
  }
}

// Runs the property for the fault chosen by LFCHECK_FAULT (none by default). Only
// sequence_matches_model<S, F> is compiled per fault; the property, its generator
// and RapidCheck's shrinking once per spec (a fault changes the Subject alone).
template <class S>
bool check_spec_state_machine() {
  void (*matches)(const std::vector<SpecCall<S>>&) = nullptr;
  with_selected_fault<spec::FaultOf<S>>([&](auto fault) {
    matches = &sequence_matches_model<S, decltype(fault)::value>;
  });
  return rc::check(std::string(S::name) + " agrees with its sequential spec after every call",
                   [matches] { matches(*gen_sequence<S>()); });
}

}  // namespace lfcheck::props

// Registers the spec's state-machine property as TEST(NAME, state_machine_matches_spec).
#define LFCHECK_SPEC_PROPS(SpecType, test_suite) \
  TEST(test_suite, state_machine_matches_spec) { EXPECT_TRUE(::lfcheck::props::check_spec_state_machine<SpecType>()); }
