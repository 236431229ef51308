// LFCHECK_MODEL(FaultEnum, Scenario) registers a scenario (the contract is in
// harness/model/relacy_registry.hpp); LFCHECK_MODEL(Scenario) one without a fault
// parameter (a structure without seeded faults). The same models/NAME_models.cpp is compiled into
// two binaries, so each scenario is instantiated per backend:
//   lfcheck-model  (RelacySync): the Relacy model checker explores it;
//   lfcheck-stress (StdSync, LFCHECK_REAL_THREADS): scenarios that declare
//     `real_threads = true` also run as litmus tests on real threads, under TSan
//     and ASan, as workloads named "litmus.<scenario>".
#pragma once

#if defined(LFCHECK_REAL_THREADS)
#include "harness/stress/litmus_registry.hpp"
#else
#include "harness/model/relacy_registry.hpp"
#endif

#define LFCHECK_MODEL(...) \
  LFCHECK_PP_ONE_OR_TWO(__VA_ARGS__, LFCHECK_MODEL_WITH_FAULTS, LFCHECK_MODEL_FAULT_FREE, )(__VA_ARGS__)
#define LFCHECK_MODEL_WITH_FAULTS(FaultEnum, ScenarioTemplate) \
  LFCHECK_CHECK_REGISTRATION_NAME(FaultEnum);                  \
  static const ::lfcheck::ScenarioRegistrar<FaultEnum, ScenarioTemplate> lfcheck_model_##ScenarioTemplate{LFCHECK_THIS_STRUCTURE}
#define LFCHECK_MODEL_FAULT_FREE(ScenarioTemplate)                                                         \
  LFCHECK_CHECK_REGISTRATION_NAME(::lfcheck::NoFault);                                                    \
  static const ::lfcheck::ScenarioRegistrar<::lfcheck::NoFault,                                           \
                                            ::lfcheck::FaultFreeScenario<ScenarioTemplate>::template type> \
      lfcheck_model_##ScenarioTemplate{LFCHECK_THIS_STRUCTURE}
