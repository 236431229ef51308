// Seeded faults: the shape every structure's fault list takes.
//
// A structure declares an enum of its faults (first enumerator `none` = correct
// code) and specialises FaultTraits<Enum> with one constexpr catalogue entry per
// fault. That list is the only one: the runners dispatch `--fault NAME` through it
// (instantiating the structure's template for that enumerator), `./lfcheck faults`
// prints it, and the tests iterate over it.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

namespace lfcheck {

template <class E>
struct FaultInfo {
  E id;
  const char* name;            // "<mechanism>.<fault>", unique across lfcheck
  const char* breaks;          // what goes wrong, one sentence
  const char* real_bug;        // the published bug it re-creates, or ""
  const char* expected_layer;  // layers that must catch it: "model", "props", "stress", comma-separated
};

template <class E>
struct FaultTraits;  // specialised next to each structure

// The fault enum of a structure that has no seeded faults: its scenarios,
// workloads and spec register without a fault parameter (LFCHECK_MODEL(S),
// LFCHECK_STRESS(W), a spec without `Fault`), and `--fault` names nothing.
enum class NoFault { none };

template <>
struct FaultTraits<NoFault> {
  static constexpr const char* mechanism = "";  // the registration names the structure
  static constexpr std::array<FaultInfo<NoFault>, 0> catalogue{};
};

// A fault enum and its catalogue from one list, so no fault's name is written
// twice: LIST is an X-macro whose entries are X(fault, breaks, real_bug, layers),
//
//   #define MINE_FAULTS(X) X(relaxed_publish, "push publishes with a relaxed store: ...", "", "model")
//   LFCHECK_FAULTS(MineFault, "mine", MINE_FAULTS)
//
// declares `enum class MineFault { none, relaxed_publish }` and its FaultTraits,
// whose entry is named "mine.relaxed_publish". MECHANISM is the structure's name
// (a string literal). Use it at global namespace scope: it specialises
// lfcheck::FaultTraits.
template <std::size_t N>
struct FixedString {
  char text[N] = {};
  constexpr FixedString(const char (&s)[N]) {
    for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
  }
};

// "<mechanism>.<fault>" in static storage, for a catalogue entry's name.
template <FixedString Mechanism, FixedString Fault>
struct JoinedFaultName {
  static constexpr auto value = [] {
    constexpr std::size_t m = sizeof(Mechanism.text) - 1, f = sizeof(Fault.text) - 1;
    std::array<char, m + 1 + f + 1> out{};
    for (std::size_t i = 0; i < m; ++i) out[i] = Mechanism.text[i];
    out[m] = '.';
    for (std::size_t i = 0; i < f; ++i) out[m + 1 + i] = Fault.text[i];
    return out;
  }();
};

#define LFCHECK_FAULT_ENUMERATOR(fault, breaks, real_bug, layers) fault,
#define LFCHECK_FAULT_INFO(fault, breaks, real_bug, layers) \
  {E::fault, ::lfcheck::JoinedFaultName<kMechanism, #fault>::value.data(), breaks, real_bug, layers},
#define LFCHECK_FAULTS(Enum, MECHANISM, LIST)                                             \
  enum class Enum { none, LIST(LFCHECK_FAULT_ENUMERATOR) };                               \
  template <>                                                                             \
  struct lfcheck::FaultTraits<Enum> {                                                     \
    using E = Enum;                                                                       \
    static constexpr ::lfcheck::FixedString kMechanism{MECHANISM};                        \
    static constexpr const char* mechanism = kMechanism.text;                             \
    static constexpr ::lfcheck::FaultInfo<Enum> catalogue[] = {LIST(LFCHECK_FAULT_INFO)}; \
  }

// The part of a fault name after "<mechanism>.": "treiber.no_aba_tag" -> "no_aba_tag".
inline std::string_view fault_short_name(std::string_view full) {
  auto dot = full.find('.');
  return dot == std::string_view::npos ? full : full.substr(dot + 1);
}

// Calls f(std::integral_constant<E, id>) for the fault called `name` (full or short
// form; "" or "none" selects E::none). Returns false if no fault has that name.
template <class E, class F>
bool with_fault(std::string_view name, F&& f) {
  if (name.empty() || name == "none") {
    f(std::integral_constant<E, E::none>{});
    return true;
  }
  constexpr auto& list = FaultTraits<E>::catalogue;
  constexpr std::size_t n = std::extent_v<std::remove_reference_t<decltype(list)>>;
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return ((name == list[I].name || name == fault_short_name(list[I].name)
                 ? (f(std::integral_constant<E, list[I].id>{}), true)
                 : false) ||
            ...);
  }(std::make_index_sequence<n>{});
}

}  // namespace lfcheck
