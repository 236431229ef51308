// The refcounted shutdown's sequential spec (see specs/spec.hpp for the shape).
//
// Model: one reference count with a limit (MaxCount) and a teardown flag, and three
// holders — the owner (holder 0: a scenario's prefix, its thread 0 and its suffix,
// which are ordered with each other) and the parallel threads 1 and 2 (holders 1, 2).
// Each holder holds at most one reference at a time.
//   acquire()          try_acquire: "acquired" (count + 1) unless teardown has begun
//                      ("dead") or the count is at the limit ("overflow"); a holder
//                      that already holds its reference is told "holding" and the
//                      structure is not called (one reference per holder, below).
//   release()          gives back the holder's reference: "released", or "last" when it
//                      was the last one after teardown (release() returned true: it
//                      unparked the owner); "none held" (not called) if it holds none.
//   dead()             the teardown bit (a relaxed load of the word: coherent with every
//                      other operation on that one word, so it is linearizable too).
//   request_teardown() owner only: sets teardown, returns the count at that instant;
//                      "already" (not called) the second time — a checked misuse.
//   finish_shutdown()  owner only: waits for the last reference, destroys the resource;
//                      "done" when the resource was destroyed exactly once and every use
//                      of it was counted. In the model it is enabled only when the count
//                      is 0: a concurrent finish is linearized after the last release,
//                      which is exactly when it may return. "not requested" / "already"
//                      (not called) for the checked misuses; "blocked" (not called)
//                      when the owner itself holds a reference: it would wait for itself;
//                      "waits" (not called) where nothing runs alongside it (props, a
//                      prefix or suffix) while another holder's reference is out.
// Every acquired reference touches the resource (NativeResource::use, which must find
// it intact) when it is taken and again when it is given back.
//
// Why scenarios never deadlock (the owner waits only for references that come back):
// every parallel thread ends with release() (close_thread: the call is appended to
// each thread and never shrunk away), and a holder holds at most one reference, so
// by the end of the parallel part only the owner can hold one; finish_shutdown()
// refuses to wait while the owner holds one (the owner's own bookkeeping, ordered with
// it). A `use` operation (acquire + use + release in one call) would also be
// deadlock-free, but it is not linearizable against observations of the count: an
// in-flight use holds a reference, which request_teardown() counts and which makes a
// concurrent acquire overflow at the limit, while a one-point `use` never holds one.
//
// Long histories (lin.history: thousands of calls per thread, real-time order, no
// closing call) use HistorySpec: 16 holders, the owner tears down about once per
// history and never calls finish_shutdown (see gen_history_call).
//
// Owner-only: request_teardown and finish_shutdown (slot.owner(): prefix, suffix,
// thread 0). No step(): the model is deterministic and no allowance is needed. No
// partition: every operation reads or writes the one word.
//
// Not covered here: the Guard (RAII; property_tests/shutdown_props.cpp), shutdown()
// (= request_teardown + finish_shutdown), max_count 2^63 - 1 (the spec uses a small
// limit so overflow is reached), the destructor's implicit shutdown, and memory
// safety of the destroy itself (the models' holders_vs_owner_free and the stress
// workload: Relacy, TSan and ASan see a use after the free; here a use after it is
// also reported by Relacy under the lin model layer).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "specs/spec.hpp"
#include "structures/shutdown/native_resource.hpp"
#include "structures/shutdown/refcounted_shutdown.hpp"

namespace lfcheck::specs {

// Holders: the owner plus one per parallel thread that takes references. History:
// the instance for long real-thread histories (lin.history), see gen_call.
template <std::uint64_t MaxCount, unsigned Holders = 3, bool History = false>
struct ShutdownSpecOf {
  static constexpr const char* name = "shutdown";
  using Fault = ShutdownFault;
  static constexpr std::uint64_t kMaxCount = MaxCount;
  static constexpr unsigned kHolders = Holders;  // the owner, parallel threads 1 .. Holders-1
  using HistorySpec = ShutdownSpecOf<MaxCount, 16, true>;

  enum class Op : std::uint8_t { acquire, release, dead, request_teardown, finish_shutdown };

  struct Call {
    Op op = Op::dead;
    std::uint8_t holder = 0;  // who calls: 0 the owner, 1..2 the parallel threads
    bool concurrent = false;  // generated for a scenario's parallel part
  };

  enum class Code : std::uint8_t {
    acquired, dead, overflow, holding,  // acquire
    released, last, none_held,          // release
    open, torn_down,                    // dead()
    count, already,                     // request_teardown (count in n); already: both owner ops
    done, not_requested, blocked,       // finish_shutdown
    waits,                              // finish: another holder's reference is out
    broken,                             // the structure misbehaved beyond a wrong answer
  };

  struct Result {
    Op op = Op::dead;
    Code code = Code::open;
    std::uint64_t n = 0;  // request_teardown: the count
    bool operator==(const Result&) const = default;
  };

  struct State {
    std::uint64_t count = 0;
    bool teardown = false;
    bool finished = false;
    bool held[kHolders] = {};
    bool operator==(const State&) const = default;
  };
  static std::size_t hash(const State& s) {
    std::size_t h = s.count * 16 + s.teardown * 8 + s.finished * 4;
    for (bool b : s.held) h = h * 2 + b;
    return h;
  }

  static State initial() { return {}; }

  static Result apply(State& s, const Call& c) {
    bool& held = s.held[c.holder];
    switch (c.op) {
      case Op::acquire:
        if (held) return {c.op, Code::holding};
        if (s.teardown) return {c.op, Code::dead};
        if (s.count >= kMaxCount) return {c.op, Code::overflow};
        ++s.count;
        held = true;
        return {c.op, Code::acquired};
      case Op::release:
        if (!held) return {c.op, Code::none_held};
        --s.count;
        held = false;
        return {c.op, s.teardown && s.count == 0 ? Code::last : Code::released};
      case Op::dead:
        return {c.op, s.teardown ? Code::torn_down : Code::open};
      case Op::request_teardown:
        if (s.teardown) return {c.op, Code::already};
        s.teardown = true;
        return {c.op, Code::count, s.count};
      case Op::finish_shutdown:
        if (!s.teardown) return {c.op, Code::not_requested};
        if (s.finished) return {c.op, Code::already};
        if (s.held[0]) return {c.op, Code::blocked};
        // Another holder's reference is out: a concurrent finish waits for it (the
        // Subject never reports `waits` there, so the checker linearizes it later);
        // with nothing running alongside the Subject refuses to wait forever.
        if (s.count != 0) return {c.op, Code::waits};
        s.finished = true;
        return {c.op, Code::done};
    }
    return {};
  }

  static std::string show(const Call& c) {
    const std::string who = c.holder == 0 ? "" : "#" + std::to_string(c.holder);
    switch (c.op) {
      case Op::acquire: return "acquire" + who + "()";
      case Op::release: return "release" + who + "()";
      case Op::dead: return "dead()";
      case Op::request_teardown: return "request_teardown()";
      case Op::finish_shutdown: return "finish_shutdown()";
    }
    return "?";
  }
  static std::string show(const Result& r) {
    switch (r.code) {
      case Code::acquired: return "acquired";
      case Code::dead: return "dead";
      case Code::overflow: return "overflow";
      case Code::holding: return "holding (not called)";
      case Code::released: return "released";
      case Code::last: return "last (unparked)";
      case Code::none_held: return "none held (not called)";
      case Code::open: return "false";
      case Code::torn_down: return "true";
      case Code::count: return std::to_string(r.n);
      case Code::already: return "already (not called)";
      case Code::done: return "done";
      case Code::not_requested: return "not requested (not called)";
      case Code::blocked: return "owner holds a reference (not called)";
      case Code::waits: return "another holder's reference is out (waits; not called alone)";
      case Code::broken: return "BROKEN (resource not destroyed once, or a use lost)";
    }
    return "?";
  }

  static rc::Gen<Call> gen_call(spec::Slot slot) {
    if constexpr (History) return gen_history_call(slot);
    // Sequential props play all three holders; a scenario's thread is its own holder.
    auto holder = slot.where == spec::Where::sequential
                      ? rc::gen::inRange<std::uint8_t>(0, kHolders)
                      : rc::gen::just<std::uint8_t>(slot.owner() ? 0 : static_cast<std::uint8_t>(slot.thread));
    const bool concurrent = slot.concurrent();
    auto with = [holder, concurrent](Op op) {
      return rc::gen::map(holder, [op, concurrent](std::uint8_t h) { return Call{op, h, concurrent}; });
    };
    if (!slot.owner())
      return rc::gen::weightedOneOf<Call>({{4, with(Op::acquire)}, {3, with(Op::release)}, {1, with(Op::dead)}});
    // The owner's operations run as holder 0 (in props too: only the owner tears down).
    auto owner = [concurrent](Op op) { return rc::gen::just(Call{op, 0, concurrent}); };
    return rc::gen::weightedOneOf<Call>({{4, with(Op::acquire)},
                                         {3, with(Op::release)},
                                         {1, with(Op::dead)},
                                         {2, owner(Op::request_teardown)},
                                         {2, owner(Op::finish_shutdown)}});
  }

  // Long histories (lin.history: thousands of calls per thread, no closing call):
  // the owner tears down rarely (about once in a history, so most of it runs with the
  // object open) and never calls finish_shutdown, which would wait for the references
  // the other threads still hold when their calls run out. Threads beyond the
  // holders only read dead().
  static rc::Gen<Call> gen_history_call(spec::Slot slot) {
    if (slot.thread >= kHolders) return rc::gen::just(Call{Op::dead, 0, true});
    const auto h = static_cast<std::uint8_t>(slot.thread);
    auto call = [h](Op op) { return rc::gen::just(Call{op, h, true}); };
    if (!slot.owner())
      return rc::gen::weightedOneOf<Call>({{4, call(Op::acquire)}, {3, call(Op::release)}, {1, call(Op::dead)}});
    return rc::gen::weightedOneOf<Call>(
        {{4000, call(Op::acquire)}, {3000, call(Op::release)}, {1000, call(Op::dead)}, {1, call(Op::request_teardown)}});
  }

  // lfcheck verify's alphabet (specs/spec.hpp): the other threads acquire and release
  // (and end with the closing release); the owner also tears down and finishes; a prefix
  // acquires for the owner or requests the teardown, a suffix reads dead() or finishes.
  // Left out: dead() in the threads (a read of the word every acquire also reads).
  static std::vector<Call> alphabet(spec::Slot slot) {
    const auto h = static_cast<std::uint8_t>(slot.owner() ? 0 : slot.thread);
    const bool concurrent = slot.concurrent();
    if (slot.where == spec::Where::prefix) return {{Op::acquire, 0, false}, {Op::request_teardown, 0, false}};
    if (slot.where == spec::Where::suffix) return {{Op::dead, 0, false}, {Op::finish_shutdown, 0, false}};
    std::vector<Call> a{{Op::acquire, h, concurrent}, {Op::release, h, concurrent}};
    if (slot.owner()) {
      a.push_back({Op::request_teardown, 0, concurrent});
      a.push_back({Op::finish_shutdown, 0, concurrent});
    }
    return a;
  }

  // Every parallel thread gives its reference back before it ends (see the top).
  static Call close_thread(spec::Slot slot) {
    return Call{Op::release, static_cast<std::uint8_t>(slot.owner() ? 0 : slot.thread), true};
  }

  template <class Sync, Fault F>
  struct Subject {
    using Resource = NativeResource<Sync, 2>;
    using Shut = RefcountedShutdown<Resource, Sync, F>;

    // The object at the spec's limit (Sync::create takes no arguments).
    struct Limited : Shut {
      Limited() : Shut(kMaxCount) {}
    };
    typename Resource::CloseReport report;  // outlives the resource
    Limited* shut;
    // Harness bookkeeping, each field written only by the holder it describes (the
    // owner's by the prefix, thread 0 and the suffix, which are ordered).
    bool held[kHolders] = {};
    std::uint64_t uses[kHolders] = {};
    bool requested = false, finished = false;

    Subject() : shut(Sync::template create<Limited>()) { shut->resource().set_close_report(&report); }

    // Quiescent: give back what is still held, then shut down and free. A faulty
    // structure can have lost count (a wrapped count would make these releases fail
    // their underflow check) or the owner's wake-up (the destructor would park
    // forever): what it no longer counts is not released, and an object that would
    // park is leaked instead (its run has failed already).
    ~Subject() {
      for (unsigned h = 0; h < kHolders; ++h)
        if (held[h] && (shut->word_quiescent() & Shut::kCountMask) != 0) shut->release();
      if (requested && !finished && shut->held_at_teardown() != 0 && !shut->owner_unparked()) return;
      Sync::destroy(shut);
    }
    Subject(const Subject&) = delete;
    Subject& operator=(const Subject&) = delete;

    bool use(unsigned h) {
      ++uses[h];
      return shut->resource().use();
    }

    Result run(const Call& c, unsigned /*thread*/) {
      const unsigned h = c.holder;
      switch (c.op) {
        case Op::acquire: {
          if (held[h]) return {c.op, Code::holding};
          switch (shut->try_acquire()) {
            case Acquire::acquired:
              held[h] = true;
              return {c.op, use(h) ? Code::acquired : Code::broken};
            case Acquire::dead: return {c.op, Code::dead};
            case Acquire::overflow: return {c.op, Code::overflow};
          }
          return {c.op, Code::broken};
        }
        case Op::release: {
          if (!held[h]) return {c.op, Code::none_held};
          const bool intact = use(h);
          held[h] = false;
          const bool last = shut->release();
          return {c.op, !intact ? Code::broken : last ? Code::last : Code::released};
        }
        case Op::dead:
          return {c.op, shut->dead() ? Code::torn_down : Code::open};
        case Op::request_teardown:
          if (requested) return {c.op, Code::already};
          requested = true;
          return {c.op, Code::count, shut->request_teardown()};
        case Op::finish_shutdown: {
          if (!requested) return {c.op, Code::not_requested};
          if (finished) return {c.op, Code::already};
          if (held[0]) return {c.op, Code::blocked};
          // Where nothing runs alongside (props, a prefix or suffix) a reference still
          // held by another holder would never come back: finish would wait forever.
          if (!c.concurrent)
            for (unsigned other = 1; other < kHolders; ++other)
              if (held[other]) return {c.op, Code::waits};
          shut->finish_shutdown();
          finished = true;
          // Every holder's uses happen-before the destroy (that is the structure's
          // guarantee), so reading their counters here is race-free.
          std::uint64_t all = 0;
          for (std::uint64_t u : uses) all += u;
          const bool once = report.closes == 1 && shut->resource_destroyed();
          const bool counted = report.uses == all && report.os_ok && report.os_total == all;
          return {c.op, once && counted ? Code::done : Code::broken};
        }
      }
      return {};
    }
    const char* check_invariants() const { return shut->check_invariants(); }
  };
};

// Limit 2 with three holders: a third concurrent acquire overflows.
using ShutdownSpec = ShutdownSpecOf<2>;

}  // namespace lfcheck::specs
