// Registers the Treiber stack's model scenarios (structure name "treiber").
#include "harness/model_registry.hpp"
#include "models/treiber_scenarios.hpp"

namespace lfcheck::treiber_models {

LFCHECK_MODEL(TreiberFault, PushVsPop);
LFCHECK_MODEL(TreiberFault, PushPushPop);
LFCHECK_MODEL(TreiberFault, TwoPoppersAba);
LFCHECK_MODEL(TreiberFault, PopVsDrainAba);
LFCHECK_MODEL(TreiberFault, PushVsTakeAll);
LFCHECK_MODEL(TreiberFault, TraversalDuringPops);
LFCHECK_MODEL(TreiberFault, PoolExhaustion);

}  // namespace lfcheck::treiber_models
