// What a DPOR search that ended did not explore (docs/model.md, "What a verified
// verdict means"), as every verified verdict states it: the model runner's dpor
// records and lfcheck verify's (harness/lin/verify_main.cpp).
#pragma once

#include <string>

namespace lfcheck {

inline std::string dpor_bounds(unsigned load_depth) {
  return "no preemption bound; every load choice of Relacy's model with loads reading up to " +
         std::to_string(load_depth) + (load_depth == 1 ? " store" : " stores") +
         " back (no load buffering); spin loops as awaits, a retry that wrote giving way until another"
         " thread steps; at most one spurious compare_exchange_weak failure per atomic; Relacy's"
         " bookkeeping frees not deferred; allocations of blocks fresh to the execution commute (addresses"
         " compared for identity only); no spurious condition-variable wake-ups";
}

}  // namespace lfcheck
