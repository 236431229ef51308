// The spec of BoundedQueue<int, 2> (lfcheck's specs/spec.hpp): a FIFO of at most 2 values;
// push(v) answers true or false (full), pop() its value or false (empty).
#pragma once
#include <vector>
#include <rapidcheck.h>
#include <lfcheck/specs/spec.hpp>
#include "bounded_queue.hpp"
struct BoundedQueueSpec {
  static constexpr const char* name = "bounded_queue";
  struct Call { bool push; int value; };
  struct Result { bool ok; int value; bool operator==(const Result&) const = default; };
  using State = std::vector<int>;  // front first
  static State initial() { return {}; }
  static Result apply(State& s, Call c) {
    if (c.push) return s.size() < 2 ? (s.push_back(c.value), Result{true, 0}) : Result{false, 0};
    if (s.empty()) return {false, 0};
    const int v = s.front(); s.erase(s.begin()); return {true, v};
  }
  static std::string show(Call c) { return c.push ? "push(" + std::to_string(c.value) + ")" : "pop()"; }
  static std::string show(Result r) { return r.value ? std::to_string(r.value) : r.ok ? "true" : "false"; }
  static rc::Gen<Call> gen_call(lfcheck::spec::Slot) {
    return rc::gen::oneOf(rc::gen::construct<Call>(rc::gen::just(true), rc::gen::inRange(1, 10)), rc::gen::just(Call{false, 0}));
  }
  // lfcheck verify: the calls (alphabet), and a push's value, which the queue never looks at.
  static std::vector<Call> alphabet(lfcheck::spec::Slot) { return {{true, 1}, {false, 0}}; }
  static unsigned value_of(Call c) { return c.push ? unsigned(c.value) : 0; }
  static Call with_value(Call c, std::uint32_t v) { return {c.push, int(v)}; }
  template <class Sync> struct Subject {
    BoundedQueue<int, 2, Sync> queue;
    Result run(Call c, unsigned) { int v = 0; return c.push ? Result{queue.push(c.value), 0} : Result{queue.pop(v), v}; }
  };
};
