// DaryHeap — the d-ary min-heap of (when, node) entries behind every timer
// worker (Arity 4 in production, 2 for the binary baseline) and the global-lock
// baseline. Not thread-safe: its owner guards it with a lock.
//
// Entries carry a copy of the node's `when`, so a sift compares entries without
// following a pointer into each timer (one cache line holds four 16-byte
// entries: a 4-ary heap reads one line per level). Every node has an `index_`
// cell that the heap keeps equal to the node's position (-1 when not in the heap).
// Storage is an array of Sync::cell entries (Relacy then sees any access made
// without the owner's lock as a data race); it doubles when full.
#pragma once

#include <cstdint>
#include <ostream>

#include "sync/std_sync.hpp"

namespace lfcheck::timers_detail {

template <class Sync, unsigned Arity, class Node>
class DaryHeap {
  static_assert(Arity >= 2, "a heap has at least two children per node");

 public:
  struct Entry {
    std::int64_t when;
    Node* node;
    // For the model checker's histories.
    friend std::ostream& operator<<(std::ostream& os, const Entry& e) {
      return os << "{when " << e.when << ", timer " << static_cast<const void*>(e.node) << "}";
    }
  };

  explicit DaryHeap(std::uint32_t capacity = 8) : slots_(nullptr), size_(0), cap_(0) {
    reserve(capacity < 1 ? 1 : capacity);
  }
  ~DaryHeap() {
    if (auto* s = slots_.load()) Sync::destroy_array(s);
  }
  DaryHeap(const DaryHeap&) = delete;
  DaryHeap& operator=(const DaryHeap&) = delete;

  std::uint32_t size() const { return size_.load(); }
  bool empty() const { return size_.load() == 0; }
  Entry at(std::uint32_t i) const { return slots_.load()[i].load(); }

  // Heap-ordered operations.
  void push(std::int64_t when, Node* node) {
    const std::uint32_t n = size_.load();
    if (n == cap_.load()) reserve(2 * n);
    size_.store(n + 1);
    put(n, Entry{when, node});
    sift_up(n);
  }
  // Removes the entry at i keeping heap order (last entry moves to i, then sifts).
  void remove_at(std::uint32_t i) {
    const std::uint32_t last = size_.load() - 1;
    Node* gone = at(i).node;
    if (i != last) put(i, at(last));
    size_.store(last);
    gone->index_.store(-1);
    if (i != last) {
      sift_up(i);
      sift_down(slot_of(i));
    }
  }
  // Changes the key of the entry at i and restores heap order.
  void set_when(std::uint32_t i, std::int64_t when) {
    Entry e = at(i);
    e.when = when;
    put(i, e);
    sift_up(i);
    sift_down(slot_of(i));
  }
  // Removes the last entry (always heap-preserving).
  Node* pop_back() {
    const std::uint32_t last = size_.load() - 1;
    Node* gone = at(last).node;
    size_.store(last);
    gone->index_.store(-1);
    return gone;
  }

  // Unordered operations for a scan (the caller calls heapify() afterwards).
  // swap_remove: the last entry moves into slot i, with no sift, so a scan that
  // removes at i must look at slot i again.
  void swap_remove(std::uint32_t i) {
    const std::uint32_t last = size_.load() - 1;
    Node* gone = at(i).node;
    if (i != last) put(i, at(last));
    size_.store(last);
    gone->index_.store(-1);
  }
  void set_when_unordered(std::uint32_t i, std::int64_t when) {
    Entry e = at(i);
    e.when = when;
    put(i, e);
  }
  void heapify() {
    const std::uint32_t n = size_.load();
    if (n < 2) return;
    for (std::uint32_t i = (n - 2) / Arity + 1; i-- > 0;) sift_down(i);
  }

  // Quiescent or under the owner's lock: heap order and index == position.
  const char* check() const {
    const std::uint32_t n = size_.load();
    for (std::uint32_t i = 0; i < n; ++i) {
      const Entry e = at(i);
      if (e.node == nullptr) return "heap entry without a timer";
      if (e.node->index_.load() != static_cast<std::int32_t>(i)) return "timer's heap index != its position";
      if (i > 0 && at((i - 1) / Arity).when > e.when) return "heap order violated (parent later than child)";
    }
    return nullptr;
  }

 private:
  using Slot = typename Sync::template cell<Entry>;

  std::uint32_t slot_of(std::uint32_t i) const { return i < size_.load() ? i : size_.load() - 1; }

  void put(std::uint32_t i, Entry e) {
    slots_.load()[i].store(e);
    e.node->index_.store(static_cast<std::int32_t>(i));
  }
  void reserve(std::uint32_t cap) {
    Slot* old = slots_.load();
    Slot* fresh = Sync::template create_array<Slot>(cap);
    for (std::uint32_t i = 0, n = size_.load(); i < n; ++i) fresh[i].store(old[i].load());
    slots_.store(fresh);
    cap_.store(cap);
    if (old) Sync::destroy_array(old);
  }
  void sift_up(std::uint32_t i) {
    const Entry e = at(i);
    while (i > 0) {
      const std::uint32_t parent = (i - 1) / Arity;
      const Entry p = at(parent);
      if (p.when <= e.when) break;
      put(i, p);
      i = parent;
    }
    put(i, e);
  }
  void sift_down(std::uint32_t i) {
    const std::uint32_t n = size_.load();
    if (i >= n) return;
    const Entry e = at(i);
    for (;;) {
      const std::uint32_t first = i * Arity + 1;
      if (first >= n) break;
      std::uint32_t best = first;
      Entry b = at(first);
      const std::uint32_t end = first + Arity < n ? first + Arity : n;
      for (std::uint32_t c = first + 1; c < end; ++c) {
        const Entry ce = at(c);
        if (ce.when < b.when) {
          b = ce;
          best = c;
        }
      }
      if (b.when >= e.when) break;
      put(i, b);
      i = best;
    }
    put(i, e);
  }

  typename Sync::template cell<Slot*> slots_;
  typename Sync::template cell<std::uint32_t> size_;
  typename Sync::template cell<std::uint32_t> cap_;
};

}  // namespace lfcheck::timers_detail
