// Litmus tests of causality (structure "litmus"; answers in litmus.hpp): MP, S, LB.
#include "harness/model_registry.hpp"
#include "models/selftest/litmus/litmus.hpp"

namespace lfcheck::litmus {

// MP (message passing): T0 writes data, then the flag; T1 reads the flag, then
// the data. Weak: T1 sees the flag but not the data (r1=1 r2=0).
// outcome(): r1 * 2 + r2.
template <class Sync, Order O>
struct Mp : ScenarioBase {
  static constexpr const char* name = VariantName<"mp", O>::value.data();
  static constexpr const char* description = "MP: T0 data=1, flag=1; T1 r1=flag, r2=data; weak r1=1 r2=0";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> data{0}, flag{0};
  int r1 = -1, r2 = -1;
  void thread(unsigned i) {
    if (i == 0) {
      data.store(1, std::memory_order_relaxed);  // relaxed: the flag (or the fence) publishes it
      if constexpr (O == Order::fences) Sync::fence(std::memory_order_release);  // release: pairs with T1's acquire fence
      flag.store(1, store_order(O));  // the variant's order: pairs with T1's flag load
    } else {
      r1 = flag.load(load_order(O));  // the variant's order: pairs with T0's flag store
      if constexpr (O == Order::fences) Sync::fence(std::memory_order_acquire);  // acquire: pairs with T0's release fence
      r2 = data.load(std::memory_order_relaxed);  // relaxed: ordered (or not) by the flag
    }
  }
  void observe() {}
  bool weak() const { return r1 == 1 && r2 == 0; }
  std::uint64_t outcome() const { return static_cast<std::uint64_t>(r1 * 2 + r2); }
};

// S: T0 writes x=2, then y=1; T1 reads y, then writes x=1. Weak: T1 read y=1 and
// yet x ends as 2 (T1's x=1 came first in x's modification order).
// outcome(): r * 2 + (x - 1), x the final value (1 or 2).
template <class Sync, Order O>
struct S : ScenarioBase {
  static constexpr const char* name = VariantName<"s", O>::value.data();
  static constexpr const char* description = "S: T0 x=2, y=1; T1 r=y, x=1; weak r=1 and final x=2";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> x{0}, y{0};
  int r = -1, final_x = -1;
  void thread(unsigned i) {
    if (i == 0) {
      x.store(2, std::memory_order_relaxed);  // relaxed: y's store (the variant's order) orders it or not
      y.store(1, store_order(O));             // the variant's order: pairs with T1's load of y
    } else {
      r = y.load(load_order(O));              // the variant's order: pairs with T0's store of y
      x.store(1, std::memory_order_relaxed);  // relaxed: coherence alone decides x's final value
    }
  }
  void observe() { final_x = x.load(std::memory_order_relaxed); }  // relaxed: after() follows every thread
  bool weak() const { return r == 1 && final_x == 2; }
  std::uint64_t outcome() const { return static_cast<std::uint64_t>(r * 2 + (final_x - 1)); }
};

// LB (load buffering): each thread reads one location, then writes the other.
// Weak: both loads read the other thread's store (r0=1 r1=1): a cycle of program
// order and reads-from, as if each load took effect after its own thread's store.
// outcome(): r0 * 2 + r1.
template <class Sync, Order O>
struct Lb : ScenarioBase {
  static constexpr const char* name = VariantName<"lb", O>::value.data();
  static constexpr const char* description = "LB: T0 r0=x, y=1; T1 r1=y, x=1; weak r0=1 r1=1";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> x{0}, y{0};
  int r0 = -1, r1 = -1;
  void thread(unsigned i) {
    // The variant's orders: each load pairs with the other thread's store.
    if (i == 0) {
      r0 = x.load(load_order(O));
      y.store(1, store_order(O));
    } else {
      r1 = y.load(load_order(O));
      x.store(1, store_order(O));
    }
  }
  void observe() {}
  bool weak() const { return r0 == 1 && r1 == 1; }
  std::uint64_t outcome() const { return static_cast<std::uint64_t>(r0 * 2 + r1); }
};

LFCHECK_LITMUS(MpRelaxed, Mp, relaxed);
LFCHECK_LITMUS(MpReleaseAcquire, Mp, release_acquire);
LFCHECK_LITMUS(MpFences, Mp, fences);
LFCHECK_LITMUS(SRelaxed, S, relaxed);
LFCHECK_LITMUS(SReleaseAcquire, S, release_acquire);
LFCHECK_LITMUS(LbRelaxed, Lb, relaxed);
LFCHECK_LITMUS(LbReleaseAcquire, Lb, release_acquire);

}  // namespace lfcheck::litmus
