// The parts both searches share (real_time: search_real_time.hpp, program_order:
// search_program_order.hpp): what a search returns, the budget meter, the memo table of visited
// (linearized set, model state) pairs, and the record of the longest linearizable
// sequence found.
//
// MemoTable: open addressing (linear probing, power-of-two capacity, at most half full)
// over an entry vector; each entry keeps its full 64-bit hash, the search's key for the
// linearized set, and a copy of the model state. The searches keep their current state
// *in* the table (a path frame holds an entry index), so a step costs one copy of the
// state (assigned into one reused candidate), which moves into the table when the pair is
// new.
// Cost: O(1) expected per lookup plus the spec's State operator== on a full-hash match.
//
// LongestPath: keeps `best` equal to the longest path the search has held, in amortised
// O(1) per push: while the current path agrees with `best` it only appends.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lin/report.hpp"

namespace lfcheck::lin::detail {

// splitmix64's finaliser: a bijection on 64 bits with full avalanche.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The memo hash of a (set, state) pair from the set's hash and the spec's state hash.
constexpr std::uint64_t pair_hash(std::uint64_t set_hash, std::uint64_t state_hash) {
  return mix64(set_hash ^ mix64(state_hash + 0x9E3779B97F4A7C15ull));
}

// What one partition's search found; op numbers are positions in its `members`.
struct SearchOutcome {
  Verdict verdict = Verdict::unknown;
  std::vector<std::uint32_t> best;     // the longest linearizable sequence found
  std::vector<std::uint32_t> blocked;  // not_linearizable: see Report::blocked
};

class BudgetMeter {
 public:
  explicit BudgetMeter(const Budget& budget) : budget_(budget), start_(std::chrono::steady_clock::now()) {}

  // Counts one search node. False (and nothing counted) once a budget is spent;
  // exhausted() then names it. The clock is read every 256 nodes.
  bool visit() {
    if (!exhausted_.empty()) return false;
    if (states_ >= budget_.max_states) {
      exhausted_ = "max_states " + std::to_string(budget_.max_states);
      return false;
    }
    if ((states_ & 255) == 0 && seconds() > budget_.max_seconds) {
      exhausted_ = "max_seconds " + short_number(budget_.max_seconds);
      return false;
    }
    ++states_;
    return true;
  }

  // One step of a monitor (lin/monitor/*.hpp): counts no state, reads the clock every 1024
  // steps. False once the seconds are spent (exhausted() then says so).
  bool tick() {
    if (!exhausted_.empty()) return false;
    if ((++ticks_ & 1023) == 0 && seconds() > budget_.max_seconds) {
      exhausted_ = "max_seconds " + short_number(budget_.max_seconds);
      return false;
    }
    return true;
  }

  std::uint64_t states() const { return states_; }
  const std::string& exhausted() const { return exhausted_; }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  static std::string short_number(double v) {
    std::string s = std::to_string(v);
    while (s.size() > 1 && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  }

  const Budget& budget_;
  std::chrono::steady_clock::time_point start_;
  std::uint64_t states_ = 0;
  std::uint64_t ticks_ = 0;
  std::string exhausted_;
};

template <class State, class Key>
class MemoTable {
 public:
  struct Entry {
    std::uint64_t hash;
    Key key;
    State state;
  };

  explicit MemoTable(std::size_t expected_entries = 32) {
    std::size_t capacity = 16;
    while (capacity < 2 * expected_entries) capacity *= 2;
    slots_.assign(capacity, 0);
    entries_.reserve(expected_entries);
  }

  // The entry with this hash for which same(entry) holds: {its index, true}; or
  // {the slot an insert() of it must use, false}.
  template <class Same>
  std::pair<std::size_t, bool> find(std::uint64_t hash, Same&& same) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
      const std::uint32_t at = slots_[slot];
      if (at == 0) return {slot, false};
      const Entry& e = entries_[at - 1];
      if (e.hash == hash && same(e)) return {at - 1, true};
    }
  }

  // Adds an entry at the slot find() returned (no insert in between); returns its index.
  std::size_t insert(std::size_t slot, std::uint64_t hash, Key key, State&& state) {
    entries_.push_back(Entry{hash, key, std::move(state)});
    slots_[slot] = static_cast<std::uint32_t>(entries_.size());
    if (2 * entries_.size() > slots_.size()) grow();
    return entries_.size() - 1;
  }

  const Entry& operator[](std::size_t i) const { return entries_[i]; }
  std::size_t size() const { return entries_.size(); }

 private:
  void grow() {
    slots_.assign(slots_.size() * 2, 0);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      std::size_t slot = entries_[i].hash & mask;
      while (slots_[slot] != 0) slot = (slot + 1) & mask;
      slots_[slot] = static_cast<std::uint32_t>(i + 1);
    }
  }

  std::vector<Entry> entries_;
  std::vector<std::uint32_t> slots_;  // entry index + 1; 0 = empty
};

// The longest sequence of ops the search has had on its path (op numbers local to
// the search).
class LongestPath {
 public:
  explicit LongestPath(std::size_t ops) { best_.reserve(ops); }
  // The path became path[0..depth] by pushing `op` at position depth.
  template <class PathAt>
  void pushed(std::size_t depth, std::uint32_t op, PathAt&& path_at) {
    if (agree_ == depth) {
      if (best_.size() == depth) best_.push_back(op);
      if (best_[depth] == op) { agree_ = depth + 1; return; }
    }
    if (depth + 1 > best_.size()) {  // a longer path that left `best` earlier: copy it
      best_.resize(depth + 1);
      for (std::size_t i = 0; i <= depth; ++i) best_[i] = path_at(i);
      agree_ = depth + 1;
    }
  }
  // The path was cut back to `depth` ops.
  void popped(std::size_t depth) {
    if (agree_ > depth) agree_ = depth;
  }
  const std::vector<std::uint32_t>& best() const { return best_; }

 private:
  std::vector<std::uint32_t> best_;
  std::size_t agree_ = 0;  // path[0..agree_) == best_[0..agree_)
};

}  // namespace lfcheck::lin::detail
