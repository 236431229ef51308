// How many distinct execution graphs a search has run: each execution's
// reads-from and coherence (which write every read took its value from, and the
// order of the writes of each location), hashed, counted once per distinct graph.
//
// Why: it is a lower bound that no schedule of the executions changes. A tool
// that runs one execution per consistent graph (GenMC's TruSt, optimal for
// reads-from equivalence) must run at least this many for the same scenario:
// two executions with different graphs are different graphs whatever explores
// them. So a DPOR search that ran N executions and saw D graphs spent N - D on
// executions an optimal reads-from explorer would not run; and a search stopped
// at its budget that saw D graphs shows the scenario has at least D — when D
// exceeds a budget, no such explorer ends within it either. A developer's
// figure (LFCHECK_DPOR_STATS): it costs O(reads × writes) per execution.
//
// The graph, from the steps' footprints (footprint.hpp) in execution order:
//   - a write is every store, read-modify-write that wrote, store to a cell, and
//     every operation on a mutex or condition variable (their order is the
//     order of critical sections and hand-offs: a read-modify-write of the
//     object, as GenMC models locks); Relacy's modification order of a location
//     is the order in which its stores ran;
//   - a read is every load, cell load, and read-modify-write (reading the newest
//     write); an atomic load reads `back` writes before the newest, the index
//     its load choice took (Relacy's weak memory), else the newest;
//   - a write or read is named by its step: thread and the step's number in its
//     thread (the same in every execution of the class); a write from before
//     the threads (the scenario's constructor, before()) by how far back it is.
// Not in the graph: fences, allocations and frees (GenMC has no block reuse),
// spin hints. Leaving them out merges graphs, so the count stays a lower bound.
#pragma once

#include <cstdint>
#include <unordered_set>

#include "harness/model/dpor/footprint.hpp"

namespace lfcheck::model::dpor {

class GraphClasses {
 public:
  // One execution's steps: for step i, its thread, its number in its thread
  // (1-based), its footprint, and how many writes back its atomic load read.
  template <class Steps, class BackOf>
  void record(const Steps& steps, BackOf&& back_of) {
    writes_.clear();
    std::uint64_t reads = 0;  // the reads' part: a sum, so the order they ran in does not count
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const auto& e = steps[i];
      const std::uint64_t me = id(e.thread, e.seq);
      for (const Touch& t : e.footprint.touches) {
        const bool is_read = t.op == Op::load || t.op == Op::cell_load || t.op == Op::rmw;
        const bool is_write = t.op == Op::store || t.op == Op::rmw || t.op == Op::cell_store || t.sync_object();
        if (is_read) {
          const unsigned back = t.op == Op::load ? back_of(i, t.addr) : 0;
          reads += mix(mix(me ^ mix(t.addr)) ^ source(t.addr, back));
        }
        if (is_write) writes_.push_back(Write{t.addr, me});
      }
    }
    // The writes' part: per location, its writers in order; summed over locations.
    std::uint64_t coherence = 0;
    for (std::size_t i = 0; i < writes_.size(); ++i) {
      if (writes_[i].addr == 0) continue;
      const std::uintptr_t addr = writes_[i].addr;
      std::uint64_t h = mix(addr);
      for (std::size_t j = i; j < writes_.size(); ++j)
        if (writes_[j].addr == addr) {
          h = mix(h ^ writes_[j].writer);
          if (j != i) writes_[j].addr = 0;  // counted with its location
        }
      coherence += h;
    }
    seen_.insert(mix(reads) ^ coherence);
  }

  std::uint64_t count() const { return seen_.size(); }

 private:
  struct Write {
    std::uintptr_t addr;
    std::uint64_t writer;
  };
  static std::uint64_t id(unsigned thread, std::uint32_t seq) { return (std::uint64_t(thread) << 32) | seq; }
  // The write a read of `addr` `back` writes before the newest took its value
  // from: among this execution's writes so far, or one from before the threads.
  std::uint64_t source(std::uintptr_t addr, unsigned back) const {
    for (std::size_t i = writes_.size(); i-- > 0;)
      if (writes_[i].addr == addr && back-- == 0) return writes_[i].writer;
    return (std::uint64_t(0xffffffff) << 32) | back;  // `back` is now how far before the threads
  }
  static std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }

  raw_vector<Write> writes_;
  std::unordered_set<std::uint64_t, std::hash<std::uint64_t>, std::equal_to<std::uint64_t>, RawAllocator<std::uint64_t>>
      seen_;
};

}  // namespace lfcheck::model::dpor
