// The spec of boost::lockfree::spsc_queue<int, capacity<16>> (Debian's libboost-dev), a
// ring buffer lfcheck did not write: a FIFO of at most 16 values, for ONE producer and ONE
// consumer. push(v) answers true or false (full), pop() its value or false (empty). The
// contract is kept by the generator: concurrent thread 0 only pushes, thread 1 only pops,
// others stay idle (sequential, prefix and suffix calls run alone, so any call goes there).
// Its Subject is a plain class, not a template over the Sync policy: Boost's atomics are
// std::atomic's, which Relacy cannot see, so lfcheck_add_structure(... NO_MODEL ...) leaves
// the model layer out; stress (lin.scenarios, lin.history under TSan and ASan) and props check it.
//
// Why 16 and not 2: with capacity<2> lin.scenarios fails (ASan build, x86; 4 of 6 seeds at
// --ops 400000), shrunk to `t0: push(1), push(1), push(1): false; t1: pop(): 1, pop(): false`,
// which no sequential order explains. It is store buffering, allowed by Boost's memory
// orders: push publishes write_index (release store) and the next push reads read_index
// (acquire load), pop publishes read_index and the next pop reads write_index; nothing
// orders a thread's store before its own later load of the other index, so both loads can
// read the old values (x86 reorders exactly that). So Boost's full and empty answers
// together are not linearizable, not even sequentially consistent; FIFO order and every
// value are. A ring that no scenario can fill (at most 4 prefix calls + 8 pushes < 16,
// harness/lin/scenario.hpp)
// leaves only the consumer's stale reads, which a sequential order explains (the pop
// before the push). Long histories may fill it: their seq_cst fence before each response
// stamp drains the store buffer, so there every answer is linearizable.
#pragma once
#include <vector>
#include <boost/lockfree/spsc_queue.hpp>
#include <rapidcheck.h>
#include <lfcheck/specs/spec.hpp>
struct BoostSpscQueueSpec {
  static constexpr const char* name = "boost_spsc_queue";
  static constexpr std::size_t kCapacity = 16;
  enum class Op { push, pop, idle };
  struct Call { Op op; int value; };
  struct Result { bool ok; int value; bool operator==(const Result&) const = default; };
  using State = std::vector<int>;  // front first
  static State initial() { return {}; }
  static Result apply(State& s, Call c) {
    if (c.op == Op::idle) return {true, 0};
    if (c.op == Op::push) return s.size() < kCapacity ? (s.push_back(c.value), Result{true, 0}) : Result{false, 0};
    if (s.empty()) return {false, 0};
    const int v = s.front(); s.erase(s.begin()); return {true, v};
  }
  static std::string show(Call c) { return c.op == Op::push ? "push(" + std::to_string(c.value) + ")" : c.op == Op::pop ? "pop()" : "idle"; }
  static std::string show(Result r) { return r.value ? std::to_string(r.value) : r.ok ? "true" : "false"; }
  static rc::Gen<Call> gen_call(lfcheck::spec::Slot s) {
    auto push = rc::gen::construct<Call>(rc::gen::just(Op::push), rc::gen::inRange(1, 10));
    if (!s.concurrent()) return rc::gen::oneOf(push, rc::gen::just(Call{Op::pop, 0}));
    return s.thread == 0 ? push : rc::gen::just(Call{s.thread == 1 ? Op::pop : Op::idle, 0});
  }
  struct Subject {
    boost::lockfree::spsc_queue<int, boost::lockfree::capacity<kCapacity>> queue;
    Result run(Call c, unsigned) {
      int v = 0;
      if (c.op == Op::idle) return {true, 0};
      return c.op == Op::push ? Result{queue.push(c.value), 0} : Result{queue.pop(v), v};
    }
  };
};
