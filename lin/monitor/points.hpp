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
// Cost: O(log k) per window and per insert for k points (a map from slot to the first
// point in it).
#pragma once

#include <cstdint>
#include <iterator>
#include <list>
#include <map>
#include <optional>

namespace lfcheck::lin::monitors {

class Points {
 public:
  struct Point {
    std::uint32_t slot;
    std::uint32_t op;  // the operation taking effect there (kNoOp for the extension's)
  };
  using It = std::list<Point>::iterator;
  struct Window {
    std::optional<It> before;  // none: nothing fixed before
    It after;                  // end(): nothing fixed after
  };

  Window window(std::uint32_t last_invoke) {
    const auto m = first_in_slot_.lower_bound(last_invoke);
    Window w{std::nullopt, m == first_in_slot_.end() ? points_.end() : m->second};
    if (w.after != points_.begin()) w.before = std::prev(w.after);
    return w;
  }
  // Fixes p just before `at` (the caller keeps the slots in order: p.slot between the
  // slots of the points around it).
  It insert_before(It at, Point p) {
    const It it = points_.insert(at, p);
    const auto [entry, added] = first_in_slot_.try_emplace(p.slot, it);
    if (!added && entry->second == at) entry->second = it;  // p is now the first of its slot
    return it;
  }
  It end() { return points_.end(); }
  const std::list<Point>& in_order() const { return points_; }

 private:
  std::list<Point> points_;
  std::map<std::uint32_t, It> first_in_slot_;
};

}  // namespace lfcheck::lin::monitors
