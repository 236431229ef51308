// A probe spec for the lin stress layer's own test (tests/stress_runner_truth.sh):
// probe_stale, a register whose writes other threads see late. Linked into
// lfcheck-stress-probes only (LFCHECK_LIN: its lin.scenarios and lin.history workloads).
//
// write(v) keeps v in the writer's own slot (the writer reads it back at once);
// other threads go on reading the last *committed* value until the writer's
// closing call, flush(), commits it — slowly (about 100 µs), so a reader on
// another thread is often invoked after write(v) returned and before the commit.
// That read returns the old value: no sequential order that respects real time
// explains it (write(v) returned before the read was invoked), while in program
// order — threads concurrent, nothing ordering one thread's calls against
// another's — the read simply goes first. So lin.scenarios must fail this spec
// because it checks real time, and would pass it if it checked program order only.
// Prefix and suffix calls only read (they run alone, as thread 0), so nothing
// else about the register is wrong.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include <rapidcheck.h>

#include "harness/lin_registry.hpp"
#include "specs/spec.hpp"

namespace lfcheck::probe_lin {

struct StaleRegisterSpec {
  static constexpr const char* name = "probe_stale";
  enum class Op : std::uint8_t { read, write, flush };
  struct Call {
    Op op = Op::read;
    int value = 0;
  };
  struct Result {
    int value = 0;
    bool operator==(const Result&) const = default;
  };
  using State = int;  // the register
  static State initial() { return 0; }
  static Result apply(State& s, const Call& c) {
    if (c.op == Op::write) s = c.value;
    return c.op == Op::read ? Result{s} : Result{};
  }
  static std::string show(const Call& c) {
    return c.op == Op::read ? "read()" : c.op == Op::flush ? "flush()" : "write(" + std::to_string(c.value) + ")";
  }
  static std::string show(const Result& r) { return std::to_string(r.value); }
  static rc::Gen<Call> gen_call(spec::Slot slot) {
    if (!slot.concurrent()) return rc::gen::just(Call{Op::read, 0});
    return rc::gen::oneOf(rc::gen::just(Call{Op::read, 0}),
                          rc::gen::construct<Call>(rc::gen::just(Op::write), rc::gen::inRange(1, 4)));
  }
  static Call close_thread(spec::Slot) { return Call{Op::flush, 0}; }
  // Long histories would call write() without a flush for thousands of calls.
  static constexpr const char* long_histories_off = "flush() closes a scenario thread; histories have none";

  struct Subject {
    std::atomic<int> committed{0};
    int own[8] = {};       // each thread's latest write (only its own thread touches it)
    bool pending[8] = {};
    Result run(const Call& c, unsigned thread) {
      switch (c.op) {
        case Op::write:
          own[thread] = c.value;
          pending[thread] = true;
          return {};
        case Op::flush:
          if (pending[thread]) {
            const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
            while (std::chrono::steady_clock::now() < until) {
            }
            committed.store(own[thread], std::memory_order_release);  // release: pairs with read's acquire
            pending[thread] = false;
          }
          return {};
        case Op::read:
          return {pending[thread] ? own[thread] : committed.load(std::memory_order_acquire)};  // acquire: pairs with flush
      }
      return {};
    }
  };
};

}  // namespace lfcheck::probe_lin

LFCHECK_LIN(lfcheck::probe_lin::StaleRegisterSpec);
