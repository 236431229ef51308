// The monitors' index structures held to plain arrays, over many random inputs:
//  - Coverage (lin/monitor/coverage.hpp), both kinds (one leaf per slot; built from its
//    ranges, one leaf per stretch between their ends): after every add, every first_zero,
//    last_zero, zero_runs and at over random ranges is what a count per slot says;
//  - SlotSet (lin/monitor/slot_set.hpp): first_at_or_after and last_at_or_before, after
//    inserts of slots and of runs, against a flag per slot;
//  - Points (lin/monitor/points.hpp): window(), window_slots() and the order against a plain
//    list of points;
//  - IntervalIndex (lin/monitor/interval_index.hpp): meeting() against every span tried.
// Each test prints its seed first; LFCHECK_LIN_SEED=S replays it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "lin/monitor/coverage.hpp"
#include "lin/monitor/interval_index.hpp"
#include "lin/monitor/points.hpp"
#include "lin/monitor/slot_set.hpp"
#include "lin/tests/test_support.hpp"

namespace {

using namespace lfcheck::lin::monitors;
using lfcheck::lin::testing_support::replay;
using lfcheck::lin::testing_support::test_seed;

Span random_span(std::mt19937_64& rng, std::uint32_t slots) {
  // Mostly inside, sometimes empty or reaching past the last slot (callers clamp).
  const std::uint32_t a = static_cast<std::uint32_t>(rng() % (slots + 2));
  const std::uint32_t b = static_cast<std::uint32_t>(rng() % (slots + 2));
  if (rng() % 8 == 0) return {std::min(a, b) + 1, std::min(a, b)};  // empty
  return {std::min(a, b), std::max(a, b)};
}

// The coverage against a count per slot, on random queries.
void expect_same(const Coverage& cov, const std::vector<int>& count, std::mt19937_64& rng, const std::string& where) {
  const auto slots = static_cast<std::uint32_t>(count.size());
  for (std::uint32_t s = 0; s < slots; ++s) ASSERT_EQ(cov.at(s), count[s]) << "slot " << s << "; " << where;
  for (int q = 0; q < 20; ++q) {
    const Span r = random_span(rng, slots);
    std::optional<std::uint32_t> first, last;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> runs, seen;  // maximal runs of zeros in r
    for (std::uint32_t s = r.lo; s <= std::min(r.hi, slots - 1) && r.lo <= r.hi; ++s)
      if (count[s] == 0) {
        if (!first) first = s;
        if (last && *last + 1 == s)
          runs.back().second = s;
        else
          runs.emplace_back(s, s);
        last = s;
      }
    ASSERT_EQ(cov.first_zero(r), first) << "first_zero [" << r.lo << ", " << r.hi << "]; " << where;
    ASSERT_EQ(cov.last_zero(r), last) << "last_zero [" << r.lo << ", " << r.hi << "]; " << where;
    cov.zero_runs(r, [&](Span run) { seen.emplace_back(run.lo, run.hi); });
    ASSERT_EQ(seen, runs) << "zero_runs [" << r.lo << ", " << r.hi << "]; " << where;
  }
}

TEST(MonitorStructures, CoverageMatchesCountsPerSlot) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (std::size_t n = 0; n < 3000; ++n) {
    const std::string where = replay(seed, n);
    const auto slots = static_cast<std::uint32_t>(1 + rng() % 70);
    std::vector<Span> ranges(rng() % 12);
    for (Span& r : ranges) r = random_span(rng, slots);
    std::vector<int> count(slots, 0);
    const auto apply = [&](Span r, int d) {
      for (std::uint32_t s = r.lo; s <= std::min(r.hi, slots - 1) && r.lo <= r.hi; ++s) count[s] += d;
    };
    Coverage plain(slots);
    std::vector<int> times(ranges.size(), 1);  // how many times each range is in
    for (const Span r : ranges) {
      plain.add(r, +1);
      apply(r, +1);
    }
    Coverage built(slots, ranges);
    expect_same(plain, count, rng, where);
    expect_same(built, count, rng, where);
    // Take the ranges out again in a random order (as the stack monitor does), and put some
    // back (never below zero, as the monitors never do).
    std::vector<std::size_t> order(ranges.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t i : order) {
      const int d = rng() % 4 == 0 ? +1 : -1;
      if (d < 0 && times[i] == 0) continue;
      times[i] += d;
      plain.add(ranges[i], d);
      built.add(ranges[i], d);
      apply(ranges[i], d);
      expect_same(plain, count, rng, where);
      expect_same(built, count, rng, where);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(MonitorStructures, CoverageBuiltFromRangesRefusesOthers) {
  Coverage built(10, {{2, 5}, {4, 8}});
  EXPECT_NO_THROW(built.add({4, 8}, -1));
  EXPECT_THROW(built.add({3, 5}, +1), std::logic_error);  // starts inside a stretch
  EXPECT_THROW(built.add({2, 6}, +1), std::logic_error);  // ends inside one
}

TEST(MonitorStructures, SlotSetMatchesAFlagPerSlot) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (std::size_t n = 0; n < 300; ++n) {
    // Up to 3 levels of 64 (and one past a level's end).
    const auto slots = static_cast<std::uint32_t>(1 + rng() % (n % 3 == 0 ? 300'000 : 5'000));
    SlotSet set(slots);
    std::vector<char> member(slots, 0);
    for (int i = 0, inserts = static_cast<int>(rng() % 200); i < inserts; ++i) {
      const auto s = static_cast<std::uint32_t>(rng() % slots);
      if (rng() % 2 == 0) {
        set.insert(s);
        member[s] = 1;
      } else {  // a run: mostly short, sometimes across words, sometimes past the end or empty
        const auto length = static_cast<std::uint32_t>(rng() % 4 == 0 ? rng() % 9'000 : rng() % 70);
        const std::uint32_t hi = rng() % 16 == 0 ? s - 1 : s + length;
        set.insert_range(s, hi);
        for (std::uint32_t x = s; x <= std::min(hi, slots - 1) && s <= hi; ++x) member[x] = 1;
      }
      for (int q = 0; q < 5; ++q) {
        const auto from = static_cast<std::uint32_t>(rng() % (slots + 2));
        std::uint32_t first = SlotSet::kNone, last = SlotSet::kNone;
        for (std::uint32_t x = from; x < slots; ++x)
          if (member[x]) {
            first = x;
            break;
          }
        for (std::uint32_t x = std::min(from, slots - 1) + 1; x-- > 0;)
          if (member[x]) {
            last = x;
            break;
          }
        ASSERT_EQ(set.first_at_or_after(from), first) << "from " << from << " of " << slots << "; " << replay(seed, n);
        ASSERT_EQ(set.last_at_or_before(from), last) << "to " << from << " of " << slots << "; " << replay(seed, n);
      }
    }
  }
}

TEST(MonitorStructures, IntervalIndexMeetsWhatEverySpanTriedMeets) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (std::size_t n = 0; n < 2000; ++n) {
    const auto slots = static_cast<std::uint32_t>(1 + rng() % (n % 4 == 0 ? 2'000 : 60));
    std::vector<IntervalIndex::Entry> entries(rng() % 40);
    for (std::uint32_t id = 0; id < entries.size(); ++id) {  // mostly short spans, some long
      const auto lo = static_cast<std::uint32_t>(rng() % slots);
      const auto length = static_cast<std::uint32_t>(rng() % 4 == 0 ? rng() % slots : rng() % 6);
      entries[id] = {{lo, std::min(lo + length, slots - 1)}, id};
    }
    const IntervalIndex index(entries, slots);
    for (int q = 0; q < 20; ++q) {
      const Span r = random_span(rng, slots);
      std::vector<std::uint32_t> want, got;
      for (const IntervalIndex::Entry& e : entries)
        if (r.lo <= r.hi && e.span.lo <= r.hi && e.span.hi >= r.lo) want.push_back(e.id);
      index.meeting(r, [&](std::uint32_t id) { got.push_back(id); });
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, want) << "[" << r.lo << ", " << r.hi << "] of " << slots << " slots; " << replay(seed, n);
    }
  }
}

TEST(MonitorStructures, PointsMatchAPlainList) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (std::size_t n = 0; n < 2000; ++n) {
    const auto slots = static_cast<std::uint32_t>(1 + rng() % 40);
    Points points(slots);
    std::vector<Points::Point> plain;  // in order, slots never decreasing
    for (std::uint32_t op = 0, count = static_cast<std::uint32_t>(rng() % 30); op < count; ++op) {
      const auto at = static_cast<std::uint32_t>(rng() % slots);
      // window(at) against the plain list: the first point in a slot >= at, and the one before.
      const auto first_after =
          std::find_if(plain.begin(), plain.end(), [&](const Points::Point& p) { return p.slot >= at; });
      const Points::Window w = points.window(at);
      ASSERT_EQ(w.after == Points::end(), first_after == plain.end()) << replay(seed, n);
      if (first_after != plain.end()) ASSERT_EQ(points[w.after].op, first_after->op) << replay(seed, n);
      ASSERT_EQ(w.before.has_value(), first_after != plain.begin()) << replay(seed, n);
      if (w.before) ASSERT_EQ(points[*w.before].op, std::prev(first_after)->op) << replay(seed, n);
      // window_slots(at): the slots of those two points, or 0 and the last slot.
      const std::uint32_t lo = w.before ? points[*w.before].slot : 0;
      const std::uint32_t hi = w.after != Points::end() ? points[w.after].slot : slots - 1;
      const Span between = points.window_slots(at);
      ASSERT_EQ(between.lo, lo) << "at " << at << "; " << replay(seed, n);
      ASSERT_EQ(between.hi, hi) << "at " << at << "; " << replay(seed, n);
      // Insert a point before `after`, in a slot between its neighbours (as the stack monitor does).
      const std::uint32_t slot = lo + static_cast<std::uint32_t>(rng() % (hi - lo + 1));
      points.insert_before(w.after, {slot, op});
      plain.insert(first_after, {slot, op});
      std::vector<std::uint32_t> got, want;
      points.each([&](const Points::Point& p) { got.push_back(p.op); });
      for (const Points::Point& p : plain) want.push_back(p.op);
      ASSERT_EQ(got, want) << replay(seed, n);
    }
  }
}

}  // namespace
