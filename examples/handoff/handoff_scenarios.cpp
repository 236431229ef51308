// A hand-written Relacy scenario without a fault parameter: the check is an
// assertion of the protocol (the taker gets the value put, and no access races),
// not a sequential spec. real_threads: it also runs as a litmus test on real
// threads under TSan and ASan (workload litmus.put_then_take).
#include <lfcheck/harness/model_registry.hpp>
#include <lfcheck/harness/scenario.hpp>

#include "handoff.hpp"

template <class Sync>
struct PutThenTake : lfcheck::ScenarioBase {
  static constexpr const char* name = "put_then_take";
  static constexpr const char* description = "one thread puts 42, another takes it";
  static constexpr unsigned threads = 2;
  static constexpr bool full_search = true;
  static constexpr bool real_threads = true;

  Handoff<int, Sync> slot;
  typename Sync::template atomic<int> taken{0};  // atomic: the litmus run reads it after the threads

  void thread(unsigned i) {
    if (i == 0) slot.put(42);
    else taken.store(slot.take(), std::memory_order_relaxed);  // relaxed: read after the threads joined
  }
  void after() { Sync::check(taken.load(std::memory_order_relaxed) == 42, "the taker got the value put"); }
};

LFCHECK_MODEL(PutThenTake);
