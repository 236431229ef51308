// probe_rare_stack's spec (stress/selftest/probe_stress.cpp says what it probes), shared
// with the TSan build's probe_racy_stack (probe_lin_race.cpp), which adds a data race to it.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "lin/collection.hpp"
#include "specs/spec.hpp"

namespace lfcheck::probe_stress {

// A stack whose pop may give up (see the top): values 1..9 from the generator.
template <bool kGivesUp>
struct ProbeRareStackSpec {
  static constexpr const char* name = kGivesUp ? "probe_rare_stack_gives_up" : "probe_rare_stack";
  struct Call {
    bool push = false;
    int value = 0;
  };
  struct Result {
    bool ok = false;
    int value = 0;
    bool operator==(const Result&) const = default;
  };
  using State = std::vector<int>;  // top last
  static State initial() { return {}; }
  static Result apply(State& s, const Call& c) {
    if (c.push) return s.push_back(c.value), Result{true, 0};
    if (s.empty()) return {false, 0};
    const int v = s.back();
    s.pop_back();
    return {true, v};
  }
  static std::string show(const Call& c) { return c.push ? "push(" + std::to_string(c.value) + ")" : "pop()"; }
  static std::string show(const Result& r) { return r.ok ? (r.value ? std::to_string(r.value) : "true") : "empty"; }
  static rc::Gen<Call> gen_call(spec::Slot) {
    return rc::gen::oneOf(rc::gen::construct<Call>(rc::gen::just(true), rc::gen::inRange(1, 10)),
                          rc::gen::just(Call{false, 0}));
  }
  static constexpr lin::Collection collection = lin::Collection::stack;
  static lin::Abstract abstract(const Call& c, const Result& r) {
    if (c.push) return {lin::Abstract::insert, static_cast<std::uint32_t>(c.value)};
    return r.ok ? lin::Abstract{lin::Abstract::remove, static_cast<std::uint32_t>(r.value)}
                : lin::Abstract{lin::Abstract::remove_empty, 0};
  }
  static Call with_value(Call c, std::uint32_t v) {
    if (c.push) c.value = static_cast<int>(v);
    return c;
  }
  struct Subject {
    std::mutex mutex;
    std::vector<int> items;
    static inline thread_local unsigned pops = 0;  // this thread's pops that found values
    Result run(const Call& c, unsigned) {
      const std::lock_guard<std::mutex> lock(mutex);
      if (c.push) return items.push_back(c.value), Result{true, 0};
      if (items.empty()) return {false, 0};
      if (kGivesUp && ++pops % 256 == 0) return {false, 0};  // the bug: "empty" while values are held
      const int v = items.back();
      items.pop_back();
      return {true, v};
    }
  };
};
using ProbeRareStack = ProbeRareStackSpec<false>;
using ProbeRareStackGivesUp = ProbeRareStackSpec<true>;

}  // namespace lfcheck::probe_stress
