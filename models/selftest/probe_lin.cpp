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
#include <vector>

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

// Probe specs for lfcheck verify's reductions (tests/verify_reduction_truth.sh), each
// claiming what is false of it, so that holding the reduction to the unreduced
// enumeration must catch it:
//   probe_thread2_counter  a counter whose increment is one fetch_add, except on
//                          thread 2, where it is a load and then a store: thread 2 is not
//                          interchangeable with threads 0 and 1, as its (default) claim
//                          says it is. Only a scenario whose thread 2 increments fails.
//   probe_value2_register  a register that stores 0 when asked to write 2, while it
//                          declares value_of/with_value (data independence): a scenario
//                          that writes 2 fails, the one with fresh values does not.
namespace lfcheck::probe_lin {

struct Thread2CounterSpec : CounterSpec<SyncCounter> {
  static constexpr const char* name = "probe_thread2_counter";
  static std::vector<Call> alphabet(spec::Slot) { return {Call{Op::inc}, Call{Op::get}}; }
  template <class Sync>
  struct Subject {
    typename Sync::template atomic<int> count{0};
    Result run(const Call& c, unsigned thread) {
      if (c.op == Op::get) return {count.load(std::memory_order_relaxed)};  // relaxed: one location
      if (thread != 2) return {count.fetch_add(1, std::memory_order_relaxed)};  // relaxed: one location
      const int seen = count.load(std::memory_order_relaxed);  // relaxed: the bug is the split increment
      count.store(seen + 1, std::memory_order_relaxed);
      return {seen};
    }
  };
};

struct Value2RegisterSpec {
  static constexpr const char* name = "probe_value2_register";
  struct Call {
    bool write = false;
    int value = 0;
  };
  struct Result {
    int value = 0;
    bool operator==(const Result&) const = default;
  };
  using State = int;
  static State initial() { return 0; }
  static Result apply(State& s, const Call& c) {
    if (c.write) s = c.value;
    return {c.write ? 0 : s};
  }
  static std::string show(const Call& c) { return c.write ? "write(" + std::to_string(c.value) + ")" : "read()"; }
  static std::string show(const Result& r) { return std::to_string(r.value); }
  static rc::Gen<Call> gen_call(spec::Slot) {
    return rc::gen::oneOf(rc::gen::construct<Call>(rc::gen::just(true), rc::gen::inRange(1, 4)),
                          rc::gen::just(Call{false, 0}));
  }
  static std::vector<Call> alphabet(spec::Slot) { return {{true, 1}, {true, 2}, {false, 0}}; }
  static unsigned value_of(const Call& c) { return c.write ? static_cast<unsigned>(c.value) : 0; }
  static Call with_value(Call c, std::uint32_t v) {
    c.value = static_cast<int>(v);
    return c;
  }
  template <class Sync>
  struct Subject {
    typename Sync::template atomic<int> value{0};
    Result run(const Call& c, unsigned) {
      if (!c.write) return {value.load(std::memory_order_relaxed)};  // relaxed: one location
      value.store(c.value == 2 ? 0 : c.value, std::memory_order_relaxed);  // relaxed: one location
      return {0};
    }
  };
};

}  // namespace lfcheck::probe_lin

LFCHECK_LIN(lfcheck::probe_lin::Thread2CounterSpec);
LFCHECK_LIN(lfcheck::probe_lin::Value2RegisterSpec);
