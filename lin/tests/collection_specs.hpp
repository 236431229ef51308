// The checker tests' and benchmark's collection specs (lin/collection.hpp): each declares
// its abstract type, so lin::check() runs its monitor. The plain specs of example_specs.hpp
// declare none and so test the search alone.
//
// QueueCollection, StackCollection  QueueSpec's and StackSpec's calls and words, on a deque
//                                   and a vector: enq/push = insert, deq/pop -> v = remove,
//                                   -> empty = remove_empty
// IdleQueue          QueueCollection with idle() calls (no_effect)
// PriorityQueueSpec  insert(v) -> void, remove_min() -> the smallest value held | empty
// SetCollection      SetSpec (keys 0..63, add/remove/contains -> bool, partitioned by key)
// IntSetSpec         the same calls on any int key (std::set), partitioned by key
// MultisetSpec       add(v) -> true (always), remove(v) -> bool, contains(v) -> bool
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <set>
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

// A container of ints whose model is `Container` (O(1) or O(log n) a call, so that long
// histories replay fast), with put = insert, take -> value = remove, take -> empty =
// remove_empty.
template <class Container>
struct ContainerCollection {
  using State = Container;
  using Call = ContainerCall;
  using Result = Value;
  static State initial() { return {}; }
  static std::size_t hash(const State& s) { return hash_ints(s); }  // the search's memo
  static std::string show(const Result& r) { return show_value(r); }
  static Call random_call(Rng& rng) { return ContainerSpecBase::random_call(rng); }
  static Result random_result(const Call& c, Rng& rng) { return ContainerSpecBase::random_result(c, rng); }
  static Abstract abstract(const Call& c, const Result& r) { return container_abstract(c, r); }
  static Call with_value(Call c, std::uint32_t v) { return container_with_value(c, v); }
};

struct QueueCollection : ContainerCollection<std::deque<int>> {  // front first
  static constexpr Collection collection = Collection::queue;
  static Result apply(State& s, const Call& c) {
    if (c.put) {
      s.push_back(c.value);
      return kVoid;
    }
    if (s.empty()) return kEmpty;
    const int v = s.front();
    s.pop_front();
    return some(v);
  }
  using ContainerCollection::show;
  static std::string show(const Call& c) { return QueueSpec::show(c); }
};

// QueueCollection with idle calls: a take of value -1 does nothing and returns void
// (Abstract::no_effect).
struct IdleQueue : QueueCollection {
  static constexpr ContainerCall kIdle{false, -1};
  static bool idle(const Call& c) { return !c.put && c.value == kIdle.value; }
  static Result apply(State& s, const Call& c) { return idle(c) ? kVoid : QueueCollection::apply(s, c); }
  static Abstract abstract(const Call& c, const Result& r) {  // an idle call that returned something: no word
    if (idle(c)) return r == kVoid ? Abstract{Abstract::no_effect, 0} : Abstract{};
    return QueueCollection::abstract(c, r);
  }
  using ContainerCollection::show;
  static std::string show(const Call& c) { return idle(c) ? "idle()" : QueueCollection::show(c); }
};

struct StackCollection : ContainerCollection<std::vector<int>> {  // top last
  static constexpr Collection collection = Collection::stack;
  static Result apply(State& s, const Call& c) { return StackSpec::apply(s, c); }
  using ContainerCollection::show;
  static std::string show(const Call& c) { return StackSpec::show(c); }
};

struct PriorityQueueSpec : ContainerCollection<std::multiset<int>> {  // smallest first
  static constexpr Collection collection = Collection::priority_queue;
  static Result apply(State& s, const Call& c) {
    if (c.put) {
      s.insert(c.value);
      return kVoid;
    }
    if (s.empty()) return kEmpty;
    const int v = *s.begin();
    s.erase(s.begin());
    return some(v);
  }
  using ContainerCollection::show;
  static std::string show(const Call& c) { return c.put ? "insert(" + std::to_string(c.value) + ")" : "remove_min()"; }
};

// A set call's kind and result in the set type's words.
inline Abstract set_abstract(SetSpec::Call::Kind kind, bool r, std::uint64_t key) {
  switch (kind) {
    case SetSpec::Call::add:
      return {r ? Abstract::insert : Abstract::insert_refused, key};
    case SetSpec::Call::remove:
      return {r ? Abstract::remove : Abstract::remove_absent, key};
    case SetSpec::Call::contains:
      return {r ? Abstract::contains : Abstract::absent, key};
  }
  return {};
}

struct SetCollection : SetSpec {
  static constexpr Collection collection = Collection::set;
  static Abstract abstract(const Call& c, const Result& r) { return set_abstract(c.kind, r, c.key); }
};

struct IntSetSpec {
  using State = std::set<int>;
  struct Call {
    SetSpec::Call::Kind kind = SetSpec::Call::contains;
    int key = 0;
  };
  using Result = bool;  // as SetSpec's
  static constexpr Collection collection = Collection::set;
  static State initial() { return {}; }
  static std::size_t hash(const State& s) { return hash_ints(s); }
  static Result apply(State& s, const Call& c) {
    switch (c.kind) {
      case SetSpec::Call::add:
        return s.insert(c.key).second;
      case SetSpec::Call::remove:
        return s.erase(c.key) != 0;
      case SetSpec::Call::contains:
        return s.count(c.key) != 0;
    }
    return false;
  }
  static std::uint64_t partition(const Call& c) { return static_cast<std::uint32_t>(c.key); }
  static Abstract abstract(const Call& c, const Result& r) {
    return set_abstract(c.kind, r, static_cast<std::uint32_t>(c.key));
  }
  static std::string show(const Call& c) {
    static const char* const names[] = {"add", "remove", "contains"};
    return std::string(names[c.kind]) + "(" + std::to_string(c.key) + ")";
  }
  static std::string show(const Result& r) { return SetSpec::show(r); }
};

struct MultisetSpec {
  using State = std::multiset<int>;
  struct Call {
    enum Kind : std::uint8_t { add, remove, contains } kind = contains;
    int value = 0;
  };
  using Result = bool;  // add: true; remove: was there (one copy taken); contains: is there
  static constexpr Collection collection = Collection::multiset;
  static State initial() { return {}; }
  static std::size_t hash(const State& s) { return hash_ints(s); }
  static Result apply(State& s, const Call& c) {
    const auto it = s.find(c.value);
    if (c.kind == Call::add) {
      s.insert(c.value);
      return true;
    }
    if (c.kind == Call::remove && it != s.end()) s.erase(it);
    return it != s.end();
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
