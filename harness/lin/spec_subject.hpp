// How the harness instantiates a spec's Subject, whichever of the three shapes the
// spec gives it (specs/spec.hpp):
//
//   template <class Sync, Fault F> struct Subject   a structure with seeded faults
//   template <class Sync> struct Subject            no faults: the spec declares no `Fault`
//   struct Subject                                  code not written against the Sync
//                                                   policy (an existing container, a
//                                                   third-party library): no model layer
//
// FaultOf<S> is the spec's fault enum, or NoFault when it declares none;
// SubjectOf<S, Sync, F> the Subject to construct for a backend and a fault. A plain
// Subject ignores Sync, so under Relacy it would run unchecked std::atomics: the model
// layer refuses it at compile time (subject_uses_sync), and lfcheck_add_structure's
// NO_MODEL leaves that layer out.
//
// Cost: compile time only.
#pragma once

#include <type_traits>

#include "harness/fault_catalogue.hpp"

namespace lfcheck::spec {

namespace detail {
template <class S>
struct fault_of {
  using type = NoFault;
};
template <class S>
  requires requires { typename S::Fault; }
struct fault_of<S> {
  using type = typename S::Fault;
};
}  // namespace detail

template <class S>
using FaultOf = typename detail::fault_of<S>::type;

namespace detail {
template <class S, class Sync, FaultOf<S> F>
auto subject_type() {
  if constexpr (requires { typename S::template Subject<Sync, F>; })
    return std::type_identity<typename S::template Subject<Sync, F>>{};
  else if constexpr (requires { typename S::template Subject<Sync>; })
    return std::type_identity<typename S::template Subject<Sync>>{};
  else
    return std::type_identity<typename S::Subject>{};
}
}  // namespace detail

template <class S, class Sync, FaultOf<S> F>
using SubjectOf = typename decltype(detail::subject_type<S, Sync, F>())::type;

// Whether the Subject is a template over the Sync policy (so Relacy sees its atomics).
template <class S, class Sync>
constexpr bool subject_uses_sync = requires { typename S::template Subject<Sync, FaultOf<S>::none>; } ||
                                   requires { typename S::template Subject<Sync>; };

}  // namespace lfcheck::spec
