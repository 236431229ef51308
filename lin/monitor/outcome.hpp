// What a monitor (lin/monitor/*.hpp) answers about one history.
//
//   linearizable      `order` is a linearization: every operation of the history, each
//                     once (indices into History::ops). lin/monitor.hpp replays it through
//                     the spec's model before it believes it.
//   not_linearizable  `core` is a set of operations that no order explains even on their
//                     own (a sub-history of whole values and empty removes, which is
//                     not linearizable, so neither is the history), and `why` says which
//                     rule they break; an operation is named in `why` as op_ref(i), which
//                     lin/monitor.hpp renders in the spec's words.
//   does_not_apply    the history is not one the monitor decides (an operation that is not
//                     of the type, a value inserted twice): `why` says which, and the
//                     general search decides it.
//   out_of_time       the budget's seconds ran out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lfcheck::lin::monitors {

enum class Outcome { linearizable, not_linearizable, does_not_apply, out_of_time };

struct MonitorOutcome {
  Outcome outcome = Outcome::does_not_apply;
  std::vector<std::uint32_t> order;
  std::vector<std::uint32_t> core;
  std::string why;
};

// A reference to operation i inside a `why` text: "\x01" i "\x02".
inline std::string op_ref(std::uint32_t i) { return "\x01" + std::to_string(i) + "\x02"; }

// Replaces every op_ref(i) in text by name(i).
template <class Name>
std::string render_refs(const std::string& text, Name&& name) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t open = text.find('\x01', at);
    if (open == std::string::npos) {
      out += text.substr(at);
      break;
    }
    const std::size_t close = text.find('\x02', open);
    out += text.substr(at, open - at);
    out += name(static_cast<std::uint32_t>(std::stoul(text.substr(open + 1, close - open - 1))));
    at = close + 1;
  }
  return out;
}

inline MonitorOutcome linearizable(std::vector<std::uint32_t> order) {
  return {Outcome::linearizable, std::move(order), {}, {}};
}
inline MonitorOutcome out_of_time() { return {Outcome::out_of_time, {}, {}, {}}; }
inline MonitorOutcome not_linearizable(std::vector<std::uint32_t> core, std::string why) {
  return {Outcome::not_linearizable, {}, std::move(core), std::move(why)};
}
inline MonitorOutcome does_not_apply(std::string why) { return {Outcome::does_not_apply, {}, {}, std::move(why)}; }

}  // namespace lfcheck::lin::monitors
