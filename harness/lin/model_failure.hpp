// A lin model failure's artifacts, the same for generated scenarios (lfcheck lin,
// harness/lin/model_main.cpp) and enumerated ones (lfcheck verify, verify_main.cpp):
// Relacy's per-thread step table printed, and the replay file (its scheduler state
// and the encoded scenario, for `lfcheck replay`), trace and table written.
#pragma once

#include <string>

#include "harness/lin/outcome.hpp"
#include "harness/lin/scenario.hpp"
#include "harness/model/failure_report.hpp"
#include "harness/report/replay_file.hpp"

namespace lfcheck::lin {

struct LinFailureContext {
  std::string structure, fault;
  std::string encoded;   // the failing scenario (encode())
  unsigned bound = 0;    // the settings its scheduler ran with, for the replay
  unsigned load_depth = 1, pct_depth = 3;
  std::string artifacts_option;  // --artifacts
  std::string stem;      // the artifacts' file name stem
  bool print_history = false;
};

// Prints the step table and writes the artifacts; returns their stem (STEM.replay,
// STEM.trace.json), or "" when there are none (no Relacy history: a failure outside
// any execution).
inline std::string save_lin_model_failure(const LinOutcome& out, const LinFailureContext& c) {
  if (out.history.empty()) return "";
  ReplayFile replay;
  replay.set("layer", "lin-model").set("structure", c.structure).set("fault", c.fault);
  replay.set("scheduler", out.scheduler).set("bound", std::to_string(c.bound));
  replay.set("load_depth", std::to_string(c.load_depth)).set("depth", std::to_string(c.pct_depth));
  replay.set("state", out.state).set("scenario", c.encoded).set("failure", out.failure);
  return write_model_failure(out.history, static_cast<int>(kMaxThreads), "lin " + c.structure + ": " + out.failure,
                             c.artifacts_option, c.stem, replay, c.print_history)
      .stem;
}

}  // namespace lfcheck::lin
