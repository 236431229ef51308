// Model scenarios: how a structure registers its Relacy models (included through
// harness/model_registry.hpp).
//
// A scenario is written once, against the Sync policy, as a class template
//
//   template <class Sync, MyFault F> struct MyScenario {
//     static constexpr const char* name = "two_poppers";      // unique per structure
//     static constexpr const char* description = "...";
//     static constexpr unsigned threads = 3;
//     static constexpr bool full_search = false;  // true if full search finishes quickly
//     void before();                // single-threaded set-up
//     void thread(unsigned index);  // the body of each of `threads` threads
//     void after();                 // single-threaded checks; Sync::check(...) to fail
//     void invariant();             // optional: checked between steps (may be empty)
//     std::uint64_t outcome() const;  // optional: what after() observed, as a number
//                                   // (--outcomes lists a run's distinct values)
//     static constexpr bool real_threads = true;  // optional: also run as a litmus
//                                   // test on real threads (its own bookkeeping must
//                                   // then be race-free: atomics or per-thread fields)
//   };
//
// and registered with LFCHECK_MODEL(MyFault, MyScenario). The model runner then
// offers it under the structure's name (lfcheck_add_structure's NAME, which is
// FaultTraits<MyFault>::mechanism), for every scheduler and every seeded fault,
// with no change to any runner. A structure without seeded faults writes
// `template <class Sync> struct MyScenario` and registers LFCHECK_MODEL(MyScenario). Expected outcome: a scenario passes
// only if Relacy reports success on the correct code (F = none).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/fault_catalogue.hpp"
#include "harness/fault_registry.hpp"
#include "harness/model/run.hpp"
#include "harness/model/scenario_hooks.hpp"
#include "harness/registration.hpp"
#include "harness/scenario.hpp"
#include "sync/relacy_sync.hpp"

namespace lfcheck {

// A scenario as Relacy runs it (harness/model/run.cpp's test object reaches it
// through these hooks): Relacy's machinery is compiled once, in the runner library.
template <class Scenario>
struct RelacyModel {
  Scenario scenario;
  void before() { scenario.before(); }
  void thread(unsigned index) { scenario.thread(index); }
  void after() { scenario.after(); }
  void invariant() { scenario.invariant(); }
  std::uint64_t outcome()
    requires requires(Scenario& s) { s.outcome(); }
  {
    return static_cast<std::uint64_t>(scenario.outcome());
  }
};

struct ModelEntry {
  std::string structure, scenario, description;
  unsigned threads;
  bool full_search;
  // Runs the scenario with `fault` under the named scheduler (harness/model/run.hpp);
  // false if the fault is not one of this structure's.
  std::function<bool(const std::string& scheduler, const ModelRequest&, std::string_view fault,
                     ModelOutcome& outcome)>
      run;
};

inline std::vector<ModelEntry>& model_registry() {
  static std::vector<ModelEntry> all;
  return all;
}

template <class E, template <class, E> class Scenario>
struct ModelRegistrar {
  explicit ModelRegistrar(const char* structure) {
    using Correct = Scenario<RelacySync, E::none>;
    static_assert(Correct::threads >= 1 && Correct::threads <= kMaxModelThreads,
                  "a model scenario has 1 to kMaxModelThreads (harness/model/run.hpp) threads");
    model_registry().push_back(
        {registration_name<E>(structure), Correct::name, Correct::description, Correct::threads,
         Correct::full_search,
         [](const std::string& scheduler, const ModelRequest& request, std::string_view fault,
            ModelOutcome& outcome) {
           return with_fault<E>(fault, [&](auto f) {
             using Model = RelacyModel<Scenario<RelacySync, decltype(f)::value>>;
             outcome = run_scenario(model::hooks_for<Model>(), Correct::threads, scheduler, request);
           });
         }});
    register_faults<E>();
  }
};

// The registrar LFCHECK_MODEL (model_registry.hpp) uses in this backend.
template <class E, template <class, E> class Scenario>
using ScenarioRegistrar = ModelRegistrar<E, Scenario>;

}  // namespace lfcheck
