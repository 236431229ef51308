// The fuzzer's interpreter: a program (program.hpp) run as a model scenario,
// every access through RelacySync — so the runner, DPOR and Relacy see exactly the
// announcements and operations a hand-written scenario makes (docs/sync-api.md).
//
// An execution's outcome (what `--outcomes` compares, harness/model/run.hpp) is a
// 64-bit hash of what it observed: each thread's log and the single-threaded
// code's log, in order — the values its labelled statements read (of an await
// loop, what flows out of it: the reads of its last iteration that ran the body,
// and the check that ended it — how often a loop re-read, and what it saw in
// the iterations before, are a schedule's detail: DPOR's awaits (docs/model.md)
// do not count iterations), which block an allocation got (fresh to
// the execution, or the block of which earlier allocation: addresses compared
// for identity only), and, in after(), every atomic, cell and slot. The record
// behind each hash is kept (outcome_text) so a disagreement can print both sets.
//
// An invariant's `observe` statements are not part of an execution's outcome:
// the pairs of values they see at the scheduling points, over the whole run, are
// a set of their own (observed_states) — an invariant fails iff some reachable
// scheduling point shows a bad state, so that union is what two searches must
// agree on.
//
// One program at a time per process (Relacy's context is global): set_program()
// before run_scenario().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/model/scenario_hooks.hpp"
#include "models/selftest/dpor_fuzz/program.hpp"

namespace lfcheck::dpor_fuzz {

// A fault of the test-only kind: the announcements DPOR gets are altered the way
// a dependence bug would alter them (the full search does not use them), so the
// comparison can be seen to fail when DPOR is wrong (`--break-dpor`).
enum class Break {
  none,
  store_as_load,     // an atomic store is announced as a load (stores then commute with loads)
  free_unannounced,  // Sync::destroy announces nothing (a free orders nothing)
};
Break parse_break(const std::string& name, bool& ok);
const char* name(Break b);

// The program the next simulations run, and the fault (none in every real run).
void set_program(const Program* p, Break fault = Break::none);
const model::ScenarioHooks& interpreter_hooks();

// Clears what the previous run recorded (outcome records, observed states, overflow).
void clear_run_records();
// The union of the invariant's observed states over the run (sorted).
std::vector<std::uint64_t> observed_states();
// An execution logged more than its log holds (a loop that kept finding new
// values): its outcome is incomplete, and the program is not compared.
bool log_overflowed();
// The readable record behind an outcome of the current program's runs since
// clear_run_records(), e.g. "t0{r0=1} t1{r2=0,1} after{a0=1 c0=0 p0=(none)}".
std::string outcome_text(const Program& p, std::uint64_t outcome);
std::string state_text(const Program& p, std::uint64_t state);

}  // namespace lfcheck::dpor_fuzz
