// Litmus tests with known answers (structure "litmus", lfcheck-model-litmus): the
// memory model Relacy explores, held to what C++ allows. Each test is one scenario
// per memory-order variant; its threads record what they read in plain fields of
// the scenario (harness bookkeeping: Relacy runs every thread of an execution as a
// fiber of one OS thread), after() adds the final values where the test needs them,
// and outcome() encodes the observation (the encoding is next to each test).
//
// Every test has one "weak" outcome: the one sequential consistency forbids and
// weaker orders may allow. The correct code (no fault) only records what it sees;
// the seeded fault litmus.weak_seen makes after() fail when the weak outcome
// appears. So, with --fault litmus.weak_seen:
//   a failing run   an execution reaches the weak outcome (it is allowed, and
//                   Relacy produces it): "reached";
//   exhaustive pass no execution of the search reaches it: "unreached" where C++
//                   forbids it, "limit" where C++ allows it and Relacy cannot
//                   produce it.
//
// The answers (tests/model_litmus_truth.sh reads this table, one row per scenario,
// and holds every scenario to its row: reached = fails under full, bound and pct;
// unreached and limit = exhaustive pass under full and bound, pass under pct; and
// a row's Relacy column must agree with its C++ column: reached and limit only
// where C++ allows, unreached only where it forbids):
//
//   scenario              C++        RC11       Relacy     weak outcome
//   mp_relaxed            allowed    allowed    reached    r1=1 r2=0
//   mp_release_acquire    forbidden  forbidden  unreached  r1=1 r2=0
//   mp_fences             forbidden  forbidden  unreached  r1=1 r2=0
//   s_relaxed             allowed    allowed    limit      r=1 x=2
//   s_release_acquire     forbidden  forbidden  unreached  r=1 x=2
//   lb_relaxed            allowed    forbidden  limit      r0=1 r1=1
//   lb_release_acquire    forbidden  forbidden  unreached  r0=1 r1=1
//   sb_relaxed            allowed    allowed    reached    r0=0 r1=0
//   sb_release_acquire    allowed    allowed    reached    r0=0 r1=0
//   sb_seq_cst            forbidden  forbidden  unreached  r0=0 r1=0
//   sb_fences             forbidden  forbidden  unreached  r0=0 r1=0
//   r_relaxed             allowed    allowed    reached    y=2 r=0
//   r_release_acquire     allowed    allowed    reached    y=2 r=0
//   r_seq_cst             forbidden  forbidden  unreached  y=2 r=0
//   2p2w_relaxed          allowed    allowed    limit      x=1 y=1
//   2p2w_seq_cst          forbidden  forbidden  unreached  x=1 y=1
//   corr_relaxed          forbidden  forbidden  unreached  r1=2 r2=1
//   iriw_release_acquire  allowed    allowed    reached    r1=1 r2=0 r3=1 r4=0
//   iriw_seq_cst          forbidden  forbidden  unreached  r1=1 r2=0 r3=1 r4=0
//
// Variants: relaxed = every access relaxed; release_acquire = stores release, loads
// acquire; seq_cst = every access seq_cst; fences = relaxed accesses with fences
// between them (MP: release fence before the flag store, acquire fence after the
// flag load; SB: a seq_cst fence between each thread's store and load).
// C++ = the standard (C++20, [intro.races], [atomics.order]); RC11 = Lahav, Vafeiadis,
// Kang, Hur, Dreyer, "Repairing sequential consistency in C/C++11" (PLDI 2017).
// They differ on one row: LB with relaxed accesses. The standard allows r0=r1=1 (its
// own example in [atomics.order] allows it, and ARM and POWER produce it); RC11 forbids
// every cycle of program order and reads-from to rule out out-of-thin-air values.
//
// Why Relacy produces what it does (relacy/thread.hpp; docs/sync-api.md, "What the
// model explores, and what it does not"):
//  - A load reads the latest store to its location or one before it: at most 2
//    stores back under the sampled schedulers (random, pct), 1 under the tree
//    searches (bound, full); a seq_cst load whose latest store is seq_cst reads it;
//    a load ordered after a store by happens-before, or by read-read coherence,
//    reads it or a later one. This is what reaches MP, SB, R and IRIW's weak outcomes
//    and keeps CoRR and every seq_cst, release/acquire or fenced forbidden row out.
//  - Stores are never reordered: a location's modification order is the order in
//    which its stores execute, and a thread's stores execute in program order. So
//    Relacy never produces an outcome that needs a store to take effect later than
//    a later access of its own thread: 2+2W (relaxed) and S (relaxed), both allowed,
//    are out of its reach — documented limits.
//  - A load never reads a store that has not executed yet: no load buffering, so
//    LB's weak outcome is never produced (the C++ standard allows it, RC11 does
//    not): a documented limit.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "harness/fault_catalogue.hpp"
#include "harness/scenario.hpp"

#define LFCHECK_LITMUS_FAULTS(X)                                                                        \
  X(weak_seen,                                                                                          \
    "not a bug: after() fails when the test's weak outcome appears, so a failing run shows an execution " \
    "that reaches it and an exhaustive pass shows that none does",                                      \
    "", "model")

LFCHECK_FAULTS(LitmusFault, "litmus", LFCHECK_LITMUS_FAULTS);

namespace lfcheck::litmus {

// The memory orders of a variant (see the table above).
enum class Order { relaxed, release_acquire, seq_cst, fences };

constexpr std::memory_order store_order(Order o) {
  return o == Order::release_acquire ? std::memory_order_release
         : o == Order::seq_cst       ? std::memory_order_seq_cst
                                     : std::memory_order_relaxed;
}
constexpr std::memory_order load_order(Order o) {
  return o == Order::release_acquire ? std::memory_order_acquire
         : o == Order::seq_cst       ? std::memory_order_seq_cst
                                     : std::memory_order_relaxed;
}

// The variant's name from the test's: "mp" + relaxed -> "mp_relaxed" (static storage).
template <FixedString Test, Order O>
struct VariantName {
  static constexpr const char* suffix = O == Order::relaxed           ? "relaxed"
                                        : O == Order::release_acquire ? "release_acquire"
                                        : O == Order::seq_cst         ? "seq_cst"
                                                                      : "fences";
  static constexpr auto value = [] {
    constexpr std::size_t t = sizeof(Test.text) - 1;
    std::array<char, t + 1 + 16> out{};
    for (std::size_t i = 0; i < t; ++i) out[i] = Test.text[i];
    out[t] = '_';
    for (std::size_t i = 0; suffix[i]; ++i) out[t + 1 + i] = suffix[i];
    return out;
  }();
};

// A litmus test run as a scenario: Test<Sync, O> has name, description, threads,
// thread(i), observe() (after() of the correct code: final values), weak() and
// outcome(). With litmus.weak_seen, after() fails on the weak outcome.
template <class Sync, LitmusFault F, class Test>
struct Run : Test {
  static constexpr bool full_search = true;  // loop-free, a handful of accesses
  void after() {
    Test::observe();
    if constexpr (F == LitmusFault::weak_seen)
      Sync::check(!Test::weak(), "litmus: the weak outcome appeared (an execution reaches it)");
  }
};

}  // namespace lfcheck::litmus

// Registers variant O of litmus test Test (a template <class Sync, Order O>) as the
// scenario template Alias (inside namespace lfcheck::litmus).
#define LFCHECK_LITMUS(Alias, Test, O)                                  \
  template <class Sync, LitmusFault F>                                  \
  using Alias = ::lfcheck::litmus::Run<Sync, F, Test<Sync, Order::O>>; \
  LFCHECK_MODEL(LitmusFault, Alias)
