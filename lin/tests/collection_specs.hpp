// The checker tests' collection specs (lin/collection.hpp): each declares its abstract
// type, so lin::check() runs its monitor. Their models are the plain specs of
// example_specs.hpp (which declare none and so test the search alone).
//
// QueueCollection, StackCollection  QueueSpec, StackSpec with enq/push = insert,
//                                   deq/pop -> v = remove, -> empty = remove_empty
// PriorityQueueSpec  insert(v) -> void, remove_min() -> the smallest value held | empty
// SetCollection      SetSpec (keys 0..63, add/remove/contains -> bool, partitioned by key)
// MultisetSpec       add(v) -> void (always), remove(v) -> bool, contains(v) -> bool
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lin/collection.hpp"
#include "lin/tests/example_specs.hpp"

namespace lfcheck::lin::examples {

// put = insert, take -> value = remove, take -> empty = remove_empty.
inline Abstract container_abstract(const ContainerCall& c, const Value& r) {
  if (c.put) return {Abstract::insert, static_cast<std::uint64_t>(c.value)};
  if (r.kind == Value::empty) return {Abstract::remove_empty, 0};
  if (r.kind == Value::some) return {Abstract::remove, static_cast<std::uint64_t>(r.v)};
  return {Abstract::other, 0};  // a take that returned nothing: not an operation of the type
}
inline ContainerCall container_with_value(ContainerCall c, std::uint32_t v) {
  if (c.put) c.value = static_cast<int>(v);
  return c;
}

struct QueueCollection : QueueSpec {
  static constexpr Collection collection = Collection::queue;
  static Abstract abstract(const Call& c, const Result& r) { return container_abstract(c, r); }
  static Call with_value(Call c, std::uint32_t v) { return container_with_value(c, v); }
};

struct StackCollection : StackSpec {
  static constexpr Collection collection = Collection::stack;
  static Abstract abstract(const Call& c, const Result& r) { return container_abstract(c, r); }
  static Call with_value(Call c, std::uint32_t v) { return container_with_value(c, v); }
};

// BagSpec's deterministic model is a priority queue's (the smallest value comes out);
// BagSpec's step() (any value may come out) is not, so this spec has apply() alone.
struct PriorityQueueSpec : ContainerSpecBase {  // State: sorted, smallest first
  static constexpr Collection collection = Collection::priority_queue;
  static Result apply(State& s, const Call& c) { return BagSpec::apply(s, c); }
  static Abstract abstract(const Call& c, const Result& r) { return container_abstract(c, r); }
  static Call with_value(Call c, std::uint32_t v) { return container_with_value(c, v); }
  using ContainerSpecBase::show;
  static std::string show(const Call& c) { return c.put ? "insert(" + std::to_string(c.value) + ")" : "remove_min()"; }
};

struct SetCollection : SetSpec {
  static constexpr Collection collection = Collection::set;
  static Abstract abstract(const Call& c, const Result& r) {
    const std::uint64_t k = c.key;
    switch (c.kind) {
      case Call::add:
        return {r ? Abstract::insert : Abstract::insert_refused, k};
      case Call::remove:
        return {r ? Abstract::remove : Abstract::remove_absent, k};
      case Call::contains:
        return {r ? Abstract::contains : Abstract::absent, k};
    }
    return {};
  }
};

struct MultisetSpec {
  using State = std::vector<int>;  // sorted
  struct Call {
    enum Kind : std::uint8_t { add, remove, contains } kind = contains;
    int value = 0;
  };
  using Result = bool;  // add: true; remove: was there (one copy taken); contains: is there
  static constexpr Collection collection = Collection::multiset;
  static State initial() { return {}; }
  static std::size_t hash(const State& s) { return hash_ints(s); }
  static Result apply(State& s, const Call& c) {
    const auto it = std::lower_bound(s.begin(), s.end(), c.value);
    const bool there = it != s.end() && *it == c.value;
    if (c.kind == Call::add) {
      s.insert(it, c.value);
      return true;
    }
    if (c.kind == Call::remove && there) s.erase(it);
    return there;
  }
  static Abstract abstract(const Call& c, const Result& r) {
    const auto v = static_cast<std::uint64_t>(c.value);
    switch (c.kind) {
      case Call::add:
        return {r ? Abstract::insert : Abstract::other, v};
      case Call::remove:
        return {r ? Abstract::remove : Abstract::remove_absent, v};
      case Call::contains:
        return {r ? Abstract::contains : Abstract::absent, v};
    }
    return {};
  }
  static std::string show(const Call& c) {
    static const char* const names[] = {"add", "remove", "contains"};
    return std::string(names[c.kind]) + "(" + std::to_string(c.value) + ")";
  }
  static std::string show(const Result& r) { return r ? "true" : "false"; }
  static Call random_call(Rng& rng) { return {static_cast<Call::Kind>(rng() % 3), static_cast<int>(1 + rng() % 3)}; }
  static Result random_result(const Call&, Rng& rng) { return rng() % 2 != 0; }
};

}  // namespace lfcheck::lin::examples
