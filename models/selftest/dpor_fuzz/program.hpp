// A program of the DPOR differential fuzzer (issue 43): 1 to 3 threads of small
// statements over the whole Sync API, plus what the scenario's single-threaded code
// (constructor, before(), invariant(), after()) does. The generator
// (generator.hpp) makes one from (seed, index); the interpreter (interpreter.hpp)
// runs it as a model scenario against RelacySync; print() shows it, one line per
// statement, each thread in its own block.
//
// The shared objects, by number: atomics a0..a2 (int), cells c0..c1 (int), mutexes
// m0..m1, condition variables v0..v1, and slots p0..p1 — atomics holding a pointer
// to a heap block, a SyncBlock { atomic<int> a{0}; cell<int> c{0}; mutex m;
// condvar v; } created and destroyed through Sync::create / Sync::destroy (its
// atomic's 0 stored by its constructor, or after create(): block_stores_after).
//
// Every statement that observes something has a label (r0, r1, ...): what it
// read goes into its thread's log, and the logs plus what after() reads make an
// execution's outcome (interpreter.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lfcheck::dpor_fuzz {

constexpr unsigned kMaxThreads = 3;
constexpr unsigned kMaxAtomics = 3, kMaxCells = 2, kMaxMutexes = 2, kMaxCondvars = 2, kMaxSlots = 2;

enum class Mo : std::uint8_t { relaxed, consume, acquire, release, acq_rel, seq_cst };
const char* name(Mo mo);

enum class Rmw : std::uint8_t { exchange, fetch_add, fetch_sub, fetch_or, fetch_and };
enum class Hint : std::uint8_t { spin_hint, yield };
// What a peek does with the block it found in a slot.
enum class BlockUse : std::uint8_t { load, store, fetch_add, cell_load, cell_store, lock_store, lock_unlock, notify };
// A hook allocation's block: the slots' SyncBlock, or a PlainBlock { int v; }
// (no Relacy object inside: an invariant may allocate it).
enum class BlockKind : std::uint8_t { sync, plain };

enum class Kind : std::uint8_t {
  load,        // rN = a.load(mo)
  store,       // a.store(value, mo)
  rmw,         // rN = a.<rmw>(value, mo)
  cas,         // rN = a.compare_exchange_{weak,strong}(expected = e, value, mo, failure): (ok, expected after)
  cas_loop,    // e = a.load(relaxed); while (!a.cas_weak/strong(e, e + value, mo, failure)) spin_hint(); rN = e
  fence,       // Sync::fence(mo)
  cell_load,   // rN = c.load()
  cell_store,  // c.store(value)
  locked,      // m.lock(); body; m.unlock()
  wait,        // m.lock(); while (c != value) v.wait(m) — timed: at most 2 rounds of wait_for_ns; rN; m.unlock()
  signal,      // m.lock(); c.store(value); v.notify_*() (inside, or after the unlock); m.unlock()
  notify,      // v.notify_one() / notify_all()
  hint,        // Sync::spin_hint() / Sync::yield()
  await,       // while (a.load(mo) != value) { body; hint } — rN: its iterations' reads
  publish,     // p = create<SyncBlock>(); p->c.store(value); old = slot.exchange(p, mo); destroy(old)
  take,        // p = slot.exchange(nullptr, mo); if (p) { rN = p->a.load(relaxed); destroy(p) }
  peek,        // p = slot.load(mo); if (p) use p (BlockUse)
  local_block, // p = create<Block>(); rN = which block it got; destroy(p)
  // The scenario's single-threaded code only:
  check,       // invariant(): Sync::check(!(a[x] == value && a[y] == expected))
  observe,     // invariant(): the values of a[x], a[y] at every scheduling point (union over the run)
};

struct Op {
  Kind kind = Kind::load;
  unsigned object = 0;   // the atomic, cell, mutex, condition variable or slot (by kind);
                         // wait/signal: the condition variable; check/observe: atomic x
  unsigned mutex = 0;    // locked: the mutex; wait/signal: the mutex; check/observe: atomic y
  unsigned cell = 0;     // wait/signal: the cell that is the condition (guarded by `mutex`)
  int value = 0;         // stored, added, desired, awaited value
  int expected = 0;      // cas: the expected value; check: a[y]'s value
  Mo order = Mo::relaxed;   // the access's order (cas: on success)
  Mo failure = Mo::relaxed; // cas, cas_loop: the order on failure; peek: the order of its use of b->a
  Rmw rmw = Rmw::exchange;
  Hint hint = Hint::spin_hint;
  BlockUse use = BlockUse::load;
  BlockKind block = BlockKind::sync;
  bool weak = false;     // cas, cas_loop
  bool all = false;      // notify, signal: notify_all
  bool timed = false;    // wait: wait_for_ns
  bool outside = false;  // signal: notify after the unlock
  std::vector<Op> body;  // locked, await
  int label = -1;        // rN: the label of what it observes (-1: none)
};

// The initial value of an atomic or cell; `has_value == false`: default-constructed
// (no store: a read before any store is ACCESS TO UNINITIALIZED VARIABLE).
struct Initial {
  bool has_value = true;
  int value = 0;
};

struct Program {
  std::uint64_t seed = 0, index = 0;
  std::vector<Initial> atomics, cells;
  unsigned mutexes = 0, condvars = 0;
  std::vector<bool> slot_filled;  // a slot's block is created by the constructor
  bool block_stores_after = false;  // a SyncBlock's a gets its 0 from a store after create(), not its constructor
  std::vector<Op> before;         // single-threaded, after the constructor: stores, loads, publish, take
  std::vector<std::vector<Op>> threads;
  std::vector<Op> invariant;      // check, observe, local_block (plain)
  std::vector<Op> after;          // local_block; then the interpreter reads and frees everything
  unsigned labels = 0;            // r0 .. r(labels-1)
};

// Numbers every observing statement (rN) in flat order (positions(); an
// invariant's statements observe through `observe` only, and have no label).
void assign_labels(Program& p);

// Each statement of the program, anywhere (before(), the threads, invariant(),
// after(); a statement before the statements of its body), as a flat list of
// positions: what --keep names (print() shows each one's number) and what the
// minimiser removes.
struct Position {
  int part;                   // thread index, or kBefore / kInvariant / kAfter
  std::vector<unsigned> path;  // the index in the part's list, then in each body down
};
constexpr int kBefore = -1, kInvariant = -2, kAfter = -3;
std::vector<Position> positions(const Program& p);
// The program with only the statements whose flat numbers `keep` holds (a body's
// statements go with their parent); threads left empty are dropped, one thread at
// least stays. Labels are assigned again.
Program keep_only(const Program& p, const std::vector<bool>& keep);
// The flat numbers in `p` of keep_only(p, keep)'s positions, in order.
std::vector<unsigned> kept_numbers(const Program& p, const std::vector<bool>& keep);

// Human-readable, one statement per line, each with its flat number (#N):
// `numbers[i]` for the i-th position if given (a reduced program shown with the
// numbers of the program it was reduced from, as --keep names them).
std::string print(const Program& p, const std::vector<unsigned>& numbers = {});
// One statement, as print() shows it (no indentation, no newline).
std::string print(const Op& op);

}  // namespace lfcheck::dpor_fuzz
