// What a DPOR search that ended did not explore: the words every "verified" record
// carries (the JSON's "bounds", the summary's "within these bounds"), one list for
// every runner that reports a verified verdict. docs/model.md, "What a verified
// verdict means", explains each; keep the two in step.
#pragma once

#include <string>

namespace lfcheck::model::dpor {

inline std::string bounds(unsigned load_depth) {
  return "no preemption bound; every load choice of Relacy's model with loads reading up to " +
         std::to_string(load_depth) + (load_depth == 1 ? " store" : " stores") +
         " back (no load buffering); spin loops as awaits (an iteration that only read parks until a write"
         " of what it read), any other retry giving way until the other threads have taken a number of steps"
         " (a rule that lets through every schedule Relacy's yield priorities let through, and some more); a timed wait times out"
         " eventually (a spin loop never runs forever beside it); at most one spurious compare_exchange_weak"
         " failure per atomic; Relacy's bookkeeping frees not deferred, and a free's deferral observed only by"
         " allocations through Sync::create; allocations of blocks fresh to the execution commute (addresses"
         " compared for identity only); no spurious condition-variable wake-ups";
}

}  // namespace lfcheck::model::dpor
