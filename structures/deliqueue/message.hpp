// Message and the (when, insertSeq) comparator shared by DeliQueue and its
// baseline LockedMessageQueue.
//
// Time unit: `when` is in nanoseconds on the queue's clock (sync/clock.hpp:
// SteadyClock in production, VirtualClock in tests). Any int64 value is a legal
// `when`; post-at-front uses when = INT64_MIN so it precedes every ordinary message.
#pragma once

#include <cstdint>
#include <limits>

#include "sync/clock.hpp"
#include "sync/std_sync.hpp"

namespace lfcheck {

inline constexpr std::int64_t kWhenFront = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

// Flags word of a Message (32 bits):
//   bit 0  in_use   set by enqueue, cleared when next()/discard hands the message back
//   bit 1  async    set by the poster (set_async) before enqueue; never changes while queued
//   bit 2  removed  the claim bit: set by the one CAS that claims a queued message (a
//                   remover, or the Looper before delivery / quit's discard); kept set on
//                   a message take_reclaimed hands back as removed; cleared by enqueue
//   bit 3  barrier  a sync barrier (queue-owned message, arg = token)
//   bit 4  front    posted with enqueue_at_front: insertSeq counts down
//   bit 5  quit     the quit sentinel (queue-owned, never in a heap)
//   bit 6  safe     quit(safe = true): deliver what is due, drop only future messages
namespace msg_flags {
inline constexpr std::uint32_t in_use = 1u << 0;
inline constexpr std::uint32_t async = 1u << 1;
inline constexpr std::uint32_t removed = 1u << 2;
inline constexpr std::uint32_t barrier = 1u << 3;
inline constexpr std::uint32_t front = 1u << 4;
inline constexpr std::uint32_t quit = 1u << 5;
inline constexpr std::uint32_t safe = 1u << 6;
}  // namespace msg_flags

// A message. Who may touch each field, and when (the Looper's fields come first,
// so that what a sweep and a delivery touch shares as few cache lines as it can):
//   payload (what, arg, target, callback): the owner (the poster) before enqueue;
//       whoever next() or take_discarded() hands it to afterwards. The queue
//       never reads or writes them. Visibility to the Looper thread comes from
//       enqueue's release CAS on the stack top (paired with the sweep's acquire load).
//   when: written by enqueue before its publishing CAS; then read by the Looper
//       (after its acquire sweep); read-only while queued.
//   insert_seq: Looper only (assigned by the sweep, in push order).
//   flags: the owner before enqueue (set_async); enqueue sets in_use; the Looper
//       reads it after the sweep and clears in_use when handing the message back.
//       Atomic because issue 4's removers claim the removed bit with a CAS.
//   next (stack link): written by enqueue before its publishing CAS, then only by
//       the Looper when it unlinks a neighbour; read by the Looper (and, from
//       issue 4 on, by traversals from any thread — hence atomic).
//   prev (back-link): Looper only; valid only for nodes the Looper has swept.
//   heap_slot: Looper only; the message's slot in DeliQueue's heap position table
//       (which says where in the sync or async heap its entry is), -1 if in no heap.
//   free_next (free-list link): a remover chains the messages it claimed through
//       it and pushes the chain onto the lock-free free-list (release CAS); after
//       the Looper's drain it is Looper-only: the reclamation lists, then the
//       chains handed back by take_discarded() and take_reclaimed().
template <class Sync = StdSync>
struct Message {
  using Fn = void (*)(Message&);

  typename Sync::template atomic<std::uint32_t> flags{0};
  typename Sync::template cell<std::int32_t> heap_slot{-1};
  typename Sync::template atomic<Message*> next{nullptr};
  typename Sync::template cell<Message*> prev{nullptr};
  typename Sync::template cell<std::int64_t> when{0};
  typename Sync::template cell<std::int64_t> insert_seq{0};
  typename Sync::template atomic<Message*> free_next{nullptr};

  typename Sync::template cell<std::int32_t> what{0};
  typename Sync::template cell<std::int64_t> arg{0};
  typename Sync::template cell<void*> target{nullptr};
  typename Sync::template cell<Fn> callback{nullptr};

  Message() = default;
  Message(const Message&) = delete;
  Message& operator=(const Message&) = delete;

  // Owner only, before enqueue: an async message passes sync barriers.
  void set_async(bool on) {
    // Relaxed: the message is not shared yet; enqueue's release CAS publishes it.
    const std::uint32_t f = flags.load(std::memory_order_relaxed);
    flags.store(on ? (f | msg_flags::async) : (f & ~msg_flags::async), std::memory_order_relaxed);
  }
  bool is_async() const {
    // Relaxed: read by the owner or by the Looper after the acquire sweep.
    return flags.load(std::memory_order_relaxed) & msg_flags::async;
  }
  // Relaxed, like is_async: the owner's own writes, or ordered by the sweep's acquire.
  bool is_barrier() const { return flags.load(std::memory_order_relaxed) & msg_flags::barrier; }
  bool in_use() const { return flags.load(std::memory_order_relaxed) & msg_flags::in_use; }
};

// The order of the queue: (when, insertSeq), branchless and overflow-free.
// Returns a value < 0, 0 or > 0: sign(Δwhen)*2 + sign(ΔinsertSeq). Each sign is
// computed from comparisons, never from a subtraction, so it is correct for
// every pair of int64 values, INT64_MIN and INT64_MAX included.
inline constexpr int compare_keys(std::int64_t aw, std::int64_t as, std::int64_t bw,
                                  std::int64_t bs) noexcept {
  const int dw = (aw > bw) - (aw < bw);
  const int ds = (as > bs) - (as < bs);
  return dw * 2 + ds;
}

// The same order as heaps ask for it: "is a before b". A heap stores a key as
// QueueKey: when, and seq biased by 2^63 (seq_order), so that unsigned order of
// seq_order is signed order of seq. (when, seq_order) read as one 128-bit number
// (when the high, signed word) orders exactly like compare_keys, for every pair
// of int64 values; key_less is that one comparison, which g++ and clang compile
// to flag arithmetic with no branch and no subtraction that could overflow:
// cmp (low words), sbb (high words), then setl — or cmovl when the result picks
// a value (objdump of the release build; see bench/comparator_heap.hpp).
struct QueueKey {
  std::int64_t when;
  std::uint64_t seq_order;  // seq ^ 2^63
  static constexpr QueueKey of(std::int64_t when, std::int64_t seq) {
    return {when, static_cast<std::uint64_t>(seq) ^ (1ull << 63)};
  }
  constexpr std::int64_t seq() const { return static_cast<std::int64_t>(seq_order ^ (1ull << 63)); }
};
inline constexpr bool key_less(const QueueKey& a, const QueueKey& b) noexcept {
  using U = unsigned __int128;
  const auto x = static_cast<__int128>(U(static_cast<std::uint64_t>(a.when)) << 64 | a.seq_order);
  const auto y = static_cast<__int128>(U(static_cast<std::uint64_t>(b.when)) << 64 | b.seq_order);
  return x < y;
}
// compare_keys(aw, as, bw, bs) < 0, as key_less.
inline constexpr bool key_less(std::int64_t aw, std::int64_t as, std::int64_t bw, std::int64_t bs) noexcept {
  return key_less(QueueKey::of(aw, as), QueueKey::of(bw, bs));
}
static_assert(key_less(std::numeric_limits<std::int64_t>::min(), 0, std::numeric_limits<std::int64_t>::max(), 0) &&
                  key_less(5, -2, 5, -1) && key_less(5, -1, 5, 0) && !key_less(5, 0, 5, 0) &&
                  !key_less(5, std::numeric_limits<std::int64_t>::min(), 4, std::numeric_limits<std::int64_t>::max()) &&
                  QueueKey::of(3, -7).seq() == -7,
              "key_less is the order of compare_keys");

// The seeded fault: sign of a wrapping subtraction (what `a.when - b.when`
// does in Java). Wrong whenever the difference does not fit in an int64.
inline constexpr int compare_keys_subtracting(std::int64_t aw, std::int64_t as, std::int64_t bw,
                                              std::int64_t bs) noexcept {
  const auto d = static_cast<std::int64_t>(static_cast<std::uint64_t>(aw) - static_cast<std::uint64_t>(bw));
  const auto e = static_cast<std::int64_t>(static_cast<std::uint64_t>(as) - static_cast<std::uint64_t>(bs));
  return ((d > 0) - (d < 0)) * 2 + ((e > 0) - (e < 0));
}

}  // namespace lfcheck
