// Stress workloads: how a structure registers its real-thread stress run.
//
// A workload is a class template over the structure's fault enum:
//
//   template <MyFault F> struct MyWorkload {
//     static constexpr const char* name = "push_pop";  // the JSON "workload"
//     static constexpr const char* description = "...";
//     static void run(StressRun& run);  // drive threads with run_rounds(), report
//                                       // problems with run.fail(...)
//   };
//
// registered with LFCHECK_STRESS(MyFault, MyWorkload). The stress runner handles
// seeds, budgets, progress, JSON/JUnit, replay lines and sanitizer deaths.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/fault_catalogue.hpp"
#include "harness/fault_registry.hpp"
#include "harness/stress_run.hpp"

namespace lfcheck {

struct StressEntry {
  std::string structure, workload, description;
  std::function<bool(StressRun&, std::string_view fault)> run;  // false: unknown fault
};

inline std::vector<StressEntry>& stress_registry() {
  static std::vector<StressEntry> all;
  return all;
}

template <class E, template <E> class Workload>
struct StressRegistrar {
  StressRegistrar() {
    using Correct = Workload<E::none>;
    stress_registry().push_back({FaultTraits<E>::mechanism, Correct::name, Correct::description,
                                 [](StressRun& run, std::string_view fault) {
                                   return with_fault<E>(fault, [&](auto f) {
                                     Workload<decltype(f)::value>::run(run);
                                   });
                                 }});
    register_faults<E>();
  }
};

}  // namespace lfcheck

#define LFCHECK_STRESS(FaultEnum, WorkloadTemplate) \
  static const ::lfcheck::StressRegistrar<FaultEnum, WorkloadTemplate> lfcheck_stress_##WorkloadTemplate
