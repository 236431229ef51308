// The messages a spec's Subject posts, owned by the Subject: each post takes a
// fresh Message from Sync::create (under Relacy: the checker's allocator, so a
// leak, a double free or a use of a freed message is reported), and every
// message is freed exactly once — when the owner gets it back for good
// (free_now; give_back frees it unless it was taken with `keep`: a message some
// later call may still name, e.g. remove(m), stays alive), or by the pool's
// destructor for those still out at the end. Each message carries the spec's
// id for it (id_of), kept here: the queue never reads the payload.
//
// Declare the pool BEFORE the queue in the Subject: members are destroyed in
// reverse order, so the queue (whose destructor walks the messages still linked)
// is gone before the pool frees them.
//
// Threads: calls are labelled by the thread they are generated for (0..Threads-1
// for a parallel thread, kSetupLabel for the prefix, the suffix and props), and
// the slots are split by label: a label's slots are taken only by its thread, so
// take() needs no atomics. A slot's `freed`/`back` bytes are written by whoever
// hands it back (the Looper, or the poster of a refused post): distinct bytes,
// never one slot from two threads; `id`/`keep` are written by the poster before
// its post, which orders them before the Looper's reads. The destructor runs
// quiescent (after every thread joined).
// Cost: O(1) per take/free; O(slots) at destruction; Threads * PerThread +
// SetupSlots slots of 11 bytes each.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lfcheck::specs {

// The label of prefix, suffix and props calls; parallel threads are 0..14.
inline constexpr std::uint8_t kSetupLabel = 15;

template <class Msg, class Sync, unsigned Threads, unsigned PerThread, unsigned SetupSlots>
class MessagePool {
 public:
  static_assert(Threads <= kSetupLabel, "thread labels must stay below kSetupLabel");
  static constexpr unsigned kThreads = Threads, kPerThread = PerThread, kSetupSlots = SetupSlots;
  static constexpr unsigned kSlots = Threads * PerThread + SetupSlots;

  MessagePool() = default;
  MessagePool(const MessagePool&) = delete;
  MessagePool& operator=(const MessagePool&) = delete;
  ~MessagePool() {
    for (unsigned i = 0; i < kSlots; ++i)
      if (slot_[i] && !freed_[i]) Sync::destroy(slot_[i]);
  }

  // A fresh message for the thread of `label`, named `id` in results; arg holds
  // its slot (the Subject's bookkeeping: the queue never reads the payload).
  Msg* take(unsigned label, std::uint16_t id, bool keep = false) {
    Sync::check(label < Threads || label == kSetupLabel, "MessagePool: a call from a thread this spec has no slots for");
    const unsigned first = label == kSetupLabel ? Threads * PerThread : label * PerThread;
    const unsigned size = label == kSetupLabel ? SetupSlots : PerThread;
    unsigned& used = used_[label == kSetupLabel ? Threads : label];
    Sync::check(used < size, "MessagePool: more posts than slots for one thread");
    const unsigned i = first + used++;
    Msg* m = Sync::template create<Msg>();
    m->arg.store(static_cast<std::int64_t>(i));
    slot_[i] = m;
    id_[i] = id;
    keep_[i] = keep;
    return m;
  }
  // The slot of a message this pool handed out (checked: a queue that hands back
  // a message nobody posted fails here, not later).
  unsigned slot_of(Msg* m) const {
    const auto i = static_cast<std::uint64_t>(m->arg.load());
    Sync::check(i < kSlots && slot_[i] == m, "the queue handed back a message nobody posted");
    return static_cast<unsigned>(i);
  }
  std::uint16_t id_of(Msg* m) const { return id_[slot_of(m)]; }
  void free_now(Msg* m) {
    const unsigned i = slot_of(m);
    Sync::check(!freed_[i], "a message handed back twice");
    freed_[i] = true;
    Sync::destroy(m);
  }
  void give_back(Msg* m) {
    const unsigned i = slot_of(m);
    Sync::check(!back_[i], "a message handed back twice");
    back_[i] = true;
    if (!keep_[i]) free_now(m);
  }

 private:
  Msg* slot_[kSlots] = {};
  bool freed_[kSlots] = {};
  bool back_[kSlots] = {};  // give_back ran (the Looper)
  bool keep_[kSlots] = {};
  std::uint16_t id_[kSlots] = {};
  unsigned used_[Threads + 1] = {};
};

}  // namespace lfcheck::specs
