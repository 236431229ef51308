// Registers the removal spec (DeliQueue's remove/remove_messages/has_messages)
// for `lfcheck lin` (both layers: see harness/lin_registry.hpp).
#include "harness/lin_registry.hpp"
#include "specs/removal_spec.hpp"

LFCHECK_LIN(lfcheck::specs::RemovalSpec);

// Every generated scenario fits the Subject's message pool.
using RemovalPool = lfcheck::specs::MessagePool<lfcheck::Message<>, lfcheck::StdSync>;
static_assert(RemovalPool::kPerThread >= lfcheck::lin::kMaxOpsPerThread);
static_assert(RemovalPool::kSetupSlots >= lfcheck::lin::kMaxPrefix + lfcheck::lin::kMaxSuffix);
