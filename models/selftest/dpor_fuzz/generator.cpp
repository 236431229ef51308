// The fuzzer's random programs (generator.hpp).
#include "models/selftest/dpor_fuzz/generator.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <utility>

namespace lfcheck::dpor_fuzz {
namespace {

// splitmix64: the program's own stream of numbers.
class Random {
 public:
  Random(std::uint64_t seed, std::uint64_t index) : state_(seed * 0x9e3779b97f4a7c15ull ^ mix(index + 0x51ed27)) {}
  std::uint64_t next() { return mix(state_ += 0x9e3779b97f4a7c15ull); }
  unsigned below(unsigned n) { return n ? static_cast<unsigned>(next() % n) : 0; }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <class T>
  T pick(std::initializer_list<T> options) {
    return options.begin()[below(static_cast<unsigned>(options.size()))];
  }

 private:
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint64_t state_;
};

// Who may touch a cell without a data race (most of the time).
struct CellRule {
  enum { owned, guarded, free } kind = owned;
  unsigned owner = 0;  // owned: the thread; guarded: the mutex
};

class Generator {
 public:
  Generator(std::uint64_t seed, std::uint64_t index, const Shape& shape) : r_(seed, index), shape_(shape) {
    p_.seed = seed;
    p_.index = index;
    const unsigned span = shape.max_threads - shape.min_threads + 1;
    threads_ = shape.min_threads + r_.below(span);
  }

  Program make() {
    p_.block_stores_after = !shape_.has(Feature::block_constructors);
    objects();
    p_.threads.resize(threads_);
    const unsigned most = threads_ <= 2 ? 4 : 3;
    for (unsigned t = 0; t < threads_; ++t) {
      const unsigned n = 1 + r_.below(most);
      for (unsigned i = 0; i < n; ++i) p_.threads[t].push_back(statement(t, /*depth=*/0));
    }
    hooks();
    complete_awaits();
    complete_waits();
    assign_labels(p_);
    return std::move(p_);
  }

 private:
  // --- the shared objects ---------------------------------------------------------
  void objects() {
    const unsigned atomics = 1 + r_.below(kMaxAtomics);
    for (unsigned i = 0; i < atomics; ++i) p_.atomics.push_back(initial(3));
    p_.mutexes = r_.pick({0u, 0u, 1u, 1u, 2u});
    unsigned cells = r_.pick({0u, 0u, 1u, 1u, 2u});
    if (focus(Feature::await_writes)) p_.mutexes = std::max(p_.mutexes, 1u), cells = std::max(cells, 1u);
    for (unsigned i = 0; i < cells; ++i) {
      p_.cells.push_back(initial(5));
      CellRule rule;
      const unsigned roll = r_.below(100);
      if (roll < 15) rule.kind = CellRule::free;
      else if (roll < 55 && p_.mutexes) rule = {CellRule::guarded, r_.below(p_.mutexes)};
      else rule = {CellRule::owned, r_.below(threads_)};
      cell_rules_[i] = rule;
    }
    // A condition variable needs a mutex and a cell it guards (the condition).
    if (p_.mutexes && cells && (r_.chance(45) || focus(Feature::await_writes))) {
      p_.condvars = r_.chance(80) ? 1 : 2;
      for (unsigned v = 0; v < p_.condvars; ++v) {
        condvar_mutex_[v] = r_.below(p_.mutexes);
        condvar_cell_[v] = r_.below(cells);
        p_.cells[condvar_cell_[v]].has_value = true;  // a waiter reads it first
        cell_rules_[condvar_cell_[v]] = {CellRule::guarded, condvar_mutex_[v]};
      }
      if (p_.condvars == 2 && condvar_cell_[1] == condvar_cell_[0]) condvar_mutex_[1] = condvar_mutex_[0];
    }
    unsigned slots = r_.pick({0u, 0u, 0u, 1u, 1u, 2u});
    if (focus(Feature::block_sync)) slots = std::max(slots, 1u);
    for (unsigned i = 0; i < slots; ++i) p_.slot_filled.push_back(r_.chance(40) || focus(Feature::block_sync));
  }
  Initial initial(unsigned none_percent) {
    Initial v;
    v.has_value = !r_.chance(none_percent);
    v.value = r_.chance(75) ? 0 : 1;
    return v;
  }

  // --- orders -------------------------------------------------------------------
  Mo load_order() { return r_.pick({Mo::relaxed, Mo::consume, Mo::acquire, Mo::seq_cst}); }
  Mo store_order() { return r_.pick({Mo::relaxed, Mo::release, Mo::seq_cst}); }
  Mo any_order() { return r_.pick({Mo::relaxed, Mo::consume, Mo::acquire, Mo::release, Mo::acq_rel, Mo::seq_cst}); }
  // A failure order the success order allows (docs/sync-api.md's table).
  Mo failure_order(Mo success) {
    switch (success) {
      case Mo::relaxed: case Mo::release: return Mo::relaxed;
      case Mo::consume: return r_.pick({Mo::relaxed, Mo::consume});
      case Mo::acquire: case Mo::acq_rel: return r_.pick({Mo::relaxed, Mo::consume, Mo::acquire});
      case Mo::seq_cst: return r_.pick({Mo::relaxed, Mo::consume, Mo::acquire, Mo::seq_cst});
    }
    return Mo::relaxed;
  }

  unsigned any_atomic() { return r_.below(static_cast<unsigned>(p_.atomics.size())); }
  // An atomic with a value from the start (an await or check reads it before any store).
  bool initialised_atomic(unsigned& a) {
    for (unsigned tries = 0; tries < 8; ++tries) {
      a = any_atomic();
      if (p_.atomics[a].has_value) return true;
    }
    return false;
  }
  int small_value() { return static_cast<int>(1 + r_.below(2)); }

  // An atomic with an initial value that some thread stores into (any: `other` if
  // possible, else another), for the invariant.
  static void collect_stores(const std::vector<Op>& ops, std::vector<std::pair<unsigned, int>>& out) {
    for (const Op& op : ops) {
      if (op.kind == Kind::store || (op.kind == Kind::rmw && op.rmw == Rmw::exchange) ||
          op.kind == Kind::cas)
        out.push_back({op.object, op.value});
      collect_stores(op.body, out);
    }
  }
  std::vector<std::pair<unsigned, int>> stores_by_threads() const {
    std::vector<std::pair<unsigned, int>> out;
    for (const auto& t : p_.threads) collect_stores(t, out);
    return out;
  }
  bool written_atomic(unsigned& a, unsigned other = ~0u) {
    std::vector<unsigned> candidates;
    for (const auto& [atomic, value] : stores_by_threads())
      if (p_.atomics[atomic].has_value && atomic != other) candidates.push_back(atomic);
    if (candidates.empty()) return other != ~0u ? initialised_atomic(a) : false;
    a = candidates[r_.below(static_cast<unsigned>(candidates.size()))];
    return true;
  }
  int stored_value(unsigned a) {
    std::vector<int> values;
    for (const auto& [atomic, value] : stores_by_threads())
      if (atomic == a) values.push_back(value);
    return values.empty() ? small_value() : values[r_.below(static_cast<unsigned>(values.size()))];
  }

  // A cell thread t may touch here (`guard`: the mutex held, or kNoMutex).
  static constexpr unsigned kNoMutex = ~0u;
  bool usable_cell(unsigned t, unsigned guard, unsigned& c) {
    unsigned candidates[kMaxCells], n = 0;
    for (unsigned i = 0; i < p_.cells.size(); ++i) {
      const CellRule& rule = cell_rules_[i];
      if (rule.kind == CellRule::free || (rule.kind == CellRule::owned && (rule.owner == t || t == kHooks)) ||
          (rule.kind == CellRule::guarded && (rule.owner == guard || t == kHooks)))
        candidates[n++] = i;
    }
    if (!n) return false;
    c = candidates[r_.below(n)];
    return true;
  }
  static constexpr unsigned kHooks = ~0u;  // the single-threaded code: every cell is its own

  // --- statements -------------------------------------------------------------------
  Op simple_access(unsigned t, unsigned guard) {
    Op op;
    unsigned c = 0;
    const unsigned roll = r_.below(100);
    if (roll < 30) {
      op.kind = Kind::load;
      op.object = any_atomic();
      op.order = load_order();
    } else if (roll < 60) {
      op.kind = Kind::store;
      op.object = any_atomic();
      op.value = small_value();
      op.order = store_order();
    } else if (roll < 75) {
      op.kind = Kind::rmw;
      op.object = any_atomic();
      op.rmw = r_.pick({Rmw::exchange, Rmw::fetch_add, Rmw::fetch_sub, Rmw::fetch_or, Rmw::fetch_and});
      op.value = small_value();
      op.order = any_order();
    } else if (usable_cell(t, guard, c)) {
      op.kind = r_.chance(50) ? Kind::cell_load : Kind::cell_store;
      op.object = c;
      op.value = small_value();
    } else {
      op.kind = Kind::load;
      op.object = any_atomic();
      op.order = load_order();
    }
    return op;
  }

  Op statement(unsigned t, unsigned depth) {
    for (;;) {
      Op op;
      unsigned roll = r_.below(120);
      // A focus sends half of the simple accesses to the statements of its class.
      if (focus(Feature::block_sync) && roll < 40 && roll % 2) roll = 87 + roll % 11;         // slots
      if (focus(Feature::await_writes) && roll < 40 && roll % 2) roll = roll % 4 ? 78 : 63;  // awaits, waits
      if (roll < 40) return simple_access(t, kNoMutex);
      if (roll < 48) {
        op.kind = Kind::cas;
        op.object = any_atomic();
        op.weak = r_.chance(50);
        op.expected = static_cast<int>(r_.below(3));
        op.value = small_value();
        op.order = any_order();
        op.failure = failure_order(op.order);
        return op;
      }
      if (roll < 51) {
        op.kind = Kind::cas_loop;
        if (!initialised_atomic(op.object)) continue;
        op.weak = r_.chance(60);
        op.value = small_value();
        op.order = any_order();
        op.failure = failure_order(op.order);
        return op;
      }
      if (roll < 56) {
        op.kind = Kind::fence;
        op.order = any_order();
        return op;
      }
      if (roll < 63) {
        if (!p_.mutexes) continue;
        op.kind = Kind::locked;
        op.mutex = r_.below(p_.mutexes);
        const unsigned n = 1 + r_.below(2);
        for (unsigned i = 0; i < n; ++i) {
          if (p_.condvars && r_.chance(20)) {
            Op notify;
            notify.kind = Kind::notify;
            notify.object = r_.below(p_.condvars);
            notify.all = r_.chance(50);
            op.body.push_back(notify);
          } else {
            op.body.push_back(simple_access(t, op.mutex));
          }
        }
        return op;
      }
      if (roll < 68) {
        if (!p_.condvars) continue;
        op.kind = r_.chance(55) ? Kind::wait : Kind::signal;
        op.object = r_.below(p_.condvars);
        op.mutex = condvar_mutex_[op.object];
        op.cell = condvar_cell_[op.object];
        op.value = small_value();
        op.timed = (r_.chance(40) || focus(Feature::await_writes)) && shape_.has(Feature::timed_waits);
        op.all = r_.chance(50);
        op.outside = r_.chance(30);
        return op;
      }
      if (roll < 71) {
        if (!p_.condvars) continue;
        op.kind = Kind::notify;
        op.object = r_.below(p_.condvars);
        op.all = r_.chance(50);
        return op;
      }
      if (roll < 78) {
        if (!shape_.has(Feature::standalone_hints)) continue;
        op.kind = Kind::hint;
        op.hint = r_.chance(50) ? Hint::spin_hint : Hint::yield;
        return op;
      }
      if (roll < 86) {
        if (depth > 0 || !initialised_atomic(op.object)) continue;
        op.kind = Kind::await;
        op.order = load_order();
        op.value = small_value();
        op.hint = r_.chance(60) ? Hint::spin_hint : Hint::yield;
        if (r_.chance(60) || focus(Feature::await_writes)) op.body.push_back(await_body(t, op.object));
        if (!op.body.empty() && !shape_.has(Feature::await_writes) && op.body[0].kind != Kind::load &&
            op.body[0].kind != Kind::cell_load)
          op.body.clear();
        return op;
      }
      if (roll < 98) {
        if (p_.slot_filled.empty()) continue;
        const unsigned which = r_.below(3);
        op.object = r_.below(static_cast<unsigned>(p_.slot_filled.size()));
        if (which == 0) {
          op.kind = Kind::publish;
          op.value = small_value();
          op.order = r_.pick({Mo::release, Mo::acq_rel, Mo::seq_cst, Mo::relaxed});
        } else if (which == 1) {
          op.kind = Kind::take;
          op.order = r_.pick({Mo::acquire, Mo::acq_rel, Mo::seq_cst, Mo::relaxed});
        } else {
          op.kind = Kind::peek;
          op.order = r_.pick({Mo::acquire, Mo::seq_cst, Mo::consume, Mo::relaxed});
          op.use = r_.pick({BlockUse::load, BlockUse::store, BlockUse::fetch_add, BlockUse::cell_load,
                            BlockUse::cell_store, BlockUse::lock_store, BlockUse::lock_unlock, BlockUse::notify});
          if (!shape_.has(Feature::block_sync) &&
              (op.use == BlockUse::lock_store || op.use == BlockUse::lock_unlock || op.use == BlockUse::notify))
            op.use = BlockUse::load;
          if (focus(Feature::block_sync))
            op.use = std::array{BlockUse::lock_store, BlockUse::lock_unlock, BlockUse::notify}[static_cast<unsigned>(op.use) % 3];
          op.failure = op.use == BlockUse::store ? store_order() : op.use == BlockUse::load ? load_order() : any_order();
          op.value = small_value();
        }
        return op;
      }
      if (roll < 104) {
        op.kind = Kind::local_block;
        op.block = r_.chance(60) ? BlockKind::sync : BlockKind::plain;
        return op;
      }
      return simple_access(t, kNoMutex);
    }
  }

  // What an await loop does between its checks: reads, a notify, or a write.
  Op await_body(unsigned t, unsigned awaited) {
    Op op;
    const unsigned roll = r_.below(100);
    if (roll < 35) {
      op.kind = Kind::load;
      op.object = any_atomic();
      op.order = load_order();
    } else if ((roll < 55 || (focus(Feature::await_writes) && roll < 75)) && p_.condvars) {
      op.kind = Kind::notify;
      op.object = r_.below(p_.condvars);
      op.all = r_.chance(60);
    } else if (roll < 75) {
      op.kind = Kind::store;
      op.object = any_atomic();
      if (op.object == awaited && p_.atomics.size() > 1) op.object = (awaited + 1) % p_.atomics.size();
      op.value = small_value();
      op.order = store_order();
    } else if (roll < 88) {
      op.kind = Kind::rmw;
      op.object = any_atomic();
      if (op.object == awaited && p_.atomics.size() > 1) op.object = (awaited + 1) % p_.atomics.size();
      op.rmw = r_.pick({Rmw::exchange, Rmw::fetch_or, Rmw::fetch_and});  // bounded values: a loop may run long
      op.value = small_value();
      op.order = any_order();
    } else {
      unsigned c = 0;
      if (usable_cell(t, kNoMutex, c)) {
        op.kind = Kind::cell_load;
        op.object = c;
      } else {
        op.kind = Kind::load;
        op.object = any_atomic();
        op.order = load_order();
      }
    }
    return op;
  }

  // --- the single-threaded code ---------------------------------------------------
  void hooks() {
    if (r_.chance(30)) {
      const unsigned n = 1 + r_.below(2);
      for (unsigned i = 0; i < n; ++i) p_.before.push_back(hook_statement());
    }
    if (r_.chance(25) && shape_.has(Feature::invariant)) {
      // Two atomics the threads write (different ones where there are), so that the
      // states between the threads' steps differ; the check names a state that may
      // show only between steps: a value stored into x, with y at its initial value.
      unsigned x = 0, y = 0;
      if (written_atomic(x) && written_atomic(y, x)) {
        Op op;
        op.object = x;
        op.mutex = y;
        if (r_.chance(60)) {
          op.kind = Kind::observe;
          p_.invariant.push_back(op);
        }
        if (r_.chance(60)) {
          op.kind = Kind::check;
          op.value = stored_value(x);
          op.expected = r_.chance(70) ? p_.atomics[y].value : stored_value(y);
          p_.invariant.push_back(op);
        }
      }
      if (r_.chance(20) && shape_.has(Feature::hook_allocations)) {
        Op op;
        op.kind = Kind::local_block;
        op.block = BlockKind::plain;  // no Relacy object is built inside invariant()
        p_.invariant.push_back(op);
      }
    }
    if (r_.chance(30) && shape_.has(Feature::hook_allocations)) {
      Op op;
      op.kind = Kind::local_block;
      op.block = r_.chance(50) ? BlockKind::sync : BlockKind::plain;
      p_.after.push_back(op);
    }
  }
  Op hook_statement() {
    const unsigned roll = r_.below(100);
    Op op;
    if (roll < 55 || !shape_.has(Feature::hook_allocations)) return simple_access(kHooks, kNoMutex);
    if (roll < 85 && !p_.slot_filled.empty()) {
      op.object = r_.below(static_cast<unsigned>(p_.slot_filled.size()));
      op.kind = r_.chance(50) ? Kind::publish : Kind::take;
      op.value = small_value();
      op.order = Mo::relaxed;
      return op;
    }
    op.kind = Kind::local_block;
    op.block = r_.chance(50) ? BlockKind::sync : BlockKind::plain;
    return op;
  }

  // --- loops that end -----------------------------------------------------------------
  // Whether `ops` stores `value` into atomic a at their top level (unconditionally).
  static bool stores(const std::vector<Op>& ops, unsigned a, int value) {
    for (const Op& op : ops)
      if (op.object == a && op.value == value &&
          (op.kind == Kind::store || (op.kind == Kind::rmw && op.rmw == Rmw::exchange)))
        return true;
    return false;
  }
  // The value another thread stores last (top level) into atomic a, if any.
  bool last_stored(unsigned t, unsigned a, int& value) const {
    bool found = false;
    for (unsigned u = 0; u < threads_; ++u) {
      if (u == t) continue;
      for (const Op& op : p_.threads[u])
        if (op.object == a && (op.kind == Kind::store || (op.kind == Kind::rmw && op.rmw == Rmw::exchange))) {
          value = op.value;
          found = true;
        }
    }
    return found;
  }
  void complete_awaits() {
    for (unsigned t = 0; t < threads_; ++t)
      for (Op& op : p_.threads[t]) {
        if (op.kind != Kind::await) continue;
        // Wait for what another thread stores last, where one does: a value
        // overwritten before the loop sees it leaves it spinning (a livelock both
        // searches report; the likelier the wait ends, the more a program tests).
        int value = 0;
        if (r_.chance(70) && last_stored(t, op.object, value) && value != p_.atomics[op.object].value) op.value = value;
        bool stored = false;
        for (unsigned u = 0; u < threads_; ++u)
          if (u != t && stores(p_.threads[u], op.object, op.value)) stored = true;
        if (stored || threads_ < 2) continue;
        const unsigned u = (t + 1 + r_.below(threads_ - 1)) % threads_;
        Op store;
        store.kind = Kind::store;
        store.object = op.object;
        store.value = op.value;
        store.order = store_order();
        auto& ops = p_.threads[u];
        ops.insert(ops.begin() + r_.below(static_cast<unsigned>(ops.size()) + 1), store);
      }
  }
  static bool signals(const std::vector<Op>& ops, const Op& wait) {
    for (const Op& op : ops)
      if (op.kind == Kind::signal && op.object == wait.object && op.value == wait.value) return true;
    return false;
  }
  void complete_waits() {
    for (unsigned t = 0; t < threads_; ++t)
      for (const Op& op : p_.threads[t]) {
        if (op.kind != Kind::wait || op.timed) continue;
        bool signalled = false;
        for (unsigned u = 0; u < threads_; ++u)
          if (u != t && signals(p_.threads[u], op)) signalled = true;
        if (signalled || threads_ < 2) continue;
        const unsigned u = (t + 1 + r_.below(threads_ - 1)) % threads_;
        Op signal = op;
        signal.kind = Kind::signal;
        signal.timed = false;
        signal.label = -1;
        auto& ops = p_.threads[u];
        ops.insert(ops.begin() + r_.below(static_cast<unsigned>(ops.size()) + 1), signal);
      }
  }

  // Whether the run focuses on feature f (Shape::focus): the draws are the same, their
  // use leans to f's statements (program I of a seed differs from the unfocused one).
  bool focus(Feature f) const { return shape_.focus == f && shape_.has(f); }

  Random r_;
  Shape shape_;
  Program p_;
  unsigned threads_ = 2;
  CellRule cell_rules_[kMaxCells];
  unsigned condvar_mutex_[kMaxCondvars] = {}, condvar_cell_[kMaxCondvars] = {};
};

}  // namespace

const char* name(Feature f) {
  switch (f) {
    case Feature::hook_allocations: return "hook-allocations";
    case Feature::standalone_hints: return "standalone-hints";
    case Feature::invariant: return "invariant";
    case Feature::await_writes: return "await-writes";
    case Feature::timed_waits: return "timed-waits";
    case Feature::block_sync: return "block-sync";
    case Feature::block_constructors: return "block-constructors";
    case Feature::count: break;
  }
  return "?";
}

bool parse_feature(const std::string& n, Feature& f) {
  for (unsigned i = 0; i < static_cast<unsigned>(Feature::count); ++i)
    if (n == name(static_cast<Feature>(i))) {
      f = static_cast<Feature>(i);
      return true;
    }
  return false;
}

Program generate(std::uint64_t seed, std::uint64_t index, const Shape& shape) {
  return Generator(seed, index, shape).make();
}

}  // namespace lfcheck::dpor_fuzz
