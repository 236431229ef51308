// The points in time a monitor has fixed, in order: each is an operation taking effect in
// a slot (lin/monitor/timeline.hpp); several may share a slot, in the order they were put
// there. The stack monitor fixes its values bottom first and keeps each later value inside
// one window between fixed points, so the points never cross (a value between a push and
// the pop of another is above it): the list, read in order, is the linearization.
//
// window(last_invoke): the fixed points around everything invoked last at slot
// `last_invoke`: `after`, the first point in a slot at or past it (a point there comes
// after that invocation), and `before`, the one just before `after`. A value whose last
// invocation is there must take effect entirely between them.
//
// The list is a doubly linked list in one array (no allocation per point); the slots that
// hold a point are bits of a three-level bitset (SlotSet), so "the first slot at or past s
// holding a point" is a few word reads, and each such slot names its first point.
// Cost: O(1) per insert, O(log_64 m) per window for m slots. Memory: an uninitialized word
// per slot (only the slots holding points are written), m / 64 words of bits, three words
// per point.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace lfcheck::lin::monitors {

// A set of slots 0..m-1: insert, and the first member at or past a slot.
class SlotSet {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  explicit SlotSet(std::uint32_t slots) {
    std::uint64_t bits = std::max<std::uint32_t>(slots, 1);
    do {  // level 0: one bit per slot; level k+1: one bit per word of level k that is not 0
      bits = (bits + 63) / 64;
      levels_.emplace_back(bits, 0);
    } while (bits > 1);
  }
  void insert(std::uint32_t slot) {
    for (auto& level : levels_) {
      const std::uint64_t bit = std::uint64_t{1} << (slot % 64);
      const bool had_word = level[slot / 64] != 0;
      level[slot / 64] |= bit;
      if (had_word) return;  // the levels above already know this word is not empty
      slot /= 64;
    }
  }
  // The first member >= slot, or kNone.
  std::uint32_t first_at_or_after(std::uint32_t slot) const {
    std::uint64_t at = slot;  // a bit index on level k
    for (std::size_t k = 0; k < levels_.size(); ++k) {
      const std::vector<std::uint64_t>& level = levels_[k];
      if (at / 64 >= level.size()) return kNone;
      const std::uint64_t word = level[at / 64] & (~std::uint64_t{0} << (at % 64));
      if (word != 0) {
        std::uint64_t found = (at / 64) * 64 + static_cast<std::uint64_t>(std::countr_zero(word));
        for (std::size_t j = k; j-- > 0;)  // down to the first member under it
          found = found * 64 + static_cast<std::uint64_t>(std::countr_zero(levels_[j][found]));
        return static_cast<std::uint32_t>(found);
      }
      at = at / 64 + 1;  // the next word of level k, a bit of level k + 1
    }
    return kNone;
  }

 private:
  std::vector<std::vector<std::uint64_t>> levels_;
};

class Points {
 public:
  struct Point {
    std::uint32_t slot;
    std::uint32_t op;  // the operation taking effect there (kNoOp for the extension's)
  };
  using It = std::uint32_t;  // a point's place in the array; end() is past every point
  struct Window {
    std::optional<It> before;  // none: nothing fixed before
    It after;                  // end(): nothing fixed after
  };

  explicit Points(std::uint32_t slots) : occupied_(slots), first_in_slot_(new std::uint32_t[slots ? slots : 1]) {}

  Window window(std::uint32_t last_invoke) const {
    const std::uint32_t slot = occupied_.first_at_or_after(last_invoke);
    Window w{std::nullopt, slot == SlotSet::kNone ? end() : first_in_slot_[slot]};
    const It before = w.after == end() ? last_ : links_[w.after].prev;
    if (before != end()) w.before = before;
    return w;
  }
  const Point& operator[](It it) const { return links_[it].point; }

  // Fixes p just before `at` (the caller keeps the slots in order: p.slot between the
  // slots of the points around it).
  It insert_before(It at, Point p) {
    const It it = static_cast<It>(links_.size());
    const It prev = at == end() ? last_ : links_[at].prev;
    links_.push_back({p, prev, at});
    (prev == end() ? first_ : links_[prev].next) = it;
    (at == end() ? last_ : links_[at].prev) = it;
    if (prev == end() || links_[prev].point.slot != p.slot) {  // p is now the first of its slot
      first_in_slot_[p.slot] = it;
      occupied_.insert(p.slot);
    }
    return it;
  }
  static constexpr It end() { return UINT32_MAX; }

  // Calls f(point) for each point, in order.
  template <class F>
  void each(F&& f) const {
    for (It it = first_; it != end(); it = links_[it].next) f(links_[it].point);
  }

 private:
  struct Link {
    Point point;
    It prev, next;
  };
  std::vector<Link> links_;
  It first_ = end(), last_ = end();
  SlotSet occupied_;
  std::unique_ptr<std::uint32_t[]> first_in_slot_;  // read only where occupied_ has the slot
};

}  // namespace lfcheck::lin::monitors
