// Random small real-time histories of a collection spec (collection_specs.hpp), biased
// toward what a monitor gets wrong: many operations open at once (a slow thread whose
// calls stay open across many others), removes that find the structure empty while
// inserts are in flight, values removed before their insert returns, equal stamps, and
// (sets) a value added twice, the second add refused. Linearizable by construction (each
// call takes effect at a random point inside it, where the model gives its result);
// then, half the time, one of:
//   - a remove's result changed: to another value inserted in the history, to "empty",
//     to a value never inserted, or (sets, multisets) its truth flipped;
//   - two removes' results swapped;
//   - one call's interval moved: its invoke later or its response earlier (a call that
//     took effect in the middle of another's now precedes it, or follows it).
// Every inserted value is distinct (with_value: the call's serial, from 1).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "lin/history.hpp"
#include "lin/tests/collection_specs.hpp"
#include "lin/tests/random_history.hpp"

namespace lfcheck::lin::examples {

struct CollectionShape {
  std::uint32_t threads = 3;
  std::size_t ops = 6;
  unsigned insert_percent = 50;  // containers: how often a call inserts
  int keys = 3;                  // set: how many keys the calls name (at most 64)
};

inline CollectionShape random_shape(Rng& rng) {
  CollectionShape s;
  s.threads = 2 + static_cast<std::uint32_t>(rng() % 4);
  s.ops = 1 + rng() % 9;
  s.insert_percent = 30 + static_cast<unsigned>(rng() % 41);
  s.keys = 1 + static_cast<int>(rng() % 4);
  return s;
}

// The calls of one history of spec S, for serial numbers from 1. Sets: a key is not added
// again once a remove of it was issued (a second successful add would make the history
// one the monitor declines), but may be added twice before (the second add is refused).
template <class S>
struct CollectionCalls {
  const CollectionShape& shape;
  bool removed[64] = {};
  typename S::Call operator()(Rng& rng, std::uint32_t serial) {
    if constexpr (requires { S::with_value(typename S::Call{}, 0u); }) {
      typename S::Call c = S::random_call(rng);
      c.put = rng() % 100 < shape.insert_percent;
      return S::with_value(c, serial);
    } else if constexpr (std::is_same_v<S, SetCollection>) {
      auto kind = static_cast<typename S::Call::Kind>(rng() % 3);
      const auto key = static_cast<std::uint8_t>(rng() % shape.keys);
      if (kind == S::Call::add && removed[key]) kind = S::Call::contains;
      if (kind == S::Call::remove) removed[key] = true;
      return {kind, key};
    } else {  // MultisetSpec: adds of fresh values, removes and contains of any value named so far
      const auto kind = static_cast<typename S::Call::Kind>(rng() % 3);
      if (kind == S::Call::add) return {kind, static_cast<int>(serial)};
      return {kind, static_cast<int>(1 + rng() % std::max<std::uint32_t>(serial, 1))};
    }
  }
};

template <class S>
History<S> linearizable_collection_history(Rng& rng, const CollectionShape& shape) {
  CollectionCalls<S> calls{shape};
  return random_real_time_history<S>(rng, shape.threads, shape.ops, calls,
                                     Simulation{.same_stamp_one_in = 4, .slow_thread = true, .first_serial = 1});
}

// True for a call whose result says what it took out or saw.
template <class S>
bool is_take(const typename S::Call& c) {
  if constexpr (requires { c.put; })
    return !c.put;
  else
    return c.kind != S::Call::add || std::is_same_v<S, SetCollection>;
}

// Changes h as the header says; false if it found nothing to change.
template <class S>
bool mutate_collection_history(History<S>& h, Rng& rng) {
  if (h.ops.empty()) return false;
  std::vector<std::size_t> takes;
  for (std::size_t i = 0; i < h.ops.size(); ++i)
    if (is_take<S>(h.ops[i].call)) takes.push_back(i);
  switch (rng() % 3) {
    case 0: {  // a result changed
      if (takes.empty()) return false;
      Operation<S>& op = h.ops[takes[rng() % takes.size()]];
      if constexpr (std::is_same_v<typename S::Result, Value>) {
        const auto r = rng() % 4;
        const Value before = op.result;
        if (r == 0)
          op.result = kEmpty;
        else if (r == 1)
          op.result = some(static_cast<int>(h.ops.size() + 1 + rng() % 3));  // never inserted
        else
          op.result = some(static_cast<int>(1 + rng() % h.ops.size()));  // some serial: often inserted
        return !(op.result == before);
      } else {
        op.result = !op.result;
        return true;
      }
    }
    case 1: {  // two results swapped
      if (takes.size() < 2) return false;
      const std::size_t a = takes[rng() % takes.size()], b = takes[rng() % takes.size()];
      if (a == b || h.ops[a].result == h.ops[b].result) return false;
      std::swap(h.ops[a].result, h.ops[b].result);
      return true;
    }
    default: {  // an interval moved: invoke later, or response earlier
      Operation<S>& op = h.ops[rng() % h.ops.size()];
      const Operation<S>& other = h.ops[rng() % h.ops.size()];
      if (rng() % 2 == 0) {
        const std::uint64_t to = other.response + (rng() % 2);
        if (to <= op.invoke || to > op.response) return false;
        op.invoke = to;
      } else {
        if (other.invoke < op.invoke + 1 || other.invoke > op.response) return false;
        op.response = other.invoke - 1 + (rng() % 2);
        if (op.response < op.invoke) op.response = op.invoke;
      }
      return true;
    }
  }
}

}  // namespace lfcheck::lin::examples
