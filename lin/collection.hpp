// A spec's abstract type, for the polynomial-time monitors (lin/monitor.hpp).
//
// A spec whose structure is one of the collections below declares it, and says what
// each of its calls did in that type's words:
//
//   static constexpr lfcheck::lin::Collection collection = lfcheck::lin::Collection::stack;
//   static lfcheck::lin::Abstract abstract(const Call&, const Result&);
//   static Call with_value(Call, std::uint32_t value);   // optional, see below
//
// The types, and the calls each may have (any other Abstract::Kind in a history, or
// `other`, and the monitor does not apply to that history: the general search decides it):
//   queue           FIFO: insert(v) = enqueue; remove(v) = a dequeue that returned v;
//                   remove_empty = a dequeue that found the queue empty
//   stack           LIFO: insert(v) = push; remove(v) = pop -> v; remove_empty = pop -> empty
//   priority_queue  remove(v) returns the smallest value held (map a max-queue's values with
//                   ~v); insert(v); remove_empty
//   set             insert(v) = add(v) -> true (v was absent); insert_refused(v) = add(v) ->
//                   false (v was there); remove(v) = remove(v) -> true; remove_absent(v) =
//                   remove(v) -> false; contains(v) -> true is `contains`, -> false `absent`
//   multiset        as set, but an add always succeeds (no insert_refused)
// and, in every type, no_effect: a call that leaves the collection as it is and says
// nothing about what it holds (an idle call): the monitors place it anywhere inside it.
//
// The monitors assume data independence: every value is inserted at most once in a history
// (a structure that does not look at its values behaves the same whatever they are, so
// histories with distinct values find its bugs). A history that inserts a value twice is
// decided by the general search. with_value(call, v) returns the call with the value it
// would insert replaced by v (calls that insert nothing come back unchanged): long histories
// (lin.history, harness/lin/stress.hpp) use it to make every inserted value distinct.
//
// A declaration cannot make a verdict wrong: the monitor's linearization is replayed
// through the spec's own model (spec_step) before a history is called linearizable, and the
// few operations it says no order explains are searched by the general checker before a
// history is called not linearizable (lin/monitor.hpp). A wrong declaration costs a
// fallback to the search, which the report names.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>

namespace lfcheck::lin {

enum class Collection : std::uint8_t { queue, stack, set, multiset, priority_queue };

inline const char* collection_name(Collection c) {
  switch (c) {
    case Collection::queue:
      return "queue";
    case Collection::stack:
      return "stack";
    case Collection::set:
      return "set";
    case Collection::multiset:
      return "multiset";
    case Collection::priority_queue:
      return "priority queue";
  }
  return "?";
}

// What one call did, in the words of the spec's abstract type.
struct Abstract {
  enum Kind : std::uint8_t {
    insert,          // v goes in
    insert_refused,  // set: add(v) -> false, v was there
    remove,          // v comes out
    remove_empty,    // queue, stack, priority queue: there was nothing to take
    remove_absent,   // set, multiset: remove(v) -> false, v was not there
    contains,        // set, multiset: v is there
    absent,          // set, multiset: v is not there
    no_effect,       // any type: a call that neither changes nor reads the collection
    other,           // not an operation of the type: the monitor does not apply
  };
  Kind kind = other;
  std::uint64_t value = 0;
};

inline const char* kind_name(Abstract::Kind k) {
  switch (k) {
    case Abstract::insert:
      return "insert";
    case Abstract::insert_refused:
      return "insert_refused";
    case Abstract::remove:
      return "remove";
    case Abstract::remove_empty:
      return "remove_empty";
    case Abstract::remove_absent:
      return "remove_absent";
    case Abstract::contains:
      return "contains";
    case Abstract::absent:
      return "absent";
    case Abstract::no_effect:
      return "no_effect";
    case Abstract::other:
      return "other";
  }
  return "?";
}

// Whether a type has calls of this kind.
inline bool kind_allowed(Collection c, Abstract::Kind k) {
  switch (k) {
    case Abstract::insert:
    case Abstract::remove:
    case Abstract::no_effect:
      return true;
    case Abstract::remove_empty:
      return c == Collection::queue || c == Collection::stack || c == Collection::priority_queue;
    case Abstract::insert_refused:
      return c == Collection::set;
    case Abstract::remove_absent:
    case Abstract::contains:
    case Abstract::absent:
      return c == Collection::set || c == Collection::multiset;
    case Abstract::other:
      return false;
  }
  return false;
}

template <class S>
concept HasCollection = requires(const typename S::Call& call, const typename S::Result& result) {
  { S::collection } -> std::convertible_to<Collection>;
  { S::abstract(call, result) } -> std::same_as<Abstract>;
};

template <class S>
concept HasWithValue = requires(const typename S::Call& call, std::uint32_t v) {
  { S::with_value(call, v) } -> std::same_as<typename S::Call>;
};

}  // namespace lfcheck::lin
