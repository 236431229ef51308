// The spec of BoundedQueue<int, 2> (lfcheck's specs/spec.hpp): a FIFO of at most 2 values;
// push(v) answers true or false (full), pop() its value or false (empty). It is a queue
// (collection, abstract), so long histories are checked by the queue monitor; they run
// on a ring of 2^17 that no history (at most 100,000 calls) fills.
#pragma once
#include <cstdint>
#include <vector>
#include <rapidcheck.h>
#include <lfcheck/lin/collection.hpp>
#include <lfcheck/specs/spec.hpp>
#include "bounded_queue.hpp"
template <std::size_t N> struct BoundedQueueSpecOf {
  static constexpr const char* name = "bounded_queue";
  struct Call { bool push; int value; };
  struct Result { bool ok; int value; bool operator==(const Result&) const = default; };
  using State = std::vector<int>;  // front first
  static State initial() { return {}; }
  static Result apply(State& s, Call c) {
    if (c.push) return s.size() < N ? (s.push_back(c.value), Result{true, 0}) : Result{false, 0};
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
  // What a call did, in a queue's words (a refused push of a full queue has none: searched).
  static constexpr lfcheck::lin::Collection collection = lfcheck::lin::Collection::queue;
  static lfcheck::lin::Abstract abstract(Call c, Result r) {
    using A = lfcheck::lin::Abstract;
    if (c.push) return r.ok ? A{A::insert, std::uint64_t(c.value)} : A{A::other, 0};
    return r.ok ? A{A::remove, std::uint64_t(r.value)} : A{A::remove_empty, 0};
  }
  template <class Sync> struct Subject {
    BoundedQueue<int, N, Sync> queue;
    Result run(Call c, unsigned) { int v = 0; return c.push ? Result{queue.push(c.value), 0} : Result{queue.pop(v), v}; }
  };
};
struct BoundedQueueSpec : BoundedQueueSpecOf<2> {
  using HistorySpec = BoundedQueueSpecOf<std::size_t{1} << 17>;  // the instance long histories use
};
