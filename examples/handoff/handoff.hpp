// A one-shot hand-off slot: put() writes the value, then publishes it with a release
// store of full_; take() waits for full_ (acquire) and reads the value. Written
// against lfcheck's Sync policy, so Relacy sees the plain value as a race if the
// publication is not ordered. Cost: one store and one load.
#pragma once
#include <lfcheck/sync/std_sync.hpp>

template <class T, class Sync = lfcheck::StdSync>
class Handoff {
  typename Sync::template atomic<bool> full_{false};
  typename Sync::template cell<T> value_;  // written once by put, before full_

 public:
  void put(T v) {
    value_.store(v);
    full_.store(true, std::memory_order_release);  // release: pairs with take's acquire
  }
  T take() {
    while (!full_.load(std::memory_order_acquire)) Sync::spin_hint();  // acquire: pairs with put's release
    return value_.load();
  }
};
