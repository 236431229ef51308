// What a sequential spec is, and the small vocabulary every spec uses.
//
// A spec is the ONE sequential description of a structure (specs/NAME_spec.hpp).
// Everything that holds a reference model reads it: the props state machine
// (sequential runs on StdSync), the generated concurrent scenarios of `lfcheck lin`
// under Relacy (RelacySync) and on real threads (StdSync, TSan/ASan), and the long
// histories of the spec's stress workload. The linearizability checker (lin/)
// asks of every recorded execution: is there a sequential order of these
// operations, consistent with their real-time (or program) order, in which apply()
// gives exactly the results that were observed?
//
// A spec S is a struct with
//
//   static constexpr const char* name;   // the structure's name ("treiber")
//   using Fault = ...;                   // the structure's fault enum (first: none)
//   using State = ...;                   // the sequential model: copyable, ==, std::hash or S::hash
//   using Call = ...;                    // an operation and its arguments (trivially copyable)
//   using Result = ...;                  // what it returned (trivially copyable, ==)
//   static State initial();
//   static Result apply(State&, const Call&);    // the sequential model: expected result, next state
//   static std::string show(const Call&);        // "push(3)"
//   static std::string show(const Result&);      // "true", "empty", "[3 2]"
//   static rc::Gen<Call> gen_call(Slot);         // RapidCheck generator of one call for a slot
//   template <class Sync, Fault F> struct Subject {  // the structure under test, per backend
//     Result run(const Call&, unsigned thread);  // invoke one operation
//     const char* check_invariants() const;      // optional: nullptr when well formed (quiescent)
//   };
//
// and, optionally,
//
//   static bool step(State&, const Call&, const Result& observed);
//       for a structure whose concurrent behaviour is allowed more freedom than
//       its sequential one (the checker then uses step; props still use apply)
//   static unsigned out_of_order(const State&, const Call&, const Result& observed);
//   static constexpr unsigned out_of_order_bound;
//       a relaxed spec (its step() allows results out of order, e.g. a pop of any of
//       the k oldest: specs/relaxed.hpp): how far a result is from the strict order;
//       the checker reports the worst over the linearizations found (lin/relaxed.hpp)
//   static std::uint64_t partition(const Call&);   // P-compositionality key
//   static std::string show_partition(std::uint64_t);
//   static Call close_thread(Slot);
//       a call appended to every parallel thread of a generated scenario, after its
//       generated calls (it takes one of the thread's places and is never shrunk
//       away): for a contract each thread must end with, e.g. "give back the
//       reference you hold", so that an owner waiting for the last reference never
//       waits for a thread that has finished (specs/shutdown_spec.hpp)
//
//   static std::vector<Call> alphabet(Slot);
//       lfcheck verify's finite call alphabet: every call a scenario may hold in the
//       slot (prefix, suffix, or thread t of n: Slot::owner() as for gen_call). verify
//       enumerates every scenario over it up to a bound (harness/lin/enumeration.hpp);
//       a spec without it is refused there, never sampled. Build each thread's letters
//       in one order: the k-th letters of two non-owner threads (and of threads with the
//       same letters) are taken to be the same call on each thread, so such threads are
//       interchangeable (a scenario and its thread permutations run once).
//   static constexpr bool interchangeable_threads = false;
//       for a spec whose threads differ beyond what their alphabets say
//   static unsigned value_of(const Call&);  // 0: the call carries no value
//   static Call with_value(Call, std::uint32_t v);  // the same call carrying v
//       data independence: the structure and its model never look at these values (a
//       stack's, a queue's elements). verify then gives every value-carrying call a
//       value of its own, 1, 2, ... in order of appearance, instead of each value of
//       the alphabet (a scenario that repeats a value is the image of that one under a
//       renaming, and passes if it does). with_value is also a collection spec's
//       (lin/collection.hpp), with the same meaning.
//
//   static void setup();                       once per process, before anything else
//   static void thread_begin(unsigned t);      on every thread the harness starts, before
//   static void thread_end(unsigned t);        its first call / after its last one
//       per-thread set-up a library asks for (attach to a reclamation manager,
//       rcu_register_thread). t is the thread's index as run() gets it, or
//       spec::kDriverThread for the harness's driver, which builds and destroys
//       Subjects and runs prefix and suffix calls. When each layer calls them:
//       harness/lin/spec_hooks.hpp.
//
// Subject is constructed per execution (under Relacy: inside the simulation, so
// its allocations, leaks and frees are checked) and destroyed after it.
#pragma once

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

namespace lfcheck::spec {

// The thread index a spec's thread_begin/thread_end get for the harness's driver
// thread (it builds and destroys Subjects and runs prefix and suffix calls).
inline constexpr unsigned kDriverThread = UINT_MAX;

// Where a generated call will run.
enum class Where : std::uint8_t {
  sequential,  // a props state machine: one thread, one call after another
  prefix,      // a concurrent scenario's set-up, before every thread starts
  parallel,    // one of the scenario's concurrent threads
  suffix,      // after every thread finished
};

struct Slot {
  Where where = Where::sequential;
  unsigned thread = 0;   // parallel: which thread (0 .. threads-1)
  unsigned threads = 1;  // parallel: how many run concurrently

  // Owner-only operations (a Looper's poll, an owner's teardown) may run here:
  // every non-parallel slot is ordered with all threads; in the parallel part,
  // thread 0 is the owner.
  bool owner() const { return where != Where::parallel || thread == 0; }
  bool concurrent() const { return where == Where::parallel; }
};

}  // namespace lfcheck::spec
