// Small sequential specs for the checker's own tests and benchmark (the structures'
// real specs live in specs/). Each also has what the random generators need:
//   static Call random_call(Rng&)                    an operation to run, values from a small
//                                                    domain (so equal values make orders ambiguous)
//   static Result random_result(const Call&, Rng&)   a plausible result (for mutations)
//
// RegisterSpec  read()/write(v) on one int register, initially 0.
// QueueSpec     FIFO queue: enq(v) -> void, deq() -> value | empty.
// StackSpec     LIFO stack: push(v) -> void, pop() -> value | empty.
// SetSpec       add/remove/contains(k) -> bool for keys 0..63; partitioned by key.
// RegistersSpec two registers, partitioned by register (sequential consistency is not
//               local: the checker must not trust the partitions alone in program_order).
// BagSpec       put(v) -> void, take() -> any value held | empty: non-deterministic, checked
//               through step(); apply() takes the smallest (the generators' choice).
// CollidingStackSpec  StackSpec whose states all hash to 0.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace lfcheck::lin::examples {

using Rng = std::mt19937_64;

template <class Ints>  // a vector, deque or multiset of ints
std::uint64_t hash_ints(const Ints& v) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (int x : v) h = (h ^ static_cast<std::uint32_t>(x)) * 0x100000001b3ull;
  return h;
}

// What a container operation returned: nothing, "empty", or a value.
struct Value {
  enum Kind : std::uint8_t { none, empty, some } kind = none;
  int v = 0;
  bool operator==(const Value&) const = default;
};
inline std::string show_value(const Value& r) {
  return r.kind == Value::none ? "void" : r.kind == Value::empty ? "empty" : std::to_string(r.v);
}
inline Value some(int v) { return {Value::some, v}; }
inline constexpr Value kVoid{Value::none, 0};
inline constexpr Value kEmpty{Value::empty, 0};

// A value taker's plausible result: empty or a small value (0..4 or near the serial).
inline Value random_taken(Rng& rng) {
  const auto r = rng() % 6;
  return r == 0 ? kEmpty : some(static_cast<int>(r));
}

struct RegisterSpec {
  using State = int;
  struct Call {
    bool write = false;
    int value = 0;
  };
  using Result = int;  // the value read; 0 for a write
  static State initial() { return 0; }
  static Result apply(State& s, const Call& c) {
    if (c.write) {
      s = c.value;
      return 0;
    }
    return s;
  }
  static std::string show(const Call& c) { return c.write ? "write(" + std::to_string(c.value) + ")" : "read()"; }
  static std::string show(const Result& r) { return std::to_string(r); }
  static Call random_call(Rng& rng) {
    return rng() % 2 ? Call{true, static_cast<int>(1 + rng() % 3)} : Call{false, 0};
  }
  static Result random_result(const Call& c, Rng& rng) { return c.write ? 0 : static_cast<int>(rng() % 4); }
};

// Queue, stack and bag: the same calls on one container of ints; they differ in which
// value a take returns (apply, step) and in the names they show.
struct ContainerCall {
  bool put = false;  // enq/push/put; else deq/pop/take
  int value = 0;
};

struct ContainerSpecBase {
  using State = std::vector<int>;
  using Call = ContainerCall;
  using Result = Value;
  static State initial() { return {}; }
  static std::size_t hash(const State& s) { return hash_ints(s); }
  static std::string show(const Result& r) { return show_value(r); }
  static Call random_call(Rng& rng) {
    return rng() % 2 ? Call{true, static_cast<int>(1 + rng() % 3)} : Call{false, 0};
  }
  static Result random_result(const Call& c, Rng& rng) { return c.put ? kVoid : random_taken(rng); }
};

struct QueueSpec : ContainerSpecBase {  // State: front first
  static Result apply(State& s, const Call& c) {
    if (c.put) {
      s.push_back(c.value);
      return kVoid;
    }
    if (s.empty()) return kEmpty;
    const int v = s.front();
    s.erase(s.begin());
    return some(v);
  }
  using ContainerSpecBase::show;
  static std::string show(const Call& c) { return c.put ? "enq(" + std::to_string(c.value) + ")" : "deq()"; }
};

struct StackSpec : ContainerSpecBase {  // State: top last
  static Result apply(State& s, const Call& c) {
    if (c.put) {
      s.push_back(c.value);
      return kVoid;
    }
    if (s.empty()) return kEmpty;
    const int v = s.back();
    s.pop_back();
    return some(v);
  }
  using ContainerSpecBase::show;
  static std::string show(const Call& c) { return c.put ? "push(" + std::to_string(c.value) + ")" : "pop()"; }
};

struct SetSpec {
  using State = std::uint64_t;  // bit k: key k is in the set
  struct Call {
    enum Kind : std::uint8_t { add, remove, contains } kind = contains;
    std::uint8_t key = 0;  // < 64
  };
  using Result = bool;  // add: newly added; remove: was there; contains: is there
  static State initial() { return 0; }
  static Result apply(State& s, const Call& c) {
    const std::uint64_t bit = std::uint64_t{1} << c.key;
    const bool had = (s & bit) != 0;
    if (c.kind == Call::add) s |= bit;
    if (c.kind == Call::remove) s &= ~bit;
    return c.kind == Call::add ? !had : had;
  }
  static std::uint64_t partition(const Call& c) { return c.key; }
  static std::string show_partition(std::uint64_t key) { return "key=" + std::to_string(key); }
  static std::string show(const Call& c) {
    static const char* const names[] = {"add", "remove", "contains"};
    return std::string(names[c.kind]) + "(" + std::to_string(c.key) + ")";
  }
  static std::string show(const Result& r) { return r ? "true" : "false"; }
  static Call random_call(Rng& rng) {
    return {static_cast<Call::Kind>(rng() % 3), static_cast<std::uint8_t>(rng() % 3)};
  }
  static Result random_result(const Call&, Rng& rng) { return rng() % 2 != 0; }
};

struct RegistersSpec {
  struct State {
    int r[2] = {0, 0};
    bool operator==(const State&) const = default;
  };
  struct Call {
    std::uint8_t reg = 0;
    bool write = false;
    int value = 0;
  };
  using Result = int;
  static State initial() { return {}; }
  static Result apply(State& s, const Call& c) {
    if (c.write) {
      s.r[c.reg] = c.value;
      return 0;
    }
    return s.r[c.reg];
  }
  static std::size_t hash(const State& s) { return static_cast<std::size_t>(s.r[0]) * 31 + static_cast<std::size_t>(s.r[1]); }
  static std::uint64_t partition(const Call& c) { return c.reg; }
  static std::string show(const Call& c) {
    const std::string name(1, static_cast<char>('x' + c.reg));
    return c.write ? "w" + name + "(" + std::to_string(c.value) + ")" : "r" + name + "()";
  }
  static std::string show(const Result& r) { return std::to_string(r); }
  static Call random_call(Rng& rng) {
    return {static_cast<std::uint8_t>(rng() % 2), rng() % 2 != 0, static_cast<int>(1 + rng() % 2)};
  }
  static Result random_result(const Call& c, Rng& rng) { return c.write ? 0 : static_cast<int>(rng() % 3); }
};

struct BagSpec : ContainerSpecBase {  // State: sorted, so equal bags are equal states
  static Result apply(State& s, const Call& c) {
    if (c.put) {
      s.insert(std::upper_bound(s.begin(), s.end(), c.value), c.value);
      return kVoid;
    }
    if (s.empty()) return kEmpty;
    const int v = s.front();
    s.erase(s.begin());
    return some(v);
  }
  static bool step(State& s, const Call& c, const Result& observed) {
    if (c.put) {
      apply(s, c);
      return observed == kVoid;
    }
    if (observed.kind == Value::empty) return s.empty();
    const auto it = std::lower_bound(s.begin(), s.end(), observed.v);
    if (observed.kind != Value::some || it == s.end() || *it != observed.v) return false;
    s.erase(it);
    return true;
  }
  using ContainerSpecBase::show;
  static std::string show(const Call& c) { return c.put ? "put(" + std::to_string(c.value) + ")" : "take()"; }
};

// StackSpec with every state hashed alike: the memo must then tell states apart by
// operator== alone (the hash only narrows the candidates).
struct CollidingStackSpec : StackSpec {
  static std::size_t hash(const State&) { return 0; }
};

// Short names for calls in hand-written histories.
constexpr RegisterSpec::Call write(int v) { return {true, v}; }
constexpr RegisterSpec::Call read() { return {false, 0}; }
constexpr ContainerCall put(int v) { return {true, v}; }
constexpr ContainerCall take() { return {false, 0}; }

}  // namespace lfcheck::lin::examples
