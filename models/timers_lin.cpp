// Registers the Go-style timers' spec for `lfcheck lin` (both layers: see
// harness/lin_registry.hpp).
#include "harness/lin_registry.hpp"
#include "specs/timers_spec.hpp"

LFCHECK_LIN(lfcheck::specs::TimersSpec);

// Every fire of one run fits its result: the arms at its start, plus one per call the
// other threads make (specs/timers_spec.hpp).
static_assert(lfcheck::specs::TimersSpec::kMaxFires >=
              lfcheck::specs::TimersSpec::kTimers + (lfcheck::lin::kMaxThreads - 1) * lfcheck::lin::kMaxOpsPerThread);
static_assert(lfcheck::specs::TimersSpec::kMaxPending >= (lfcheck::lin::kMaxThreads - 1) * lfcheck::lin::kMaxOpsPerThread);
// Long histories: a run fires only the owner's arms, at most one per timer (TimersSpecOf's gen_call).
using History = lfcheck::specs::TimersSpec::HistorySpec;
static_assert(History::kMaxFires >= History::kTimers && History::kMaxPending >= History::kTimers);
