// The fault catalogue of a stress probe without seeded faults (stress/selftest/): its
// mechanism only, with the one entry "<mechanism>.none" that says so.
#pragma once

#include "harness/fault_catalogue.hpp"

#define LFCHECK_PROBE_WITHOUT_FAULTS(Enum, MECHANISM)                                                  \
  enum class Enum { none };                                                                           \
  template <>                                                                                         \
  struct lfcheck::FaultTraits<Enum> {                                                                 \
    static constexpr const char* mechanism = MECHANISM;                                               \
    static constexpr ::lfcheck::FaultInfo<Enum> catalogue[] = {                                         \
        {Enum::none, MECHANISM ".none", "(no faults: a runner self-test)", "", "stress"}};             \
  }
