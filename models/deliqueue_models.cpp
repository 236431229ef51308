// Registers DeliQueue's model scenarios (structure name "deliqueue").
#include "harness/model_registry.hpp"
#include "models/deliqueue_scenarios.hpp"

namespace lfcheck::deliqueue_models {

LFCHECK_MODEL(DeliFault, ProducersVsSweep);
LFCHECK_MODEL(DeliFault, SleepWakeRace);
LFCHECK_MODEL(DeliFault, SleepWakeClock);
LFCHECK_MODEL(DeliFault, QuitVsEnqueue);
LFCHECK_MODEL(DeliFault, QuitVsQuit);
LFCHECK_MODEL(DeliFault, BarrierAsync);
LFCHECK_MODEL(DeliFault, QuitVsWakers);
LFCHECK_MODEL(DeliFault, QuitUnsafeVsProducer);
LFCHECK_MODEL(DeliFault, TimedSleepFarDeadline);
LFCHECK_MODEL(DeliFault, QuitDuringTimedSleep);

}  // namespace lfcheck::deliqueue_models
