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
// Threads: the slots are split by thread label (0..kLabels-1): a label's slots
// are taken only by the thread of that label, so take() needs no atomics. A
// slot's `freed` bit is written by whoever frees it (the Looper, or the poster
// of a refused post): distinct bytes, never the same slot from two threads. The
// destructor runs quiescent (after every thread joined).
// Cost: O(1) per take/free; O(kSlots) at destruction.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lfcheck::specs {

template <class Msg, class Sync>
class MessagePool {
 public:
  static constexpr unsigned kLabels = 4;            // parallel threads 0..2, setup 3
  static constexpr unsigned kPerThread = 16;        // >= lin::kMaxOpsPerThread
  static constexpr unsigned kSetupSlots = 240;      // prefix + suffix, or a props sequence
  static constexpr unsigned kSlots = (kLabels - 1) * kPerThread + kSetupSlots;

  MessagePool() = default;
  MessagePool(const MessagePool&) = delete;
  MessagePool& operator=(const MessagePool&) = delete;
  ~MessagePool() {
    for (unsigned i = 0; i < kSlots; ++i)
      if (slot_[i] && !freed_[i]) Sync::destroy(slot_[i]);
  }

  // A fresh message for the thread of `label`, named `id` in results; arg holds
  // its slot (the Subject's bookkeeping: the queue never reads the payload).
  Msg* take(unsigned label, std::uint8_t id, bool keep = false) {
    const unsigned first = label < kLabels - 1 ? label * kPerThread : (kLabels - 1) * kPerThread;
    const unsigned size = label < kLabels - 1 ? kPerThread : kSetupSlots;
    Sync::check(used_[label] < size, "MessagePool: more posts than slots for one thread");
    const unsigned i = first + used_[label]++;
    Msg* m = Sync::template create<Msg>();
    m->arg.store(static_cast<std::int64_t>(i));
    slot_[i] = m;
    id_[i] = id;
    keep_[i] = keep;
    return m;
  }
  std::uint8_t id_of(Msg* m) const { return id_[slot_of(m)]; }
  // The slot of a message this pool handed out (checked: a queue that hands back
  // a message nobody posted fails here, not later).
  unsigned slot_of(Msg* m) const {
    const auto i = static_cast<std::uint64_t>(m->arg.load());
    Sync::check(i < kSlots && slot_[i] == m, "the queue handed back a message nobody posted");
    return static_cast<unsigned>(i);
  }
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
  std::uint8_t id_[kSlots] = {};
  bool keep_[kSlots] = {};
  bool back_[kSlots] = {};  // give_back ran (the Looper)  // written by the poster before the post: ordered before the Looper's reads
  unsigned used_[kLabels] = {};
};

}  // namespace lfcheck::specs
