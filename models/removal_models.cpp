// Registers the removal scenarios (structure name "removal"): tombstone claims,
// the free-list, benign-race traversal and TraversalEpochs reclamation.
#include "harness/model_registry.hpp"
#include "models/removal_scenarios.hpp"

namespace lfcheck::removal_models {

LFCHECK_MODEL(RemovalFault, ClaimRace);
LFCHECK_MODEL(RemovalFault, TraversalVsUnlink);
LFCHECK_MODEL(RemovalFault, TraversalVsFree);
LFCHECK_MODEL(RemovalFault, FreeListPushVsDrain);
LFCHECK_MODEL(RemovalFault, EpochsReaderVsReclaim);
LFCHECK_MODEL(RemovalFault, EpochsTwoGracePeriods);

}  // namespace lfcheck::removal_models
