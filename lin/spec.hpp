// What the linearizability checker needs from a sequential specification, and
// the one place that decides how each optional member is used.
//
// A spec S is a struct of static members (no objects):
//   using State  = ...;  // the sequential model's state: copyable, operator==, hashed
//                        // by `static std::size_t hash(const State&)` if present, else by
//                        // std::hash<State>, else (a container such as std::vector<int>)
//                        // by std::hash of its elements, in order
//   using Call   = ...;  // one operation with its arguments: trivially copyable, small
//   using Result = ...;  // what the operation returned: trivially copyable
//   static State initial();
//   static Result apply(State&, const Call&);   // deterministic model: the expected result, and
//                                               // the state moves on (Result needs operator==)
// Optional members, found with requires-expressions (concepts below):
//   static bool step(State&, const Call&, const Result& observed);
//       non-deterministic specs: true if `observed` is one of the results the model allows
//       from this state (and the state moves on accordingly). When present the checker uses
//       it instead of apply.
//   static std::string show(const Call&);  static std::string show(const Result&);
//       for tables (render_table needs both; the checker does not).
//   static std::uint64_t partition(const Call&);
//       P-compositionality: operations with different keys touch independent parts of the
//       state, so each key's sub-history is checked alone, from initial().
//   static std::string show_partition(std::uint64_t key);   // default "partition N"
//
// Guarantees: a type that lacks a required member fails to compile at the concept, with the
// missing member named in the diagnostic, not deep inside the search.
// Cost: nothing at run time; every choice is made at compile time.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <string>
#include <type_traits>

namespace lfcheck::lin {

template <class S>
concept HasStep = requires(typename S::State& state, const typename S::Call& call,
                           const typename S::Result& observed) {
  { S::step(state, call, observed) } -> std::same_as<bool>;
};

template <class S>
concept HasApply = requires(typename S::State& state, const typename S::Call& call) {
  { S::apply(state, call) } -> std::convertible_to<typename S::Result>;
};

template <class S>
concept HasStateHash = requires(const typename S::State& state) {
  { S::hash(state) } -> std::convertible_to<std::size_t>;
};

// A State that is a sequence of std::hash-able values (std::vector<int>, std::deque<...>).
template <class State>
concept HashableSequence = requires(const State& state) {
  std::begin(state);
  std::end(state);
  { std::hash<std::remove_cvref_t<decltype(*std::begin(state))>>{}(*std::begin(state)) } -> std::convertible_to<std::size_t>;
};

template <class S>
concept HasPartition = requires(const typename S::Call& call) {
  { S::partition(call) } -> std::convertible_to<std::uint64_t>;
};

template <class S>
concept HasShowPartition = requires(std::uint64_t key) {
  { S::show_partition(key) } -> std::convertible_to<std::string>;
};

template <class S>
concept Showable = requires(const typename S::Call& call, const typename S::Result& result) {
  { S::show(call) } -> std::convertible_to<std::string>;
  { S::show(result) } -> std::convertible_to<std::string>;
};

template <class S>
concept Spec =
    requires { S::initial(); } && std::copyable<typename S::State> &&
    std::equality_comparable<typename S::State> &&
    std::is_trivially_copyable_v<typename S::Call> && std::is_trivially_copyable_v<typename S::Result> &&
    std::is_default_constructible_v<typename S::Call> && std::is_default_constructible_v<typename S::Result> &&
    (HasStep<S> || (HasApply<S> && std::equality_comparable<typename S::Result>)) &&
    (HasStateHash<S> || HashableSequence<typename S::State> || requires(const typename S::State& state) {
      { std::hash<typename S::State>{}(state) } -> std::convertible_to<std::size_t>;
    });

// One step of the model: true if `observed` is a result the model allows for `call` from
// `state`; `state` becomes the next state (unspecified when false: callers step a copy).
template <Spec S>
bool spec_step(typename S::State& state, const typename S::Call& call, const typename S::Result& observed) {
  if constexpr (HasStep<S>)
    return S::step(state, call, observed);
  else
    return S::apply(state, call) == observed;
}

template <Spec S>
std::uint64_t spec_state_hash(const typename S::State& state) {
  if constexpr (HasStateHash<S>) {
    return static_cast<std::uint64_t>(S::hash(state));
  } else if constexpr (requires { std::hash<typename S::State>{}(state); }) {
    return static_cast<std::uint64_t>(std::hash<typename S::State>{}(state));
  } else {
    std::uint64_t h = 0x9e3779b97f4a7c15ull;  // FNV-style mix of the elements' hashes, in order
    for (const auto& v : state)
      h = (h ^ static_cast<std::uint64_t>(std::hash<std::remove_cvref_t<decltype(v)>>{}(v))) * 0x100000001b3ull;
    return h;
  }
}

// The partition key of a call; 0 for every call of an unpartitioned spec.
template <Spec S>
std::uint64_t spec_partition(const typename S::Call& call) {
  if constexpr (HasPartition<S>)
    return static_cast<std::uint64_t>(S::partition(call));
  else
    return 0;
}

template <Spec S>
std::string spec_partition_name(std::uint64_t key) {
  if constexpr (HasShowPartition<S>)
    return S::show_partition(key);
  else
    return "partition " + std::to_string(key);
}

}  // namespace lfcheck::lin
