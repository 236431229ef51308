// DeliQueue's sequential spec (see specs/spec.hpp for the shape): posts, posts at
// front, sync barriers, quit, and the Looper's poll at a virtual time.
//
// Model: a priority queue of messages ordered by (when, insertSeq): insertSeq
// counts up for ordinary posts and barriers (FIFO among equal `when`) and down
// for post_at_front (when = INT64_MIN: LIFO among them, before everything). The
// Looper's poll delivers the head if it is due (when <= now); while a sync
// barrier is at the head only async messages pass it (the earliest async one).
// quit(safe) stops every later post (refused, the message untouched) and fixes
// the quit time (the clock at quit); the first poll after it drops what is due
// after that time (safe) or everything (unsafe), then delivers what is due,
// then, once nothing due is left, drops the rest. Dropped messages are reported
// (take_discarded: the poll's result lists them); barriers are freed silently.
// Everything deliqueue.hpp promises about results, in one place:
//   post / post_at_front      true, or false once quit has been linearized (and
//                             then the message is left untouched: in_use clear,
//                             `when` and `next` as they were)
//   barrier(when)             its token (never 0, never returned before), or 0
//                             after quit
//   remove_barrier(b)         removed iff barrier b is queued (not removed, not
//                             dropped by quit)
//   poll([t])                 the message above, and the messages quit dropped
//   peek()                    the message poll would deliver next (due or not)
//   is_idle()                 whether nothing is due
//   quit(safe)                true the first time, false after
//   now()                     the clock (any thread)
// Messages are named m<thread>.<tag> (the thread that posted them, "s" for the
// prefix/suffix/props thread), barriers b<thread>.<tag>; a remove_barrier names
// the barrier by the latest post of that name (the Subject keeps its token). In
// the parallel part it names only barriers its own thread or the prefix posted:
// the Subject learns a token when post_sync_barrier_at returns, after the push,
// so a barrier of another thread could be queued (and seen, e.g. by a
// delivery it holds back) while its token is not known yet — a lag of the
// Subject's bookkeeping, not of the queue. (The latest post of a name is decided
// by its poster's own program order: no other thread races it.)
//
// Owner-only (the Looper; generated for thread 0 of the parallel part and for
// the non-parallel slots): poll, peek, is_idle, remove_barrier. Any thread: the posts,
// barriers, now and quit. The clock moves only where no call runs concurrently
// (poll(t) in the prefix, suffix and props): quit() reads the clock before it
// pushes its sentinel (deliqueue.hpp, quit(): `sentinel_.when.store(clock_.now())`
// before `link_top`), so with the clock moving at the same time the quit time
// would be any clock value of quit's interval (and poll(t) sets the clock before
// its sweep: a concurrent now() could see t before the poll takes effect); a
// parallel poll() keeps the time.
//
// Concurrent allowance (step): barrier tokens. post_sync_barrier_at draws its
// token with a relaxed fetch_add before its push ("only uniqueness matters"),
// so under concurrency tokens do not follow the order the barriers are
// linearized in (their pushes): step() accepts any token that is non-zero and
// not handed out before; apply() (the sequential props) requires exactly the
// next one. Nothing else is relaxed: a poll takes effect at its last sweep (the
// acquire load of the top), a post at its push, quit at its sentinel push; only
// the Looper claims, so no other thread can observe a message between the
// Looper's sweep and its claim.
//
// Long histories (lin.history: 10,000 calls from up to 15 threads, real-time
// order) use HistorySpec: the same model with a bigger message pool, and calls
// that keep a long history meaningful and its queue short (gen_history_call):
// no quit (it would refuse everything after it), no barriers (one only its
// poster can name would hold sync messages back for good), every message due
// at once, and posts from the other threads at a rate the one Looper keeps up
// with on average; pacing (HistorySpec's history_backlog) keeps it short under
// any scheduling. Scenarios cover quit, barriers and time.
//
// Not covered: next()/next_until() that park (a generated scenario has no
// guaranteed waker: a parked Looper would hang, not fail; the wake protocol has
// its own model scenarios and props), the on_dropped callback (props), the wake
// resource's teardown (model scenarios), removal (specs/removal_spec.hpp).
// No partition: every poll's result depends on every queued message.
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

namespace deli_spec {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::uint8_t kTags = 16;        // message tags per thread: id = label * kTags + tag
constexpr std::uint8_t kBarrierTags = 2;  // barrier tags per thread: name = label * kBarrierTags + tag
constexpr unsigned kNames = (kSetupLabel + 1) * kBarrierTags;
constexpr std::uint16_t kNone = 0xFFFF;   // no message
constexpr unsigned kMaxDropped = 32;

inline std::uint8_t label_of(spec::Slot slot) {
  return slot.concurrent() ? static_cast<std::uint8_t>(slot.thread) : kSetupLabel;
}
inline std::string show_label(unsigned label) { return label == kSetupLabel ? "s" : std::to_string(label); }
inline std::string show_id(std::uint16_t id) {
  return "m" + show_label(id / kTags) + "." + std::to_string(id % kTags);
}
// Times for posts, barriers and polls: small ones (due or not), and the int64
// extremes where a subtracting comparator overflows.
inline rc::Gen<std::int64_t> gen_time() {
  return rc::gen::weightedOneOf<std::int64_t>(
      {{6, rc::gen::inRange<std::int64_t>(-2, 5)},
       {2, rc::gen::elementOf(std::vector<std::int64_t>{kMin, kMin + 1, -1, 0, kMax - 1, kMax})}});
}

}  // namespace deli_spec

// The model, the calls and their text: everything but the Subject's sizes.
struct DeliQueueModel {
  static constexpr const char* name = "deliqueue";
  using Fault = DeliFault;

  enum class Op : std::uint8_t { post, post_at_front, barrier, remove_barrier, poll, peek, idle, now, quit };

  struct Call {
    Op op = Op::poll;
    std::uint8_t thread = kSetupLabel;  // the label of the thread it is generated for
    std::uint8_t tag = 0;    // post/post_at_front/barrier: the new message's tag; remove_barrier: the barrier's
    std::uint8_t owner = 0;  // remove_barrier: the label of the thread that posted the barrier
    bool async = false;      // post, post_at_front
    bool flag = false;       // quit: safe; poll: move the clock to `when` first
    std::int64_t when = 0;   // post, barrier: when; poll: the time (if flag)
  };

  struct Result {
    Op op = Op::poll;
    std::uint8_t ok = 0;  // post: 1 accepted, 0 refused, 2 refused but touched; quit: 1 true;
                          // remove_barrier: 1 removed; idle: 1 idle
    std::uint16_t id = deli_spec::kNone;  // poll: delivered; peek: the candidate
    std::uint16_t n_dropped = 0;          // poll: how many quit dropped (ids: the first kMaxDropped, sorted)
    std::uint16_t dropped[deli_spec::kMaxDropped] = {};
    std::uint64_t token = 0;             // barrier
    std::int64_t time = 0;               // now
    bool operator==(const Result&) const = default;
  };

  struct Item {
    std::uint16_t id = 0;  // message id, or barrier name (label * kBarrierTags + tag)
    bool async = false, barrier = false, named = false;  // named: the barrier remove_barrier finds by its name
    std::int64_t when = 0, seq = 0;
    auto key() const { return std::tie(id, async, barrier, named, when, seq); }
    bool operator==(const Item& o) const { return key() == o.key(); }
  };

  struct State {
    std::vector<Item> items;  // queued, in (when, seq) order (canonicalize)
    std::int64_t now = 0, seq = 0, front = 0;
    std::uint64_t tokens = 0;                // apply: tokens handed out (the next one is tokens + 1)
    std::vector<std::uint64_t> used_tokens;  // step: the tokens handed out, sorted
    bool quitting = false, quit_safe = false, processed = false;
    std::int64_t quit_when = 0;
    bool operator==(const State&) const = default;
  };
  static std::size_t hash(const State& s) {
    std::size_t h = std::hash<std::int64_t>{}(s.now) ^ (s.seq * 31) ^ (s.front * 131) ^ (s.tokens * 7) ^
                    (s.used_tokens.size() * 1000003u) ^ (s.quitting * 2 + s.quit_safe * 4 + s.processed * 8);
    for (const Item& i : s.items) h = h * 1000003u ^ (i.id + 256u * i.barrier) ^ std::hash<std::int64_t>{}(i.when) ^ (i.seq << 7);
    return h;
  }

  static State initial() { return {}; }

  // ---- the model ------------------------------------------------------------------
  static bool before(const Item& a, const Item& b) { return std::tie(a.when, a.seq) < std::tie(b.when, b.seq); }
  // What poll would deliver next, due or not: the head, or behind a barrier at
  // the head the earliest async message. -1: nothing.
  static int candidate(const State& s) {
    int head = -1;
    for (int i = 0; i < int(s.items.size()); ++i)
      if (head < 0 || before(s.items[i], s.items[head])) head = i;
    if (head < 0 || !s.items[head].barrier) return head;
    int a = -1;
    for (int i = 0; i < int(s.items.size()); ++i)
      if (s.items[i].async && !s.items[i].barrier && (a < 0 || before(s.items[i], s.items[a]))) a = i;
    return a;
  }
  // Drops what the rule says (all, or for a safe quit what is due after the
  // quit time), listing the dropped messages (not barriers) in r.
  static void drop(State& s, bool all, std::vector<std::uint16_t>& ids) {
    std::vector<Item> keep;
    for (const Item& it : s.items) {
      if (all || !s.quit_safe || it.when > s.quit_when) {
        if (!it.barrier) ids.push_back(it.id);
      } else {
        keep.push_back(it);
      }
    }
    s.items = std::move(keep);
  }
  static void list_dropped(std::vector<std::uint16_t>& ids, Result& r) {
    std::sort(ids.begin(), ids.end());
    r.n_dropped = static_cast<std::uint16_t>(std::min<std::size_t>(ids.size(), 0xFFFF));
    for (std::size_t i = 0; i < ids.size() && i < deli_spec::kMaxDropped; ++i) r.dropped[i] = ids[i];
  }
  static std::uint16_t message_id(const Call& c) { return static_cast<std::uint16_t>(c.thread * deli_spec::kTags + c.tag); }
  static bool post(State& s, std::uint16_t id, std::int64_t when, bool async, bool front) {
    if (s.quitting) return false;
    s.items.push_back({id, async, false, false, front ? kWhenFront : when, front ? --s.front : ++s.seq});
    return true;
  }
  static std::uint16_t barrier_name(std::uint8_t label, std::uint8_t tag) {
    return static_cast<std::uint16_t>(label * deli_spec::kBarrierTags + tag);
  }
  // A name means its latest accepted post: an older barrier of that name loses it.
  static void post_barrier(State& s, const Call& c) {
    const std::uint16_t name = barrier_name(c.thread, c.tag);
    for (Item& it : s.items)
      if (it.barrier && it.id == name) it.named = false;
    s.items.push_back({name, false, true, true, c.when, ++s.seq});
  }

  // The canonical form of a state, for the checker's memo (Lowe's cache of
  // linearized set x state): the items sorted by (when, seq), and the seqs
  // renumbered densely in that order, front posts' from -1 down and the others'
  // from 1 up, with the counters at the extremes. Only the order of (when, seq)
  // is ever observed (before(), candidate(); drop() lists ids sorted), and a new
  // post still sorts after every queued one of its `when` (before every front
  // post for a front post): so two orders of concurrent posts with different
  // `when`s, which differ only in their absolute seqs, are one state. Without
  // it, k concurrent posts made k! states that the memo could not merge.
  static void canonicalize(State& s) {
    std::sort(s.items.begin(), s.items.end(), before);
    std::int64_t fronts = 0, others = 0;
    for (const Item& it : s.items) (it.seq < 0 ? fronts : others) += 1;
    std::int64_t f = -fronts, o = 0;
    for (Item& it : s.items) it.seq = it.seq < 0 ? f++ : ++o;
    s.front = -fronts;
    s.seq = others;
  }

  static Result apply(State& s, const Call& c) {
    Result r = apply_raw(s, c);
    canonicalize(s);
    return r;
  }
  static Result apply_raw(State& s, const Call& c) {
    Result r{c.op};
    switch (c.op) {
      case Op::post:
      case Op::post_at_front:
        r.ok = post(s, message_id(c), c.when, c.async, c.op == Op::post_at_front);
        return r;
      case Op::barrier:
        // Tokens count every call, refused ones too (the fetch_add comes first).
        ++s.tokens;
        if (s.quitting) return r;
        r.token = s.tokens;
        post_barrier(s, c);
        return r;
      case Op::remove_barrier: {
        const std::uint16_t name = barrier_name(c.owner, c.tag);
        for (auto it = s.items.begin(); it != s.items.end(); ++it)
          if (it->barrier && it->named && it->id == name) {
            s.items.erase(it);
            r.ok = 1;
            break;
          }
        return r;
      }
      case Op::poll: {
        if (c.flag) s.now = c.when;
        std::vector<std::uint16_t> ids;
        if (s.quitting && !s.processed) {
          drop(s, false, ids);
          s.processed = true;
        }
        const int i = candidate(s);
        if (i >= 0 && s.items[i].when <= s.now) {
          r.id = s.items[i].id;
          s.items.erase(s.items.begin() + i);
        } else if (s.quitting) {
          drop(s, true, ids);
        }
        list_dropped(ids, r);
        return r;
      }
      case Op::peek: {
        const int i = candidate(s);
        r.id = i < 0 ? deli_spec::kNone : s.items[i].id;
        return r;
      }
      case Op::idle: {
        const int i = candidate(s);
        r.ok = i < 0 || s.items[i].when > s.now;
        return r;
      }
      case Op::now:
        r.time = s.now;
        return r;
      case Op::quit:
        if (s.quitting) return r;
        s.quitting = true;
        s.quit_safe = c.flag;
        s.quit_when = s.now;
        r.ok = 1;
        return r;
    }
    return r;
  }

  // The concurrent model: apply, except that a barrier's token is any fresh one
  // (see the header comment).
  static bool step(State& s, const Call& c, const Result& observed) {
    if (c.op != Op::barrier) return apply(s, c) == observed;
    if (observed.op != Op::barrier) return false;
    if (s.quitting) return observed.token == 0;
    const std::uint64_t t = observed.token;
    const auto at = std::lower_bound(s.used_tokens.begin(), s.used_tokens.end(), t);
    if (t == 0 || (at != s.used_tokens.end() && *at == t)) return false;
    s.used_tokens.insert(at, t);
    post_barrier(s, c);
    canonicalize(s);
    return true;
  }

  // ---- text -------------------------------------------------------------------------
  static std::string show(const Call& c) {
    using namespace deli_spec;
    const std::string id = show_id(message_id(c));
    switch (c.op) {
      case Op::post: return "post(" + id + " @" + show_time(c.when) + (c.async ? " async)" : ")");
      case Op::post_at_front: return "post_at_front(" + id + (c.async ? " async)" : ")");
      case Op::barrier: return "barrier(b" + show_label(c.thread) + "." + std::to_string(c.tag) + " @" + show_time(c.when) + ")";
      case Op::remove_barrier: return "remove_barrier(b" + show_label(c.owner) + "." + std::to_string(c.tag) + ")";
      case Op::poll: return c.flag ? "poll(t=" + show_time(c.when) + ")" : "poll()";
      case Op::peek: return "peek()";
      case Op::idle: return "is_idle()";
      case Op::now: return "now()";
      case Op::quit: return c.flag ? "quit(safe)" : "quit(unsafe)";
    }
    return "?";
  }
  static std::string show(const Result& r) {
    using namespace deli_spec;
    switch (r.op) {
      case Op::post:
      case Op::post_at_front: return r.ok == 1 ? "true" : r.ok == 0 ? "false" : "false, but the message was touched";
      case Op::barrier: return r.token ? "token " + std::to_string(r.token) : "0 (refused)";
      case Op::remove_barrier: return r.ok ? "removed" : "unknown_token";
      case Op::poll: {
        std::string s = r.id == kNone ? "none" : show_id(r.id);
        if (r.n_dropped) {
          s += ", dropped [";
          for (unsigned i = 0; i < r.n_dropped && i < kMaxDropped; ++i) s += (i ? " " : "") + show_id(r.dropped[i]);
          if (r.n_dropped > kMaxDropped) s += " ... " + std::to_string(r.n_dropped) + " in all";
          s += "]";
        }
        return s;
      }
      case Op::peek: return r.id == kNone ? std::string("none") : show_id(r.id);
      case Op::idle: return r.ok ? "true" : "false";
      case Op::now: return show_time(r.time);
      case Op::quit: return r.ok ? "true" : "false";
    }
    return "?";
  }

  // ---- generation ---------------------------------------------------------------------
  // long_history: HistorySpec's calls (see the header).
  static rc::Gen<Call> gen_call_for(spec::Slot slot, bool long_history) {
    using namespace deli_spec;
    if (long_history) return gen_history_call(slot);
    const std::uint8_t me = label_of(slot);
    auto tag = rc::gen::inRange<std::uint8_t>(0, kTags);
    auto async = rc::gen::weightedOneOf<bool>({{3, rc::gen::just(false)}, {1, rc::gen::just(true)}});
    auto post = rc::gen::apply(
        [me](std::uint8_t t, std::int64_t w, bool a) {
          Call c{Op::post, me, t};
          c.when = w;
          c.async = a;
          return c;
        },
        tag, gen_time(), async);
    auto front = rc::gen::apply(
        [me](std::uint8_t t, bool a) {
          Call c{Op::post_at_front, me, t};
          c.async = a;
          return c;
        },
        tag, async);
    auto barrier = rc::gen::apply(
        [me](std::uint8_t t, std::int64_t w) {
          Call c{Op::barrier, me, t};
          c.when = w;
          return c;
        },
        rc::gen::inRange<std::uint8_t>(0, kBarrierTags), gen_time());
    auto quit = rc::gen::map(rc::gen::arbitrary<bool>(), [me](bool safe) {
      Call c{Op::quit, me};
      c.flag = safe;
      return c;
    });
    auto now = rc::gen::just(Call{Op::now, me});
    if (!slot.owner())
      return rc::gen::weightedOneOf<Call>({{8, post}, {2, front}, {2, barrier}, {1, now}, {1, quit}});
    // Owner: the Looper's calls too. A barrier is removed by its name: in the
    // parallel part one of the owner's own or a prefix one (see name_visible),
    // elsewhere any.
    auto owner = slot.concurrent() ? rc::gen::elementOf(std::vector<std::uint8_t>{me, kSetupLabel})
                                   : rc::gen::elementOf(std::vector<std::uint8_t>{0, 1, 2, kSetupLabel});
    auto remove_barrier = rc::gen::apply(
        [me](std::uint8_t owner, std::uint8_t t) {
          Call c{Op::remove_barrier, me, t, owner};
          return c;
        },
        owner, rc::gen::inRange<std::uint8_t>(0, kBarrierTags));
    // The clock moves only where nothing reads it concurrently (quit, now).
    const bool timed = !slot.concurrent();
    auto poll = rc::gen::map(gen_time(), [me, timed](std::int64_t t) {
      Call c{Op::poll, me};
      c.flag = timed;
      c.when = timed ? t : 0;
      return c;
    });
    return rc::gen::weightedOneOf<Call>({{6, post},
                                         {1, front},
                                         {2, barrier},
                                         {2, remove_barrier},
                                         {6, poll},
                                         {1, rc::gen::just(Call{Op::peek, me})},
                                         {1, rc::gen::just(Call{Op::idle, me})},
                                         {1, now},
                                         {1, quit}});
  }

  // lfcheck verify's alphabet (specs/spec.hpp): the other threads post (due at once),
  // post barriers and quit safely; the owner, the Looper, polls and posts; a prefix posts
  // (due at once, at the front, due only once the clock reaches 5, or at INT64_MAX, never
  // due: beside a front post, at INT64_MIN, the comparator's extremes) and posts a
  // barrier; a suffix moves the clock to 5 and polls. Left out: peek, is_idle, now
  // (reads of what poll shows), remove_barrier, async posts, unsafe quits, the other
  // times (the generated scenarios and the props have them). A post carries a
  // value, its message's tag (value_of: verify gives each post a message of its own;
  // the queue never looks at which message it holds).
  static std::vector<Call> alphabet(spec::Slot slot) {
    const std::uint8_t me = deli_spec::label_of(slot);
    auto call = [me](Op op, std::int64_t when = 0, bool flag = false) {
      Call c{op, me, 0};
      c.when = when;
      c.flag = flag;
      return c;
    };
    switch (slot.where) {
      case spec::Where::prefix:
        return {call(Op::post), call(Op::post_at_front), call(Op::post, 5), call(Op::post, deli_spec::kMax),
                call(Op::barrier)};
      case spec::Where::suffix: return {call(Op::poll, 5, true)};
      default:
        if (slot.owner()) return {call(Op::poll), call(Op::post)};
        return {call(Op::post), call(Op::barrier), call(Op::quit, 0, true)};
    }
  }
  static unsigned value_of(const Call& c) {
    return c.op == Op::post || c.op == Op::post_at_front ? c.tag + 1u : 0u;
  }
  // (A thread has kTags tags: past them value_of does not give v back, and verify refuses.)
  static Call with_value(Call c, std::uint32_t v) {
    c.tag = static_cast<std::uint8_t>(std::min<unsigned>(v, deli_spec::kTags) - 1);
    return c;
  }

  // A long history's calls: every message due at once (when <= 0, the clock stays
  // at 0), so the Looper's polls keep the queue short; the other threads post at
  // a rate that, summed over them, stays below the Looper's poll rate (one Looper
  // drains n - 1 posters), and read the clock (now: 0) otherwise.
  static rc::Gen<Call> gen_history_call(spec::Slot slot) {
    using namespace deli_spec;
    const std::uint8_t me = label_of(slot);
    auto when = rc::gen::elementOf(std::vector<std::int64_t>{kMin, kMin + 1, -2, -1, 0});
    auto post = rc::gen::apply(
        [me](std::uint8_t t, std::int64_t w, bool a, bool front) {
          Call c{front ? Op::post_at_front : Op::post, me, t};
          c.when = front ? 0 : w;
          c.async = a;
          return c;
        },
        rc::gen::inRange<std::uint8_t>(0, kTags), when, rc::gen::arbitrary<bool>(),
        rc::gen::weightedOneOf<bool>({{4, rc::gen::just(false)}, {1, rc::gen::just(true)}}));
    auto now = rc::gen::just(Call{Op::now, me});
    if (!slot.owner()) {
      const unsigned others = slot.threads > 1 ? slot.threads - 1 : 1;
      return rc::gen::weightedOneOf<Call>({{6, post}, {10 * others - 6 + 1, now}});  // posts: 0.6/others
    }
    return rc::gen::weightedOneOf<Call>({{1, post},
                                         {8, rc::gen::just(Call{Op::poll, me})},  // untimed: the clock stays at 0
                                         {1, rc::gen::just(Call{Op::peek, me})},
                                         {1, rc::gen::just(Call{Op::idle, me})}});
  }

  // ---- the structure -----------------------------------------------------------------
  // The calls on any queue with DeliQueue's API (DeliQueue, LockedMessageQueue).
  // Messages come from the pool and go back to it when the queue hands them back:
  // delivered and dropped ones at once (no traversal runs here, so the contract
  // lets the caller free them immediately), refused ones at once (they are
  // untouched), the rest when the Subject is destroyed.
  template <class Queue, class Sync, class Pool>
  struct QueueSubject {
    using Msg = Message<Sync>;
    Pool pool;        // before q: see message_pool.hpp
    mutable Queue q;  // mutable: LockedMessageQueue's check_invariants locks
    // Barrier tokens by name (the latest accepted post of each), written by the
    // posting thread only (release), read by remove_barrier (acquire: it then
    // sees the barrier's push).
    typename Sync::template atomic<std::uint64_t> tokens[deli_spec::kNames];

    QueueSubject() {
      // The Sync contract gives atomics no initial value: 0 is "no barrier of
      // that name yet". Relaxed: before any thread of the scenario starts.
      for (auto& t : tokens) t.store(0, std::memory_order_relaxed);
    }

    Result run(const Call& c, unsigned /*thread*/) {
      Result r{c.op};
      switch (c.op) {
        case Op::post:
        case Op::post_at_front: {
          const std::uint16_t id = message_id(c);
          Msg* m = pool.take(c.thread, id);
          m->what.store(id);
          m->set_async(c.async);
          const bool ok = c.op == Op::post ? q.enqueue(m, c.when) : q.enqueue_at_front(m);
          if (ok) {
            r.ok = 1;
            return r;
          }
          // Refused: the message must be as it was (relaxed: it never left this thread).
          const bool touched = m->in_use() || m->when.load() != 0 || m->next.load(std::memory_order_relaxed) != nullptr;
          r.ok = touched ? 2 : 0;
          pool.free_now(m);
          return r;
        }
        case Op::barrier: {
          r.token = q.post_sync_barrier_at(c.when);
          // Release: pairs with remove_barrier's acquire load.
          if (r.token) tokens[barrier_name(c.thread, c.tag)].store(r.token, std::memory_order_release);
          return r;
        }
        case Op::remove_barrier: {
          // Acquire: pairs with the poster's release store (token 0: never posted).
          const std::uint64_t t = tokens[barrier_name(c.owner, c.tag)].load(std::memory_order_acquire);
          r.ok = q.remove_sync_barrier(t) == BarrierRemoval::removed;
          return r;
        }
        case Op::poll: {
          if (c.flag) q.advance_clock(c.when);
          if (Msg* m = q.poll()) {
            Sync::check(!m->in_use(), "a delivered message is still marked in use");
            r.id = pool.id_of(m);
            pool.free_now(m);
          }
          std::vector<std::uint16_t> ids;
          for (Msg* d = q.take_discarded(); d;) {
            Msg* const after = d->free_next.load(std::memory_order_relaxed);  // ours now
            Sync::check(!d->in_use(), "a dropped message is still marked in use");
            ids.push_back(pool.id_of(d));
            pool.free_now(d);
            d = after;
          }
          list_dropped(ids, r);
          return r;
        }
        case Op::peek: {
          Msg* m = q.peek();
          r.id = m ? pool.id_of(m) : deli_spec::kNone;
          return r;
        }
        case Op::idle:
          r.ok = q.is_idle();
          return r;
        case Op::now:
          r.time = q.now();
          return r;
        case Op::quit:
          r.ok = q.quit(c.flag);
          return r;
      }
      return r;
    }
    const char* check_invariants() const { return q.check_invariants(); }
  };

};

// The spec for a Subject whose pool holds `PerThread` posts for each of `Threads`
// parallel threads and `SetupSlots` for the prefix, suffix and props.
template <unsigned Threads, unsigned PerThread, unsigned SetupSlots, bool LongHistory>
struct DeliQueueSpecOf : DeliQueueModel {
  template <class Sync>
  using Pool = MessagePool<Message<Sync>, Sync, Threads, PerThread, SetupSlots>;
  static rc::Gen<Call> gen_call(spec::Slot slot) { return gen_call_for(slot, LongHistory); }
  template <class Sync, Fault F>
  struct Subject : QueueSubject<DeliQueue<Sync, F, VirtualClock<Sync>>, Sync, Pool<Sync>> {};
  // lin.history: 10,000 calls from up to 15 threads (harness/lin/stress.hpp).
  using HistorySpec = DeliQueueSpecOf<kSetupLabel, 10000, 0, true>;
  // Its pacing (harness/lin/history_pacing.hpp; lin.history only). The rates of
  // gen_history_call alone do not keep the queue short: the posters run their
  // calls in bursts (2,500 fit in one time slice on 2 cores), so unpaced the queue
  // reached ~900 messages while the Looper was off the CPU, every search node
  // copied a 22 KB state, and a history ran past the checker's 60 s budget
  // (sampled with gdb on `lfcheck-stress deliqueue --workload lin.history
  // --threads 4 --seed 1`). Paced, a poster waits while 16 messages are queued.
  static constexpr long history_backlog = 16;
  static bool fills(const Call& c) { return c.op == Op::post || c.op == Op::post_at_front; }
  static bool drains(const Call& c) { return c.op == Op::poll; }
  static int backlog_change(const Call& c, const Result& r) {
    if (fills(c)) return r.ok == 1 ? 1 : 0;                 // accepted: queued
    if (drains(c)) return r.id != deli_spec::kNone ? -1 : 0;  // delivered (no quit in a history: nothing dropped)
    return 0;
  }
};

// Scenarios (3 threads x <= 8 calls, prefix + suffix <= 8) and props sequences.
using DeliQueueSpec = DeliQueueSpecOf<3, 16, 240, false>;

}  // namespace lfcheck::specs
