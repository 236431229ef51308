// Registers the refcounted shutdown's spec for `lfcheck lin` (both layers: see
// harness/lin_registry.hpp).
#include "harness/lin_registry.hpp"
#include "specs/shutdown_spec.hpp"

LFCHECK_LIN(lfcheck::specs::ShutdownSpec);

// Overflow must be reachable by a scenario's three holders (specs/shutdown_spec.hpp).
static_assert(lfcheck::specs::ShutdownSpec::kMaxCount < lfcheck::specs::ShutdownSpec::kHolders);
