// An execution history as steps: what one thread did at one point, with the
// shared variable, the value, the memory order and the source line. Relacy's
// history text (model failures) and the stress layer's per-thread rings both
// become this one form, so both render as the same table and trace.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace lfcheck {

struct Step {
  enum class Kind { load, store, cas_ok, cas_fail, rmw, fence, wait, op_begin, op_end, verdict, other };
  unsigned index = 0;     // position in the execution
  int thread = 0;
  Kind kind = Kind::other;
  std::string address;    // raw address, "" if none
  std::string variable;   // the name the structure gives it (see name_variables)
  std::string value;      // value read, or "read→written" for RMW/CAS
  std::string written;    // value written (store, successful CAS, RMW)
  std::string read;       // value read (load, CAS, RMW)
  std::string order;      // memory order, "" for plain data
  std::string text;       // the original description
  std::string function, file;
  unsigned line = 0;
  double time_us = -1;    // real time (stress); < 0: use index
};

inline bool is_acquire(const std::string& o) { return o == "acquire" || o == "acq_rel" || o == "seq_cst" || o == "consume"; }
inline bool is_release(const std::string& o) { return o == "release" || o == "acq_rel" || o == "seq_cst"; }

namespace detail {
inline std::string field(const std::string& s, const std::string& key) {
  auto p = s.find(key + "=");
  if (p == std::string::npos) return "";
  p += key.size() + 1;
  auto e = s.find_first_of(", )", p);
  return s.substr(p, e == std::string::npos ? std::string::npos : e - p);
}
inline bool starts(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
}  // namespace detail

// The message RelacySync::cell::store logs before a store while Relacy records a
// history: the value being stored. Relacy itself records 0 (its T()) for an access
// that races, since it fails the execution before the access happens.
inline constexpr const char* kStoreValueMessage = "lfcheck-store value=";

// Parses Relacy's "execution history" (the first, interleaved listing; the per-
// thread listings after it repeat the same steps).
//
// A plain-data access that fails the execution (a data race, an uninitialised
// read: the verdict step right after it, on its thread) did not happen: Relacy
// records it with the value 0. Such a store shows the value the program stored (the
// kStoreValueMessage before it), such a load "?" (it read nothing).
inline std::vector<Step> parse_relacy_history(const std::string& text) {
  std::vector<Step> steps;
  std::map<int, std::string> storing;  // thread -> the value its next plain store stores
  std::map<int, std::string> stored;   // thread -> the value its latest plain store stored
  std::istringstream in(text);
  std::string line;
  bool in_history = false;
  while (std::getline(in, line)) {
    if (detail::starts(line, "execution history")) { in_history = true; continue; }
    if (!in_history) continue;
    if (detail::starts(line, "thread ")) break;  // per-thread repeats follow
    if (line.empty() || line[0] != '[') continue;
    Step s;
    unsigned idx = 0;
    int th = 0, used = 0;
    if (std::sscanf(line.c_str(), "[%u] %d: %n", &idx, &th, &used) < 2 || used == 0) continue;
    s.index = idx;
    s.thread = th;
    std::string rest = line.substr(used);
    // FILE(LINE) after the last ", "; the function between ", in " and it.
    auto last_comma = rest.rfind(", ");
    auto in_pos = rest.find(", in ");
    if (last_comma == std::string::npos || in_pos == std::string::npos || in_pos > last_comma) continue;
    std::string where = rest.substr(last_comma + 2);
    auto paren = where.rfind('(');
    if (paren != std::string::npos) {
      s.file = where.substr(0, paren);
      s.line = static_cast<unsigned>(std::atoi(where.c_str() + paren + 1));
    }
    s.function = in_pos + 5 <= last_comma ? rest.substr(in_pos + 5, last_comma - in_pos - 5) : "";
    std::string desc = rest.substr(0, in_pos);
    if (detail::starts(desc, "<")) {
      auto close = desc.find("> ");
      s.address = desc.substr(1, close - 1);
      desc = desc.substr(close + 2);
    }
    s.text = desc;
    s.order = detail::field(desc, "order");
    using K = Step::Kind;
    if (detail::starts(desc, "atomic load") || detail::starts(desc, "load,")) {
      s.kind = K::load;
      s.read = s.value = detail::field(desc, "value");
    } else if (detail::starts(desc, "atomic store") || detail::starts(desc, "store,")) {
      s.kind = K::store;
      s.written = s.value = detail::field(desc, "value");
    } else if (detail::starts(desc, "CAS succ")) {
      s.kind = K::cas_ok;
      s.read = detail::field(desc, "orig");
      s.written = detail::field(desc, "xchg");
      s.value = s.read + "->" + s.written;
    } else if (detail::starts(desc, "CAS fail")) {
      s.kind = K::cas_fail;
      s.read = detail::field(desc, "orig");
      s.value = s.read + (desc.find("SPURIOUS") != std::string::npos ? " (spurious)" : "") +
                " (expected " + detail::field(desc, "cmp") + ")";
    } else if (desc.find("prev=") != std::string::npos && desc.find("new=") != std::string::npos) {
      s.kind = K::rmw;
      s.read = detail::field(desc, "prev");
      s.written = detail::field(desc, "new");
      s.value = s.read + "->" + s.written;
    } else if (desc.find("fence") != std::string::npos) {
      s.kind = K::fence;
    } else if (detail::starts(desc, "lfcheck-op begin ")) {
      s.kind = K::op_begin;
      s.value = desc.substr(17);
    } else if (detail::starts(desc, "lfcheck-op end ")) {
      s.kind = K::op_end;
      s.value = desc.substr(15);
    } else if (detail::starts(desc, kStoreValueMessage)) {
      storing[th] = desc.substr(std::string(kStoreValueMessage).size());
      continue;
    } else if (detail::starts(desc, "[")) {
      continue;  // Relacy's own markers: [CTOR BEGIN], [THREAD FINISHED], ...
    } else if (!desc.empty() && desc[0] >= 'A' && desc[0] <= 'Z' && desc.find('(') != std::string::npos) {
      s.kind = K::verdict;  // e.g. "DATA RACE (data race detected)"
    } else if (desc.find("wait") != std::string::npos || desc.find("blocking") != std::string::npos ||
               desc.find("unpark") != std::string::npos) {
      s.kind = K::wait;
    }
    // Relacy's own initialisation of its atomics (constructor stores inside
    // relacy/atomic.hpp) is noise in a structure's history.
    if (s.kind != K::verdict && s.file.find("/relacy/") != std::string::npos) continue;
    const bool plain = detail::starts(desc, "load,") || detail::starts(desc, "store,");
    if (s.kind == K::verdict && !steps.empty() && steps.back().thread == th && steps.back().index + 1 == idx &&
        detail::starts(steps.back().text, steps.back().kind == K::store ? "store," : "load,")) {
      Step& failed = steps.back();  // the access this verdict stopped
      if (failed.kind == K::store) {
        auto known = stored.find(th);
        failed.written = failed.value = known != stored.end() ? known->second : "?";
      } else {
        failed.read = failed.value = "?";
      }
    }
    if (plain && s.kind == K::store) {  // the message belongs to this one store
      auto value = storing.find(th);
      if (value != storing.end()) stored[th] = value->second, storing.erase(value);
      else stored.erase(th);
    }
    steps.push_back(std::move(s));
  }
  return steps;
}

// Names each address after the expression the source line applies the step's
// operation to — "head", "nodes_[i].value", "nodes[last].*Link" — read from the
// structure's own file and line: a store is named by the line's .store( operand, a
// load by its .load( operand, a CAS by its compare_exchange, an RMW by its
// exchange/fetch_*, so another operation on the same line (a buffer store whose
// slot comes from a load: `buf[size.load(o)].store(v, o)`) never lends its operand.
// A line with several different operands of the step's operation names nothing
// (a later line of the address may); if no line names an address alone, it is
// named by its candidates, "a|b". Several addresses with one expression get "#1",
// "#2", ... in order of first appearance; unknown ones keep "0x..." .
// `label_of(address)` may give a structure's own name for an address (see
// Sync::label); it wins over the expression.
template <class LabelOf>
inline void name_variables(std::vector<Step>& steps, LabelOf&& label_of) {
  std::map<std::string, std::vector<std::string>> file_lines;
  auto source_line = [&](const std::string& file, unsigned line) -> std::string {
    auto it = file_lines.find(file);
    if (it == file_lines.end()) {
      std::vector<std::string> lines;
      std::ifstream in(file);
      for (std::string l; std::getline(in, l);) lines.push_back(l);
      it = file_lines.emplace(file, std::move(lines)).first;
    }
    return line >= 1 && line <= it->second.size() ? it->second[line - 1] : "";
  };
  static const std::vector<const char*> loads = {".load("}, stores = {".store("},
                                        cas = {".compare_exchange_weak(", ".compare_exchange_strong("},
                                        rmw = {".exchange(", ".fetch_add(", ".fetch_sub(", ".fetch_or(",
                                               ".fetch_and(", ".fetch_xor("};
  auto ops_of = [&](const Step& s) -> const std::vector<const char*>& {
    static const std::vector<const char*> none;
    switch (s.kind) {
      case Step::Kind::load: return loads;
      case Step::Kind::store: return stores;
      case Step::Kind::cas_ok:
      case Step::Kind::cas_fail: return cas;
      case Step::Kind::rmw: return rmw;
      default: return none;
    }
  };
  // The distinct operands of the step's operation on its source line.
  auto operands = [&](const Step& s) {
    std::vector<std::string> found;
    const std::string src = source_line(s.file, s.line);
    for (const char* op : ops_of(s)) {
      for (auto pos = src.find(op); pos != std::string::npos; pos = src.find(op, pos + 1)) {
        // Walk back over the operand: identifiers, '.', '->', '*', and balanced () [].
        int depth = 0;
        std::size_t b = pos;
        while (b > 0) {
          char c = src[b - 1];
          if (c == ')' || c == ']') ++depth;
          else if (c == '(' || c == '[') { if (depth == 0) break; --depth; }
          else if (depth == 0 && !(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
                                   c == '*' || c == '>' || c == '-' || c == ':'))
            break;
          --b;
        }
        std::string e = src.substr(b, pos - b);
        while (e.size() > 2 && e.front() == '(' && e.back() == ')') e = e.substr(1, e.size() - 2);
        if (!e.empty() && e != "this" && std::find(found.begin(), found.end(), e) == found.end()) found.push_back(e);
      }
    }
    return found;
  };
  std::map<std::string, std::vector<std::string>> candidates;  // address -> operands seen, while unnamed
  std::map<std::string, std::string> expr_of;                 // address -> expression
  std::map<std::string, std::vector<std::string>> addrs_of;   // expression -> addresses
  std::vector<std::string> order_seen;  // addresses in order of first appearance
  for (auto& s : steps) {
    if (s.address.empty()) continue;
    if (!expr_of.count(s.address)) {
      order_seen.push_back(s.address);
      if (const char* l = label_of(s.address)) expr_of[s.address] = l;
    }
    std::string& e = expr_of[s.address];
    if (!e.empty()) continue;
    const std::vector<std::string> found = operands(s);
    if (found.size() == 1) {
      e = found[0];  // the first line that names it alone wins
      continue;
    }
    auto& maybe = candidates[s.address];
    for (auto& f : found)
      if (std::find(maybe.begin(), maybe.end(), f) == maybe.end()) maybe.push_back(f);
  }
  for (auto& a : order_seen) {
    std::string& e = expr_of[a];
    if (e.empty())
      for (auto& c : candidates[a]) e += (e.empty() ? "" : "|") + c;
    if (e.empty()) e = a.rfind("0x", 0) == 0 ? a : "0x" + a;
    addrs_of[e].push_back(a);
  }
  for (auto& s : steps) {
    if (s.address.empty()) continue;
    const std::string& e = expr_of[s.address];
    const auto& same = addrs_of[e];
    if (same.size() == 1) {
      s.variable = e;
    } else {
      for (std::size_t i = 0; i < same.size(); ++i)
        if (same[i] == s.address) s.variable = e + "#" + std::to_string(i + 1);
    }
  }
}

}  // namespace lfcheck
