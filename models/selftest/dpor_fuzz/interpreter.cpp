// The fuzzer's interpreter (interpreter.hpp): a program run against RelacySync.
#include "models/selftest/dpor_fuzz/interpreter.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "sync/relacy_access.hpp"
#include "sync/relacy_sync.hpp"

namespace lfcheck::dpor_fuzz {
namespace {

// --- what the runs recorded (harness-side, static: nothing allocates inside a
// simulation) ------------------------------------------------------------------

constexpr unsigned kParts = kMaxThreads + 1;  // the threads' logs, then the single-threaded code's
constexpr unsigned kHookPart = kMaxThreads;
constexpr unsigned kLogEntries = 64;

struct Entry {
  std::int32_t label;  // rN; negative: after()'s final reads (final_label)
  std::int32_t value;
};

struct Log {
  Entry entries[kParts][kLogEntries];
  unsigned count[kParts];
};

// after()'s final reads, as labels of their own: atomic i, cell i, slot i (which
// block), slot i's block's a.
constexpr std::int32_t kFinalAtomic = -100, kFinalCell = -200, kFinalSlot = -300, kFinalSlotValue = -400;

// The record behind each distinct outcome (for printing a disagreement).
constexpr unsigned kRecords = 2048;
struct Record {
  std::uint64_t hash;
  Log log;
};
Record records[kRecords];
unsigned record_count = 0;
bool overflowed = false;

constexpr unsigned kStates = 1024;
std::uint64_t states[kStates];
unsigned state_count = 0;

const Program* program = nullptr;
Break fault = Break::none;

// --- block identity -------------------------------------------------------------
// Which allocation a block is: (allocator, its number among that allocator's),
// compared by address only. Allocators: thread t is t; then the constructor and
// before(), invariant(), after().
constexpr unsigned kSetup = kMaxThreads, kInvariantAllocator = kMaxThreads + 1, kAfterAllocator = kMaxThreads + 2;
constexpr unsigned kAllocators = kMaxThreads + 3;
// A token: 0 fresh / none; 1 + allocator * 16 + number. An invariant's blocks have
// no number (how many scheduling points came before is a schedule's detail).
constexpr std::int32_t kNoBlock = -1, kFresh = 0;
std::int32_t token(unsigned allocator, unsigned number) {
  return static_cast<std::int32_t>(1 + allocator * 16 + (allocator == kInvariantAllocator ? 0 : std::min(number, 15u)));
}

std::uint64_t fnv(std::uint64_t h, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) {
    h ^= (v >> (8 * i)) & 0xff;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::memory_order order(Mo mo) {
  switch (mo) {
    case Mo::relaxed: return std::memory_order_relaxed;
    case Mo::consume: return std::memory_order_consume;
    case Mo::acquire: return std::memory_order_acquire;
    case Mo::release: return std::memory_order_release;
    case Mo::acq_rel: return std::memory_order_acq_rel;
    case Mo::seq_cst: return std::memory_order_seq_cst;
  }
  return std::memory_order_seq_cst;
}

// The test-only fault: alters what DPOR is told, nothing Relacy does.
class BreakingObserver final : public model::AccessObserver {
 public:
  model::AccessObserver* inner = nullptr;
  void announce(const model::Access& a) override {
    model::Access b = a;
    if (fault == Break::store_as_load && a.op == model::Op::store) b.op = model::Op::load;
    if (fault == Break::free_unannounced && a.op == model::Op::free) return;
    inner->announce(b);
  }
  void completed(bool wrote) override { inner->completed(wrote); }
};
BreakingObserver breaker;

template <class Sync>
class Interpreter {
  using Atomic = typename Sync::template atomic<int>;
  using Cell = typename Sync::template cell<int>;
  struct SyncBlock {
    // a's 0 is stored by its constructor — rl::atomic's, inside `new`: a scheduling
    // point before create() announces the block — or, for a program whose blocks
    // store it after (Program::block_stores_after), by an announced store.
    std::optional<Atomic> a;
    Cell c{0};
    SyncBlock() {
      if (program->block_stores_after) a.emplace();
      else a.emplace(0);
    }
    typename Sync::mutex m;
    typename Sync::condvar v;
  };
  struct PlainBlock {
    int v;
  };
  using Slot = typename Sync::template atomic<SyncBlock*>;

 public:
  Interpreter() : p_(*program) {
    if (fault != Break::none && model::access_observer() != &breaker) {  // (re)installed in every simulation
      breaker.inner = model::access_observer();
      model::access_observer() = &breaker;
    }
    std::memset(&log_, 0, sizeof log_);
    for (unsigned i = 0; i < p_.atomics.size(); ++i) {
      if (p_.atomics[i].has_value) atomics_[i].emplace(p_.atomics[i].value);
      else atomics_[i].emplace();
    }
    for (unsigned i = 0; i < p_.cells.size(); ++i) {
      if (p_.cells[i].has_value) cells_[i].emplace(p_.cells[i].value);
      else cells_[i].emplace();
    }
    for (unsigned i = 0; i < p_.mutexes; ++i) mutexes_[i].emplace();
    for (unsigned i = 0; i < p_.condvars; ++i) condvars_[i].emplace();
    for (unsigned i = 0; i < p_.slot_filled.size(); ++i) {
      slots_[i].emplace(nullptr);
      // Relaxed: the constructor runs before every thread (Relacy's global fence after before()).
      if (p_.slot_filled[i]) slots_[i]->store(create_sync(kSetup), std::memory_order_relaxed);
    }
  }

  void before() { run(p_.before, kHookPart, kSetup); }
  void thread(unsigned t) { run(p_.threads[t], t, t); }
  void invariant() { run(p_.invariant, kHookPart, kInvariantAllocator); }

  void after() {
    run(p_.after, kHookPart, kAfterAllocator);
    // Relaxed: after() runs after Relacy's global fence; it reads the final memory.
    for (unsigned i = 0; i < p_.atomics.size(); ++i)
      if (p_.atomics[i].has_value) note(kHookPart, kFinalAtomic - int(i), atomics_[i]->load(std::memory_order_relaxed));
    for (unsigned i = 0; i < p_.cells.size(); ++i)
      if (p_.cells[i].has_value) note(kHookPart, kFinalCell - int(i), cells_[i]->load());
    for (unsigned i = 0; i < p_.slot_filled.size(); ++i) {
      SyncBlock* b = slots_[i]->load(std::memory_order_relaxed);
      note(kHookPart, kFinalSlot - int(i), which(b));
      if (!b) continue;
      note(kHookPart, kFinalSlotValue - int(i), b->a->load(std::memory_order_relaxed));
      destroy(b);
    }
  }

  std::uint64_t outcome() const {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned part = 0; part < kParts; ++part) {
      h = fnv(h, 0xfffffffful + part);
      for (unsigned i = 0; i < log_.count[part]; ++i)
        h = fnv(h, (std::uint64_t(std::uint32_t(log_.entries[part][i].label)) << 32) |
                       std::uint32_t(log_.entries[part][i].value));
    }
    if (overflowed_) h = fnv(h, 0xdeadull);
    keep_record(h);
    return h;
  }

 private:
  // --- logs ----------------------------------------------------------------------
  void note(unsigned part, std::int32_t label, std::int32_t value) {
    if (log_.count[part] == kLogEntries) {
      overflowed_ = true;
      overflowed = true;
      return;
    }
    log_.entries[part][log_.count[part]++] = {label, value};
  }
  void keep_record(std::uint64_t h) const {
    for (unsigned i = 0; i < record_count; ++i)
      if (records[i].hash == h) return;
    if (record_count == kRecords) return;  // printed as "(no record kept)"
    records[record_count].hash = h;
    records[record_count].log = log_;
    ++record_count;
  }

  // --- blocks ---------------------------------------------------------------------
  struct Allocation {
    const void* address;
    unsigned allocator, number;
    bool live;
  };
  // A new block at `address`: fresh, or the block of an earlier allocation that was freed.
  std::int32_t allocated(const void* address, unsigned allocator) {
    std::int32_t reused = kFresh;
    for (unsigned i = allocation_count_; i-- > 0;)
      if (allocations_[i].address == address) {
        if (!allocations_[i].live) reused = token(allocations_[i].allocator, allocations_[i].number);
        // An invariant allocating again the block it freed last time: the same
        // (unnumbered) block, not a new entry at every scheduling point.
        if (!allocations_[i].live && allocator == kInvariantAllocator && allocations_[i].allocator == allocator) {
          allocations_[i].live = true;
          return reused;
        }
        break;
      }
    if (allocation_count_ == kAllocations) {  // never silently wrong: an identity would be lost
      std::fprintf(stderr, "lfcheck-dpor-fuzz: more than %u allocations in one execution\n", kAllocations);
      std::abort();
    }
    allocations_[allocation_count_++] = {address, allocator, numbers_[allocator]++, true};
    return reused;
  }
  std::int32_t which(const void* address) const {
    if (!address) return kNoBlock;
    for (unsigned i = allocation_count_; i-- > 0;)
      if (allocations_[i].address == address && allocations_[i].live)
        return token(allocations_[i].allocator, allocations_[i].number);
    return kNoBlock;
  }
  void freed(const void* address) {
    for (unsigned i = allocation_count_; i-- > 0;)
      if (allocations_[i].address == address && allocations_[i].live) {
        allocations_[i].live = false;
        return;
      }
  }
  SyncBlock* create_sync(unsigned allocator, std::int32_t* reuse = nullptr) {
    SyncBlock* b = Sync::template create<SyncBlock>();
    const std::int32_t r = allocated(b, allocator);
    // Relaxed: as the constructor's store would be; whoever gets b gets it through a slot.
    if (p_.block_stores_after) b->a->store(0, std::memory_order_relaxed);
    if (reuse) *reuse = r;
    return b;
  }
  template <class B>
  void destroy(B* b) {
    freed(b);
    Sync::destroy(b);
  }

  // --- statements -------------------------------------------------------------------
  void run(const std::vector<Op>& ops, unsigned part, unsigned allocator) {
    for (const Op& op : ops) run(op, part, allocator);
  }

  void hint(Hint h) {
    if (h == Hint::yield) Sync::yield();
    else Sync::spin_hint();
  }

  int rmw(Atomic& a, const Op& op) {
    const auto mo = order(op.order);
    switch (op.rmw) {
      case Rmw::exchange: return a.exchange(op.value, mo);
      case Rmw::fetch_add: return a.fetch_add(op.value, mo);
      case Rmw::fetch_sub: return a.fetch_sub(op.value, mo);
      case Rmw::fetch_or: return a.fetch_or(op.value, mo);
      case Rmw::fetch_and: return a.fetch_and(op.value, mo);
    }
    return 0;
  }

  bool cas(Atomic& a, int& expected, int desired, const Op& op) {
    return op.weak ? a.compare_exchange_weak(expected, desired, order(op.order), order(op.failure))
                   : a.compare_exchange_strong(expected, desired, order(op.order), order(op.failure));
  }

  void use(SyncBlock* b, const Op& op, unsigned part) {
    switch (op.use) {
      case BlockUse::load: note(part, op.label, b->a->load(order(op.failure))); break;
      case BlockUse::store: b->a->store(op.value, order(op.failure)); break;
      case BlockUse::fetch_add: note(part, op.label, b->a->fetch_add(1, order(op.failure))); break;
      case BlockUse::cell_load: note(part, op.label, b->c.load()); break;
      case BlockUse::cell_store: b->c.store(op.value); break;
      case BlockUse::lock_store:
        b->m.lock();
        b->a->store(op.value, std::memory_order_relaxed);  // relaxed: ordered by b->m
        b->m.unlock();
        break;
      case BlockUse::lock_unlock:
        b->m.lock();
        b->m.unlock();
        break;
      case BlockUse::notify: b->v.notify_all(); break;
    }
  }

  void run(const Op& op, unsigned part, unsigned allocator) {
    switch (op.kind) {
      case Kind::load: note(part, op.label, atomics_[op.object]->load(order(op.order))); break;
      case Kind::store: atomics_[op.object]->store(op.value, order(op.order)); break;
      case Kind::rmw: note(part, op.label, rmw(*atomics_[op.object], op)); break;
      case Kind::cas: {
        int expected = op.expected;
        const bool ok = cas(*atomics_[op.object], expected, op.value, op);
        note(part, op.label, ok);
        note(part, op.label, expected);
        break;
      }
      case Kind::cas_loop: {
        Atomic& a = *atomics_[op.object];
        int e = a.load(std::memory_order_relaxed);  // relaxed: the CAS checks what it read
        while (!cas(a, e, e + op.value, op)) Sync::spin_hint();
        note(part, op.label, e);
        break;
      }
      case Kind::fence: Sync::fence(order(op.order)); break;
      case Kind::cell_load: note(part, op.label, cells_[op.object]->load()); break;
      case Kind::cell_store: cells_[op.object]->store(op.value); break;
      case Kind::locked:
        mutexes_[op.mutex]->lock();
        run(op.body, part, allocator);
        mutexes_[op.mutex]->unlock();
        break;
      case Kind::wait: wait(op, part); break;
      case Kind::signal: {
        auto& m = *mutexes_[op.mutex];
        m.lock();
        cells_[op.cell]->store(op.value);
        if (!op.outside) notify(*condvars_[op.object], op.all);
        m.unlock();
        if (op.outside) notify(*condvars_[op.object], op.all);
        break;
      }
      case Kind::notify: notify(*condvars_[op.object], op.all); break;
      case Kind::hint: hint(op.hint); break;
      case Kind::await: await(op, part, allocator); break;
      case Kind::publish: {
        std::int32_t reuse = kFresh;
        SyncBlock* b = create_sync(allocator, &reuse);
        note(part, op.label, reuse);
        b->c.store(op.value);
        SyncBlock* old = slots_[op.object]->exchange(b, order(op.order));
        if (old) destroy(old);
        break;
      }
      case Kind::take: {
        SyncBlock* b = slots_[op.object]->exchange(nullptr, order(op.order));
        note(part, op.label, which(b));
        if (!b) break;
        note(part, op.label, b->a->load(std::memory_order_relaxed));  // relaxed: an atomic, read once
        destroy(b);
        break;
      }
      case Kind::peek: {
        SyncBlock* b = slots_[op.object]->load(order(op.order));
        note(part, op.label, which(b));
        if (b) use(b, op, part);
        break;
      }
      case Kind::local_block:
        if (op.block == BlockKind::sync) {
          std::int32_t reuse = kFresh;
          SyncBlock* b = create_sync(allocator, &reuse);
          if (op.label >= 0) note(part, op.label, reuse);
          destroy(b);
        } else {
          PlainBlock* b = Sync::template create<PlainBlock>();
          const std::int32_t reuse = allocated(b, allocator);
          if (op.label >= 0) note(part, op.label, reuse);
          destroy(b);
        }
        break;
      case Kind::check: {
        // Relaxed: invariant() reads the latest values between steps.
        const int x = atomics_[op.object]->load(std::memory_order_relaxed);
        const int y = atomics_[op.mutex]->load(std::memory_order_relaxed);
        Sync::check(!(x == op.value && y == op.expected), "fuzz invariant");
        break;
      }
      case Kind::observe: {
        const int x = atomics_[op.object]->load(std::memory_order_relaxed);  // relaxed: as check
        const int y = atomics_[op.mutex]->load(std::memory_order_relaxed);
        observe((std::uint64_t(op.object) << 56) | (std::uint64_t(op.mutex) << 48) |
                (std::uint64_t(std::uint16_t(x)) << 16) | std::uint16_t(y));
        break;
      }
    }
  }

  void notify(typename Sync::condvar& v, bool all) {
    if (all) v.notify_all();
    else v.notify_one();
  }

  void wait(const Op& op, unsigned part) {
    auto& m = *mutexes_[op.mutex];
    auto& v = *condvars_[op.object];
    Cell& c = *cells_[op.cell];
    m.lock();
    if (op.timed) {
      int timeouts = 0;
      for (int round = 0; round < 2 && c.load() != op.value; ++round)
        if (!v.wait_for_ns(m, 1)) ++timeouts;
      note(part, op.label, c.load());
      note(part, op.label, timeouts);
    } else {
      while (c.load() != op.value) v.wait(m);
      note(part, op.label, c.load());
    }
    m.unlock();
  }

  // What flows out of the loop is logged: the reads of its last iteration that ran
  // the body, and the check that ended it (interpreter.hpp).
  void await(const Op& op, unsigned part, unsigned allocator) {
    Atomic& a = *atomics_[op.object];
    const unsigned loop_start = log_.count[part];
    for (;;) {
      const unsigned begin = log_.count[part];
      const int seen = a.load(order(op.order));
      note(part, op.label, seen);
      if (seen == op.value) break;
      run(op.body, part, allocator);
      // This iteration replaces the one before it.
      const unsigned length = log_.count[part] - begin;
      std::memmove(log_.entries[part] + loop_start, log_.entries[part] + begin, length * sizeof(Entry));
      log_.count[part] = loop_start + length;
      hint(op.hint);
    }
  }

  void observe(std::uint64_t s) {
    for (unsigned i = 0; i < state_count; ++i)
      if (states[i] == s) return;
    if (state_count == kStates) {
      overflowed = true;
      return;
    }
    states[state_count++] = s;
  }

  const Program& p_;
  std::optional<Atomic> atomics_[kMaxAtomics];
  std::optional<Cell> cells_[kMaxCells];
  std::optional<typename Sync::mutex> mutexes_[kMaxMutexes];
  std::optional<typename Sync::condvar> condvars_[kMaxCondvars];
  std::optional<Slot> slots_[kMaxSlots];
  Log log_;
  bool overflowed_ = false;
  static constexpr unsigned kAllocations = 256;
  Allocation allocations_[kAllocations];
  unsigned allocation_count_ = 0;
  unsigned numbers_[kAllocators] = {};
};

using Scenario = Interpreter<RelacySync>;

// --- printing ---------------------------------------------------------------------

std::string block_text(std::int32_t t) {
  if (t == kNoBlock) return "(none)";
  const unsigned allocator = (t - 1) / 16, number = (t - 1) % 16;
  std::string who = allocator < kMaxThreads ? "t" + std::to_string(allocator)
                    : allocator == kSetup   ? std::string("setup")
                    : allocator == kInvariantAllocator ? std::string("invariant")
                                                       : std::string("after");
  return allocator == kInvariantAllocator ? "an invariant's block" : who + "#" + std::to_string(number);
}

// How label rN's values print: by the statement that has it.
const Op* labelled(const std::vector<Op>& ops, int label) {
  for (const Op& op : ops) {
    if (op.label == label) return &op;
    if (const Op* inner = labelled(op.body, label)) return inner;
  }
  return nullptr;
}
const Op* labelled(const Program& p, int label) {
  if (const Op* op = labelled(p.before, label)) return op;
  for (const auto& t : p.threads)
    if (const Op* op = labelled(t, label)) return op;
  if (const Op* op = labelled(p.invariant, label)) return op;
  return labelled(p.after, label);
}

std::string entry_text(const Program& p, const Entry& e, bool first_of_label) {
  if (e.label <= kFinalSlotValue + 0 && e.label > kFinalSlotValue - 10)
    return "p" + std::to_string(kFinalSlotValue - e.label) + "->a=" + std::to_string(e.value);
  if (e.label <= kFinalSlot && e.label > kFinalSlot - 10)
    return "p" + std::to_string(kFinalSlot - e.label) + "=" + block_text(e.value);
  if (e.label <= kFinalCell && e.label > kFinalCell - 10)
    return "c" + std::to_string(kFinalCell - e.label) + "=" + std::to_string(e.value);
  if (e.label <= kFinalAtomic && e.label > kFinalAtomic - 10)
    return "a" + std::to_string(kFinalAtomic - e.label) + "=" + std::to_string(e.value);
  const Op* op = labelled(p, e.label);
  std::string value = std::to_string(e.value);
  if (op && first_of_label) {
    if (op->kind == Kind::take || op->kind == Kind::peek) value = block_text(e.value);
    if (op->kind == Kind::publish || op->kind == Kind::local_block)
      value = e.value == kFresh ? "fresh" : "reuses " + block_text(e.value);
  }
  return value;
}

}  // namespace

Break parse_break(const std::string& n, bool& ok) {
  ok = true;
  if (n == "none") return Break::none;
  if (n == "store-as-load") return Break::store_as_load;
  if (n == "free-unannounced") return Break::free_unannounced;
  ok = false;
  return Break::none;
}

const char* name(Break b) {
  switch (b) {
    case Break::none: return "none";
    case Break::store_as_load: return "store-as-load";
    case Break::free_unannounced: return "free-unannounced";
  }
  return "?";
}

void set_program(const Program* p, Break f) {
  program = p;
  fault = f;
}

const model::ScenarioHooks& interpreter_hooks() { return model::hooks_for<Scenario>(); }

void clear_run_records() {
  record_count = 0;
  state_count = 0;
  overflowed = false;
}

std::vector<std::uint64_t> observed_states() {
  std::vector<std::uint64_t> v(states, states + state_count);
  std::sort(v.begin(), v.end());
  return v;
}

bool log_overflowed() { return overflowed; }

std::string outcome_text(const Program& p, std::uint64_t outcome) {
  const Record* r = nullptr;
  for (unsigned i = 0; i < record_count; ++i)
    if (records[i].hash == outcome) r = &records[i];
  if (!r) return "(no record kept)";
  std::string out;
  for (unsigned part = 0; part < kParts; ++part) {
    if (r->log.count[part] == 0) continue;
    if (!out.empty()) out += " ";
    out += part == kHookPart ? "hooks{" : "t" + std::to_string(part) + "{";
    std::int32_t last = 0x7fffffff;
    for (unsigned i = 0; i < r->log.count[part]; ++i) {
      const Entry& e = r->log.entries[part][i];
      const bool first = e.label != last;
      if (e.label >= 0) {
        out += first ? (i ? " r" : "r") + std::to_string(e.label) + "=" : ",";
        out += entry_text(p, e, first);
      } else {
        out += (i ? " " : "") + entry_text(p, e, true);
      }
      last = e.label;
    }
    out += "}";
  }
  return out;
}

std::string state_text(const Program&, std::uint64_t s) {
  return "(a" + std::to_string((s >> 56) & 0xff) + ", a" + std::to_string((s >> 48) & 0xff) +
         ") = (" + std::to_string(std::int16_t((s >> 16) & 0xffff)) + ", " + std::to_string(std::int16_t(s & 0xffff)) +
         ")";
}

}  // namespace lfcheck::dpor_fuzz
