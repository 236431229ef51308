// The fuzzer's random programs: program `index` of seed `seed` is a function of
// (seed, index, the thread range) alone — its own generator, seeded from both, no
// standard-library distribution (whose output may differ between libraries) — so
// `--seed S --program I` replays it anywhere.
//
// What a program may hold (program.hpp): 1 to 3 atomics, up to 2 cells, mutexes,
// condition variables and slots of heap blocks; per thread a few statements of
// every kind the Kind enum lists, with every memory order each operation accepts
// (a compare-exchange's failure order one its success order allows:
// docs/sync-api.md); before(), invariant() and after() that read and allocate.
// Programs stay small so that Relacy's full search of most of them ends within
// the fuzzer's per-program cap (2 threads: 1 to 4 statements each, 3 threads: 1
// to 3; a body: 1 or 2).
//
// Loops end under every schedule the searches explore, or fail alike under both:
//   - an await loop waits for a value another thread stores unconditionally (one
//     such store is added if none is there);
//   - a compare-exchange loop retries on a fresh value (it ends once the others
//     stop writing);
//   - a condition-variable wait waits for a condition another thread sets and
//     notifies (such a signal is added if none is there), and a timed wait gives
//     up after two rounds.
// A program may still deadlock or livelock (two awaits on each other, a
// notify_one that wakes the wrong waiter): both searches must then fail.
//
// Plain data stays mostly race-free: each cell belongs to one thread, or is
// guarded by a mutex (every access inside a critical section of it), or — now and
// then — is free for all (a data race: both searches must fail). Blocks in slots
// may be freed while another thread uses them (use after free, a freed mutex or
// condition variable): both searches must fail.
#pragma once

#include <cstdint>
#include <string>

#include "models/selftest/dpor_fuzz/program.hpp"

namespace lfcheck::dpor_fuzz {

// Program features a run can leave out (`--exclude`): each one a class of programs
// a known, open finding is about, so that a run can look past it. A run that
// leaves any out says so in its summary and its JSON: it covers less of the API.
enum class Feature : unsigned {
  hook_allocations,  // blocks before(), invariant() or after() allocate or free (not the constructor's)
  standalone_hints,  // spin_hint() / yield() outside a loop
  invariant,         // invariant() that reads (check, observe)
  await_writes,      // await loops whose bodies write or notify
  timed_waits,       // wait_for_ns
  block_sync,        // a peeked block's mutex or condition variable used (freed while in use)
  block_constructors,  // blocks whose constructor stores (an atomic member with its initial value)
  count
};
const char* name(Feature f);
bool parse_feature(const std::string& name, Feature& f);

struct Shape {
  unsigned min_threads = 2, max_threads = 3;
  unsigned excluded = 0;  // bits: 1 << Feature
  // --focus: more programs of one class (block-sync: slots, peeks that lock or notify,
  // takes; await-writes: await loops whose bodies notify or write, against timed waits).
  // Feature::count: none, the distribution the tests and the nightly use.
  Feature focus = Feature::count;
  bool has(Feature f) const { return !(excluded & (1u << static_cast<unsigned>(f))); }
};

Program generate(std::uint64_t seed, std::uint64_t index, const Shape& shape);

}  // namespace lfcheck::dpor_fuzz
