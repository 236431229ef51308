// Probe specs for the lin model layer's own test (tests/lin_model_truth.sh): linked
// with the lin model runner into lfcheck-lin-model-probes, never into lfcheck-lin-model.
//   probe_std_counter   a counter whose increment is a load and then a store, on
//                       std::atomic inside a `template <class Sync> struct Subject`:
//                       the shape the compile-time gate accepts, but Relacy sees no
//                       shared access and runs the threads one after the other — the
//                       run must be "NO WORK" (error, exit 2), never pass or exhaustive;
//   probe_sync_counter  the same counter on Sync::atomic: NOT LINEARIZABLE (exit 1).
#include <atomic>
#include <cstdint>
#include <string>

#include <rapidcheck.h>

#include "harness/lin_registry.hpp"
#include "specs/spec.hpp"

namespace lfcheck::probe_lin {

template <template <class> class Counter>
struct CounterSpec {
  enum class Op : std::uint8_t { inc, get };
  struct Call {
    Op op = Op::get;
  };
  struct Result {
    int value = 0;
    bool operator==(const Result&) const = default;
  };
  using State = int;
  static State initial() { return 0; }
  static Result apply(State& s, const Call& c) { return c.op == Op::inc ? Result{s++} : Result{s}; }
  static std::string show(const Call& c) { return c.op == Op::inc ? "inc()" : "get()"; }
  static std::string show(const Result& r) { return std::to_string(r.value); }
  static rc::Gen<Call> gen_call(spec::Slot) {
    return rc::gen::element(Call{Op::inc}, Call{Op::inc}, Call{Op::get});
  }
  template <class Sync>
  struct Subject {
    typename Counter<Sync>::type count{0};
    Result run(const Call& c, unsigned) {
      const int seen = count.load(std::memory_order_relaxed);  // relaxed: the bug is the split increment
      if (c.op == Op::inc) count.store(seen + 1, std::memory_order_relaxed);
      return {seen};
    }
  };
};

template <class Sync>
struct StdCounter {
  using type = std::atomic<int>;
};
template <class Sync>
struct SyncCounter {
  using type = typename Sync::template atomic<int>;
};

struct StdCounterSpec : CounterSpec<StdCounter> {
  static constexpr const char* name = "probe_std_counter";
};
struct SyncCounterSpec : CounterSpec<SyncCounter> {
  static constexpr const char* name = "probe_sync_counter";
};

}  // namespace lfcheck::probe_lin

LFCHECK_LIN(lfcheck::probe_lin::StdCounterSpec);
LFCHECK_LIN(lfcheck::probe_lin::SyncCounterSpec);
