// DaryHeap — the d-ary min-heap behind every timer worker (Arity 4 in
// production, 2 for the binary baseline), the global-lock timer baseline and
// DeliQueue's message heaps. Not thread-safe: its owner guards it (a worker's
// lock; the Looper thread).
//
// Layout (why it is fast)
//   Keys (what the order compares) and values (what only the owner reads) live
//   in two parallel arrays: a sift reads only keys, so the Arity children it
//   compares sit side by side in one block of keys (4-ary with 16-byte keys:
//   exactly one 64-byte line) and it never follows a pointer to compare. A heap
//   whose payload fits in the key (a timer: (when, timer) is 16 bytes) has an
//   empty Value (NoValue) and no second array, so one line per level holds all.
//   Each array starts at an offset chosen so that every block of siblings
//   (children Arity*i+1 .. Arity*i+Arity) begins on a boundary of its own size
//   (up to 64 bytes), so one block never straddles two cache lines; this needs
//   the allocation to be aligned to the element size, otherwise the heap is just
//   as correct, without that guarantee.
//
// Algorithms
//   The smallest of a full block of 2 or 4 children is picked by a tournament of
//   conditional moves (no data-dependent branch: with random keys a branch there
//   is mispredicted about every other level); other arities use a loop.
//   remove_at (and so the pop of the head) is bottom-up (Floyd): the hole left at
//   i walks down to a leaf along the smallest children, one comparison per
//   child and none against the entry that fills it, then the former last entry
//   climbs back from the leaf, usually not at all (it came from the bottom).
//   set_key sifts up or down from i; push sifts up; heapify is Floyd's build.
//
// Policy (a value of it is kept in the heap):
//   static bool less(const Key&, const Key&)               the strict order of keys
//   void placed(const Key&, const Value&, uint32_t i)      this entry is now at i
//   void removed(const Key&, const Value&)                 it left the heap
//   bool placed_at(const Key&, const Value&, uint32_t i)   (check) the policy agrees
//   placed() is how owners find an entry again (a timer's index, a message's
//   slot in DeliQueue's position table); it is called for every entry written.
//
// Storage (kChecked = true) is Sync::cell arrays: Relacy sees any access made
// without the owner's exclusion as a data race (the timers' heaps, guarded by a
// worker's lock). A heap that one thread owns by construction (DeliQueue's
// Looper) passes kChecked = false: plain arrays, which keep the model checker's
// search to the queue's shared state (every cell access is a point where Relacy
// may switch threads). Arrays double when full. Cost: push O(log_d n)
// comparisons; remove_at about (d - 1) log_d n comparisons plus O(1) expected
// for the climb; one key block and one value block touched per level.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <type_traits>

#include "sync/std_sync.hpp"

namespace lfcheck {

// The Value of a heap whose entries are all key: nothing is stored for it.
struct NoValue {};

// A plain T behind the cell interface (load/store), for kChecked = false.
template <class T>
struct PlainCell {
  PlainCell() = default;
  explicit PlainCell(T v) : v_(v) {}
  T load() const { return v_; }
  void store(T v) { v_ = v; }
  T v_{};
};

// kInline > 0: the first kInline entries live inside the heap object (no
// allocation until the heap outgrows them). Besides saving the allocation, this
// keeps small model-checked queues free of frees: Relacy explores both outcomes
// of every free (reuse deferred or not), so each freed array doubles its search.
template <class Sync, unsigned Arity, class Key, class Value, class Policy, bool kChecked = true,
          unsigned kInline = 0>
class DaryHeap {
  static_assert(Arity >= 2, "a heap has at least two children per node");
  template <class T>
  using Cell = std::conditional_t<kChecked, typename Sync::template cell<T>, PlainCell<T>>;

 public:
  explicit DaryHeap(Policy policy = Policy(), std::uint32_t capacity = 8)
      : keys_raw_(nullptr), keys_(nullptr), vals_raw_(nullptr), vals_(nullptr), size_(0), cap_(0), policy_(policy) {
    if constexpr (kInline > 0) {
      keys_raw_.store(inline_.keys);
      keys_.store(inline_.keys + block_offset(inline_.keys));
      if constexpr (kHasValue) {
        vals_raw_.store(inline_.vals);
        vals_.store(inline_.vals + block_offset(inline_.vals));
      }
      cap_.store(kInline);
    } else {
      reserve(capacity < 1 ? 1 : capacity);
    }
  }
  ~DaryHeap() { release(keys_raw_.load(), vals_raw_.load()); }
  DaryHeap(const DaryHeap&) = delete;
  DaryHeap& operator=(const DaryHeap&) = delete;

  std::uint32_t size() const { return size_.load(); }
  bool empty() const { return size_.load() == 0; }
  Key key(std::uint32_t i) const { return keys_.load()[i].load(); }
  Value value(std::uint32_t i) const {
    if constexpr (kHasValue) return vals_.load()[i].load();
    else return Value{};
  }
  Policy& policy() { return policy_; }
  const Policy& policy() const { return policy_; }

  // ---- heap-ordered operations ------------------------------------------------
  void push(const Key& k, const Value& v) {
    const std::uint32_t n = size_.load();
    if (n == cap_.load()) reserve(2 * n);
    size_.store(n + 1);
    sift_up(n, k, v);
  }
  // Removes the entry at i keeping heap order (bottom-up, see the header).
  void remove_at(std::uint32_t i) {
    const std::uint32_t last = size_.load() - 1;
    policy_.removed(key(i), value(i));
    size_.store(last);
    if (i == last) return;
    const Key k = key(last);
    const Value v = value(last);
    if (i > 0 && Policy::less(k, key(parent(i))))
      sift_up(i, k, v);
    else
      refill_from_leaf(i, k, v);
  }
  // Changes the key of the entry at i and restores heap order.
  void set_key(std::uint32_t i, const Key& k) {
    const Value v = value(i);
    if (i > 0 && Policy::less(k, key(parent(i))))
      sift_up(i, k, v);
    else
      sift_down(i, k, v);
  }
  // Removes the last entry (always heap-preserving) and returns its value.
  Value pop_back() {
    const std::uint32_t last = size_.load() - 1;
    const Value v = value(last);
    policy_.removed(key(last), v);
    size_.store(last);
    return v;
  }

  // ---- unordered operations for a scan (the caller calls heapify() afterwards) --
  // swap_remove: the last entry moves into slot i, with no sift, so a scan that
  // removes at i must look at slot i again.
  void swap_remove(std::uint32_t i) {
    const std::uint32_t last = size_.load() - 1;
    policy_.removed(key(i), value(i));
    if (i != last) put(i, key(last), value(last));
    size_.store(last);
  }
  void set_key_unordered(std::uint32_t i, const Key& k) { keys_.load()[i].store(k); }
  void heapify() {
    const std::uint32_t n = size_.load();
    if (n < 2) return;
    for (std::uint32_t i = parent(n - 1) + 1; i-- > 0;) sift_down(i, key(i), value(i));
  }

  // Quiescent or under the owner's exclusion: heap order (the policy's) and every
  // entry where the policy says it is. nullptr when well formed.
  const char* check() const {
    const std::uint32_t n = size_.load();
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!policy_.placed_at(key(i), value(i), i)) return "heap entry not where its owner's index says";
      if (i > 0 && Policy::less(key(i), key(parent(i)))) return "heap order violated (parent later than child)";
    }
    return nullptr;
  }

 private:
  static constexpr bool kHasValue = !std::is_same_v<Value, NoValue>;
  using KeyCell = Cell<Key>;
  using ValueCell = Cell<Value>;

  static constexpr std::uint32_t parent(std::uint32_t i) { return (i - 1) / Arity; }

  // The offset (in elements) of index 0 in an allocation at address `addr`, so
  // that index 1 (the first child of the root, hence every sibling block) is at
  // a multiple of the block size (capped at a cache line).
  template <class C>
  static std::uint32_t block_offset(const C* raw) {
    const auto addr = reinterpret_cast<std::uintptr_t>(raw);
    constexpr std::uintptr_t elem = sizeof(C);
    constexpr std::uintptr_t block = Arity * elem < 64 ? Arity * elem : 64;
    if (block % elem != 0 || (block & (block - 1)) != 0) return 0;  // no natural boundary
    for (std::uint32_t k = 0; k < block / elem; ++k)
      if ((addr + (k + 1) * elem) % block == 0) return k;
    return 0;  // allocation not aligned to the element size: correct, just unaligned
  }
  // Elements allocated beyond the capacity, room for the offset.
  template <class C>
  static constexpr std::uint32_t kSlack = 64 / sizeof(C) + 1;

  void put(std::uint32_t i, const Key& k, const Value& v) {
    keys_.load()[i].store(k);
    if constexpr (kHasValue) vals_.load()[i].store(v);
    policy_.placed(k, v, i);
  }
  void move(std::uint32_t to, std::uint32_t from) { put(to, key(from), value(from)); }

  void reserve(std::uint32_t cap) {
    KeyCell* const old_kraw = keys_raw_.load();
    ValueCell* const old_vraw = vals_raw_.load();
    const KeyCell* const ok = keys_.load();
    const ValueCell* const ov = vals_.load();
    KeyCell* const kraw = Sync::template create_array<KeyCell>(cap + kSlack<KeyCell>);
    ValueCell* const vraw = kHasValue ? Sync::template create_array<ValueCell>(cap + kSlack<ValueCell>) : nullptr;
    KeyCell* const k = kraw + block_offset(kraw);
    ValueCell* const v = kHasValue ? vraw + block_offset(vraw) : nullptr;
    for (std::uint32_t i = 0, n = size_.load(); i < n; ++i) {
      k[i].store(ok[i].load());
      if constexpr (kHasValue) v[i].store(ov[i].load());
    }
    keys_raw_.store(kraw);
    keys_.store(k);
    vals_raw_.store(vraw);
    vals_.store(v);
    cap_.store(cap);
    release(old_kraw, old_vraw);
  }
  // Frees arrays that were allocated (not the inline ones, not nothing).
  void release(KeyCell* kraw, ValueCell* vraw) {
    if (kraw && !is_inline(kraw)) Sync::destroy_array(kraw);
    if (vraw && !is_inline(vraw)) Sync::destroy_array(vraw);
  }
  bool is_inline(const void* p) const {
    if constexpr (kInline > 0) return p == inline_.keys || p == inline_.vals;
    return false;
  }

  // yes ? a : b as arithmetic on the flag, so that the compiler cannot turn it
  // back into a branch (g++ does for `?:` when the result feeds several loads).
  static std::uint32_t pick(bool yes, std::uint32_t a, std::uint32_t b) {
    return b ^ ((a ^ b) & (0u - static_cast<std::uint32_t>(yes)));
  }

  // yes ? a : b for keys, word by word, so that each word is a conditional move
  // on registers already loaded (no second load on the sift's critical path).
  static Key select(bool yes, const Key& a, const Key& b) {
    if constexpr (std::is_trivially_copyable_v<Key> && sizeof(Key) % sizeof(std::uint64_t) == 0) {
      struct Words {
        std::uint64_t w[sizeof(Key) / sizeof(std::uint64_t)];
      };
      const Words wa = std::bit_cast<Words>(a), wb = std::bit_cast<Words>(b);
      Words r;
      for (std::size_t j = 0; j < sizeof(Key) / sizeof(std::uint64_t); ++j) r.w[j] = yes ? wa.w[j] : wb.w[j];
      return std::bit_cast<Key>(r);
    } else {
      return yes ? a : b;
    }
  }

  // The smallest of the children first .. min(first + Arity, n) - 1 (first < n).
  std::uint32_t min_child(std::uint32_t first, std::uint32_t n) const {
    const KeyCell* const k = keys_.load();
    if (first + Arity <= n) {
      if constexpr (Arity == 2) {
        return first + Policy::less(k[first + 1].load(), k[first].load());
      } else if constexpr (Arity == 4) {
        // Tournament on indices: two independent pairs, then their winners. Each
        // step is a comparison whose flag picks an index (setcc/cmov); the
        // winners' keys are read again (same line, L1) rather than carried.
        const KeyCell* const c = k + first;
        const Key k0 = c[0].load(), k1 = c[1].load(), k2 = c[2].load(), k3 = c[3].load();
        const bool l01 = Policy::less(k1, k0);
        const bool l23 = Policy::less(k3, k2);
        const std::uint32_t a = l01;
        const std::uint32_t b = 2 + l23;
        return first + pick(Policy::less(select(l23, k3, k2), select(l01, k1, k0)), b, a);
      }
    }
    std::uint32_t best = first;
    Key kb = k[first].load();
    const std::uint32_t end = first + Arity < n ? first + Arity : n;
    for (std::uint32_t c = first + 1; c < end; ++c) {
      const Key kc = k[c].load();
      const bool l = Policy::less(kc, kb);
      best = l ? c : best;
      kb = l ? kc : kb;
    }
    return best;
  }

  void sift_up(std::uint32_t i, const Key& k, const Value& v) {
    while (i > 0) {
      const std::uint32_t p = parent(i);
      if (!Policy::less(k, key(p))) break;
      move(i, p);
      i = p;
    }
    put(i, k, v);
  }
  void sift_down(std::uint32_t i, const Key& k, const Value& v) {
    const std::uint32_t n = size_.load();
    for (;;) {
      const std::uint32_t first = i * Arity + 1;
      if (first >= n) break;
      const std::uint32_t c = min_child(first, n);
      if (!Policy::less(key(c), k)) break;
      move(i, c);
      i = c;
    }
    put(i, k, v);
  }
  // The hole at i goes down to a leaf along the smallest children; (k, v) then
  // climbs from there, never above i.
  void refill_from_leaf(std::uint32_t i, const Key& k, const Value& v) {
    const std::uint32_t n = size_.load();
    const std::uint32_t top = i;
    for (;;) {
      const std::uint32_t first = i * Arity + 1;
      if (first >= n) break;
      const std::uint32_t c = min_child(first, n);
      move(i, c);
      i = c;
    }
    while (i > top) {
      const std::uint32_t p = parent(i);
      if (!Policy::less(k, key(p))) break;
      move(i, p);
      i = p;
    }
    put(i, k, v);
  }

  Cell<KeyCell*> keys_raw_;  // the allocations
  Cell<KeyCell*> keys_;      // index 0 (an offset into them)
  Cell<ValueCell*> vals_raw_;
  Cell<ValueCell*> vals_;
  Cell<std::uint32_t> size_;
  Cell<std::uint32_t> cap_;
  Policy policy_;
  // The inline entries (kInline > 0), with room for the block offset.
  template <unsigned N, bool = (N > 0)>
  struct Inline {
    KeyCell keys[N + kSlack<KeyCell>];
    ValueCell vals[kHasValue ? N + kSlack<ValueCell> : 1];
  };
  template <unsigned N>
  struct Inline<N, false> {
    static constexpr KeyCell* keys = nullptr;
    static constexpr ValueCell* vals = nullptr;
  };
  Inline<kInline> inline_;
};

namespace timers_detail {

// The timers' heaps: the key is the whole entry, (when, timer), 16 bytes; the
// heap keeps each timer's index_ cell equal to its position (-1 when on no heap).
// Timer classes befriend the policy.
template <class Node>
struct TimerEntry {
  std::int64_t when;
  Node* node;
  // For the model checker's histories.
  friend std::ostream& operator<<(std::ostream& os, const TimerEntry& e) {
    return os << "{when " << e.when << ", timer " << static_cast<const void*>(e.node) << "}";
  }
};
template <class Node>
struct IndexedNodePolicy {
  static bool less(const TimerEntry<Node>& a, const TimerEntry<Node>& b) { return a.when < b.when; }
  static void placed(const TimerEntry<Node>& e, NoValue, std::uint32_t i) {
    e.node->index_.store(static_cast<std::int32_t>(i));
  }
  static void removed(const TimerEntry<Node>& e, NoValue) { e.node->index_.store(-1); }
  static bool placed_at(const TimerEntry<Node>& e, NoValue, std::uint32_t i) {
    return e.node != nullptr && e.node->index_.load() == static_cast<std::int32_t>(i);
  }
};

template <class Sync, unsigned Arity, class Node>
class TimerHeap : public DaryHeap<Sync, Arity, TimerEntry<Node>, NoValue, IndexedNodePolicy<Node>> {
  using Base = DaryHeap<Sync, Arity, TimerEntry<Node>, NoValue, IndexedNodePolicy<Node>>;

 public:
  using Entry = TimerEntry<Node>;
  explicit TimerHeap(std::uint32_t capacity = 8) : Base(IndexedNodePolicy<Node>(), capacity) {}
  Entry at(std::uint32_t i) const { return this->key(i); }
  void push(std::int64_t when, Node* node) { Base::push(Entry{when, node}, NoValue{}); }
  void set_when(std::uint32_t i, std::int64_t when) { this->set_key(i, Entry{when, at(i).node}); }
  void set_when_unordered(std::uint32_t i, std::int64_t when) { this->set_key_unordered(i, Entry{when, at(i).node}); }
};

}  // namespace timers_detail
}  // namespace lfcheck
