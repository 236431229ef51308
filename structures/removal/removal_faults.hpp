// Seeded faults of tombstone removal, benign-race traversal and their safe
// memory reclamation (structure name "removal"). Each is a compile-time variant
// of DeliQueue (its RemovalFault template parameter) or of TraversalEpochs;
// `none` is the correct code and the production default. The catalogue entry
// beside each enumerator is what `./lfcheck faults removal` prints and what the
// tests iterate over.
#pragma once

#include "harness/fault_catalogue.hpp"

namespace lfcheck {

enum class RemovalFault {
  none,
  deliver_unclaimed,    // the Looper delivers without the claim CAS
  removed_into_heap,    // the sweep inserts a claimed (removed) message into the heap
  backlink_not_rebuilt, // the drain's unlink does not sweep again after a failed top CAS
  next_cleared,         // unlinking clears the node's next: a traverser standing on it stops
  free_without_grace,   // reclamation hands messages back without waiting for traversals
  plain_next,           // traversal and unlink access `next` with plain (non-atomic) loads/stores
  relaxed_enter,        // a traversal joins its epoch with a relaxed CAS (no acquire)
  retry_without_sweep,  // after losing its delivery claim, the Looper retries from the heap unswept
};

template <>
struct FaultTraits<RemovalFault> {
  static constexpr const char* mechanism = "removal";
  static constexpr FaultInfo<RemovalFault> catalogue[] = {
      {RemovalFault::deliver_unclaimed, "removal.deliver_unclaimed",
       "the Looper delivers a message without claiming it by the CAS on its flags: a remover "
       "that claimed it meanwhile also removes it, so it is both delivered and removed",
       "delivering or removing without the claim CAS", "model"},
      {RemovalFault::removed_into_heap, "removal.removed_into_heap",
       "the sweep inserts a message a remover already claimed into the heap; the drain, which "
       "relies on the sweep never doing so, unlinks and hands it back while the heap still "
       "holds it (heap entry of a message that is no longer queued)",
       "a removed message inserted into the heap twice", "model,props,stress"},
      {RemovalFault::backlink_not_rebuilt, "removal.backlink_not_rebuilt",
       "when the drain unlinks a removed message at the top and its CAS on the top fails (a "
       "push came in), it unlinks through the back-link it had without sweeping again: the "
       "link is stale and the removed message stays on the stack",
       "back-links not rebuilt after a failed top CAS", "model,props"},
      {RemovalFault::next_cleared, "removal.next_cleared",
       "unlinking a message clears its next: a traverser standing on it ends its walk early "
       "and misses messages it had to visit (removeMessages returns while a matching message "
       "stays queued and is delivered later)",
       "", "model"},
      {RemovalFault::free_without_grace, "removal.free_without_grace",
       "reclamation hands removed and recycled messages back at once, without waiting for the "
       "traversals that may still stand on them: the owner frees a message a traverser then "
       "reads (use after free)",
       "", "model,stress"},
      {RemovalFault::plain_next, "removal.plain_next",
       "traversals read `next`, and the Looper's unlink writes it, with plain non-atomic accesses "
       "(Java's tolerated benign race; undefined behaviour in C++). Relacy cannot express a "
       "plain access to an atomic object, so only the TSan stress sees it (a data race on next)",
       "", "stress"},
      {RemovalFault::relaxed_enter, "removal.relaxed_enter",
       "a traversal joins its epoch with a relaxed CAS: it is not ordered after the Looper's "
       "epoch flip, reads a link the Looper already replaced, and reaches a node whose grace "
       "period already ended (use after free)",
       "", "model"},
      {RemovalFault::retry_without_sweep, "removal.retry_without_sweep",
       "when a remover claims the Looper's candidate first, the Looper delivers the next due "
       "message of its heap as it stands, without draining and sweeping again: a message posted "
       "before that removal and due earlier is overtaken (nothing is lost or delivered twice; every "
       "count, drain and invariant holds; only a remover winning the claim race shows it)",
       "a retry after a lost CAS race that reuses the state read before the race instead of "
       "re-reading it (a stale snapshot)",
       "lin"},
  };
};

}  // namespace lfcheck
