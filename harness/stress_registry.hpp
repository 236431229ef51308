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
// registered with LFCHECK_STRESS(MyFault, MyWorkload). A structure without seeded
// faults writes a plain `struct MyWorkload` and registers LFCHECK_STRESS(MyWorkload). The stress runner handles
// seeds, budgets, progress, JSON/JUnit, replay lines and sanitizer deaths.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/fault_catalogue.hpp"
#include "harness/fault_registry.hpp"
#include "harness/registration.hpp"
#include "harness/stress/run.hpp"

namespace lfcheck {

struct StressEntry {
  std::string structure, workload, description;
  std::function<bool(StressRun&, std::string_view fault)> run;  // false: unknown fault
  // What its record says before the run can (a process that dies in it): the
  // threads it starts (0: --threads) and the unit of its work.
  unsigned threads = 0;
  std::string unit = "ops";
};

inline std::vector<StressEntry>& stress_registry() {
  static std::vector<StressEntry> all;
  return all;
}

template <class E, template <E> class Workload>
struct StressRegistrar {
  explicit StressRegistrar(const char* structure) {
    using Correct = Workload<E::none>;
    stress_registry().push_back({registration_name<E>(structure), Correct::name, Correct::description,
                                 [](StressRun& run, std::string_view fault) {
                                   return with_fault<E>(fault, [&](auto f) {
                                     Workload<decltype(f)::value>::run(run);
                                   });
                                 }});
    register_faults<E>();
  }
};

}  // namespace lfcheck

#define LFCHECK_STRESS(...) \
  LFCHECK_PP_ONE_OR_TWO(__VA_ARGS__, LFCHECK_STRESS_WITH_FAULTS, LFCHECK_STRESS_FAULT_FREE, )(__VA_ARGS__)
#define LFCHECK_STRESS_WITH_FAULTS(FaultEnum, WorkloadTemplate) \
  LFCHECK_CHECK_REGISTRATION_NAME(FaultEnum);                   \
  static const ::lfcheck::StressRegistrar<FaultEnum, WorkloadTemplate> lfcheck_stress_##WorkloadTemplate{LFCHECK_THIS_STRUCTURE}
#define LFCHECK_STRESS_FAULT_FREE(Workload)                                                                \
  LFCHECK_CHECK_REGISTRATION_NAME(::lfcheck::NoFault);                                                     \
  static const ::lfcheck::StressRegistrar<::lfcheck::NoFault, ::lfcheck::FaultFreeWorkload<Workload>::template type> \
      lfcheck_stress_##Workload{LFCHECK_THIS_STRUCTURE}
