// Seeded faults of the Treiber stack. Each is a compile-time variant of
// TreiberStack (its third template parameter); `none` is the correct stack and
// the production default. The catalogue entry beside each enumerator is what
// `./lfcheck faults treiber` prints and what the tests iterate over.
#pragma once

#include "harness/fault_catalogue.hpp"

namespace lfcheck {

enum class TreiberFault {
  none,
  relaxed_publish,   // push's head CAS is relaxed instead of release
  no_aba_tag,        // head CAS compares and writes the index only: tag never changes
  relaxed_take_all,  // take_all's detaching RMW is relaxed instead of acquire
  relaxed_pop,       // pop's head load and CAS are relaxed instead of acquire
  take_all_drops_last,  // take_all returns the bottom node to the pool unread
  pop_gives_up,      // pop reports "empty" when a push beat its head CAS
};

template <>
struct FaultTraits<TreiberFault> {
  static constexpr const char* mechanism = "treiber";
  static constexpr FaultInfo<TreiberFault> catalogue[] = {
      {TreiberFault::relaxed_publish, "treiber.relaxed_publish",
       "push publishes the node with a relaxed CAS: a popper can read the node's value "
       "and link before they were written",
       "", "model"},
      {TreiberFault::no_aba_tag, "treiber.no_aba_tag",
       "the head CAS ignores the ABA tag: a popper descheduled between reading top->next "
       "and its CAS installs a node that was popped and reused meanwhile",
       "Treiber ABA on node reuse", "model"},
      {TreiberFault::relaxed_take_all, "treiber.relaxed_take_all",
       "take_all detaches the chain with a relaxed RMW: the drainer reads values it is "
       "not synchronized with",
       "", "model"},
      {TreiberFault::relaxed_pop, "treiber.relaxed_pop",
       "pop reads the head and claims the node with relaxed operations: it can read a "
       "stale value or link of the node it popped",
       "", "model"},
      {TreiberFault::take_all_drops_last, "treiber.take_all_drops_last",
       "take_all hands every value but the bottom one to the caller: the bottom value "
       "is lost (a sequential bug every layer should see)",
       "", "model,props,stress"},
      {TreiberFault::pop_gives_up, "treiber.pop_gives_up",
       "pop reports the stack empty when its head CAS lost to a push onto the node it tried to "
       "pop, instead of retrying: the values stay in the stack, so every count, drain and "
       "invariant holds, but a pop said empty while the stack held values throughout (only "
       "linearizability sees it)",
       "a try-pop that turns a lost CAS race into 'empty' (bounded-retry pops in hand-rolled stacks)",
       "lin"},
  };
};

}  // namespace lfcheck
