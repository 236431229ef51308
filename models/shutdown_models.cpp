// Registers the refcounted shutdown's model scenarios (structure name "shutdown").
#include "harness/model_registry.hpp"
#include "models/shutdown_scenarios.hpp"

namespace lfcheck::shutdown_models {

LFCHECK_MODEL(ShutdownFault, UsersVsShutdown);
LFCHECK_MODEL(ShutdownFault, HoldersVsOwnerFree);
LFCHECK_MODEL(ShutdownFault, ThreeUsersVsShutdown);
LFCHECK_MODEL(ShutdownFault, OverflowAtLimit);

}  // namespace lfcheck::shutdown_models
