// What RelacySync tells lfcheck's model runner about an operation before Relacy
// performs it: the object it touches (address and size), how (load, store,
// read-modify-write, fence, lock, wait, allocation, ...) and whether it is
// seq_cst. Relacy's schedulers only learn *that* a thread reached a scheduling
// point; lfcheck's own schedulers also need to know *what* each thread is about
// to do and what it did:
//   - the DPOR scheduler (harness/model/dpor/): which steps of two threads are
//     dependent (same object, at least one write; a seq_cst fence with a seq_cst
//     fence, the one global order in Relacy's model (docs/model.md); same
//     mutex or condition variable; an allocation or free against an access of
//     the block), and which spin iterations wrote nothing (spin loops as awaits);
//   - every run: whether the threads touched shared state at all (a run in
//     which no thread did is "NO WORK", never a pass).
//
// The runner installs an observer for the duration of a simulation (one at a
// time per process: Relacy runs all threads as fibers of one OS thread, so the
// observer is plain memory); with none installed (a StdSync build never includes
// this header's users) announcing costs a load and a branch.
//
// Cost: one indirect call per operation while a model runs.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lfcheck::model {

enum class Op : std::uint8_t {
  load,           // atomic load
  store,          // atomic store
  rmw,            // exchange, fetch_*, compare_exchange_* (completed() says whether it wrote)
  fence,          // acquire, release or acq_rel fence: the thread's own clocks only
  fence_seq_cst,  // seq_cst fence: Relacy's global seq_cst order
  cell_load,      // plain shared data (Sync::cell), read
  cell_store,     // plain shared data, written
  lock,           // mutex lock
  unlock,         // mutex unlock
  wait,           // condition variable wait (releases and re-takes `other`, the mutex)
  notify,         // condition variable notify_one / notify_all
  alloc,          // Sync::create / create_array: the new block (announced once Relacy's
                  // allocator handed it out, before its constructor runs)
  free,           // Sync::destroy / destroy_array: the block about to be handed back to
                  // Relacy's allocator (size 0: the size its alloc announced); its
                  // destructor (every element's) has run
  spin,           // Sync::spin_hint / Sync::yield: a retry of a loop that waits for others
  unknown,        // never announced: the DPOR scheduler's mark for a step that begins at a
                  // scheduling point no announcement named (dependent on every step)
};

struct Access {
  const void* addr = nullptr;
  std::size_t size = 0;
  Op op = Op::load;
  bool seq_cst = false;
  const void* other = nullptr;  // wait: the mutex it releases and re-takes
};

class AccessObserver {
 public:
  // Before the operation (after it, for an allocation), on the thread doing it.
  virtual void announce(const Access& a) = 0;
  // After a read-modify-write: whether it wrote (a failed compare-exchange did not).
  virtual void completed(bool wrote) = 0;

 protected:
  ~AccessObserver() = default;
};

inline AccessObserver*& access_observer() {
  static AccessObserver* observer = nullptr;
  return observer;
}

inline void announce(const void* addr, std::size_t size, Op op, bool seq_cst = false, const void* other = nullptr) {
  if (AccessObserver* o = access_observer()) o->announce(Access{addr, size, op, seq_cst, other});
}

inline void completed(bool wrote) {
  if (AccessObserver* o = access_observer()) o->completed(wrote);
}

}  // namespace lfcheck::model
