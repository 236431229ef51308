// The textbook algorithms of lfcheck-model-algorithms (structure "algorithms"): a
// seqlock, a Peterson lock, an SPSC ring with waiting ends and a Chase-Lev deque,
// each a model scenario (one .cpp each, beside this header) with seeded twins.
// They are the yardstick of the model layer's searches (issue 29): small, known
// correct, and each twin a real weak-memory bug whose failing execution is named
// at the fault in the scenario's source.
//
// A fault belongs to the scenario its short name starts with ("seqlock_...",
// "peterson_...", "spsc_ring_...", "chase_lev_..."): tests/model_algorithms_truth.sh
// pairs them that way. Every scenario registers under its own faults only
// (own_fault below): with another scenario's fault it runs its correct code, and
// it is compiled once per fault of its own, not once per fault of the structure.
#pragma once

#include "harness/fault_catalogue.hpp"

#define LFCHECK_ALGORITHM_FAULTS(X)                                                                  \
  X(seqlock_reader_fence_missing,                                                                    \
    "the reader re-reads the sequence without the acquire fence after the payload: it can take a "   \
    "payload word of a write in progress and still see the old, even sequence (a torn snapshot)",   \
    "", "model")                                                                                     \
  X(seqlock_writer_fence_missing,                                                                    \
    "the writer stores the payload without the release fence after the odd sequence: a reader "      \
    "that sees a new payload word need not see the odd sequence (a torn snapshot)", "", "model")    \
  X(seqlock_relaxed_publish,                                                                         \
    "the writer ends a write with a relaxed store of the even sequence: a reader that sees it is "   \
    "not ordered after the payload stores and returns a stale payload under the new sequence", "",  \
    "model")                                                                                         \
  X(peterson_relaxed_flag,                                                                           \
    "flag and turn are stored with release and loaded with acquire instead of seq_cst: both "        \
    "threads read the other's flag as 0 (store buffering) and enter the critical section", "",       \
    "model")                                                                                         \
  X(peterson_relaxed_unlock,                                                                         \
    "unlock clears the flag with a relaxed store: the other thread enters without being ordered "    \
    "after the first one's critical section", "", "model")                                          \
  X(spsc_ring_relaxed_publish,                                                                       \
    "push publishes the new tail with a relaxed store: the consumer reads the slot unordered with "  \
    "the producer's write of it", "", "model")                                                       \
  X(spsc_ring_relaxed_tail_load,                                                                     \
    "pop waits on the tail with a relaxed load: it reads the slot without synchronizing with the "   \
    "push that filled it", "", "model")                                                              \
  X(spsc_ring_relaxed_free,                                                                          \
    "pop frees the slot with a relaxed store of the head: the producer refills the slot unordered "  \
    "with the consumer's read of it", "", "model")                                                   \
  X(chase_lev_take_fence_missing,                                                                    \
    "take has no seq_cst fence between its bottom store and its top load: the owner reads a stale "  \
    "top and takes an item a thief is stealing, without the CAS (an item taken twice)", "",          \
    "model")                                                                                         \
  X(chase_lev_steal_fence_missing,                                                                   \
    "steal has no seq_cst fence between its top load and its bottom load: it reads a stale bottom "  \
    "and steals the item the owner takes without the CAS (an item taken twice)", "", "model")       \
  X(chase_lev_relaxed_publish,                                                                       \
    "push has no release fence before the bottom store: a thief that sees the new bottom reads the " \
    "item's slot before the owner's store of it", "", "model")

LFCHECK_FAULTS(AlgorithmFault, "algorithms", LFCHECK_ALGORITHM_FAULTS);

namespace lfcheck::algorithms {

// F if it is one of Own, else none: the fault a scenario with faults Own is built
// with, so a scenario and its correct code are one type for every other fault.
template <AlgorithmFault... Own>
constexpr AlgorithmFault own_fault(AlgorithmFault f) {
  return ((f == Own) || ...) ? f : AlgorithmFault::none;
}

}  // namespace lfcheck::algorithms
