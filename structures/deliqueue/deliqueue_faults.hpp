// Seeded faults of DeliQueue. Each is a compile-time variant of DeliQueue (its
// second template parameter); `none` is the correct queue and the production
// default. The catalogue entry beside each enumerator is what
// `./lfcheck faults deliqueue` prints and what the tests iterate over.
#pragma once

#include "harness/fault_catalogue.hpp"

namespace lfcheck {

enum class DeliFault {
  none,
  presleep_store,         // the Looper's pre-sleep step is a plain store, not a CAS
  relaxed_publish,        // enqueue's publishing CAS on the stack top is relaxed
  sweep_stops_early,      // the sweep stops one node above the top it saw last time
  subtracting_comparator, // sign(a.when - b.when) with a wrapping subtraction
  lifo_insert_seq,        // ordinary posts get insertSeq counting down (LIFO among equal when)
  wake_only_later,        // an enqueuer wakes the Looper only if its message is due AFTER the deadline
  barrier_ignored,        // a barrier at the head does not hold back synchronous messages
  stale_backlink,         // after a failed top CAS the Looper unlinks without sweeping again
  wake_without_guard,     // an enqueuer wakes the Looper without a reference on the wake resource
  quit_skips_sweep,       // on the sentinel at the top the Looper quits without sweeping below it
  barrier_token_race,     // a barrier's token is drawn by a load and a separate store, not one fetch_add
  unsaturated_timeout,    // the park's timed wait is `until - now` unsaturated: wraps at the int64 limit
};

template <>
struct FaultTraits<DeliFault> {
  static constexpr const char* mechanism = "deliqueue";
  static constexpr FaultInfo<DeliFault> catalogue[] = {
      {DeliFault::presleep_store, "deliqueue.presleep_store",
       "the Looper's last step before sleeping is a plain store of the sleeping bit instead of "
       "a CAS: an enqueue between its sweep and that store is overwritten, nobody wakes the "
       "Looper, and it sleeps through a due message (lost wake-up)",
       "the Looper's final pre-sleep step as a plain store instead of a CAS", "model"},
      {DeliFault::relaxed_publish, "deliqueue.relaxed_publish",
       "enqueue publishes the message with a relaxed CAS: the Looper can read the message's "
       "when and payload before the poster's writes (data race)",
       "", "model,stress"},
      {DeliFault::sweep_stops_early, "deliqueue.sweep_stops_early",
       "the Looper's sweep stops one node above the top it saw last time: that message never "
       "reaches the heap and is lost",
       "", "model,props,stress"},
      {DeliFault::subtracting_comparator, "deliqueue.subtracting_comparator",
       "the comparator takes sign(a.when - b.when) of a wrapping subtraction: at the int64 "
       "extremes (post-at-front is when = INT64_MIN) the order inverts and the heap misorders",
       "comparators that subtract and overflow", "props,stress"},
      {DeliFault::lifo_insert_seq, "deliqueue.lifo_insert_seq",
       "ordinary posts get an insertSeq that counts down: messages with equal when come out "
       "LIFO instead of FIFO",
       "", "model,props,stress"},
      {DeliFault::wake_only_later, "deliqueue.wake_only_later",
       "the enqueuer's wake test is inverted (wakes only if its message is due after the "
       "Looper's deadline): a message due earlier is slept through (lost wake-up)",
       "lost wake-ups in park/unpark", "model"},
      {DeliFault::barrier_ignored, "deliqueue.barrier_ignored",
       "a sync barrier at the head does not hold back synchronous messages: they are "
       "delivered past the barrier",
       "", "model,props,stress"},
      {DeliFault::stale_backlink, "deliqueue.stale_backlink",
       "when the Looper's CAS to unlink the top fails (a push came in), it unlinks through the "
       "back-link it had, without sweeping again: that link is stale (the new node above is "
       "unknown), the message stays on the stack after delivery",
       "back-links not rebuilt after a failed top CAS", "model"},
      {DeliFault::wake_without_guard, "deliqueue.wake_without_guard",
       "an enqueuer (or quit, or a clock advance) that saw the Looper sleeping wakes it through "
       "the wake resource without taking a reference on the refcounted shutdown: if another "
       "wake-up let the Looper process quit and destroy the resource meanwhile, the late waker "
       "reads the freed resource, writes its closed eventfd and locks its freed mutex (use after "
       "free; TSan sees it race with the destroy's scrub)",
       "", "model,stress"},
      {DeliFault::quit_skips_sweep, "deliqueue.quit_skips_sweep",
       "the Looper checks the top for the quit sentinel before sweeping and, finding it, "
       "processes quit without sweeping the messages pushed just before it: posts that "
       "returned true are neither delivered nor reported as dropped (silently lost)",
       "a post accepted but never run nor removed at quit", "model,stress"},
      {DeliFault::barrier_token_race, "deliqueue.barrier_token_race",
       "post_sync_barrier_at draws its token with a load and a separate store instead of one "
       "fetch_add: two barriers posted at once get the same token, and remove_sync_barrier(token) "
       "removes whichever it finds first (every count, drain and invariant still holds; only "
       "barriers posted concurrently by two threads show it)",
       "a non-atomic read-modify-write of a shared id counter (lost update: two callers get the "
       "same id), as when a lock-protected `mNextBarrierToken++` is ported to lock-free code "
       "without making the increment atomic",
       "lin"},
      {DeliFault::unsaturated_timeout, "deliqueue.unsaturated_timeout",
       "the Looper's park turns its deadline into a wait with a plain `until - now`: for a "
       "message due near INT64_MAX on a clock that reads below 0 (an arbitrary epoch, like "
       "Java's nanoTime) the difference wraps negative, the timed wait returns at once and "
       "the Looper spins re-taking the park mutex instead of sleeping (time never passes for "
       "it: a livelock; on real threads wakers and quit() starve)",
       "timed waits with a deadline near INT64_MAX that overflow (std::condition_variable::"
       "wait_for adding the wait to now()) and spin", "model,props"},
  };
};

}  // namespace lfcheck
