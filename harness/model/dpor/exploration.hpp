// The DPOR search itself, apart from Relacy: the tree of choices of a stateless
// depth-first exploration, the steps of the current execution, their
// happens-before, the races between them, and where to go next.
//
// Algorithm: source-DPOR with sleep sets (Abdulla, Aronis, Jonsson, Sagonas,
// "Optimal dynamic partial order reduction", POPL 2014, Algorithm 1). After each
// complete execution E, every race e < e' of E (dependent steps of different
// threads, e not happening before e' through other steps) is reversed by adding,
// at the choice point just before e, one thread that can start v = notdep(e, E).e'
// (an "initial" of v) — unless one is already there. Sleep sets stop a thread
// whose next step commutes with everything done since it was explored.
//
// Why source sets, not wakeup trees (Optimal-DPOR): every execution here is a
// full re-run of the scenario from its start (Relacy keeps no state to go back
// to), so a wakeup tree would save only the executions that end sleep-set
// blocked; those are counted and reported (ModelOutcome, the progress line), and
// source sets keep the search one stack of small nodes. Sleep-set blocked
// executions are run to their end (Relacy cannot stop one halfway without ending
// the run) but nothing after the blocking point is explored further.
//
// Locks: the scheduler never runs a thread into a mutex another thread holds
// (scheduler.hpp), so a lock is a step only where it takes the mutex. A release
// and the next lock of the mutex are then no race (the lock could not go first:
// only_handoff), and the order of two critical sections is the race of their
// locks, reversed at the first lock unless something besides the first section
// orders the second after it (lock_race). The probes lock_order and lock_handoff
// hold this to Relacy's full search (tests/dpor_truth.sh): without lock_race each
// loses outcomes.
//
// Choices that are not a thread (which store a load reads, a spurious CAS
// failure, whether a free is deferred, a user's random number; a timed wait
// timing out is a thread choice) are data nodes: every value is explored, as
// Relacy's tree search does, except where an alternative is known to lead to
// nothing new:
//   - whether a free is deferred decides only which block a later allocation gets
//     (Relacy's allocator does not touch a freed block's bytes): when no execution
//     through the node's first value allocates anything after the free, the other
//     value's executions are the same ones, and are not run (`pruned_frees`);
//   - a load that reads k stores back (Relacy's weak memory) when each of those
//     k newer stores conflicts with the load's step only there — the load against
//     the store of its location, nothing else of the two steps — and none of them
//     happens before the load's step through any other step: that execution is
//     the one where the load's step runs before those stores and reads the latest,
//     which the race between them (a load against a store) makes the search run.
//     The first execution with the older value is run and analysed; the rest of
//     its subtree is not (`pruned_loads`). See check_older_loads.
//
// Happens-before here is the dependence order (Mazurkiewicz traces), not the
// memory model's: e -> e' if e precedes e' in the same thread, or e precedes e'
// and they are dependent, closed transitively. Vector clocks over the steps of
// one execution. The steps an execution shares with the previous one (those that
// ended before the node it changed) keep their clocks and their races, which that
// execution's analysis found: each execution analyses only its new steps, against
// all earlier ones — O(new steps × steps).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <istream>
#include <ostream>

#include "harness/model/dpor/footprint.hpp"
#include "harness/model/dpor/graph_classes.hpp"

namespace lfcheck::model::dpor {

using ThreadMask = std::uint32_t;  // bit t: thread t
inline ThreadMask bit(unsigned t) { return ThreadMask(1) << t; }
inline unsigned lowest(ThreadMask m) { return static_cast<unsigned>(__builtin_ctz(m)); }
constexpr unsigned kNoThread = ~0u;

// The data choices' kinds: Relacy's sched_type values (rl::sched_type_atomic_load ...).
enum ChoiceKind : unsigned { kLoadChoice = 1, kCasFailChoice = 2, kFreeDeferChoice = 3, kUserChoice = 4 };

struct Node {
  bool thread_choice = true;
  bool frozen = false;  // after a sleep-set block, or replayed: no alternatives here
  // A data choice: `count` values, this execution took `index`.
  unsigned count = 1, index = 0, type = 0;
  // A free's deferral: some execution through this node's value allocated after it.
  bool allocated_after = false;
  // A load's choice: the location, the event its step becomes, and whether the
  // value it takes now was checked for pruning (check_older_loads).
  std::uintptr_t load_addr = 0;
  std::size_t load_event = 0;
  bool load_checked = false;
  // A thread choice.
  ThreadMask enabled = 0, backtrack = 0, done = 0, sleep = 0;
  // Threads that could run here but were held back: they gave way at a spin hint
  // after a retry that wrote, and run again only after another thread's step.
  ThreadMask held = 0;
  unsigned chosen = 0;
  bool blocked = false;  // every enabled thread was asleep here
  // Per thread: the footprint of its step from here — for a thread explored here
  // (done or current), the union over every execution through it; for a sleeping
  // thread, the footprint it was put to sleep with.
  Footprint step[kMaxThreads];
};

struct Event {
  unsigned thread = 0;
  std::size_t node = 0;   // the thread-choice node it was chosen at
  std::size_t end_depth = 0;  // the nodes taken when it ended: it is the same step in every
                              // execution whose path agrees on those nodes
  std::uint32_t seq = 0;  // 1-based position among its thread's steps
  std::uintptr_t acquires = 0;  // the mutex the step took (0: none): see lock_race
  // The step it could not run before (a give-way's wait, scheduler.hpp give_way):
  // an event index, or SIZE_MAX. Happens-before includes it.
  std::size_t after = SIZE_MAX;
  Footprint footprint;
  std::uint32_t clock[kMaxThreads] = {};  // happens-before: clock[u] = steps of u before or equal
};

// Counts of one search, for reports and the progress line.
struct SearchStats {
  std::uint64_t executions = 0;   // complete executions
  std::uint64_t sleep_blocked = 0;  // of them, blocked by sleep sets (redundant)
  std::uint64_t races = 0;         // races found over all executions (each once: with its later step new)
  std::size_t deepest = 0;         // the longest path of choices
  bool diverged = false;           // an execution did not repeat its path: nondeterministic scenario
  // Nodes made (new choice points), by kind: thread choices, then data choices by
  // Relacy's sched_type (load, cas_fail, mem_realloc, user) — where the tree's width is.
  std::uint64_t thread_nodes = 0, data_nodes[5] = {};
  // Alternatives taken (each starts one more execution), by the same kinds:
  // [0] thread choices, [1..4] data choices — where the executions come from.
  std::uint64_t alternatives[5] = {};
  // Data alternatives known to add nothing (see the header): frees whose deferral
  // no allocation followed, loads of an older store that only a direct race hid.
  std::uint64_t pruned_frees = 0, pruned_loads = 0;
  // Executions known to repeat a class explored elsewhere: sleep-set blocked, or
  // the one run of a pruned older load (each counted once). classes = executions - redundant.
  std::uint64_t redundant = 0;
  // Distinct execution graphs (reads-from and coherence) among the executions, when
  // counted (Exploration::count_graphs; graph_classes.hpp): what an explorer
  // optimal for reads-from equivalence would have had to run for them.
  std::uint64_t graphs = 0;
  // After the latest execution: executions the search will still run, at least
  // (the alternatives known on the current path; 0 once it has ended).
  std::uint64_t pending = 0;
  // ... the depth of the shallowest choice with an alternative still to take, and
  // the length of the path it is on (the search is open from there down).
  std::size_t open_depth = 0, path_length = 0;
};

class Exploration {
 public:
  static constexpr unsigned kDiverged = ~0u;
  explicit Exploration(unsigned threads) : threads_(threads) {}

  // --- one execution -------------------------------------------------------------
  void begin_execution() {
    depth_ = 0;
    // The steps that ended before the node the last advance changed are this
    // execution's too (the same choices lead to them): kept, with their clocks.
    std::size_t kept = 0;
    while (kept < events_.size() && events_[kept].end_depth <= changed_node_) ++kept;
    events_.resize(kept);
    kept_events_ = kept;
    next_event_ = 0;
    blocked_at_ = SIZE_MAX;
    last_thread_node_ = SIZE_MAX;
    for (auto& s : seq_) s = 0;
    frees_before_allocation_.clear();
  }

  // Steps of `thread` ended so far in this execution.
  std::uint32_t steps_of(unsigned thread) const { return seq_[thread]; }

  // The running thread allocated a block: every free deferral of this execution
  // so far was observable.
  void allocation() {
    for (std::size_t d : frees_before_allocation_) path_[d].allocated_after = true;
    frees_before_allocation_.clear();
  }

  // A thread choice among `enabled` (never empty); `current` is preferred when a
  // new node is made (fewer context switches: the search starts at the plain run).
  // Returns the thread.
  // `held`: threads runnable but held back at this point (a give-way, see Node).
  unsigned choose_thread(ThreadMask enabled, unsigned current, ThreadMask held = 0) {
    if (depth_ < path_.size()) {  // replaying the prefix of the path
      Node& n = path_[depth_];
      if (!n.thread_choice || !((enabled | held) & bit(n.chosen))) return diverged();
      last_thread_node_ = depth_;
      if (n.blocked) blocked_at_ = std::min(blocked_at_, depth_);
      ++depth_;
      return n.chosen;
    }
    Node n;
    n.thread_choice = true;
    n.enabled = enabled;
    n.held = held;
    n.sleep = inherited_sleep(n);
    n.frozen = blocked_at_ != SIZE_MAX || forced_;
    // Every thread that can run here sleeps, and the rest are held back by a
    // give-way (waiting for other threads' steps): a sleep-set block like any
    // other. A held thread goes on only after a sleeping thread's step, and that
    // step, taken earlier where it was explored, only lets the held thread go
    // sooner (a give-way waits for a count of steps: scheduler.hpp give_way), so
    // the executions through here are that node's.
    ThreadMask awake = enabled & ~n.sleep;
    if (forced_) {
      if (forced_next_ >= forced_choices_.size() || !(enabled & bit(forced_choices_[forced_next_])))
        return diverged();
      n.chosen = forced_choices_[forced_next_++];
    } else if (awake == 0) {
      n.blocked = true;  // every enabled thread is asleep: this execution is redundant from here
      n.chosen = (enabled & bit(current)) ? current : lowest(enabled);
      if (blocked_at_ == SIZE_MAX) blocked_at_ = path_.size();
    } else {
      n.chosen = (awake & bit(current)) ? current : lowest(awake);
    }
    n.backtrack = bit(n.chosen);
    ++stats_.thread_nodes;
    path_.push_back(std::move(n));
    last_thread_node_ = depth_;
    ++depth_;
    stats_.deepest = std::max(stats_.deepest, path_.size());
    return path_.back().chosen;
  }

  // A data choice with `count` values; returns the one this execution takes.
  // `load_addr`: for a load's choice, the location it reads (0: unknown).
  unsigned choose_value(unsigned count, unsigned type, std::uintptr_t load_addr = 0) {
    if (type == kFreeDeferChoice) frees_before_allocation_.push_back(depth_);
    if (depth_ < path_.size()) {
      Node& n = path_[depth_];
      if (n.thread_choice || n.count != count || n.type != type) return diverged();
      ++depth_;
      return n.index;
    }
    Node n;
    n.thread_choice = false;
    n.count = count;
    n.type = type;
    n.load_addr = type == kLoadChoice ? load_addr : 0;
    n.load_event = next_event_;  // the running step's event, when it ends
    n.frozen = blocked_at_ != SIZE_MAX || forced_;
    if (forced_) {
      if (forced_next_ >= forced_choices_.size() || forced_choices_[forced_next_] >= count) return diverged();
      n.index = forced_choices_[forced_next_++];
    }
    ++stats_.data_nodes[type < 5 ? type : 4];
    path_.push_back(std::move(n));
    ++depth_;
    stats_.deepest = std::max(stats_.deepest, path_.size());
    return path_.back().index;
  }

  // The step of `thread` chosen at the latest thread node ended with `footprint`;
  // `acquires`: the mutex it took (0: none).
  // `after_thread`, `after_seq`: a step of another thread this one could not run
  // before (kNoThread: none); it happens before this one.
  void end_step(unsigned thread, Footprint footprint, std::uintptr_t acquires = 0, unsigned after_thread = kNoThread,
                std::uint32_t after_seq = 0) {
    if (last_thread_node_ == SIZE_MAX) return;
    Node& n = path_[last_thread_node_];
    if (n.chosen != thread) {  // not the step that node started: the run is not the one the path says
      diverged();
      return;
    }
    if (next_event_ < events_.size()) {  // a kept step, replayed: it must be the same one
      const Event& kept = events_[next_event_];
      if (kept.thread != thread || kept.node != last_thread_node_ || kept.end_depth != depth_) {
        diverged();
        return;
      }
      ++seq_[thread];
      ++next_event_;
      last_thread_node_ = SIZE_MAX;
      return;
    }
    n.step[thread].merge(footprint);
    Event e;
    e.thread = thread;
    e.node = last_thread_node_;
    e.end_depth = depth_;
    e.seq = ++seq_[thread];
    e.acquires = acquires;
    if (after_thread != kNoThread)
      for (std::size_t i = events_.size(); i-- > 0;)
        if (events_[i].thread == after_thread && events_[i].seq == after_seq) {
          e.after = i;
          break;
        }
    e.footprint = std::move(footprint);
    events_.push_back(std::move(e));
    ++next_event_;
    last_thread_node_ = SIZE_MAX;
  }

  // The execution ended (passed). Finds its races, then moves to the next
  // execution's path; false when the search is complete.
  bool end_execution() {
    if (const char* dump = std::getenv("LFCHECK_DPOR_DUMP")) {  // "N": the first N executions; "N+": execution N
      const std::uint64_t n = std::strtoull(dump, nullptr, 10);
      if (dump[std::strlen(dump) - 1] == '+' ? stats_.executions == n : stats_.executions < n) dump_execution();
    }
    ++stats_.executions;
    if (blocked_at_ != SIZE_MAX) ++stats_.sleep_blocked;
    if (count_graphs_) record_graph();
    if (forced_) return true;  // a replay runs one execution
    analyse_races();
    const bool reordered = check_older_loads();
    if (blocked_at_ != SIZE_MAX || reordered) ++stats_.redundant;
    const std::size_t length = path_.size();
    const bool more = advance();
    std::size_t shallowest = 0;
    stats_.pending = more ? pending_alternatives(shallowest) + 1 : 0;  // + 1: the alternative advance() just took
    stats_.open_depth = more ? std::min(shallowest, changed_node_) : 0;
    stats_.path_length = length;
    return !more;
  }

  // Counts the distinct execution graphs of the executions (SearchStats::graphs).
  void count_graphs(bool on) { count_graphs_ = on; }

  // Every thread enabled at the first choice is to be explored there (the first
  // thread is not a step like the others: see dpor_scheduler, every_thread_first).
  // The threads explored first there do not sleep after another went first: the
  // first step is not the same step as the first thread and as a later one.
  void every_thread_first() {
    if (path_.empty() || path_[0].frozen || !path_[0].thread_choice) return;
    path_[0].backtrack |= path_[0].enabled & ~path_[0].sleep;
    first_thread_matters_ = true;
  }

  bool diverged_flag() const { return diverged_; }

  // At the end of an execution: whether it replayed every choice of its path (an
  // execution that ends before the choice the last advance changed did not run
  // the path it was to run — the scenario depends on more than the schedule).
  // Marks the search diverged if not.
  bool replayed_whole_path() {
    if (!forced_ && depth_ < path_.size()) diverged();
    return !diverged_;
  }
  const SearchStats& stats() const { return stats_; }

  // Alternatives already known on the current path that the search will take:
  // each starts at least one more execution, so this is a lower bound on the
  // executions still to run — the only figure about the rest of the search that
  // holds. (A mixed-radix "explored fraction" over the path, as the tree searches
  // print, is no estimate here: a thread node's radix grows as later executions
  // find races, so it said "19 % explored, ~2 s left" of searches that did not end
  // in ten minutes.) Not counted: a free's deferral no allocation has followed
  // yet (advance() may prune it); frozen nodes.
  // `shallowest`: the depth of the first node with one (how much of the tree is
  // still open: the search backtracks there last).
  std::uint64_t pending_alternatives(std::size_t& shallowest) const {
    std::uint64_t pending = 0;
    shallowest = path_.size();
    for (std::size_t i = 0; i < path_.size(); ++i) {
      const Node& n = path_[i];
      if (n.frozen) continue;
      unsigned here = 0;
      if (n.thread_choice) {
        const ThreadMask todo = n.backtrack & n.enabled & ~n.done & ~n.sleep & ~bit(n.chosen);
        here = static_cast<unsigned>(__builtin_popcount(todo));
      } else if (n.type != kFreeDeferChoice || n.allocated_after) {
        here = n.count - n.index - 1;
      }
      if (here && shallowest == path_.size()) shallowest = i;
      pending += here;
    }
    return pending;
  }

  // The choices of the current execution so far (replay files).
  void write_choices(std::ostream& out) const {
    out << "dpor " << depth_;
    for (std::size_t i = 0; i < depth_ && i < path_.size(); ++i)
      out << ' ' << (path_[i].thread_choice ? path_[i].chosen : path_[i].index);
  }
  // Replays exactly these choices (one execution).
  bool read_choices(std::istream& in) {
    std::string tag;
    std::size_t n = 0;
    if (!(in >> tag >> n) || tag != "dpor") return false;
    forced_choices_.clear();
    events_.clear();
    changed_node_ = 0;
    for (std::size_t i = 0; i < n; ++i) {
      unsigned c = 0;
      if (!(in >> c)) return false;
      forced_choices_.push_back(c);
    }
    forced_ = true;
    forced_next_ = 0;
    path_.clear();
    return true;
  }

 private:
  // A developer's view of one execution: its steps and what each touched.
  // LFCHECK_DPOR_DUMP_FULL: whole addresses (canonical block names have bit 63 set), not their low 16 bits.
  void dump_execution() const {
    const bool full = std::getenv("LFCHECK_DPOR_DUMP_FULL") != nullptr;
    std::fprintf(stderr, "execution %llu (%zu steps):\n", (unsigned long long)stats_.executions, events_.size());
    static const char* names[] = {"load", "store", "rmw", "fence", "fence_sc", "cell_load", "cell_store", "lock",
                                  "unlock", "wait", "notify", "alloc", "free", "spin", "unknown"};
    for (const Event& e : events_) {
      std::fprintf(stderr, "  node %3zu  t%u#%u:", e.node, e.thread, e.seq);
      for (const Touch& t : e.footprint.touches)
        std::fprintf(stderr, " %s%s@%lx", names[static_cast<int>(t.op)], t.seq_cst ? "(sc)" : "",
                     static_cast<unsigned long>(t.addr & (full ? ~0ul : 0xffff)));
      std::fprintf(stderr, "\n");
    }
  }

  // This execution's graph: the load choices by the step they belong to.
  void record_graph() {
    graphs_.record(events_, [this](std::size_t event, std::uintptr_t addr) -> unsigned {
      for (const Node& n : path_)
        if (!n.thread_choice && n.type == kLoadChoice && n.load_event == event && n.load_addr == addr) return n.index;
      return 0;
    });
    stats_.graphs = graphs_.count();
  }

  unsigned diverged() {
    // The scenario did not repeat the choices of the path it is replaying: it
    // depends on something other than the schedule. The scheduler ends the
    // execution as a failure (NONDETERMINISTIC SCENARIO) on seeing kDiverged.
    diverged_ = true;
    return kDiverged;
  }

  // The sleep set of a new thread node: the previous thread node's sleeping and
  // already explored threads whose step commutes with the step just taken there.
  ThreadMask inherited_sleep(Node& fresh) {
    if (next_event_ == 0) return 0;
    const Event& e = events_[next_event_ - 1];  // the step that ended last
    const Node& prev = path_[e.node];
    ThreadMask sleep = 0;
    // (At the first choice, once which thread goes first matters, the threads
    // explored first there are not asleep after another: every_thread_first.)
    const ThreadMask explored = e.node == 0 && first_thread_matters_ ? 0 : prev.done;
    const ThreadMask candidates = (prev.sleep | explored) & ~bit(e.thread);
    for (unsigned q = 0; q < threads_; ++q) {
      if (!(candidates & bit(q))) continue;
      if (dependent(prev.step[q], e.footprint)) continue;
      sleep |= bit(q);
      fresh.step[q] = prev.step[q];
    }
    return sleep;
  }

  bool happens_before(const Event& a, const Event& b) const { return b.clock[a.thread] >= a.seq; }

  void analyse_races() {
    const std::size_t limit = blocked_at_;  // races after a sleep-set block add nothing new
    std::size_t count = 0;
    while (count < events_.size() && events_[count].node < limit) ++count;
    analysed_events_ = count;  // the events whose clocks are computed
    std::uint32_t last_clock[kMaxThreads][kMaxThreads] = {};  // each thread's latest step's clock
    // The kept steps come before any sleep-set block of this execution (the path's
    // nodes after a block are frozen, so the last advance changed one before it):
    // their clocks stand and their races were reversed when they were new.
    const std::size_t kept = std::min(kept_events_, count);
    for (std::size_t j = 0; j < kept; ++j)
      std::copy(events_[j].clock, events_[j].clock + kMaxThreads, last_clock[events_[j].thread]);
    for (std::size_t j = kept; j < count; ++j) {
      Event& ej = events_[j];
      std::uint32_t c[kMaxThreads];
      std::copy(last_clock[ej.thread], last_clock[ej.thread] + kMaxThreads, c);
      if (ej.after != SIZE_MAX)
        for (unsigned u = 0; u < kMaxThreads; ++u) c[u] = std::max(c[u], events_[ej.after].clock[u]);
      if (ej.acquires) lock_race(j, c);
      for (std::size_t i = j; i-- > 0;) {
        const Event& ei = events_[i];
        if (ei.thread == ej.thread || c[ei.thread] >= ei.seq) continue;  // ordered already
        if (!dependent(ei.footprint, ej.footprint)) continue;
        if (!(ej.acquires && only_handoff(ei.footprint, ej.footprint, ej.acquires))) {
          ++stats_.races;
          reverse(i, j, c);
        }
        for (unsigned u = 0; u < kMaxThreads; ++u) c[u] = std::max(c[u], ei.clock[u]);
      }
      c[ej.thread] = ej.seq;
      std::copy(c, c + kMaxThreads, ej.clock);
      std::copy(c, c + kMaxThreads, last_clock[ej.thread]);
    }
  }

  // Two critical sections of one mutex: e_j takes it after another thread's section
  // [e_a, its release] (e_a: the latest step before e_j that took it). The
  // scheduler runs no thread into a held mutex, so e_j is ordered after e_a by the
  // release, which it depends on, and the race the order of the sections is — the
  // two locks — is not one by the plain rule. It is one when e_j is ordered after
  // e_a by nothing but the section: e_j's happens-before rebuilt without the
  // section's steps (its thread's previous step, and every other earlier step it
  // is dependent on) does not hold e_a. Then e_j's thread is made to run first at
  // e_a's node (reverse: it is free there; e_a takes it), where the section ahead
  // is its own. A section ordered after e_a by a third step (e_a's section wrote
  // what another thread read, then e_j read that thread's write) is not reversed
  // here: that step races with e_j first, and the section's order is reversed in
  // the execution that reversal leads to. `prev`: e_j's thread's previous clock.
  void lock_race(std::size_t j, const std::uint32_t* prev) {
    const Event& ej = events_[j];
    std::size_t a = j;
    while (a-- > 0 && events_[a].acquires != ej.acquires) {
    }
    if (a == SIZE_MAX || events_[a].thread == ej.thread) return;
    const Event& ea = events_[a];
    std::uint32_t released = 0;  // the seq of the step of ea's thread that let go of it
    for (std::size_t k = a + 1; k < j && !released; ++k) {
      const Event& ek = events_[k];
      if (ek.thread != ea.thread) continue;
      for (const Touch& t : ek.footprint.touches)
        if ((t.op == Op::unlock && t.addr == ej.acquires) || (t.op == Op::wait && t.other == ej.acquires))
          released = ek.seq;
    }
    if (!released) return;
    std::uint32_t clock[kMaxThreads];
    std::copy(prev, prev + kMaxThreads, clock);
    for (std::size_t i = 0; i < j; ++i) {
      const Event& ei = events_[i];
      if (ei.thread == ej.thread) continue;
      if (ei.thread == ea.thread && ei.seq >= ea.seq && ei.seq <= released) continue;  // the section
      if (!dependent(ei.footprint, ej.footprint)) continue;
      for (unsigned u = 0; u < kMaxThreads; ++u) clock[u] = std::max(clock[u], ei.clock[u]);
    }
    if (clock[ea.thread] >= ea.seq) return;  // ordered after e_a otherwise
    ++stats_.races;
    reverse(a, j, clock);
  }

  // A step that let go of mutex m against one that took it, dependent through that
  // alone: no race. The second could not run first (m was held), and the order of
  // the two critical sections is lock_race's.
  static bool only_handoff(const Footprint& a, const Footprint& b, std::uintptr_t m) {
    for (const Touch& x : a.touches)
      for (const Touch& y : b.touches) {
        if (!dependent(x, y)) continue;
        const bool lets_go = (x.op == Op::unlock && x.addr == m) || (x.op == Op::wait && x.other == m);
        const bool takes = (y.op == Op::lock && y.addr == m) || (y.op == Op::wait && y.other == m);
        const bool same_condvar = x.op == Op::wait && y.op == Op::wait && x.addr == y.addr;
        if (!lets_go || !takes || same_condvar) return false;
      }
    return true;
  }

  // Race e_i < e_j: at e_i's node, make sure some initial of notdep(e_i).e_j is explored.
  // `clock_j` is e_j's happens-before as far as computed (every step ordered before
  // e_j except through e_i and the steps after it in this loop).
  void reverse(std::size_t i, std::size_t j, const std::uint32_t* clock_j) {
    Node& n = path_[events_[i].node];
    if (n.frozen) return;
    const Event& ei = events_[i];
    // v: the steps after e_i that do not happen after it, then e_j.
    raw_vector<std::size_t>& v = scratch_;
    v.clear();
    for (std::size_t k = i + 1; k < j; ++k)
      if (!happens_before(ei, events_[k])) v.push_back(k);
    ThreadMask initials = 0, seen = 0;
    for (std::size_t a = 0; a < v.size(); ++a) {
      const Event& ek = events_[v[a]];
      if (seen & bit(ek.thread)) continue;
      seen |= bit(ek.thread);
      bool first = true;
      for (std::size_t b = 0; b < a && first; ++b) first = !happens_before(events_[v[b]], ek);
      if (first) initials |= bit(ek.thread);
    }
    if (!(seen & bit(events_[j].thread))) {
      // e_j itself: an initial if no step of v happens before it.
      bool first = true;
      for (std::size_t b = 0; b < v.size() && first; ++b)
        first = !(clock_j[events_[v[b]].thread] >= events_[v[b]].seq);
      if (first) initials |= bit(events_[j].thread);
    }
    if (initials & (n.backtrack | n.sleep)) return;  // already explored, or covered
    const ThreadMask startable = initials & n.enabled;
    if (startable) {
      const unsigned tj = events_[j].thread;
      n.backtrack |= (startable & bit(tj)) ? bit(tj) : bit(lowest(startable));
    } else if (initials & n.held) {
      // An initial was only held back there (it gave way): other threads' steps
      // release it (a count of them, scheduler.hpp give_way), not just steps of v
      // or e_i, so every thread enabled there is a way to the reversal
      // (conservative, as Flanagan-Godefroid's DPOR does where the initial is not
      // enabled).
      n.backtrack |= n.enabled & ~n.sleep;
    }
    // Else no initial can start at that node (each is blocked there on a mutex, a
    // wait or an await): the race cannot be reversed from it — the blocked thread
    // waits for a step of v or e_i itself, which releases it.
  }

  // A load's data node whose value reads k >= 1 stores back, in its first
  // execution: if the load's step e_L could have run before each of the k newer
  // stores' steps w (so that it read the store it reads now as the latest), this
  // execution is that one's equivalent, and the rest of its subtree is not
  // explored (its nodes are frozen). e_L can run before w when
  //   - w is another thread's, its conflict with e_L is the store against the
  //     load of the location and nothing else (else moving e_L changes what
  //     either step sees), and
  //   - w does not happen before e_L through any step but itself: the clock of
  //     e_L rebuilt without the edges from the k stores (its thread's previous
  //     step, and every other earlier step it conflicts with);
  //   - e_L's thread was never held back (a give-way) from w's node to e_L's:
  //     that order is not dependence, and the reordered run might not exist;
  //   - nothing else is chosen in e_L's step after the load (the next node is a
  //     thread choice), so the step is the same in every execution of the subtree.
  // The race e_L against the newest store is found in every execution where the
  // load reads it, so the reordered execution is explored (source-DPOR). The
  // differential tests hold this to Relacy's full search (tests/dpor_truth.sh).
  // True if this execution was such a load's (its subtree pruned).
  bool check_older_loads() {
    const std::size_t analysed = analysed_events_;
    for (std::size_t d = 0; d < path_.size(); ++d) {
      Node& n = path_[d];
      if (n.thread_choice || n.type != kLoadChoice || n.index == 0 || n.frozen || n.load_checked) continue;
      n.load_checked = true;
      if (n.load_addr == 0 || n.load_event >= analysed) continue;
      if (d + 1 < path_.size() && !path_[d + 1].thread_choice) continue;
      if (!older_load_is_reordering(n)) continue;
      for (std::size_t k = d + 1; k < path_.size(); ++k) path_[k].frozen = true;
      ++stats_.pruned_loads;
      return true;  // the nodes below are frozen: nothing deeper to check
    }
    return false;
  }

  bool older_load_is_reordering(const Node& n) const {
    const Event& el = events_[n.load_event];
    // The k newest stores of the location before e_L: the steps that wrote it.
    std::size_t newer[4];
    const unsigned k = n.index;
    if (k > 4) return false;
    unsigned found = 0;
    for (std::size_t i = n.load_event; i-- > 0 && found < k;) {
      const Event& e = events_[i];
      bool writes = false;
      for (const Touch& t : e.footprint.touches) {
        if (t.block() && t.covers(n.load_addr)) return false;  // the block came or went: keep it
        if (t.memory() && t.addr == n.load_addr && t.writes()) writes = true;
      }
      if (!writes) continue;
      if (e.thread == el.thread) return false;
      newer[found++] = i;
    }
    if (found < k) return false;  // an older store from before the threads: keep it
    for (unsigned w = 0; w < k; ++w) {
      for (const Touch& a : el.footprint.touches)
        for (const Touch& b : events_[newer[w]].footprint.touches) {
          if (!dependent(a, b)) continue;
          const bool the_load = a.memory() && !a.writes() && a.addr == n.load_addr && b.memory() &&
                                b.addr == n.load_addr && b.writes();
          if (!the_load) return false;
        }
    }
    // e_L's clock without the k stores' edges.
    std::uint32_t clock[kMaxThreads] = {};
    if (el.after != SIZE_MAX) std::copy(events_[el.after].clock, events_[el.after].clock + kMaxThreads, clock);
    for (std::size_t i = n.load_event; i-- > 0;) {
      const Event& e = events_[i];
      if (e.thread == el.thread) {
        for (unsigned u = 0; u < kMaxThreads; ++u) clock[u] = std::max(clock[u], e.clock[u]);
        break;  // its previous step: program order (its clock covers its thread's earlier ones)
      }
    }
    for (std::size_t i = 0; i < n.load_event; ++i) {
      const Event& e = events_[i];
      if (e.thread == el.thread) continue;
      bool is_newer = false;
      for (unsigned w = 0; w < k; ++w) is_newer = is_newer || newer[w] == i;
      if (is_newer || !dependent(e.footprint, el.footprint)) continue;
      for (unsigned u = 0; u < kMaxThreads; ++u) clock[u] = std::max(clock[u], e.clock[u]);
    }
    for (unsigned w = 0; w < k; ++w) {
      const Event& ew = events_[newer[w]];
      if (clock[ew.thread] >= ew.seq) return false;  // ordered before e_L through other steps
    }
    const std::size_t from = events_[newer[k - 1]].node;
    for (std::size_t j = from; j <= el.node; ++j)
      if (path_[j].thread_choice && (path_[j].held & bit(el.thread))) return false;
    return true;
  }

  // Depth first: the deepest node with an unexplored alternative; false if none.
  bool advance() {
    while (!path_.empty()) {
      Node& n = path_.back();
      if (!n.frozen) {
        if (!n.thread_choice) {
          if (n.type == kFreeDeferChoice && !n.allocated_after && n.index + 1 < n.count) {
            stats_.pruned_frees += n.count - n.index - 1;  // the other value's executions are these
          } else if (n.index + 1 < n.count) {
            ++n.index;
            n.load_checked = false;
            ++stats_.alternatives[n.type < 5 ? n.type : 4];
            changed_node_ = path_.size() - 1;
            return true;
          }
        } else {
          n.done |= bit(n.chosen);
          const ThreadMask todo = n.backtrack & n.enabled & ~n.done & ~n.sleep;
          if (todo) {
            n.chosen = lowest(todo);
            ++stats_.alternatives[0];
            changed_node_ = path_.size() - 1;
            return true;
          }
        }
      }
      path_.pop_back();
    }
    return false;
  }

  unsigned threads_;
  raw_vector<Node> path_;
  std::size_t depth_ = 0;
  raw_vector<Event> events_;
  std::size_t blocked_at_ = SIZE_MAX;       // the first sleep-set-blocked node of this execution
  std::size_t last_thread_node_ = SIZE_MAX;  // the node whose step is running
  std::uint32_t seq_[kMaxThreads] = {};
  raw_vector<std::size_t> scratch_;
  raw_vector<std::size_t> frees_before_allocation_;  // free-deferral nodes no allocation has followed yet
  std::size_t analysed_events_ = 0;
  std::size_t changed_node_ = 0;  // the node the last advance changed (the executions' shared prefix ends there)
  std::size_t kept_events_ = 0;   // events kept from the previous execution (begin_execution)
  std::size_t next_event_ = 0;    // this execution's steps ended so far (the next one's index)
  SearchStats stats_;
  bool forced_ = false;  // replaying recorded choices
  raw_vector<unsigned> forced_choices_;
  std::size_t forced_next_ = 0;
  bool diverged_ = false;
  bool count_graphs_ = false;
  bool first_thread_matters_ = false;  // every_thread_first was called (this search)
  GraphClasses graphs_;
};

}  // namespace lfcheck::model::dpor
