// DeliQueue's spec state machine (RapidCheck on GoogleTest): specs/deliqueue_spec.hpp, the
// one reference model, on DeliQueue (LFCHECK_FAULT selects the variant) and, through the
// same spec with a second Subject, on LockedMessageQueue. Apart from deliqueue_props.cpp
// so that neither translation unit is a monster (each state machine instantiates
// RapidCheck's generators and shrinking for every seeded fault).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "property_tests/fault_selection.hpp"
#include "property_tests/spec_state_machine.hpp"
#include "specs/deliqueue_spec.hpp"
#include "structures/deliqueue/deliqueue.hpp"
#include "structures/deliqueue/locked_message_queue.hpp"

// The spec's state machine on DeliQueue (LFCHECK_FAULT selects the variant) ...
LFCHECK_SPEC_PROPS(lfcheck::specs::DeliQueueSpec, deliqueue)

// ... and on the locked baseline: the same spec (model, generators, calls) with
// a Subject over LockedMessageQueue, which has the same API and no faults (a
// seeded DeliQueue fault leaves it unchanged).
namespace lfcheck {
struct LockedBaselineSpec : specs::DeliQueueSpec {
  static constexpr const char* name = "deliqueue (LockedMessageQueue baseline)";
  template <class Sync, DeliFault>
  struct Subject : QueueSubject<LockedMessageQueue<Sync, VirtualClock<Sync>>, Sync, specs::DeliQueueSpec::Pool<Sync>> {};
};
}  // namespace lfcheck

TEST(deliqueue, locked_baseline_matches_spec) {
  EXPECT_TRUE(lfcheck::props::check_spec_state_machine<lfcheck::LockedBaselineSpec>());
}
