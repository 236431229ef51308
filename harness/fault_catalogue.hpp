// Seeded faults: the shape every structure's fault list takes.
//
// A structure declares an enum of its faults (first enumerator `none` = correct
// code) and specialises FaultTraits<Enum> with one constexpr catalogue entry per
// fault. That list is the only one: the runners dispatch `--fault NAME` through it
// (instantiating the structure's template for that enumerator), `./lfcheck faults`
// prints it, and the tests iterate over it.
#pragma once

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
