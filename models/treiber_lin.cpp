// Registers the Treiber stack's spec for `lfcheck lin` (both layers: see
// harness/lin_registry.hpp).
#include "harness/lin_registry.hpp"
#include "specs/treiber_spec.hpp"

LFCHECK_LIN(lfcheck::specs::TreiberSpec);

// No generated scenario can fill the stack (specs/treiber_spec.hpp: why it matters).
static_assert(lfcheck::specs::TreiberSpec::kCapacity >=
              lfcheck::lin::kMaxPrefix + lfcheck::lin::kMaxThreads * lfcheck::lin::kMaxOpsPerThread +
                  lfcheck::lin::kMaxSuffix);
