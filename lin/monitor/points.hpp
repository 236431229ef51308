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
// hold a point are a SlotSet (lin/monitor/slot_set.hpp), so "the first slot at or past s
// holding a point" is a few word reads, and each such slot names its first point.
// window_slots(last_invoke): the slots of those two points, from the slot set alone (no
// read of the list: the stack monitor asks it of every value it tries, and wants the
// points only for a value it takes).
// Cost: O(1) per insert, O(log_64 m) per window for m slots. Memory: an uninitialized word
// per slot (only the slots holding points are written), m / 64 words of bits, three words
// per point.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "lin/monitor/slot_set.hpp"
#include "lin/monitor/timeline.hpp"

namespace lfcheck::lin::monitors {

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

  explicit Points(std::uint32_t slots)
      : slots_(slots ? slots : 1), occupied_(slots_), first_in_slot_(new std::uint32_t[slots_]) {}

  Window window(std::uint32_t last_invoke) const {
    const std::uint32_t slot = occupied_.first_at_or_after(last_invoke);
    Window w{std::nullopt, slot == SlotSet::kNone ? end() : first_in_slot_[slot]};
    const It before = w.after == end() ? last_ : links_[w.after].prev;
    if (before != end()) w.before = before;
    return w;
  }
  // The slots from the one of window(last_invoke).before (0 if none) to the one of its
  // `after` (the last slot if none), read off the set of occupied slots alone.
  Span window_slots(std::uint32_t last_invoke) const {
    const std::uint32_t after = occupied_.first_at_or_after(last_invoke);
    if (after == 0) return {0, 0};
    const std::uint32_t before = occupied_.last_at_or_before(after == SlotSet::kNone ? slots_ - 1 : after - 1);
    return {before == SlotSet::kNone ? 0 : before, after == SlotSet::kNone ? slots_ - 1 : after};
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
  std::uint32_t slots_;
  std::vector<Link> links_;
  It first_ = end(), last_ = end();
  SlotSet occupied_;
  std::unique_ptr<std::uint32_t[]> first_in_slot_;  // read only where occupied_ has the slot
};

}  // namespace lfcheck::lin::monitors
