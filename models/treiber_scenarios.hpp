// Treiber stack scenarios, written once against the Sync policy. The model
// runner instantiates each with RelacySync for every seeded fault.
//
// Values pushed are small positive ints; each scenario counts how often every
// value came out (pop, take_all, or the final drain in after()) and requires
// exactly once for every value pushed, plus check_invariants().
#pragma once

#include <atomic>

#include "harness/scenario.hpp"
#include "structures/treiber/treiber_stack.hpp"

namespace lfcheck::treiber_models {

constexpr int kMaxValue = 8;

// Bookkeeping of the scenario itself (not of the structure under test). Under
// Relacy all threads of an execution are fibers of one OS thread; on real threads
// (litmus runs) several threads count, so the counters are std::atomic — the
// harness's own, invisible to Relacy and ordered for TSan by the thread joins.
struct Tally {
  std::atomic<int> seen[kMaxValue + 1] = {};
  bool pushed[kMaxValue + 1] = {};  // each value is pushed by one thread only
  void out(int v) {
    if (v >= 0 && v <= kMaxValue) seen[v].fetch_add(1, std::memory_order_relaxed);
    else seen[0].store(100, std::memory_order_relaxed);  // an invented value
  }
  int count(int v) const { return seen[v].load(std::memory_order_relaxed); }
  template <class Sync>
  void check_exactly_once() const {
    Sync::check(count(0) == 0, "a value that nobody pushed came out of the stack");
    for (int v = 1; v <= kMaxValue; ++v) {
      if (pushed[v]) Sync::check(count(v) == 1, "a pushed value was lost or came out twice");
      else Sync::check(count(v) == 0, "a value came out that was never pushed");
    }
  }
};

template <class Sync, TreiberFault F>
struct ScenarioCommon : ScenarioBase {
  static constexpr bool real_threads = true;  // bookkeeping is race-free: litmus runs too
  explicit ScenarioCommon(std::uint32_t capacity) : stack(capacity) {}
  TreiberStack<int, Sync, F> stack;
  Tally tally;

  void push(int v) {
    Sync::check(stack.push(v), "push failed although the pool had room");
    tally.pushed[v] = true;
  }
  // Pops one value and counts it; false if the stack was empty.
  bool pop_and_count() {
    int v = 0;
    const bool got = stack.pop(v);
    if (got) tally.out(v);
    return got;
  }
  // Drains what is left, then checks accounting and the quiescent invariants.
  void finish() {
    Sync::check(stack.check_invariants() == nullptr, "stack invariants violated");
    int v = 0;
    while (stack.pop(v)) tally.out(v);
    tally.template check_exactly_once<Sync>();
    Sync::check(stack.check_invariants() == nullptr, "stack invariants violated after drain");
  }
};

// The smallest race: one push against one pop on an empty stack. Small enough
// for Relacy's full search to finish.
template <class Sync, TreiberFault F>
struct PushVsPop : ScenarioCommon<Sync, F> {
  static constexpr const char* name = "push_vs_pop";
  static constexpr const char* description = "1 pusher + 1 popper on an empty stack";
  static constexpr unsigned threads = 2;
  static constexpr bool full_search = true;
  PushVsPop() : ScenarioCommon<Sync, F>(1) {}
  bool popped = false;  // the popper got the value (else the stack was empty to it)
  void thread(unsigned i) {
    if (i == 0) this->push(1);
    else popped = this->pop_and_count();
  }
  void after() { this->finish(); }
  // Both outcomes are reachable (tests/dpor_truth.sh compares the searches' sets).
  std::uint64_t outcome() const { return popped ? 1 : 0; }
};

// Two pushers and a popper: every pushed value is popped or left, exactly once.
template <class Sync, TreiberFault F>
struct PushPushPop : ScenarioCommon<Sync, F> {
  static constexpr const char* name = "push_push_pop";
  static constexpr const char* description = "2 pushers + 1 popper popping twice";
  static constexpr unsigned threads = 3;
  PushPushPop() : ScenarioCommon<Sync, F>(3) {}
  void thread(unsigned i) {
    if (i < 2) {
      this->push(static_cast<int>(i) + 1);
    } else {
      this->pop_and_count();
      this->pop_and_count();
    }
  }
  void after() { this->finish(); }
};

// The ABA setting: thread 0 pops A; thread 1 pops A and B, then pushes two new
// values, which reuses B's and A's nodes, so A is on top again with a new link.
// A pop that read (A, A->next = B) before all that must not install B.
template <class Sync, TreiberFault F>
struct TwoPoppersAba : ScenarioCommon<Sync, F> {
  static constexpr const char* name = "two_poppers_aba";
  static constexpr const char* description =
      "2 poppers on the same top; one pops twice and pushes twice (node reuse)";
  static constexpr unsigned threads = 2;
  TwoPoppersAba() : ScenarioCommon<Sync, F>(3) {}
  void before() {
    this->push(1);
    this->push(2);
    this->push(3);
  }
  void thread(unsigned i) {
    if (i == 0) {
      this->pop_and_count();
    } else {
      this->pop_and_count();
      this->pop_and_count();
      this->push(4);
      this->push(5);
    }
  }
  void after() { this->finish(); }
};

// The harmful ABA: thread 0 reads top A and A->next = B; thread 1 takes the
// whole stack (A, B, C go back to the pool) and pushes one value, which reuses
// A's node. The head is A again, but B is now a free node: a pop whose CAS only
// compares the index installs B as the top, and B is in both lists at once.
template <class Sync, TreiberFault F>
struct PopVsDrainAba : ScenarioCommon<Sync, F> {
  static constexpr const char* name = "pop_vs_drain_aba";
  static constexpr const char* description =
      "1 popper vs 1 thread doing take_all then push (the top node is reused)";
  static constexpr unsigned threads = 2;
  PopVsDrainAba() : ScenarioCommon<Sync, F>(3) {}
  void before() {
    this->push(1);
    this->push(2);
    this->push(3);
  }
  void thread(unsigned i) {
    if (i == 0) {
      this->pop_and_count();
    } else {
      this->stack.take_all([this](int v) { this->tally.out(v); });
      this->push(4);
    }
  }
  void after() { this->finish(); }
};

// Pushes race a take_all: the detached chain and the stack left behind hold
// every value exactly once between them.
template <class Sync, TreiberFault F>
struct PushVsTakeAll : ScenarioCommon<Sync, F> {
  static constexpr const char* name = "push_vs_take_all";
  static constexpr const char* description = "2 pushers (3 values) + 1 take_all drainer";
  static constexpr unsigned threads = 3;
  PushVsTakeAll() : ScenarioCommon<Sync, F>(4) {}
  void thread(unsigned i) {
    if (i == 0) {
      this->push(1);
      this->push(2);
    } else if (i == 1) {
      this->push(3);
    } else {
      this->stack.take_all([this](int v) { this->tally.out(v); });
    }
  }
  void after() { this->finish(); }
};

// A traversal while another thread pops and pushes (reusing nodes): it ends,
// every value it sees was pushed by someone, and every value that stayed in the
// stack throughout (still there at the end, pushed before) is visited.
template <class Sync, TreiberFault F>
struct TraversalDuringPops : ScenarioCommon<Sync, F> {
  static constexpr const char* name = "traversal_during_pops";
  static constexpr const char* description = "for_each while 1 thread pops twice and 1 pushes";
  static constexpr unsigned threads = 3;
  TraversalDuringPops() : ScenarioCommon<Sync, F>(4) {}
  int visited[kMaxValue + 1] = {};
  int steps = 0;
  void before() {
    this->push(1);
    this->push(2);
    this->push(3);
  }
  void thread(unsigned i) {
    if (i == 0) {
      this->pop_and_count();
      this->pop_and_count();
    } else if (i == 1) {
      this->push(4);
    } else {
      this->stack.for_each([this](int v) {
        Sync::check(v >= 1 && v <= 4, "traversal saw a value nobody pushed");
        if (v >= 1 && v <= kMaxValue) ++visited[v];
        Sync::check(++steps <= 16, "traversal does not end");
      });
    }
  }
  void after() {
    // Values pushed in before() that nobody popped were in the stack throughout.
    int remaining[kMaxValue + 1] = {};
    this->stack.for_each([&](int v) {
      if (v >= 1 && v <= kMaxValue) ++remaining[v];
    });
    for (int v = 1; v <= 3; ++v)
      if (remaining[v] && this->tally.count(v) == 0)
        Sync::check(visited[v] >= 1, "traversal skipped a value that stayed in the stack");
    this->finish();
  }
};

// The pool runs dry: with capacity 2 and three pushers exactly two succeed,
// and a concurrent pop makes room for at most one more.
template <class Sync, TreiberFault F>
struct PoolExhaustion : ScenarioCommon<Sync, F> {
  static constexpr const char* name = "pool_exhaustion";
  static constexpr const char* description = "capacity 2: 2 pushers (one value each) + 1 pop-then-push";
  static constexpr unsigned threads = 3;
  PoolExhaustion() : ScenarioCommon<Sync, F>(2) {}
  bool ok[kMaxValue + 1] = {};
  void thread(unsigned i) {
    if (i < 2) {
      ok[i + 1] = this->stack.push(static_cast<int>(i) + 1);
    } else {
      this->pop_and_count();
      ok[3] = this->stack.push(3);
    }
  }
  void after() {
    int accepted = 0;
    for (int v = 1; v <= 3; ++v) {
      this->tally.pushed[v] = ok[v];
      accepted += ok[v];
    }
    Sync::check(accepted >= 2, "push refused although the pool had a free node");
    Sync::check(this->stack.check_invariants() == nullptr, "stack invariants violated");
    int v = 0;
    while (this->stack.pop(v)) this->tally.out(v);
    this->tally.template check_exactly_once<Sync>();
  }
};

}  // namespace lfcheck::treiber_models
