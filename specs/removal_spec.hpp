// The sequential spec of DeliQueue's removal (structure "removal"; see
// specs/spec.hpp for the shape): remove(m), remove_messages(pred) and
// has_messages(pred) from any thread — predicates by what, by what and target,
// by callback — with the posts and the Looper's polls they race.
//
// Model (apply: the props, and every call of the prefix and suffix): queued
// messages ordered by (when, insertSeq), insertSeq in post order. post queues
// one (always accepted: no quit here); poll(t) sets the clock to t and delivers
// the earliest due message; remove(m) claims m if it is queued (true) or says
// false; remove_messages(p) claims every queued message matching p and returns
// how many; has_messages(p) says whether one is queued; reclaim (the Looper's
// take_reclaimed) changes nothing a call can see. Messages are named
// m<thread>.<tag> ("s": the prefix/suffix/props thread); remove names its
// message by the latest post of that name, for tags 0 and 1 (the Subject keeps
// those messages alive: remove(m) needs its owner to). In the parallel part a
// remove names only a message of its own thread or of the prefix: the Subject
// learns a message's name when enqueue returns, after the push, so another
// thread's message could be queued and seen (has_messages) before its name is
// known — a lag of the Subject's bookkeeping, not of the queue. (The latest
// post of a name is decided by its poster's own program order: no other thread
// races it.)
//
// Owner-only (the Looper; thread 0 of the parallel part and the non-parallel
// slots): poll, reclaim. Any thread: post, remove, remove_messages,
// has_messages.
//
// Concurrent allowance (step), and why. The traversals are not atomic: a walk
// reads the top once (deliqueue.hpp, remove_messages/has_messages: one acquire
// load of top_) and then decides message by message, later, as it reaches
// each; the header's guarantee is per message — "it visits every message that
// was on the stack when it read the top and was not claimed by someone else
// before the walk reached it", "has_messages(p) is true if a matching message
// was queued and unclaimed for the whole call, false if none was at any
// point". Likewise the Looper claims what it delivers after the sweep that
// chose it (next_until: sweep, then deliver()'s claim). So histories of the
// correct queue exist that no atomic order explains (a has_messages that is
// false while, at every instant of it, one of two matching messages was queued:
// one posted during the walk above the top it read, the other claimed by
// someone else before the walk reached it). The concurrent model therefore
// takes each such call at the instant its decisions start — the walk's top
// read, the Looper's last sweep — and states the header's guarantee exactly:
//   * what the call claimed (remove_messages: any subset of the queued matching
//     messages, of the size it returned; poll: the message it returned) is
//     gone for every claimer from that instant, but is "pending": a
//     has_messages of another thread may still see it queued until the
//     claiming thread's next call (the claim itself happens during the call);
//   * a queued matching message the call did not claim (remove_messages) or did
//     not see (has_messages false) is "doomed": someone else must claim it
//     before the traversing thread's next call and before the suffix, by a call
//     of another thread (it was claimed before the walk reached it). Any call
//     of that thread, and every suffix call, rejects a state with such a
//     message left: a walk that skipped a message nobody claimed is caught.
// The state is the set of worlds these choices leave (which subset a
// remove_messages claimed is not observed: only its count), so step() keeps
// every world consistent with the results so far. Every other call is atomic
// as in apply: post at its push, remove(m) at its claim CAS. A doom left at
// the very end of a scenario without a later call is not checked (nothing
// observes that message again).
//
// Long histories (lin.history: 10,000 calls from up to 15 threads, real-time
// order) use HistorySpec: the same model with a bigger message pool, calls that
// keep the queue short (gen_history_call: every message due at once, polls at
// time 0, removes of the thread's own names) and pacing (history_backlog).
//
// Not covered: quit and barriers (specs/deliqueue_spec.hpp), reclamation's
// timing (which messages take_reclaimed hands back when: the model scenarios
// and stress check it; here reclaim only runs the drain concurrently).
// No partition: a poll delivers the earliest message of every `what`, so calls
// on different whats do not commute.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "specs/message_pool.hpp"
#include "specs/show_time.hpp"
#include "specs/spec.hpp"
#include "structures/deliqueue/deliqueue.hpp"

namespace lfcheck::specs {

namespace removal_spec {

constexpr std::uint8_t kTags = 8;        // id = label * kTags + tag
constexpr std::uint8_t kNamedTags = 2;   // tags 0 and 1: remove(m) can name them
constexpr std::uint8_t kWhats = 3, kTargets = 2, kCallbacks = 3;  // callback 0: none
constexpr std::uint8_t kNone = 0xFF;
constexpr unsigned kNames = (kSetupLabel + 1) * kNamedTags;

inline std::string show_label(unsigned label) { return label == kSetupLabel ? "s" : std::to_string(label); }
inline std::string show_id(std::uint8_t id) { return "m" + show_label(id / kTags) + "." + std::to_string(id % kTags); }

}  // namespace removal_spec

// The model, the calls and their text: everything but the Subject's sizes.
struct RemovalModel {
  static constexpr const char* name = "removal";
  using Fault = RemovalFault;

  enum class Op : std::uint8_t { post, poll, reclaim, remove, remove_messages, has_messages };
  enum class By : std::uint8_t { what, what_target, callback };

  struct Call {
    Op op = Op::poll;
    std::uint8_t thread = kSetupLabel;  // the label of the thread it is generated for
    std::uint8_t tag = 0;       // post: the new message's tag; remove: the named message's
    std::uint8_t owner = 0;     // remove: the label of the thread that posted it
    By by = By::what;           // remove_messages, has_messages
    std::uint8_t what = 0, target = 0, callback = 0;  // post: payload; traversals: the predicate's
    std::int64_t when = 0;      // post: when; poll: the time
  };

  struct Result {
    Op op = Op::poll;
    std::uint8_t v = 0;                     // post: accepted; remove, has: bool; remove_messages: count
    std::uint8_t id = removal_spec::kNone;  // poll: delivered
    bool operator==(const Result&) const = default;
  };

  static constexpr std::uint8_t kNoOne = 0xFF;
  struct Item {
    std::uint8_t id = 0, what = 0, target = 0, callback = 0;
    bool named = false;               // remove(m) finds it by its name (the latest post of the name)
    std::uint8_t pending = kNoOne;    // claimed by this thread's call, which may not have reached it yet
    std::uint16_t doomed = 0;         // bit per thread whose traversal skipped it: another must claim it
    std::int64_t when = 0, seq = 0;
    auto key() const { return std::tie(id, what, target, callback, named, pending, doomed, when, seq); }
    bool operator==(const Item& o) const { return key() == o.key(); }
    bool operator<(const Item& o) const { return key() < o.key(); }
    bool queued() const { return pending == kNoOne; }
  };
  struct World {
    std::vector<Item> items;  // in (when, seq) order (canonicalize); pending ones are no longer queued
    std::int64_t now = 0, seq = 0;
    auto key() const { return std::tie(items, now, seq); }
    bool operator==(const World& o) const { return key() == o.key(); }
    bool operator<(const World& o) const { return key() < o.key(); }
  };
  struct State {
    std::vector<World> worlds;  // sorted, distinct; one in every sequential run
    bool operator==(const State&) const = default;
  };
  static std::size_t hash(const State& s) {
    std::size_t h = s.worlds.size();
    for (const World& w : s.worlds) {
      h = h * 1000003u ^ std::hash<std::int64_t>{}(w.now) ^ (w.seq << 5);
      for (const Item& i : w.items)
        h = h * 31u ^ (i.id | i.pending << 8 | i.doomed << 16) ^ std::hash<std::int64_t>{}(i.when + i.seq);
    }
    return h;
  }

  static State initial() { return {{World{}}}; }

  // ---- the model ------------------------------------------------------------------
  static std::uint8_t name_of(std::uint8_t label, std::uint8_t tag) {
    return static_cast<std::uint8_t>(label * removal_spec::kNamedTags + tag);
  }
  static std::uint8_t id_of(const Call& c) { return static_cast<std::uint8_t>(c.thread * removal_spec::kTags + c.tag); }
  static bool matches(const Item& i, const Call& c) {
    switch (c.by) {
      case By::what: return i.what == c.what;
      case By::what_target: return i.what == c.what && i.target == c.target;
      case By::callback: return i.callback == c.callback;
    }
    return false;
  }
  // Before a call of thread t: no message that t's last traversal left doomed
  // may still be queued (setup calls: none at all), and t's pending claims have
  // happened (setup: every one).
  static bool settle(World& w, std::uint8_t t) {
    const bool setup = t == kSetupLabel;
    for (const Item& i : w.items)
      if (i.queued() && (setup ? i.doomed != 0 : (i.doomed >> t & 1))) return false;
    std::erase_if(w.items, [&](const Item& i) { return !i.queued() && (setup || i.pending == t); });
    return true;
  }
  static std::vector<std::size_t> queued_matching(const World& w, const Call& c) {
    std::vector<std::size_t> m;
    for (std::size_t i = 0; i < w.items.size(); ++i)
      if (w.items[i].queued() && matches(w.items[i], c)) m.push_back(i);
    return m;
  }
  // Claims items[i] for a call of thread t: gone at once for a setup call; else
  // pending until t's next call.
  static void claim(World& w, std::size_t i, std::uint8_t t) {
    if (t == kSetupLabel) {
      w.items.erase(w.items.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
    w.items[i].pending = t;
    w.items[i].doomed = 0;
  }

  // The atomic calls (everything but a concurrent traversal): the result, and w moves on.
  static Result atomic_call(World& w, const Call& c) {
    using namespace removal_spec;
    Result r{c.op};
    switch (c.op) {
      case Op::post: {
        Item it{id_of(c), c.what, c.target, c.callback};
        if (c.tag < kNamedTags) {  // the latest post of a name takes it
          for (Item& older : w.items)
            if (older.id == it.id) older.named = false;
          it.named = true;
        }
        it.when = c.when;
        it.seq = ++w.seq;
        w.items.push_back(it);
        r.v = 1;
        return r;
      }
      case Op::poll: {
        w.now = c.when;
        std::size_t best = w.items.size();
        for (std::size_t i = 0; i < w.items.size(); ++i) {
          const Item& it = w.items[i];
          if (!it.queued() || it.when > w.now) continue;
          if (best == w.items.size() || std::tie(it.when, it.seq) < std::tie(w.items[best].when, w.items[best].seq))
            best = i;
        }
        if (best == w.items.size()) return r;
        r.id = w.items[best].id;
        claim(w, best, c.thread);
        return r;
      }
      case Op::reclaim: return r;
      case Op::remove: {
        for (std::size_t i = 0; i < w.items.size(); ++i) {
          const Item& it = w.items[i];
          if (it.queued() && it.named && it.id == c.owner * kTags + c.tag) {
            w.items.erase(w.items.begin() + static_cast<std::ptrdiff_t>(i));  // one CAS: gone at once
            r.v = 1;
            return r;
          }
        }
        return r;
      }
      case Op::remove_messages: {
        const auto m = queued_matching(w, c);
        for (auto i = m.rbegin(); i != m.rend(); ++i) w.items.erase(w.items.begin() + static_cast<std::ptrdiff_t>(*i));
        r.v = static_cast<std::uint8_t>(m.size());
        return r;
      }
      case Op::has_messages:
        r.v = !queued_matching(w, c).empty();
        return r;
    }
    return r;
  }

  // The canonical form of a world, for the checker's memo: its items sorted by
  // (when, seq) and the seqs renumbered 1..n in that order, the counter at n. Only
  // the order of (when, seq) is ever observed (poll's choice; names and matches
  // do not depend on positions), and a new post still sorts after every queued
  // one of its `when`: so orders of concurrent posts that differ only in their
  // absolute seqs are one world, not k! of them.
  static void canonicalize(World& w) {
    std::sort(w.items.begin(), w.items.end(),
              [](const Item& a, const Item& b) { return std::tie(a.when, a.seq) < std::tie(b.when, b.seq); });
    std::int64_t n = 0;
    for (Item& it : w.items) it.seq = ++n;
    w.seq = n;
  }

  static Result apply(State& s, const Call& c) {
    // Sequential: one world, and no call leaves a doomed or pending message.
    World& w = s.worlds.front();
    settle(w, c.thread);
    const Result r = atomic_call(w, c);
    canonicalize(w);
    return r;
  }

  // Every world w can move to for call c with result `observed` (see the header).
  static void successors(World w, const Call& c, const Result& observed, std::vector<World>& out) {
    if (!settle(w, c.thread)) return;
    const bool traversal = c.op == Op::remove_messages || c.op == Op::has_messages;
    if (!traversal || c.thread == kSetupLabel) {
      if (atomic_call(w, c) == observed) out.push_back(std::move(w));
      return;
    }
    if (observed.op != c.op || observed.id != removal_spec::kNone) return;
    const auto m = queued_matching(w, c);
    const auto me = static_cast<std::uint16_t>(1u << c.thread);
    if (c.op == Op::has_messages) {
      if (observed.v) {
        // Seen: a queued one, or one another thread's call has claimed but may not have reached yet.
        const bool visible = !m.empty() || std::any_of(w.items.begin(), w.items.end(), [&](const Item& i) {
          return !i.queued() && i.pending != c.thread && matches(i, c);
        });
        if (visible) out.push_back(std::move(w));
        return;
      }
      for (std::size_t i : m) w.items[i].doomed |= me;  // each was claimed by someone else first
      out.push_back(std::move(w));
      return;
    }
    // remove_messages: it claimed `observed.v` of the queued matching ones; which, is not seen.
    const std::size_t n = observed.v;
    if (n > m.size()) return;
    std::vector<bool> pick(m.size(), false);
    std::fill(pick.begin(), pick.begin() + static_cast<std::ptrdiff_t>(n), true);
    do {
      World x = w;
      for (std::size_t k = 0; k < m.size(); ++k) {
        if (pick[k]) claim(x, m[k], c.thread);
        else x.items[m[k]].doomed |= me;
      }
      out.push_back(std::move(x));
    } while (std::prev_permutation(pick.begin(), pick.end()));
  }

  static bool step(State& s, const Call& c, const Result& observed) {
    std::vector<World> next;
    for (const World& w : s.worlds) successors(w, c, observed, next);
    for (World& w : next) canonicalize(w);
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    s.worlds = std::move(next);
    return !s.worlds.empty();
  }

  // ---- text -------------------------------------------------------------------------
  static std::string show_pred(const Call& c) {
    switch (c.by) {
      case By::what: return "what " + std::to_string(c.what);
      case By::what_target: return "what " + std::to_string(c.what) + ", target " + std::to_string(c.target);
      case By::callback: return "callback " + std::to_string(c.callback);
    }
    return "?";
  }
  static std::string show(const Call& c) {
    using namespace removal_spec;
    switch (c.op) {
      case Op::post: {
        std::string s = "post(" + show_id(id_of(c)) + " what " +
                        std::to_string(c.what) + " target " + std::to_string(c.target);
        if (c.callback) s += " callback " + std::to_string(c.callback);
        return s + " @" + show_time(c.when) + ")";
      }
      case Op::poll: return "poll(t=" + show_time(c.when) + ")";
      case Op::reclaim: return "reclaim()";
      case Op::remove: return "remove(" + show_id(static_cast<std::uint8_t>(c.owner * kTags + c.tag)) + ")";
      case Op::remove_messages: return "remove_messages(" + show_pred(c) + ")";
      case Op::has_messages: return "has_messages(" + show_pred(c) + ")";
    }
    return "?";
  }
  static std::string show(const Result& r) {
    switch (r.op) {
      case Op::post: return r.v ? "true" : "false";
      case Op::poll: return r.id == removal_spec::kNone ? "none" : removal_spec::show_id(r.id);
      case Op::reclaim: return "-";
      case Op::remove:
      case Op::has_messages: return r.v ? "true" : "false";
      case Op::remove_messages: return std::to_string(r.v);
    }
    return "?";
  }

  // ---- generation ---------------------------------------------------------------------
  static rc::Gen<Call> gen_call(spec::Slot slot) {
    using namespace removal_spec;
    const std::uint8_t me = slot.concurrent() ? static_cast<std::uint8_t>(slot.thread) : kSetupLabel;
    auto when = rc::gen::weightedOneOf<std::int64_t>(
        {{8, rc::gen::inRange<std::int64_t>(0, 4)},
         {1, rc::gen::elementOf(std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), 100,
                                                          std::numeric_limits<std::int64_t>::max()})}});
    auto post = rc::gen::apply(
        [me](std::uint8_t tag, std::uint8_t what, std::uint8_t target, std::uint8_t callback, std::int64_t w) {
          Call c{Op::post, me, tag};
          c.what = what;
          c.target = target;
          c.callback = callback;
          c.when = w;
          return c;
        },
        rc::gen::inRange<std::uint8_t>(0, kTags), rc::gen::inRange<std::uint8_t>(0, kWhats),
        rc::gen::inRange<std::uint8_t>(0, kTargets),
        rc::gen::weightedOneOf<std::uint8_t>({{2, rc::gen::just(std::uint8_t{0})},
                                              {1, rc::gen::inRange<std::uint8_t>(1, kCallbacks)}}),
        when);
    // remove names a message: mostly a prefix one (queued when the threads
    // run); in the parallel part only the prefix's or its own thread's (see the
    // header), elsewhere any.
    auto owner = slot.concurrent()
                     ? rc::gen::weightedOneOf<std::uint8_t>({{3, rc::gen::just(kSetupLabel)}, {1, rc::gen::just(me)}})
                     : rc::gen::weightedOneOf<std::uint8_t>({{3, rc::gen::just(kSetupLabel)},
                                                             {2, rc::gen::inRange<std::uint8_t>(0, 3)}});
    auto remove = rc::gen::apply(
        [me](std::uint8_t owner, std::uint8_t tag) {
          Call c{Op::remove, me, tag, owner};
          return c;
        },
        owner, rc::gen::inRange<std::uint8_t>(0, kNamedTags));
    auto traversal = [me](Op op) {
      return rc::gen::apply(
          [me, op](By by, std::uint8_t what, std::uint8_t target, std::uint8_t callback) {
            Call c{op, me};
            c.by = by;
            c.what = what;
            c.target = target;
            c.callback = callback;
            return c;
          },
          rc::gen::weightedOneOf<By>({{3, rc::gen::just(By::what)},
                                      {1, rc::gen::just(By::what_target)},
                                      {1, rc::gen::just(By::callback)}}),
          rc::gen::inRange<std::uint8_t>(0, kWhats), rc::gen::inRange<std::uint8_t>(0, kTargets),
          rc::gen::inRange<std::uint8_t>(1, kCallbacks));
    };
    if (!slot.owner())
      return rc::gen::weightedOneOf<Call>({{6, post},
                                           {2, remove},
                                           {2, traversal(Op::remove_messages)},
                                           {3, traversal(Op::has_messages)}});
    auto poll = rc::gen::map(rc::gen::inRange<std::int64_t>(0, 5), [me](std::int64_t t) {
      Call c{Op::poll, me};
      c.when = t;
      return c;
    });
    return rc::gen::weightedOneOf<Call>({{5, post},
                                         {2, remove},
                                         {2, traversal(Op::remove_messages)},
                                         {2, traversal(Op::has_messages)},
                                         {5, poll},
                                         {1, rc::gen::just(Call{Op::reclaim, me})}});
  }

  // lfcheck verify's alphabet (specs/spec.hpp): the other threads post (tag 2: a message
  // no remove() names, so it is freed when it comes back; what 0, due at once),
  // remove() the prefix's message s.0, and remove_messages and has_messages by what 0;
  // the owner, the Looper, polls at time 1 and reclaims; a prefix posts s.0 (what 0,
  // due at once: the one remove() names, kept alive) or s.2 (what 1, due at 1); a suffix
  // polls. Left out: the other predicates (what and target, callback), later whens,
  // removes of a thread's own messages, the owner's posts and traversals. No values:
  // remove() names a message by its tag, and only tags 0 and 1 can be named.
  static std::vector<Call> alphabet(spec::Slot slot) {
    const std::uint8_t me = slot.concurrent() ? static_cast<std::uint8_t>(slot.thread) : kSetupLabel;
    auto post = [me](std::uint8_t tag, std::uint8_t what, std::int64_t when) {
      Call c{Op::post, me, tag};
      c.what = what;
      c.when = when;
      return c;
    };
    Call poll{Op::poll, me};
    poll.when = 1;
    switch (slot.where) {
      case spec::Where::prefix: return {post(0, 0, 0), post(2, 1, 1)};
      case spec::Where::suffix: return {poll};
      default:
        if (slot.owner()) return {poll, Call{Op::reclaim, me}};
        return {post(2, 0, 0), Call{Op::remove, me, 0, kSetupLabel}, Call{Op::remove_messages, me},
                Call{Op::has_messages, me}};
    }
  }

  // A long history's calls (HistorySpec): every message due at once (when 0 or
  // INT64_MIN, polls at time 0), so the Looper's polls and the removals keep the
  // queue short; the other threads post at 0.6/others of their calls, so the one
  // Looper keeps up on average, and pacing (history_backlog) under any scheduling.
  static rc::Gen<Call> gen_history_call(spec::Slot slot) {
    using namespace removal_spec;
    const std::uint8_t me = slot.concurrent() ? static_cast<std::uint8_t>(slot.thread) : kSetupLabel;
    auto post = rc::gen::apply(
        [me](std::uint8_t tag, std::uint8_t what, std::uint8_t target, std::uint8_t callback, bool front) {
          Call c{Op::post, me, tag};
          c.what = what;
          c.target = target;
          c.callback = callback;
          c.when = front ? std::numeric_limits<std::int64_t>::min() : 0;
          return c;
        },
        rc::gen::inRange<std::uint8_t>(0, kTags), rc::gen::inRange<std::uint8_t>(0, kWhats),
        rc::gen::inRange<std::uint8_t>(0, kTargets), rc::gen::inRange<std::uint8_t>(0, kCallbacks),
        rc::gen::weightedOneOf<bool>({{6, rc::gen::just(false)}, {1, rc::gen::just(true)}}));
    // remove names a message of its own thread (the only names it may use in
    // the parallel part that are not the prefix's, and a history has no prefix).
    auto remove = rc::gen::map(rc::gen::inRange<std::uint8_t>(0, kNamedTags),
                               [me](std::uint8_t tag) { return Call{Op::remove, me, tag, me}; });
    auto traversal = [me](Op op) {
      return rc::gen::apply(
          [me, op](By by, std::uint8_t what, std::uint8_t target, std::uint8_t callback) {
            Call c{op, me};
            c.by = by;
            c.what = what;
            c.target = target;
            c.callback = callback;
            return c;
          },
          rc::gen::weightedOneOf<By>({{3, rc::gen::just(By::what)},
                                      {1, rc::gen::just(By::what_target)},
                                      {1, rc::gen::just(By::callback)}}),
          rc::gen::inRange<std::uint8_t>(0, kWhats), rc::gen::inRange<std::uint8_t>(0, kTargets),
          rc::gen::inRange<std::uint8_t>(1, kCallbacks));
    };
    if (!slot.owner()) {
      const unsigned others = slot.threads > 1 ? slot.threads - 1 : 1;
      return rc::gen::weightedOneOf<Call>({{6, post},
                                           {1, remove},
                                           {1, traversal(Op::remove_messages)},
                                           {2, traversal(Op::has_messages)},
                                           {10 * others - 6, rc::gen::just(Call{Op::has_messages, me})}});
    }
    Call poll{Op::poll, me};
    poll.when = 0;
    return rc::gen::weightedOneOf<Call>({{1, post},
                                         {8, rc::gen::just(poll)},
                                         {1, rc::gen::just(Call{Op::reclaim, me})},
                                         {1, traversal(Op::has_messages)}});
  }

  // ---- the structure -----------------------------------------------------------------
  // Messages come from the pool. The Looper recycles what it delivers and takes
  // back what reclamation hands it (the contract when traversals run:
  // deliqueue.hpp "Removal"); a message comes back to the pool then, and is
  // freed at once unless remove(m) may still name it (tags 0 and 1: kept alive,
  // as its owner must, until the Subject is destroyed).
  template <class Sync, Fault F, class Pool>
  struct QueueSubject {
    using Queue = DeliQueue<Sync, DeliFault::none, VirtualClock<Sync>, F>;
    using Msg = Message<Sync>;
    Pool pool;  // before q: see message_pool.hpp
    Queue q;
    // Named messages (the latest post of each name), written by the posting
    // thread only (release), read by remove (acquire: it then sees the
    // message's payload and push).
    typename Sync::template atomic<Msg*> named[removal_spec::kNames];
    char target_objects[removal_spec::kTargets] = {};  // what targets point at (never read)

    static void callback_1(Msg& m) { m.arg.store(-1); }  // distinct bodies: distinct addresses
    static void callback_2(Msg& m) { m.arg.store(-2); }
    static typename Msg::Fn callback(std::uint8_t k) { return k == 1 ? &callback_1 : k == 2 ? &callback_2 : nullptr; }
    void* target(std::uint8_t k) { return &target_objects[k]; }

    // Looper only: how many times each slot's message was delivered.
    std::uint8_t delivered[Pool::kSlots] = {};

    QueueSubject() {
      // The Sync contract gives atomics no initial value: null is "no message of
      // that name yet". Relaxed: before any thread of the scenario starts.
      for (auto& n : named) n.store(nullptr, std::memory_order_relaxed);
    }

    // The Looper takes back what reclamation finished, checking the hand-back
    // contract on the way: a removed message (removed bit set) was never
    // delivered, a recycled one was delivered once, none comes back twice.
    void take_back() {
      for (Msg* r = q.take_reclaimed(); r;) {
        Msg* const after = r->free_next.load(std::memory_order_relaxed);  // ours now
        Sync::check(!r->in_use(), "a reclaimed message is still marked in use");
        // Relaxed: handed back to this thread by take_reclaimed.
        const bool removed = r->flags.load(std::memory_order_relaxed) & msg_flags::removed;
        const std::uint8_t times = delivered[pool.slot_of(r)];
        Sync::check(removed ? times == 0 : times == 1,
                    removed ? "a message was both delivered and removed" : "a recycled message was not delivered once");
        pool.give_back(r);
        r = after;
      }
    }

    Result run(const Call& c, unsigned /*thread*/) {
      using namespace removal_spec;
      Result r{c.op};
      switch (c.op) {
        case Op::post: {
          const bool nameable = c.tag < kNamedTags;
          Msg* m = pool.take(c.thread, id_of(c), nameable);
          m->what.store(c.what);
          m->target.store(target(c.target));
          m->callback.store(callback(c.callback));
          r.v = q.enqueue(m, c.when);
          if (!r.v) {
            pool.free_now(m);
            return r;
          }
          // Release: pairs with remove's acquire load.
          if (nameable) named[name_of(c.thread, c.tag)].store(m, std::memory_order_release);
          return r;
        }
        case Op::poll:
          q.advance_clock(c.when);
          if (Msg* m = q.poll()) {
            Sync::check(!m->in_use(), "a delivered message is still marked in use");
            r.id = static_cast<std::uint8_t>(pool.id_of(m));
            ++delivered[pool.slot_of(m)];
            q.recycle(m);
          }
          take_back();
          return r;
        case Op::reclaim:
          take_back();
          return r;
        case Op::remove: {
          // Acquire: pairs with the poster's release store (nullptr: not posted yet).
          Msg* m = named[name_of(c.owner, c.tag)].load(std::memory_order_acquire);
          r.v = m && q.remove(m);
          return r;
        }
        case Op::remove_messages:
        case Op::has_messages: {
          const bool remove = c.op == Op::remove_messages;
          std::size_t n = 0;
          switch (c.by) {
            case By::what:
              n = remove ? q.remove_messages(std::int32_t{c.what}) : q.has_messages(std::int32_t{c.what});
              break;
            case By::what_target:
              n = remove ? q.remove_messages(std::int32_t{c.what}, target(c.target))
                         : q.has_messages(std::int32_t{c.what}, target(c.target));
              break;
            case By::callback:
              n = remove ? q.remove_callbacks(callback(c.callback)) : q.has_callbacks(callback(c.callback));
              break;
          }
          r.v = static_cast<std::uint8_t>(std::min<std::size_t>(n, 255));
          return r;
        }
      }
      return r;
    }
    const char* check_invariants() const { return q.check_invariants(); }
  };
};

// The spec for a Subject whose pool holds `PerThread` posts for each of `Threads`
// parallel threads and `SetupSlots` for the prefix, suffix and props.
template <unsigned Threads, unsigned PerThread, unsigned SetupSlots, bool LongHistory = false>
struct RemovalSpecOf : RemovalModel {
  template <class Sync>
  using Pool = MessagePool<Message<Sync>, Sync, Threads, PerThread, SetupSlots>;
  static rc::Gen<Call> gen_call(spec::Slot slot) {
    return LongHistory ? gen_history_call(slot) : RemovalModel::gen_call(slot);
  }
  template <class Sync, Fault F>
  struct Subject : QueueSubject<Sync, F, Pool<Sync>> {};
  // lin.history: 10,000 calls from up to 15 threads (harness/lin/stress.hpp).
  using HistorySpec = RemovalSpecOf<kSetupLabel, 10000, 0, true>;
  // Its pacing (harness/lin/history_pacing.hpp; lin.history only), as DeliQueue's
  // (specs/deliqueue_spec.hpp): a poster waits while 16 messages are queued.
  static constexpr long history_backlog = 16;
  static bool fills(const Call& c) { return c.op == Op::post; }
  static bool drains(const Call& c) { return c.op == Op::poll; }
  static int backlog_change(const Call& c, const Result& r) {
    switch (c.op) {
      case Op::post: return r.v ? 1 : 0;                               // queued
      case Op::poll: return r.id != removal_spec::kNone ? -1 : 0;      // delivered
      case Op::remove: return r.v ? -1 : 0;                            // claimed
      case Op::remove_messages: return -static_cast<int>(r.v);         // claimed, this many
      default: return 0;
    }
  }
};

// Scenarios (3 threads x <= 8 calls, prefix + suffix <= 8) and props sequences.
using RemovalSpec = RemovalSpecOf<3, 16, 240>;

}  // namespace lfcheck::specs
