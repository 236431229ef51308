// A history in its abstract type's words (lin/collection.hpp): per value, the operation
// that inserted it, the one that removed it and (sets) the ones that saw it there or
// not; the removes that found the structure empty; every operation's slots.
//
// collect() also rejects, before any monitor runs, what no order explains on its own:
// a value removed twice, removed but never inserted, seen in a set that never got it, or
// removed before its insert was invoked (each with those operations as the core); and
// it declines (does_not_apply) a history with an operation that is not of the type or a
// value inserted twice (the monitors assume distinct values).
//
// Cost: O(n log n) (the time line) plus O(n) expected (one hash map of values).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lin/collection.hpp"
#include "lin/history.hpp"
#include "lin/monitor/coverage.hpp"
#include "lin/monitor/outcome.hpp"
#include "lin/monitor/timeline.hpp"
#include "lin/spec.hpp"

namespace lfcheck::lin::monitors {

inline constexpr std::uint32_t kNoOp = UINT32_MAX;

struct ValueOps {
  std::uint64_t value = 0;
  std::uint32_t insert = kNoOp;        // the operation that inserted it (kNoOp: none)
  std::uint32_t remove = kNoOp;        // the one that removed it (kNoOp: never; the extension does)
  std::vector<std::uint32_t> present;  // set, multiset: saw it there (contains, a refused add)
  std::vector<std::uint32_t> absent;   // set, multiset: saw it missing (absent, a failed remove)
};

struct CollectionHistory {
  Collection type{};
  std::vector<Span> span;  // per operation: its slots
  Span extension;          // where a value never removed is removed
  std::uint32_t slots = 0;
  std::vector<ValueOps> values;
  std::vector<std::uint32_t> empties;  // remove_empty operations
  std::vector<std::uint32_t> no_effect;  // operations that touch nothing: not given to a monitor

  // The value's insert and remove as the ordered monitors see them (Lee & Mathur's
  // simplification: an insert takes effect before every other operation of its value, so
  // no later than the first of their responses; a remove after all of them, so no earlier
  // than the last of their invocations).
  Span remove_span(const ValueOps& v) const { return v.remove == kNoOp ? extension : span[v.remove]; }
  std::uint32_t first_response(const ValueOps& v) const { return std::min(span[v.insert].hi, remove_span(v).hi); }
  std::uint32_t last_invoke(const ValueOps& v) const { return std::max(span[v.insert].lo, remove_span(v).lo); }
  Span insert_slots(const ValueOps& v) const { return {span[v.insert].lo, first_response(v)}; }
  Span remove_slots(const ValueOps& v) const { return {last_invoke(v), remove_span(v).hi}; }
  Span critical(const ValueOps& v) const { return critical_range(first_response(v), last_invoke(v)); }
};

// The history's abstract view, or the answer when preprocessing already knows it.
struct Collected {
  CollectionHistory history;
  std::optional<MonitorOutcome> answer;
};

template <Spec S>
requires HasCollection<S> Collected collect(const History<S>& h) {
  Collected out;
  CollectionHistory& c = out.history;
  c.type = S::collection;
  const Timeline timeline(h);
  c.span.reserve(h.ops.size());
  for (std::size_t i = 0; i < h.ops.size(); ++i) c.span.push_back(timeline.span(i));
  c.extension = timeline.extension();
  c.slots = timeline.slots();
  const std::string type = collection_name(c.type);

  std::unordered_map<std::uint64_t, std::uint32_t> index;
  index.reserve(h.ops.size());
  const auto value_of = [&](std::uint64_t v) -> ValueOps& {
    const auto [it, added] = index.try_emplace(v, static_cast<std::uint32_t>(c.values.size()));
    if (added) c.values.push_back(ValueOps{v, kNoOp, kNoOp, {}, {}});
    return c.values[it->second];
  };
  // Two passes: a value inserted twice makes the history one the monitors do not decide,
  // whatever else it holds, so that is looked for first.
  std::vector<std::uint32_t> second_insert, second_remove;  // per value: a second one, if any
  for (std::uint32_t i = 0; i < h.ops.size(); ++i) {
    const Abstract a = S::abstract(h.ops[i].call, h.ops[i].result);
    if (!kind_allowed(c.type, a.kind)) {
      out.answer = does_not_apply(op_ref(i) + " is not a " + type + " operation");
      return out;
    }
    if (a.kind == Abstract::remove_empty || a.kind == Abstract::no_effect) {
      (a.kind == Abstract::remove_empty ? c.empties : c.no_effect).push_back(i);
      continue;
    }
    ValueOps& v = value_of(a.value);
    const std::size_t at = static_cast<std::size_t>(&v - c.values.data());
    second_insert.resize(c.values.size(), kNoOp);
    second_remove.resize(c.values.size(), kNoOp);
    switch (a.kind) {
      case Abstract::insert:
        (v.insert == kNoOp ? v.insert : second_insert[at]) = i;
        break;
      case Abstract::remove:
        (v.remove == kNoOp ? v.remove : second_remove[at]) = i;
        break;
      case Abstract::insert_refused:
      case Abstract::contains:
        v.present.push_back(i);
        break;
      case Abstract::remove_absent:
      case Abstract::absent:
        v.absent.push_back(i);
        break;
      default:
        break;
    }
  }
  for (std::size_t at = 0; at < c.values.size(); ++at)
    if (second_insert[at] != kNoOp) {
      out.answer = does_not_apply(op_ref(c.values[at].insert) + " and " + op_ref(second_insert[at]) +
                                  " insert the same value: the monitor needs every inserted value distinct");
      return out;
    }
  for (std::size_t at = 0; at < c.values.size(); ++at)
    if (second_remove[at] != kNoOp) {
      const ValueOps& v = c.values[at];
      std::vector<std::uint32_t> core{v.remove, second_remove[at]};
      if (v.insert != kNoOp) core.push_back(v.insert);
      out.answer =
          not_linearizable(std::move(core), op_ref(v.remove) + " and " + op_ref(second_remove[at]) +
                                                " both remove the same value, which was inserted at most once");
      return out;
    }
  for (const ValueOps& v : c.values) {
    if (v.insert != kNoOp) {
      if (v.remove != kNoOp && precedes(c.span[v.remove], c.span[v.insert])) {
        out.answer = not_linearizable({v.insert, v.remove}, op_ref(v.remove) + " removed a value before " +
                                                                op_ref(v.insert) + ", which inserted it, was invoked");
        return out;
      }
      continue;
    }
    if (v.remove != kNoOp) {
      out.answer = not_linearizable({v.remove}, op_ref(v.remove) + " removed a value that nothing inserted");
      return out;
    }
    if (!v.present.empty()) {
      out.answer = not_linearizable(
          {v.present.front()}, op_ref(v.present.front()) + " saw a value in the " + type + " that nothing inserted");
      return out;
    }
  }
  return out;
}

// Puts the operations that touch nothing (no_effect) into `order`, a linearization of the
// others: each before the first operation from which on none returned before it was
// invoked. No operation before that place is one it precedes (it would precede the
// operation that returned earlier, which the linearization puts before it), so the order
// stays a linearization. Cost: O((n + k) log k).
inline void place_no_effect(const CollectionHistory& c, std::vector<std::uint32_t>& order) {
  if (c.no_effect.empty()) return;
  // earliest_response[k]: the first response among order[k..] (its slot).
  std::vector<std::uint32_t> earliest_response(order.size() + 1, UINT32_MAX);
  for (std::size_t k = order.size(); k-- > 0;)
    earliest_response[k] = std::min(earliest_response[k + 1], c.span[order[k]].hi);
  std::vector<std::pair<std::size_t, std::uint32_t>> at;  // (place, operation)
  for (std::uint32_t x : c.no_effect)
    at.emplace_back(static_cast<std::size_t>(std::lower_bound(earliest_response.begin(), earliest_response.end() - 1,
                                                              c.span[x].lo) -
                                             earliest_response.begin()),
                    x);
  std::sort(at.begin(), at.end(), [&](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : c.span[a.second].lo < c.span[b.second].lo;
  });
  std::vector<std::uint32_t> merged;
  merged.reserve(order.size() + at.size());
  std::size_t next = 0;
  for (std::size_t k = 0; k <= order.size(); ++k) {
    for (; next < at.size() && at[next].first == k; ++next) merged.push_back(at[next].second);
    if (k < order.size()) merged.push_back(order[k]);
  }
  order = std::move(merged);
}

}  // namespace lfcheck::lin::monitors
