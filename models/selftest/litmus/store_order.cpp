// Litmus tests that only sequential consistency decides (structure "litmus"; answers
// in litmus.hpp): SB, R, 2+2W.
#include "harness/model_registry.hpp"
#include "models/selftest/litmus/litmus.hpp"

namespace lfcheck::litmus {

// SB (store buffering, Dekker): each thread writes its location, then reads the
// other's. Weak: both read 0 (r0=0 r1=0).
// outcome(): r0 * 2 + r1.
template <class Sync, Order O>
struct Sb : ScenarioBase {
  static constexpr const char* name = VariantName<"sb", O>::value.data();
  static constexpr const char* description = "SB: T0 x=1, r0=y; T1 y=1, r1=x; weak r0=0 r1=0";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> x{0}, y{0};
  int r0 = -1, r1 = -1;
  void thread(unsigned i) {
    auto& mine = i == 0 ? x : y;
    auto& other = i == 0 ? y : x;
    mine.store(1, store_order(O));  // the variant's order: against the other thread's load of it
    if constexpr (O == Order::fences) Sync::fence(std::memory_order_seq_cst);  // seq_cst: against the other's fence
    (i == 0 ? r0 : r1) = other.load(load_order(O));  // the variant's order
  }
  void observe() {}
  bool weak() const { return r0 == 0 && r1 == 0; }
  std::uint64_t outcome() const { return static_cast<std::uint64_t>(r0 * 2 + r1); }
};

// R: T0 writes x=1, then y=1; T1 writes y=2, then reads x. Weak: y ends as 2 (T0's
// y=1 came first) and yet T1 read x=0.
// outcome(): (y - 1) * 2 + r, y the final value (1 or 2).
template <class Sync, Order O>
struct R : ScenarioBase {
  static constexpr const char* name = VariantName<"r", O>::value.data();
  static constexpr const char* description = "R: T0 x=1, y=1; T1 y=2, r=x; weak final y=2 and r=0";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> x{0}, y{0};
  int r = -1, final_y = -1;
  void thread(unsigned i) {
    // The variant's orders: T1's load of x against T0's store of it; the y stores meet in y's order.
    if (i == 0) {
      x.store(1, store_order(O));
      y.store(1, store_order(O));
    } else {
      y.store(2, store_order(O));
      r = x.load(load_order(O));
    }
  }
  void observe() { final_y = y.load(std::memory_order_relaxed); }  // relaxed: after() follows every thread
  bool weak() const { return final_y == 2 && r == 0; }
  std::uint64_t outcome() const { return static_cast<std::uint64_t>((final_y - 1) * 2 + r); }
};

// 2+2W: T0 writes x=1, then y=2; T1 writes y=1, then x=2. Weak: both locations end
// with the first store of their thread (x=1 y=1), i.e. each thread's second store
// came first in its location's modification order.
// outcome(): (x - 1) * 2 + (y - 1), the final values (1 or 2 each).
template <class Sync, Order O>
struct TwoPlusTwoW : ScenarioBase {
  static constexpr const char* name = VariantName<"2p2w", O>::value.data();
  static constexpr const char* description = "2+2W: T0 x=1, y=2; T1 y=1, x=2; weak final x=1 y=1";
  static constexpr unsigned threads = 2;
  typename Sync::template atomic<int> x{0}, y{0};
  int final_x = -1, final_y = -1;
  void thread(unsigned i) {
    // The variant's order: the four stores meet only in the locations' modification orders.
    if (i == 0) {
      x.store(1, store_order(O));
      y.store(2, store_order(O));
    } else {
      y.store(1, store_order(O));
      x.store(2, store_order(O));
    }
  }
  void observe() {
    final_x = x.load(std::memory_order_relaxed);  // relaxed: after() follows every thread
    final_y = y.load(std::memory_order_relaxed);
  }
  bool weak() const { return final_x == 1 && final_y == 1; }
  std::uint64_t outcome() const { return static_cast<std::uint64_t>((final_x - 1) * 2 + (final_y - 1)); }
};

LFCHECK_LITMUS(SbRelaxed, Sb, relaxed);
LFCHECK_LITMUS(SbReleaseAcquire, Sb, release_acquire);
LFCHECK_LITMUS(SbSeqCst, Sb, seq_cst);
LFCHECK_LITMUS(SbFences, Sb, fences);
LFCHECK_LITMUS(RRelaxed, R, relaxed);
LFCHECK_LITMUS(RReleaseAcquire, R, release_acquire);
LFCHECK_LITMUS(RSeqCst, R, seq_cst);
LFCHECK_LITMUS(TwoPlusTwoWRelaxed, TwoPlusTwoW, relaxed);
LFCHECK_LITMUS(TwoPlusTwoWSeqCst, TwoPlusTwoW, seq_cst);

}  // namespace lfcheck::litmus
