// Litmus tests of coherence and multi-copy atomicity (structure "litmus"; answers in
// litmus.hpp): CoRR, IRIW.
#include "harness/model_registry.hpp"
#include "models/selftest/litmus/litmus.hpp"

namespace lfcheck::litmus {

// CoRR (read-read coherence): T0 writes x=1, then x=2; T1 reads x twice. Weak: the
// second read returns a store older in x's modification order than the first one's
// (r2 < r1, e.g. r1=2 r2=1): forbidden even for relaxed accesses.
// outcome(): r1 * 3 + r2.
template <class Sync, Order O>
struct CoRR : ScenarioBase {
  static constexpr const char* name = VariantName<"corr", O>::value.data();
  static constexpr const char* description = "CoRR: T0 x=1, x=2; T1 r1=x, r2=x; weak r2 older than r1";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> x{0};
  int r1 = -1, r2 = -1;
  void thread(unsigned i) {
    // The variant's orders: coherence alone is at stake.
    if (i == 0) {
      x.store(1, store_order(O));
      x.store(2, store_order(O));
    } else {
      r1 = x.load(load_order(O));
      r2 = x.load(load_order(O));
    }
  }
  void observe() {}
  bool weak() const { return r2 < r1; }  // the values are x's modification order
  std::uint64_t outcome() const { return static_cast<std::uint64_t>(r1 * 3 + r2); }
};

// IRIW (independent reads of independent writes): T0 writes x, T1 writes y; T2
// reads x then y, T3 reads y then x. Weak: T2 and T3 see the two writes in opposite
// orders (r1=1 r2=0 r3=1 r4=0).
// outcome(): r1 * 8 + r2 * 4 + r3 * 2 + r4.
template <class Sync, Order O>
struct Iriw : ScenarioBase {
  static constexpr const char* name = VariantName<"iriw", O>::value.data();
  static constexpr const char* description =
      "IRIW: T0 x=1; T1 y=1; T2 r1=x, r2=y; T3 r3=y, r4=x; weak r1=1 r2=0 r3=1 r4=0";
  static constexpr unsigned threads = 4;
  typename Sync::template atomic<int> x{0}, y{0};
  int r1 = -1, r2 = -1, r3 = -1, r4 = -1;
  void thread(unsigned i) {
    // The variant's orders: each load against the writer thread's store.
    switch (i) {
      case 0: x.store(1, store_order(O)); break;
      case 1: y.store(1, store_order(O)); break;
      case 2:
        r1 = x.load(load_order(O));
        r2 = y.load(load_order(O));
        break;
      default:
        r3 = y.load(load_order(O));
        r4 = x.load(load_order(O));
    }
  }
  void observe() {}
  bool weak() const { return r1 == 1 && r2 == 0 && r3 == 1 && r4 == 0; }
  std::uint64_t outcome() const { return static_cast<std::uint64_t>(r1 * 8 + r2 * 4 + r3 * 2 + r4); }
};

LFCHECK_LITMUS(CoRRRelaxed, CoRR, relaxed);
LFCHECK_LITMUS(IriwReleaseAcquire, Iriw, release_acquire);
LFCHECK_LITMUS(IriwSeqCst, Iriw, seq_cst);

}  // namespace lfcheck::litmus
