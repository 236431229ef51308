// Registers the timers' model scenarios (structure "timers").
#include "harness/model_registry.hpp"
#include "models/timers_scenarios.hpp"

namespace lfcheck::timers_models {

LFCHECK_MODEL(TimerFault, StopVsRun);
LFCHECK_MODEL(TimerFault, StopResetVsRun);
LFCHECK_MODEL(TimerFault, ResetVsAdjust);
LFCHECK_MODEL(TimerFault, TwoResets);
LFCHECK_MODEL(TimerFault, StopResetVsAdjust);
LFCHECK_MODEL(TimerFault, StopVsMove);
LFCHECK_MODEL(TimerFault, AddVsSleepingOwner);
LFCHECK_MODEL(TimerFault, CallbackRearms);
LFCHECK_MODEL(TimerFault, TimedSleep);

}  // namespace lfcheck::timers_models
