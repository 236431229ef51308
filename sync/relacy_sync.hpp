// RelacySync — the model-checking synchronization policy (Relacy Race Detector).
//
// Same names as StdSync (std_sync.hpp); each maps onto Relacy so that the checker
// sees every shared access of a structure:
//
//   atomic<T>       rl::atomic<T>: explored under the C++ memory model (bounded:
//                   a load reads at most 2 stores back, 1 under exhaustive search;
//                   no load buffering)
//   cell<T>         rl::var<T>: unsynchronized concurrent access is a DATA RACE
//   fence           rl::atomic_thread_fence
//   spin_hint/yield rl::yield — a spin loop that never yields is a livelock
//   mutex, condvar  rl::mutex, rl::condition_variable: deadlocks and lost
//                   wake-ups (every thread blocked) are reported; a timed wait
//                   may time out at any point the scheduler chooses
//   create/destroy  new/delete through Relacy's allocator: leaks, double free and
//                   use of freed memory are reported
//   location        file, line and function of the *caller*, taken by the default
//                   argument of every operation, so histories name structures/ lines
//
// Default construction (the contract of both policies): atomic<T>() and cell<T>()
// give no initial value, and create<T>() / create_array<T>(n) default-initialise
// (members without an initializer get none). Here that is exactly a
// default-constructed rl::atomic / rl::var: no store at all, so a load that no
// store reaches — in program order, or under the weak memory model — is reported
// as ACCESS TO UNINITIALIZED VARIABLE (models/selftest/uninitialized_read_probe.cpp
// proves it). Code that needs a value says so: `atomic<T> x{0}`, `cell<T> c{v}`.
// Cells follow rl::var for every T (class types through var_slot below): the
// first store initialises it, so a read of plain data nobody wrote — a heap slot
// past the heap's size, a field a constructor forgot — is caught like an atomic's.
//
// Debian 12's relacy-dev: relacy_std.hpp does not build with GCC 12, so this
// includes relacy.hpp and then removes the macros it defines (new, delete,
// malloc, free, memory_order_*, assert, ...) so the rest of the code base stays
// ordinary C++. Standard headers come first, as Relacy requires.
// Models must be compiled with -fno-sized-deallocation and -fno-lifetime-dse
// (see cmake/LfcheckFlags.cmake for why).
#pragma once

// Standard headers first (Relacy's rule): everything StdSync and the harness use.
#include <cassert>
#include <cstddef>
#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>

#include "sync/relacy_access.hpp"
#include "sync/std_sync.hpp"

#include <relacy/relacy.hpp>

#undef new
#undef delete
#undef malloc
#undef calloc
#undef realloc
#undef free
#undef memory_order_relaxed
#undef memory_order_consume
#undef memory_order_acquire
#undef memory_order_release
#undef memory_order_acq_rel
#undef memory_order_seq_cst
#undef VAR
#undef VAR_T
#undef TLS_T
// Give back the standard assert and errno that relacy.hpp replaced.
#undef assert
#include <cassert>
#undef errno
#define errno (*__errno_location())

namespace lfcheck {

struct RelacySync {
  static constexpr const char* backend_name = "relacy";

  struct location {
    const char* file;
    unsigned line;
    const char* function;
    static constexpr location current(const char* file = __builtin_FILE(),
                                      unsigned line = __builtin_LINE(),
                                      const char* function = __builtin_FUNCTION()) noexcept {
      return {file, line, function};
    }
    rl::debug_info info() const { return rl::debug_info(function, file, line); }
  };

  static rl::memory_order order(std::memory_order mo) {
    switch (mo) {
      case std::memory_order_relaxed: return rl::mo_relaxed;
      case std::memory_order_consume: return rl::mo_consume;
      case std::memory_order_acquire: return rl::mo_acquire;
      case std::memory_order_release: return rl::mo_release;
      case std::memory_order_acq_rel: return rl::mo_acq_rel;
      case std::memory_order_seq_cst: return rl::mo_seq_cst;
    }
    return rl::mo_seq_cst;
  }

  // Brackets a high-level operation in Relacy's history ("lfcheck-op begin push"
  // ... "lfcheck-op end push"); costs nothing unless Relacy is recording a
  // failing execution's history.
  class operation {
   public:
    explicit operation(const char* name, location loc = location::current()) : name_(name), loc_(loc) {
      log("lfcheck-op begin ");
    }
    ~operation() { log("lfcheck-op end "); }
    operation(const operation&) = delete;
    operation& operator=(const operation&) = delete;

   private:
    void log(const char* what) const {
      if (!rl::ctx().collecting_history()) return;
      char text[96];
      std::snprintf(text, sizeof text, "%s%s", what, name_);
      rl::ctx().exec_log_msg(loc_.info(), text);
    }
    const char* name_;
    location loc_;
  };

  // Names of shared variables for failure reports: a fixed table (no allocation
  // inside the simulation), rewritten by every iteration's constructors, so after
  // a failure it holds the failing execution's addresses. See label_of().
  struct Label {
    const void* address;
    const char* name;
  };
  static Label* labels() {
    static Label table[64] = {};
    return table;
  }
  template <class Shared>
  static void label(const Shared& shared, const char* name) {
    Label* t = labels();
    for (int i = 0; i < 64; ++i) {
      if (t[i].address == nullptr || t[i].address == &shared) {
        t[i] = {&shared, name};
        return;
      }
    }
  }
  static const char* label_of(const void* address) {
    for (Label* t = labels(); t != labels() + 64 && t->address; ++t)
      if (t->address == address) return t->name;
    return nullptr;
  }

  template <class T>
  class atomic {
   public:
    atomic() {}  // no initial value: rl::atomic's own default (no store)
    // A relaxed initialising store, as rl::atomic(T) does it: a scheduling point
    // like any store, so it is announced like one (in a thread, inside create(), it
    // begins a step of its own).
    explicit atomic(T initial) : v_((model::announce(&v_, sizeof(T), model::Op::store), initial)) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;

    T load(std::memory_order mo, location loc = location::current()) const {
      model::announce(&v_, sizeof(T), model::Op::load, mo == std::memory_order_seq_cst);
      return v_.load(order(mo), loc.info());
    }
    void store(T value, std::memory_order mo, location loc = location::current()) {
      model::announce(&v_, sizeof(T), model::Op::store, mo == std::memory_order_seq_cst);
      v_.store(value, order(mo), loc.info());
    }
    T exchange(T value, std::memory_order mo, location loc = location::current()) {
      rmw(mo);
      return v_.exchange(value, order(mo), loc.info());
    }
    bool compare_exchange_weak(T& expected, T desired, std::memory_order success,
                               std::memory_order failure, location loc = location::current()) {
      rmw(success, failure);
      const bool ok = v_.compare_exchange_weak(expected, desired, order(success), loc.info(), order(failure),
                                               loc.info());
      model::completed(ok);
      return ok;
    }
    bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                                 std::memory_order failure, location loc = location::current()) {
      rmw(success, failure);
      const bool ok = v_.compare_exchange_strong(expected, desired, order(success), loc.info(),
                                                 order(failure), loc.info());
      model::completed(ok);
      return ok;
    }
    T fetch_add(T delta, std::memory_order mo, location loc = location::current()) {
      rmw(mo);
      return v_.fetch_add(delta, order(mo), loc.info());
    }
    T fetch_sub(T delta, std::memory_order mo, location loc = location::current()) {
      rmw(mo);
      return v_.fetch_sub(delta, order(mo), loc.info());
    }
    T fetch_or(T bits, std::memory_order mo, location loc = location::current()) {
      rmw(mo);
      return v_.fetch_or(bits, order(mo), loc.info());
    }
    T fetch_and(T bits, std::memory_order mo, location loc = location::current()) {
      rmw(mo);
      return v_.fetch_and(bits, order(mo), loc.info());
    }

   private:
    void rmw(std::memory_order mo, std::memory_order failure = std::memory_order_relaxed) const {
      model::announce(&v_, sizeof(T), model::Op::rmw,
                      mo == std::memory_order_seq_cst || failure == std::memory_order_seq_cst);
    }
    rl::atomic<T> v_;
  };

  // rl::var<T>'s default constructor assigns 0 to its value slot, so it compiles
  // only for types that accept `= 0` (scalars). Any other T is kept in this
  // holder, which accepts that assignment (it is never a value anyone reads:
  // rl::var reports the load first) and prints like T in histories.
  template <class T>
  struct var_slot {
    T value{};
    var_slot() = default;
    var_slot(const T& v) : value(v) {}  // NOLINT: implicit, as rl::var<T>(T) takes a T
    var_slot& operator=(int) { return *this; }
    friend std::ostream& operator<<(std::ostream& os, const var_slot& s) {
      if constexpr (requires { os << s.value; }) return os << s.value;
      else return os << "{...}";
    }
  };
  template <class T>
  static constexpr bool var_default_constructible = requires(T& t) { t = 0; };
  template <class T>
  using var_value = std::conditional_t<var_default_constructible<T>, T, var_slot<T>>;

  template <class T>
  class cell {
   public:
    cell() {}  // no initial value: rl::var's own default (the first store initialises)
    explicit cell(T initial) : v_(var_value<T>(initial)) {}
    T load(location loc = location::current()) const {
      model::announce(&v_, sizeof(v_), model::Op::cell_load);
      return unwrap(v_(loc.info()).load());
    }
    void store(T value, location loc = location::current()) {
      model::announce(&v_, sizeof(v_), model::Op::cell_store);
      log_value(value, loc);
      v_(loc.info()).store(var_value<T>(value));
    }

   private:
    // While Relacy records a history: the value about to be stored, as Relacy
    // prints values. Relacy records a store that races as a store of 0 (it fails
    // the execution before the store); the report takes the value from here
    // (harness/report/steps.hpp). Scalars only; formatted on the stack (no
    // allocation inside the simulation).
    static void log_value(const T& value, location loc) {
      constexpr bool object_pointer = std::is_pointer_v<T> && std::is_object_v<std::remove_pointer_t<T>>;
      if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T> || object_pointer) {
        if (!rl::ctx().collecting_history()) return;
        char text[64];
        if constexpr (object_pointer)
          std::snprintf(text, sizeof text, "lfcheck-store value=%p", static_cast<const void*>(value));
        else if constexpr (std::is_floating_point_v<T>)
          std::snprintf(text, sizeof text, "lfcheck-store value=%g", static_cast<double>(value));
        else if constexpr (std::is_enum_v<T> || std::is_signed_v<T>)
          std::snprintf(text, sizeof text, "lfcheck-store value=%lld", static_cast<long long>(value));
        else
          std::snprintf(text, sizeof text, "lfcheck-store value=%llu", static_cast<unsigned long long>(value));
        rl::ctx().exec_log_msg(loc.info(), text);
      }
    }
    static T unwrap(const T& v) { return v; }
    static T unwrap(const var_slot<T>& v) requires(!var_default_constructible<T>) { return v.value; }
    rl::var<var_value<T>> v_;
  };

  static void fence(std::memory_order mo, location loc = location::current()) {
    model::announce(nullptr, 0, mo == std::memory_order_seq_cst ? model::Op::fence_seq_cst : model::Op::fence, true);
    rl::atomic_thread_fence(order(mo), loc.info());
  }
  static void spin_hint(location loc = location::current()) {
    model::announce(nullptr, 0, model::Op::spin);
    rl::yield(1, loc.info());
  }
  static void yield(location loc = location::current()) {
    model::announce(nullptr, 0, model::Op::spin);
    rl::yield(1, loc.info());
  }

  class condvar;
  class mutex {
   public:
    void lock(location loc = location::current()) {
      model::announce(&m_, sizeof(m_), model::Op::lock);
      m_.lock(loc.info());
    }
    void unlock(location loc = location::current()) {
      model::announce(&m_, sizeof(m_), model::Op::unlock);
      m_.unlock(loc.info());
    }

   private:
    friend class condvar;
    rl::mutex m_;
  };

  // rl::condition_variable's own engine (rl::condvar, spurious wake-ups allowed,
  // as std's), used directly so a timed wait can tell a time-out from a spurious
  // wake-up: rl::condition_variable::wait_for reports both as false, std's
  // wait_for only the time-out. The scheduler may time a timed wait out at any
  // point, whatever ns says — that is how time passes in a model.
  class condvar {
   public:
    condvar() { cv_.init(/*allow_spurious_wakeups=*/true, RL_INFO); }
    ~condvar() { cv_.deinit(RL_INFO); }
    condvar(const condvar&) = delete;
    condvar& operator=(const condvar&) = delete;
    void wait(mutex& m, location loc = location::current()) {
      model::announce(&cv_, sizeof(cv_), model::Op::wait, false, &m.m_);
      cv_.wait(m.m_, false, loc.info());
    }
    // As StdSync's: ns <= 0 times out at once (it still lets go of the mutex for
    // a moment, as a real timed wait does); false only on a time-out.
    bool wait_for_ns(mutex& m, std::int64_t ns, location loc = location::current()) {
      if (ns <= 0) {
        m.unlock(loc);
        m.lock(loc);
        return false;
      }
      model::announce(&cv_, sizeof(cv_), model::Op::wait, false, &m.m_);
      return cv_.wait(m.m_, true, loc.info()) != rl::sema_wakeup_reason_timeout;
    }
    void notify_one(location loc = location::current()) {
      model::announce(&cv_, sizeof(cv_), model::Op::notify);
      cv_.notify_one(loc.info());
    }
    void notify_all(location loc = location::current()) {
      model::announce(&cv_, sizeof(cv_), model::Op::notify);
      cv_.notify_all(loc.info());
    }

   private:
    rl::condvar<rl::condvar_tag_std> cv_;
  };

  // Relacy replaces the global operator new/delete: inside a simulation every
  // allocation goes through its allocator. new_proxy records the caller's line.
  // Default-initialised (`new T`, not `new T()`): see "Default construction".
  // The model runner learns of a block when it is taken from the allocator — before
  // its constructor runs, whose atomics' initialising stores are scheduling points
  // (the allocation belongs to the step that took the block) — and before it goes
  // back, after its destructor ran (sync/relacy_access.hpp): an access of the block
  // is dependent on both.
  //
  // Every block goes through Relacy's allocator, over-aligned ones included: `new T`
  // for a T with alignas(64) would call the aligned operator new, which Relacy does
  // not replace — such a block was invisible to Relacy (no leak report, no reuse).
  // An over-aligned T gets a block of Relacy's with room to align it, the block's
  // own address kept just before the object. Arrays are laid out the same way (their
  // length kept too), so that their elements are constructed after the allocation's
  // announcement and destroyed before the free's, as a single object's are.
  template <class T>
  static constexpr bool over_aligned = alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__;

  template <class T>
  static T* create(location loc = location::current()) {
    void* block = over_aligned<T> ? aligned_block(sizeof(T), alignof(T)) : ::operator new(sizeof(T));
    T* p = rl::new_proxy(loc.info()) % static_cast<T*>(block);  // Relacy's allocator took it: the history names the line
    model::announce(p, sizeof(T), model::Op::alloc);
    return ::new (block) T;
  }
  template <class T>
  static T* create_array(std::size_t n, location loc = location::current()) {
    constexpr std::size_t align = over_aligned<T> ? alignof(T) : __STDCPP_DEFAULT_NEW_ALIGNMENT__;
    T* p = rl::new_proxy(loc.info()) % static_cast<T*>(aligned_block(sizeof(T) * n, align, n));
    model::announce(p, sizeof(T) * n, model::Op::alloc);
    for (std::size_t i = 0; i < n; ++i) ::new (static_cast<void*>(p + i)) T;
    return p;
  }
  template <class T>
  static void destroy(T* p, location loc = location::current()) {
    if (!p) return;
    rl::delete_proxy proxy(loc.info());
    (void)proxy;
    p->~T();  // first: its atomics and cells hand Relacy's bookkeeping back
    model::announce(p, sizeof(T), model::Op::free);
    if constexpr (over_aligned<T>) ::operator delete(reinterpret_cast<void**>(p)[-1]);
    else ::operator delete(p);
  }
  template <class T>
  static void destroy_array(T* p, location loc = location::current()) {
    if (!p) return;
    rl::delete_proxy proxy(loc.info());
    (void)proxy;
    void** header = reinterpret_cast<void**>(p);
    const std::size_t n = reinterpret_cast<std::size_t>(header[-2]);
    for (std::size_t i = n; i-- > 0;) p[i].~T();
    model::announce(p, sizeof(T) * n, model::Op::free);
    ::operator delete(header[-1]);
  }

 private:
  // A block of Relacy's for `size` bytes at `align`; just before the aligned
  // address, the block's own address (at [-1]) and an array's length (at [-2]).
  static void* aligned_block(std::size_t size, std::size_t align, std::size_t count = 1) {
    void* raw = ::operator new(size + align + 2 * sizeof(void*));  // Relacy's allocator
    const std::uintptr_t at = (reinterpret_cast<std::uintptr_t>(raw) + 2 * sizeof(void*) + align - 1) &
                              ~static_cast<std::uintptr_t>(align - 1);
    reinterpret_cast<void**>(at)[-1] = raw;
    reinterpret_cast<void**>(at)[-2] = reinterpret_cast<void*>(count);
    return reinterpret_cast<void*>(at);
  }

 public:
  static void check(bool ok, const char* what, location loc = location::current()) {
    if (!ok) rl::ctx().fail_test(what, rl::test_result_user_assert_failed, loc.info());
  }

  // Scenario randomness is a scheduling choice: exhaustive schedulers branch on it.
  static unsigned random(unsigned limit) { return rl::rand(limit); }
};

}  // namespace lfcheck
