// Spin loops as awaits: what makes a spin-waiting scenario (a seqlock reader, a
// spin lock, a ring's full/empty wait, a shutdown handshake) a finite search.
//
// A retry of a loop goes through Sync::spin_hint() or Sync::yield() (the Sync
// policy's rule). The iteration of thread t is everything t did since its
// previous hint (or its start). At a hint, t is parked as *awaiting* when this
// iteration and the one before it each
//   - only read: no store, no read-modify-write that wrote, no store to a cell,
//     no allocation or free, no lock, unlock, wait or notify, no seq_cst fence,
//     nothing the scheduler does not know (Touch::only_reads). Each of those is
//     seen by another thread — a notify wakes a waiter, a lock blocks a locker or
//     orders what it reads — so running the iteration again may change what
//     others do even when it reads the same values,
//   - read only the latest store of each location (no load chose an older one:
//     Relacy's weak memory may hand a re-read a newer value) and had no
//     compare-exchange fail spuriously (a re-run's would succeed), and
//   - saw none of its reads overwritten by another thread since it read them,
// and both read something, and the same stores of the same locations (per
// location, the count of writes to it so far in the execution; an iteration that
// read nothing waits for no one); it stays parked until another thread
// writes (or frees) a location the iteration read. Nothing is lost: running the
// iteration again before such a write would read the same values and do the
// same nothing. Why two iterations, not one: an iteration also depends on what
// the thread carried into it — a failed compare-exchange leaves the value it saw
// in `expected`, so the next iteration's compare-exchange may succeed with no
// new write; an iteration that repeats its predecessor exactly has nothing left
// over to change. The step with which t resumes is taken as reading everything
// the iteration read, so the waking write and that step are dependent (DPOR
// explores their order).
//
// When every live thread is awaiting or blocked, no write will ever come: the
// scheduler ends the execution as a LIVELOCK (harness/model/dpor/scheduler.hpp).
//
// What this assumes, and the README states: an iteration's effects are its
// shared writes. A loop that also counts its iterations to give up after N
// (bounded spinning) is treated as waiting until someone writes: its give-up
// path is explored only if a write releases it first.
#pragma once

#include <cstdint>

#include "harness/model/dpor/footprint.hpp"

namespace lfcheck::model::dpor {

class SpinAwaits {
 public:
  void reset() {
    for (auto& it : iteration_) it = Iteration{};
    for (auto& p : previous_) p = Signature{};
    for (auto& a : awaiting_) a = false;
    for (auto& r : resumed_) r.clear();
    writes_.clear();
  }

  // A step of `thread` ended: record its reads and writes, and mark or wake the
  // other threads whose reads it overwrote.
  void step(unsigned thread, const Footprint& f, unsigned threads) {
    Iteration& mine = iteration_[thread];
    for (auto& t : f.touches) {
      if (is_write(t)) {
        mine.wrote = true;
        count_write(t);
      } else if (is_read(t)) {
        mine.reads.push_back(t.addr);
      }
    }
    for (unsigned u = 0; u < threads; ++u) {
      if (u == thread) continue;
      for (auto& t : f.touches) {
        if (!is_write(t)) continue;
        if (awaiting_[u] && overwrites(t, await_reads_[u])) wake(u);
        if (overwrites(t, iteration_[u].reads)) iteration_[u].stale = true;
      }
    }
  }
  // A choice of `thread`'s iteration that a re-run would not repeat: a load read
  // an older store than the latest, or a compare-exchange failed spuriously.
  void unrepeatable(unsigned thread) { iteration_[thread].unrepeatable = true; }

  // `thread` reached a spin hint: parks it (true) if its iteration did nothing a
  // re-run could change; starts its next iteration either way.
  bool hint(unsigned thread) {
    Iteration& it = iteration_[thread];
    Signature now;
    // An iteration that read nothing waits for no one (two spin hints in a row, a
    // yield between two steps): nothing could wake it, so it is not an await.
    now.clean = !it.wrote && !it.unrepeatable && !it.stale && !it.reads.empty();
    for (auto a : it.reads) now.reads.push_back({a, writes_to(a)});
    Signature& before = previous_[thread];
    const bool await = now.clean && before.clean && now.reads == before.reads;
    if (await) {
      awaiting_[thread] = true;
      await_reads_[thread] = it.reads;
      before = Signature{};  // a woken thread starts over
    } else {
      before = std::move(now);
    }
    it = Iteration{};
    return await;
  }

  bool awaiting(unsigned thread) const { return awaiting_[thread]; }
  // The reads a resumed thread's next step is taken to repeat (then forgotten).
  raw_vector<std::uintptr_t> take_resumed(unsigned thread) {
    raw_vector<std::uintptr_t> r;
    r.swap(resumed_[thread]);
    return r;
  }

 private:
  struct Iteration {
    raw_vector<std::uintptr_t> reads;
    bool wrote = false, unrepeatable = false, stale = false;
  };
  struct Read {
    std::uintptr_t addr;
    std::uint64_t writes;  // writes to addr before the read: which store it read
    bool operator==(const Read&) const = default;
  };
  struct Signature {
    bool clean = false;
    raw_vector<Read> reads;
  };
  struct Count {
    std::uintptr_t addr;
    std::uint64_t writes;
  };
  std::uint64_t writes_to(std::uintptr_t a) const {
    for (auto& c : writes_)
      if (c.addr == a) return c.writes;
    return 0;
  }
  void count_write(const Touch& w) {
    if (w.block() || w.op == Op::unknown) {  // a free or allocation changes every location of the block;
      for (auto& c : writes_)                // the unknown, any location
        if (w.op == Op::unknown || w.covers(c.addr)) ++c.writes;
      return;
    }
    for (auto& c : writes_)
      if (c.addr == w.addr) {
        ++c.writes;
        return;
      }
    writes_.push_back({w.addr, 1});
  }
  // Anything but a read (and the spin hint itself) makes the iteration one that
  // changed something.
  static bool is_write(const Touch& t) { return !t.only_reads() && t.op != Op::spin; }
  static bool is_read(const Touch& t) { return t.op == Op::load || t.op == Op::cell_load; }
  static bool overwrites(const Touch& w, const raw_vector<std::uintptr_t>& reads) {
    if (w.op == Op::unknown) return true;  // it may have written anything
    for (auto a : reads)
      if (w.block() ? w.covers(a) : w.addr == a) return true;
    return false;
  }
  void wake(unsigned u) {
    awaiting_[u] = false;
    resumed_[u] = await_reads_[u];
    await_reads_[u].clear();
  }

  Iteration iteration_[kMaxThreads];
  Signature previous_[kMaxThreads];
  raw_vector<Count> writes_;
  bool awaiting_[kMaxThreads] = {};
  raw_vector<std::uintptr_t> await_reads_[kMaxThreads];
  raw_vector<std::uintptr_t> resumed_[kMaxThreads];
};

}  // namespace lfcheck::model::dpor
