// LFCHECK_MODEL(FaultEnum, Scenario): registers a scenario (the contract is in
// harness/relacy_registry.hpp). The same models/NAME_models.cpp is compiled into
// two binaries, so each scenario is instantiated per backend:
//   lfcheck-model  (RelacySync): the Relacy model checker explores it;
//   lfcheck-stress (StdSync, LFCHECK_REAL_THREADS): scenarios that declare
//     `real_threads = true` also run as litmus tests on real threads, under TSan
//     and ASan, as workloads named "litmus.<scenario>".
#pragma once

#if defined(LFCHECK_REAL_THREADS)
#include "harness/litmus_registry.hpp"
#else
#include "harness/relacy_registry.hpp"
#endif
