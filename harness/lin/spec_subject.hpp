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

// A Subject behind function pointers: what a runner compiled once per spec (not
// once per seeded fault) needs of one fault's Subject. The Subject is created
// with plain new (outside any model: the stress and props layers).
template <class S>
struct SubjectPort {
  void* (*create)() = nullptr;
  void (*destroy)(void*) = nullptr;
  typename S::Result (*run)(void*, const typename S::Call&, unsigned thread) = nullptr;
  const char* (*check_invariants)(void*) = nullptr;  // null: the Subject has none
};

template <class S, class Subject>
const SubjectPort<S>& port_of() {
  static const SubjectPort<S> port = [] {
    SubjectPort<S> p;
    p.create = []() -> void* { return new Subject(); };
    p.destroy = [](void* s) { delete static_cast<Subject*>(s); };
    p.run = [](void* s, const typename S::Call& c, unsigned t) { return static_cast<Subject*>(s)->run(c, t); };
    if constexpr (requires(Subject& s) { s.check_invariants(); })
      p.check_invariants = [](void* s) -> const char* { return static_cast<Subject*>(s)->check_invariants(); };
    return p;
  }();
  return port;
}

// A Subject reached through its port, with the Subject's own interface (run,
// check_invariants), owned for the wrapper's lifetime.
template <class S>
class PortedSubject {
 public:
  explicit PortedSubject(const SubjectPort<S>& port) : port_(&port), self_(port.create()) {}
  ~PortedSubject() { port_->destroy(self_); }
  PortedSubject(const PortedSubject&) = delete;
  PortedSubject& operator=(const PortedSubject&) = delete;
  typename S::Result run(const typename S::Call& c, unsigned t) { return port_->run(self_, c, t); }
  bool has_invariants() const { return port_->check_invariants != nullptr; }
  const char* check_invariants() { return port_->check_invariants ? port_->check_invariants(self_) : nullptr; }

 private:
  const SubjectPort<S>* port_;
  void* self_;
};

}  // namespace lfcheck::spec
