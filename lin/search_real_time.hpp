// Wing–Gong search with Lowe's memoisation for Order::real_time, in the event-list
// formulation of Lowe 2017 (porcupine's search has the same shape).
//
// Design: the 2n call and return events of one partition sorted by time (a call before a
// return at the same time: "x precedes y" needs x.response < y.invoke strictly) form a
// doubly linked list. Walking it from the head, every call event met before the first
// return event belongs to an op that may be linearized next (nothing still pending
// responded before it was invoked). Linearizing an op lifts its call and its return out
// of the list; a return event reached while its op is still pending is a dead end: the
// last linearized op is unlifted (dancing links: restored in reverse order) and the walk
// goes on after its call event. A (linearized set, state) pair reached before is skipped.
//
// The linearized set is a bitset over the ops numbered by call order ("ranks"), hashed by
// XOR of one 64-bit value per member (Zobrist hashing: O(1) per change). Because the ops
// are ranked by invocation, the set is dense below a frontier: the memo key stores only
// the window of words between the first word not all set (lo) and the last word with a
// bit set (hi), so a 10,000-op history keeps a few words per entry, not 157.
// Cost: per node, one copy and one step of the model state, one memo lookup, and the walk
// over the candidate calls (about as many as ops were running at once).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "lin/history.hpp"
#include "lin/search_support.hpp"
#include "lin/spec.hpp"

namespace lfcheck::lin::detail {

// The memo key of a linearized set: words lo..lo+count of the bitset (every word
// below lo is all ones, every word from lo+count on is zero), stored at `at` in the
// search's word arena.
struct WindowKey {
  std::uint32_t lo, count;
  std::size_t at;
};

template <Spec S>
SearchOutcome search_real_time(const History<S>& h, std::span<const std::size_t> members, BudgetMeter& meter) {
  using State = typename S::State;
  const auto n = static_cast<std::uint32_t>(members.size());

  // Events sorted by (time, call before return, member position).
  std::vector<std::tuple<std::uint64_t, bool, std::uint32_t>> events;
  events.reserve(2 * std::size_t{n});
  for (std::uint32_t j = 0; j < n; ++j) {
    events.emplace_back(h.ops[members[j]].invoke, false, j);
    events.emplace_back(h.ops[members[j]].response, true, j);
  }
  std::sort(events.begin(), events.end());

  // List nodes: 0 is the head, 2n+1 the tail, node p+1 is events[p].
  const std::uint32_t tail = 2 * n + 1;
  std::vector<std::uint32_t> next(tail + 1), prev(tail + 1), node_rank(tail + 1);
  std::vector<std::uint8_t> node_is_return(tail + 1, 0);
  std::vector<std::uint32_t> rank_of(n), member_of_rank, call_node(n), return_node(n);
  member_of_rank.reserve(n);
  for (std::uint32_t p = 0; p < 2 * n; ++p) {
    const auto [time, is_return, j] = events[p];
    (void)time;
    if (!is_return) {
      rank_of[j] = static_cast<std::uint32_t>(member_of_rank.size());
      member_of_rank.push_back(j);
    }
    const std::uint32_t r = rank_of[j];
    node_rank[p + 1] = r;
    node_is_return[p + 1] = is_return;
    (is_return ? return_node : call_node)[r] = p + 1;
  }
  for (std::uint32_t p = 0; p <= tail; ++p) {
    next[p] = p + 1;
    prev[p] = p == 0 ? 0 : p - 1;
  }
  const auto unlink = [&](std::uint32_t p) {
    next[prev[p]] = next[p];
    prev[next[p]] = prev[p];
  };
  const auto relink = [&](std::uint32_t p) {
    next[prev[p]] = p;
    prev[next[p]] = p;
  };

  // The linearized set, its Zobrist hash and its window.
  const std::size_t nwords = (std::size_t{n} + 63) / 64;
  std::vector<std::uint64_t> words(nwords, 0);
  const auto full = [&](std::size_t w) {
    return words[w] == (w + 1 < nwords || n % 64 == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (n % 64)) - 1);
  };
  std::uint32_t lo = 0, hi = 0;  // first word not all ones; one past the last non-zero word
  std::uint64_t set_hash = 0;
  const auto zobrist = [](std::uint32_t r) { return mix64(std::uint64_t{r} + 1); };
  const auto add = [&](std::uint32_t r) {
    const std::uint32_t w = r / 64;
    words[w] |= std::uint64_t{1} << (r % 64);
    hi = std::max(hi, w + 1);
    while (lo < nwords && full(lo)) ++lo;
  };
  const auto remove = [&](std::uint32_t r) { words[r / 64] &= ~(std::uint64_t{1} << (r % 64)); };
  const auto window = [&] { return hi > lo ? hi - lo : 0u; };

  std::vector<std::uint64_t> arena;
  MemoTable<State, WindowKey> memo(4 * std::size_t{n} + 8);
  struct Frame {
    std::uint32_t rank;    // the op this frame linearized
    std::uint32_t parent;  // memo entry of the state before it
    std::uint32_t lo, hi;  // the window before it
  };
  std::vector<Frame> path;
  path.reserve(n);
  LongestPath longest(n);
  SearchOutcome out;
  State s;  // the candidate state: assigned, not constructed, so its storage is reused
  const auto to_members = [&](const std::vector<std::uint32_t>& ranks) {
    std::vector<std::uint32_t> m;
    m.reserve(ranks.size());
    for (std::uint32_t r : ranks) m.push_back(member_of_rank[r]);
    return m;
  };

  if (!meter.visit()) return out;
  std::uint32_t current;
  {
    s = S::initial();
    const std::uint64_t hash = pair_hash(0, spec_state_hash<S>(s));
    const auto [slot, found] = memo.find(hash, [](const auto&) { return false; });
    (void)found;
    current = static_cast<std::uint32_t>(memo.insert(slot, hash, WindowKey{0, 0, 0}, std::move(s)));
  }

  std::uint32_t e = next[0];
  while (e != tail) {
    if (!node_is_return[e]) {
      const std::uint32_t r = node_rank[e];
      const Operation<S>& op = h.ops[members[member_of_rank[r]]];
      s = memo[current].state;
      if (spec_step<S>(s, op.call, op.result)) {
        const std::uint32_t old_lo = lo, old_hi = hi;
        add(r);
        const std::uint64_t hash = pair_hash(set_hash ^ zobrist(r), spec_state_hash<S>(s));
        const std::uint32_t count = window();
        const auto [at, found] = memo.find(hash, [&](const auto& entry) {
          return entry.key.lo == lo && entry.key.count == count &&
                 std::equal(words.begin() + lo, words.begin() + lo + count, arena.begin() + entry.key.at) &&
                 entry.state == s;
        });
        if (!found) {
          if (!meter.visit()) {
            out.best = to_members(longest.best());
            return out;
          }
          const WindowKey key{lo, count, arena.size()};
          arena.insert(arena.end(), words.begin() + lo, words.begin() + lo + count);
          path.push_back({r, current, old_lo, old_hi});
          current = static_cast<std::uint32_t>(memo.insert(at, hash, key, std::move(s)));
          set_hash ^= zobrist(r);
          unlink(call_node[r]);
          unlink(return_node[r]);
          longest.pushed(path.size() - 1, r, [&](std::size_t i) { return path[i].rank; });
          e = next[0];
          continue;
        }
        remove(r);
        lo = old_lo;
        hi = old_hi;
      }
      e = next[e];
    } else {
      if (path.empty()) {
        out.verdict = Verdict::not_linearizable;
        out.best = to_members(longest.best());
        // The op whose return comes first among those not in best (list order).
        std::vector<bool> in_best(n, false);
        for (std::uint32_t r : longest.best()) in_best[r] = true;
        for (std::uint32_t p = 1; p < tail; ++p)
          if (node_is_return[p] && !in_best[node_rank[p]]) {
            out.blocked.push_back(member_of_rank[node_rank[p]]);
            break;
          }
        return out;
      }
      const Frame f = path.back();
      path.pop_back();
      longest.popped(path.size());
      remove(f.rank);
      lo = f.lo;
      hi = f.hi;
      set_hash ^= zobrist(f.rank);
      current = f.parent;
      relink(return_node[f.rank]);
      relink(call_node[f.rank]);
      e = next[call_node[f.rank]];
    }
  }
  out.verdict = Verdict::linearizable;
  for (const Frame& f : path) out.best.push_back(member_of_rank[f.rank]);
  return out;
}

}  // namespace lfcheck::lin::detail
