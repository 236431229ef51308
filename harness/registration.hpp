// What every registration macro (LFCHECK_MODEL, LFCHECK_STRESS, LFCHECK_LIN) needs
// beyond a fault enum: the structure it belongs to, and the adapters that let a
// scenario or workload without seeded faults register like one with faults.
//
// The structure's name comes from lfcheck_add_structure(NAME ...) (cmake/Lfcheck.cmake),
// which compiles the structure's registration files with LFCHECK_STRUCTURE="NAME".
// A fault catalogue names its structure too (FaultTraits<E>::mechanism); where both
// exist they must agree, checked at compile time, so a name cannot drift between the
// CMake call and the catalogue. A registration without faults (NoFault) takes its
// name from LFCHECK_STRUCTURE alone. Outside lfcheck_add_structure (lfcheck's own
// probe binaries) the catalogue's mechanism is the name.
//
// Cost: compile time only.
#pragma once

#include <string_view>
#include <type_traits>

#include "harness/fault_catalogue.hpp"

#if defined(LFCHECK_STRUCTURE)
#define LFCHECK_THIS_STRUCTURE LFCHECK_STRUCTURE
#else
#define LFCHECK_THIS_STRUCTURE ""
#endif

namespace lfcheck {

// Whether a registration of fault enum E may be filed under `given` (LFCHECK_STRUCTURE).
template <class E>
constexpr bool registration_name_agrees(std::string_view given) {
  if constexpr (std::is_same_v<E, NoFault>)
    return !given.empty();
  else
    return given.empty() || given == std::string_view(FaultTraits<E>::mechanism);
}

template <class E>
constexpr const char* registration_name(const char* given) {
  return std::string_view(given).empty() ? FaultTraits<E>::mechanism : given;
}

// A scenario written without a fault parameter (template <class Sync> struct S),
// seen as the two-parameter template the registrars take.
template <template <class> class Scenario>
struct FaultFreeScenario {
  template <class Sync, NoFault>
  using type = Scenario<Sync>;
};

// A workload without a fault parameter (a plain struct), seen as a template over NoFault.
template <class Workload>
struct FaultFreeWorkload {
  template <NoFault>
  using type = Workload;
};

}  // namespace lfcheck

#define LFCHECK_CHECK_REGISTRATION_NAME(FaultEnum)                                                  \
  static_assert(::lfcheck::registration_name_agrees<FaultEnum>(LFCHECK_THIS_STRUCTURE),             \
                "the structure's name in lfcheck_add_structure(NAME ...) and its fault catalogue's " \
                "mechanism must agree (a registration without faults needs lfcheck_add_structure)")

// A name unique to its line (a TU may register several specs or scenarios).
#define LFCHECK_PP_CAT2(a, b) a##b
#define LFCHECK_PP_CAT(a, b) LFCHECK_PP_CAT2(a, b)

// LFCHECK_MODEL(A) or LFCHECK_MODEL(A, B): picks the macro for one or two arguments.
#define LFCHECK_PP_ONE_OR_TWO(_1, _2, NAME, ...) NAME
