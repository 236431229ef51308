// Registers the removal spec (DeliQueue's remove/remove_messages/has_messages)
// for `lfcheck lin` (both layers: see harness/lin_registry.hpp).
#include "harness/lin_registry.hpp"
#include "specs/removal_spec.hpp"

LFCHECK_LIN(lfcheck::specs::RemovalSpec);

// Every generated scenario fits the Subject's message pool, and every long
// history (real-thread builds) the HistorySpec's.
using RemovalPool = lfcheck::specs::RemovalSpec::Pool<lfcheck::StdSync>;
static_assert(RemovalPool::kThreads >= lfcheck::lin::kMaxThreads);
static_assert(RemovalPool::kPerThread >= lfcheck::lin::kMaxOpsPerThread);
static_assert(RemovalPool::kSetupSlots >= lfcheck::lin::kMaxPrefix + lfcheck::lin::kMaxSuffix);
#if defined(LFCHECK_REAL_THREADS)
static_assert(lfcheck::specs::RemovalSpec::HistorySpec::Pool<lfcheck::StdSync>::kPerThread >=
              lfcheck::lin::kHistoryCalls);
#endif
