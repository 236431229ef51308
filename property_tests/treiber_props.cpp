// Treiber stack properties: the spec's state machine (specs/treiber_spec.hpp is
// the one reference model): push / pop / take_all / for_each against a bounded
// sequential stack (capacity 6, so "full" is reached), check_invariants() after every call. RapidCheck shrinks a
// failure to a minimal call sequence and prints how to reproduce it (RC_PARAMS).
#include "property_tests/spec_state_machine.hpp"
#include "specs/treiber_spec.hpp"

LFCHECK_SPEC_PROPS(lfcheck::specs::TreiberSpecOf<6>, treiber)
