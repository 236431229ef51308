// Pacing of a long history (lin.history, harness/lin/stress.hpp) for a spec whose
// state grows with what the calls leave behind: a message queue that one owner
// (the Looper, thread 0) drains and the other threads fill.
//
// Why: the other threads run their calls in bursts (thousands fit in one time
// slice), so while the owner is off the CPU a queue grows to hundreds of
// messages; the checker then copies that state at every search node and a
// 10,000-call history runs past its budget (specs/deliqueue_spec.hpp). Pacing
// keeps the backlog short whatever the scheduling:
//   * a filler (another thread's call that may add an item, e.g. a post) waits
//     while `history_backlog` items are queued and the owner still has calls
//     left in this round;
//   * the owner's draining call (a poll) waits while nothing is queued and some
//     other thread still has calls left, so the owner does not run through its
//     share early and leave the rest of the posts undrained.
// Both cannot wait at once (one needs backlog >= limit >= 1, the other backlog
// == 0), and a thread that finished its round never waits again in it, so
// pacing cannot deadlock. It waits only between calls (before a call's invoke
// stamp), so it changes which histories run, never how one is judged.
//
// A spec opts in with (in its HistorySpec):
//   static constexpr long history_backlog = K;             // most items a filler lets queue
//   static bool fills(const Call&);                         // may add an item
//   static bool drains(const Call&);                        // the owner's call that takes one
//   static int backlog_change(const Call&, const Result&);  // +1 added, -1 taken, else 0
//
// Memory orders: every access is relaxed. The counters are harness bookkeeping
// that orders nothing: a release/acquire pair here would add happens-before edges
// between the threads' calls and hide races from TSan. A stale read only makes a
// thread wait a little longer or a little less (the loops re-read).
#pragma once

#include <atomic>
#include <concepts>
#include <thread>

namespace lfcheck::lin {

template <class S>
concept paced_history = requires(const typename S::Call& c, const typename S::Result& r) {
  { S::history_backlog } -> std::convertible_to<long>;
  { S::fills(c) } -> std::same_as<bool>;
  { S::drains(c) } -> std::same_as<bool>;
  { S::backlog_change(c, r) } -> std::convertible_to<int>;
};

template <class S>
class HistoryPacing {
 public:
  // The most items queued at once in any round so far (the run's "most_queued").
  long most_queued() const { return most_.load(std::memory_order_relaxed); }  // relaxed: read after the round

  // At quiescence, before a round (a new history on a new subject) starts.
  void start_round(unsigned threads) {
    backlog_.store(0, std::memory_order_relaxed);  // relaxed: see the top; the round's barrier orders it
    others_busy_.store(threads > 0 ? threads - 1 : 0, std::memory_order_relaxed);  // as above
    owner_busy_.store(true, std::memory_order_relaxed);                              // as above
  }

  // Thread t is about to invoke `call`.
  void before(unsigned t, const typename S::Call& call) const {
    if (t != 0 && S::fills(call)) {
      // relaxed: see the top (pairs with nothing; the loop re-reads)
      while (backlog_.load(std::memory_order_relaxed) >= S::history_backlog &&
             owner_busy_.load(std::memory_order_relaxed))
        std::this_thread::yield();
    } else if (t == 0 && S::drains(call)) {
      // relaxed: see the top (pairs with nothing; the loop re-reads)
      while (backlog_.load(std::memory_order_relaxed) <= 0 && others_busy_.load(std::memory_order_relaxed) > 0)
        std::this_thread::yield();
    }
  }

  // Thread t's call returned `result`; `last` if it was t's last call of the round.
  void after(unsigned t, const typename S::Call& call, const typename S::Result& result, bool last) {
    if (const int change = S::backlog_change(call, result)) {
      const long now = backlog_.fetch_add(change, std::memory_order_relaxed) + change;  // relaxed: see the top
      long most = most_.load(std::memory_order_relaxed);                                 // relaxed: a statistic
      while (now > most && !most_.compare_exchange_weak(most, now, std::memory_order_relaxed)) {
      }  // relaxed: a statistic, read after the run's threads joined
    }
    if (!last) return;
    if (t == 0)
      owner_busy_.store(false, std::memory_order_relaxed);  // relaxed: see the top
    else
      others_busy_.fetch_sub(1, std::memory_order_relaxed);  // relaxed: see the top
  }

 private:
  std::atomic<long> backlog_{0};          // items queued by the round's calls, as their results say
  std::atomic<unsigned> others_busy_{0};  // threads other than the owner with calls left this round
  std::atomic<bool> owner_busy_{true};    // the owner has calls left this round
  std::atomic<long> most_{0};             // the largest backlog_ seen
};

}  // namespace lfcheck::lin
