// The Treiber stack's sequential spec (see specs/spec.hpp for the shape).
//
// Model: a LIFO of at most Capacity values. push(v) stores v on top (false when
// full), pop() takes the top value ("empty" when there is none), take_all()
// takes every value, top first, and for_each() reads them without taking any.
//
// Capacity is a parameter of the spec as it is of the stack. A TreiberStack push
// takes a node from the pool before it links it, and pop and take_all give their
// nodes back only after they unlinked them, so under concurrency a push may find
// the pool empty while the stack holds fewer than capacity values (a take_all in
// flight can hold every node): a bounded stack is not linearizable near full, by
// design. So the sequential props use a small capacity (TreiberSpecOf<6>: "full"
// is reached and must refuse exactly then), and the concurrent scenarios one no
// generated scenario can fill (TreiberSpec: 32 >= the most pushes a scenario has,
// harness/lin/scenario.hpp's ceilings), where every push must succeed.
//
// for_each is generated only where it runs alone (props, a scenario's prefix or
// suffix): a traversal concurrent with pops is not linearizable by design (the
// header's guarantee is weaker: it visits what stays throughout).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "specs/spec.hpp"
#include "structures/treiber/treiber_stack.hpp"

namespace lfcheck::specs {

template <std::uint32_t Capacity>
struct TreiberSpecOf {
  static constexpr const char* name = "treiber";
  using Fault = TreiberFault;
  static constexpr std::uint32_t kCapacity = Capacity;
  using HistorySpec = TreiberSpecOf<16384>;  // the instance long histories use

  enum class Op : std::uint8_t { push, pop, take_all, for_each };

  struct Call {
    Op op = Op::pop;
    std::int32_t value = 0;  // push: 1..9
  };

  // A result whose size does not grow with the capacity: take_all and for_each
  // keep how many values they got, an order-sensitive digest of all of them (the
  // comparison), and the first few (the table).
  static constexpr unsigned kShown = 8;
  struct Result {
    Op op = Op::pop;
    std::uint32_t n = 0;       // push: 1 stored, 0 refused; pop: 1 got a value, 0 empty; take_all/for_each: how many
    std::uint64_t digest = 0;  // take_all/for_each: every value, in order
    std::int32_t shown[kShown] = {};  // pop: shown[0]; take_all/for_each: the first values, top first
    void add(std::int32_t v) {
      if (n < kShown) shown[n] = v;
      digest = (digest ^ static_cast<std::uint32_t>(v)) * 0x100000001b3ull + n;
      ++n;
    }
    bool operator==(const Result&) const = default;
  };

  struct State {
    std::vector<std::int32_t> values;  // bottom first
    bool operator==(const State&) const = default;
  };
  static std::size_t hash(const State& s) {
    std::size_t h = s.values.size();
    for (std::int32_t v : s.values) h = h * 1000003u ^ std::hash<std::int32_t>{}(v);
    return h;
  }

  static State initial() { return {}; }

  static Result top_down(Op op, const State& s) {
    Result r{op};
    for (auto it = s.values.rbegin(); it != s.values.rend(); ++it) r.add(*it);
    return r;
  }

  static Result apply(State& s, const Call& c) {
    switch (c.op) {
      case Op::push:
        if (s.values.size() >= kCapacity) return {Op::push, 0};
        s.values.push_back(c.value);
        return {Op::push, 1};
      case Op::pop: {
        if (s.values.empty()) return {Op::pop, 0};
        Result r{Op::pop};
        r.add(s.values.back());
        s.values.pop_back();
        return r;
      }
      case Op::take_all: {
        Result r = top_down(Op::take_all, s);
        s.values.clear();
        return r;
      }
      case Op::for_each:
        return top_down(Op::for_each, s);
    }
    return {};
  }

  static std::string show(const Call& c) {
    switch (c.op) {
      case Op::push: return "push(" + std::to_string(c.value) + ")";
      case Op::pop: return "pop()";
      case Op::take_all: return "take_all()";
      case Op::for_each: return "for_each()";
    }
    return "?";
  }
  static std::string show(const Result& r) {
    switch (r.op) {
      case Op::push: return r.n ? "true" : "false";
      case Op::pop: return r.n ? std::to_string(r.shown[0]) : "empty";
      case Op::take_all:
      case Op::for_each: {
        std::string s = "[";
        for (unsigned i = 0; i < r.n && i < kShown; ++i) s += (i ? " " : "") + std::to_string(r.shown[i]);
        if (r.n > kShown) s += " ... (" + std::to_string(r.n) + " values)";
        return s + "]";
      }
    }
    return "?";
  }

  static rc::Gen<Call> gen_call(spec::Slot slot) {
    auto push = rc::gen::map(rc::gen::inRange<std::int32_t>(1, 10),
                             [](std::int32_t v) { return Call{Op::push, v}; });
    auto pop = rc::gen::just(Call{Op::pop});
    auto take_all = rc::gen::just(Call{Op::take_all});
    if (slot.concurrent())
      return rc::gen::weightedOneOf<Call>({{4, push}, {3, pop}, {1, take_all}});
    return rc::gen::weightedOneOf<Call>(
        {{4, push}, {3, pop}, {1, take_all}, {1, rc::gen::just(Call{Op::for_each})}});
  }

  // lfcheck verify's alphabet (specs/spec.hpp): in the threads every call gen_call makes
  // there, pushes of the values 1..3 (verify gives each push a value of its own:
  // value_of below, so the three count only before that reduction); a prefix pushes (it
  // sets up a stack), a suffix reads it (for_each) or empties it.
  static std::vector<Call> alphabet(spec::Slot slot) {
    if (slot.where == spec::Where::prefix) return {{Op::push, 1}, {Op::push, 2}, {Op::push, 3}};
    if (slot.where == spec::Where::suffix) return {{Op::for_each, 0}, {Op::take_all, 0}};
    return {{Op::push, 1}, {Op::push, 2}, {Op::push, 3}, {Op::pop, 0}, {Op::take_all, 0}};
  }
  // Data independence: neither the stack nor its model looks at a value (verify then
  // gives every push a value of its own, in order of appearance).
  static unsigned value_of(const Call& c) { return c.op == Op::push ? static_cast<unsigned>(c.value) : 0; }
  static Call with_value(Call c, std::uint32_t v) {
    c.value = static_cast<std::int32_t>(v);
    return c;
  }

  template <class Sync, Fault F>
  struct Subject {
    TreiberStack<std::int32_t, Sync, F> stack{kCapacity};

    Result run(const Call& c, unsigned /*thread*/) {
      switch (c.op) {
        case Op::push:
          return {Op::push, static_cast<std::uint8_t>(stack.push(c.value))};
        case Op::pop: {
          Result r{Op::pop};
          std::int32_t v = 0;
          if (stack.pop(v)) r.add(v);
          return r;
        }
        case Op::take_all:
        case Op::for_each: {
          Result r{c.op};
          // A broken stack (a cycle) could hand out values forever: stop counting
          // past capacity, which no correct result reaches.
          auto collect = [&r](std::int32_t v) {
            if (r.n <= kCapacity) r.add(v);
          };
          if (c.op == Op::take_all) stack.take_all(collect);
          else stack.for_each(collect);
          return r;
        }
      }
      return {};
    }
    const char* check_invariants() const { return stack.check_invariants(); }
  };
};

// Generated scenarios: 32 >= the most pushes a scenario has. Long histories
// (lin.history: 10,000 calls on one stack) check TreiberSpecOf<16384>, which no
// history of that length fills either.
using TreiberSpec = TreiberSpecOf<32>;

}  // namespace lfcheck::specs
