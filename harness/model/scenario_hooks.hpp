// A scenario as the model runner library sees it: its size and alignment and
// function pointers to its life cycle, so that Relacy's machinery (rl::context_impl
// over a test type and a scheduler) is compiled once, in the runner library
// (harness/model/run.cpp), for every thread count — never again in a structure's
// translation unit.
//
// What a structure's TU compiles is only its own code against RelacySync: the
// scenario's constructor, before(), thread(i), after(), invariant() and, if it
// has one, outcome(), each behind a plain function pointer (hooks_for<T>()).
//
// Lifetime, as Relacy's own test suites have it: the runner's test object
// (ErasedTest, run.cpp) is built by Relacy at the start of every execution, in
// the first thread's fiber, before any thread runs; it constructs the scenario in
// place (so the scenario's atomics and cells are created inside the simulation),
// runs before(), the threads, invariant() between steps, after(), and destroys
// the scenario before Relacy's leak check. Storage for the scenario comes from
// the runner, outside the simulation (it is not an allocation Relacy tracks).
//
// outcome() (optional): what after() observed, as a number; the runner collects
// the distinct values of a run's passing executions (`--outcomes`), which is how
// two schedulers' searches are compared execution class by execution class.
#pragma once

#include <cstddef>
#include <concepts>
#include <cstdint>
#include <new>

namespace lfcheck::model {

struct ScenarioHooks {
  std::size_t size = 0, align = 1;
  void (*construct)(void* at) = nullptr;
  void (*destroy)(void* at) = nullptr;
  void (*before)(void* self) = nullptr;
  void (*thread)(void* self, unsigned index) = nullptr;
  void (*after)(void* self) = nullptr;
  void (*invariant)(void* self) = nullptr;
  std::uint64_t (*outcome)(void* self) = nullptr;  // null: the scenario has none
};

// The hooks of scenario type T (default-constructible; before/thread/after/invariant
// as in harness/model/relacy_registry.hpp's contract).
template <class T>
const ScenarioHooks& hooks_for() {
  static const ScenarioHooks hooks = [] {
    ScenarioHooks h;
    h.size = sizeof(T);
    h.align = alignof(T);
    h.construct = [](void* at) { ::new (at) T(); };
    h.destroy = [](void* at) { static_cast<T*>(at)->~T(); };
    h.before = [](void* self) { static_cast<T*>(self)->before(); };
    h.thread = [](void* self, unsigned i) { static_cast<T*>(self)->thread(i); };
    h.after = [](void* self) { static_cast<T*>(self)->after(); };
    h.invariant = [](void* self) { static_cast<T*>(self)->invariant(); };
    if constexpr (requires(T& t) { { t.outcome() } -> std::convertible_to<std::uint64_t>; })
      h.outcome = [](void* self) -> std::uint64_t { return static_cast<T*>(self)->outcome(); };
    return h;
  }();
  return hooks;
}

}  // namespace lfcheck::model
