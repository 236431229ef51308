// Registers DeliQueue's spec for `lfcheck lin` (both layers: see
// harness/lin_registry.hpp).
#include "harness/lin_registry.hpp"
#include "specs/deliqueue_spec.hpp"

LFCHECK_LIN(lfcheck::specs::DeliQueueSpec);

// Every generated scenario fits the Subject's message pool and result record,
// and every long history (real-thread builds) the HistorySpec's.
using DeliPool = lfcheck::specs::DeliQueueSpec::Pool<lfcheck::StdSync>;
static_assert(DeliPool::kThreads >= lfcheck::lin::kMaxThreads);
static_assert(DeliPool::kPerThread >= lfcheck::lin::kMaxOpsPerThread);
static_assert(DeliPool::kSetupSlots >= lfcheck::lin::kMaxPrefix + lfcheck::lin::kMaxSuffix);
static_assert(lfcheck::specs::deli_spec::kMaxDropped >=
              lfcheck::lin::kMaxPrefix + lfcheck::lin::kMaxThreads * lfcheck::lin::kMaxOpsPerThread +
                  lfcheck::lin::kMaxSuffix);
#if defined(LFCHECK_REAL_THREADS)
static_assert(lfcheck::specs::DeliQueueSpec::HistorySpec::Pool<lfcheck::StdSync>::kPerThread >=
              lfcheck::lin::kHistoryCalls);
#endif
