// What a linearizability check answers, and how much it may spend.
//
// Guarantees: `linearizable` is only ever the verdict of a search that found a complete
// linearization (Report::best is then that order); `not_linearizable` only of a search
// that ran to the end without one; a search cut short by its Budget is `unknown`, never
// either of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lfcheck::lin {

enum class Verdict { linearizable, not_linearizable, unknown };

struct Budget {
  std::uint64_t max_states = 10'000'000;  // search nodes, summed over partitions
  double max_seconds = 10;                // wall time of the whole check
};

struct Report {
  Verdict verdict = Verdict::unknown;
  std::string partition;          // partitioned spec: the failing (or unknown) key, shown with show_partition
  std::uint64_t partition_key = 0;  // the same key as S::partition gives it (when `partition` is set)
  std::uint64_t states = 0;       // search nodes visited (all partitions)
  double seconds = 0;
  // Indices into ops of the longest linearizable sequence the search found, in
  // linearization order: the whole linearization when linearizable; for a partitioned
  // spec that failed, a sequence of the failing partition's ops.
  std::vector<std::size_t> best;
  // not_linearizable only: the ops that could not be placed after `best` (indices into ops).
  // program_order: every op the order allows next (the model rejects each one's result);
  // real_time: the op whose response comes first among those not in `best` (every op
  // invoked after that response must wait for it, and the model rejects its result).
  std::vector<std::size_t> blocked;
  std::string exhausted;          // unknown only: which budget ran out ("max_states 1000", "max_seconds 10")
  // Which algorithm decided: "search" (lin/search.hpp: Wing & Gong's with Lowe's memo) or a
  // monitor ("stack monitor", lin/monitor.hpp).
  std::string algorithm = "search";
  // A spec that declares a collection type, decided by the search: why the monitor did
  // not decide it (an operation that is not of the type, a value inserted twice, ...).
  std::string note;
  // not_linearizable by a monitor: the operations that no order explains even on their
  // own (indices into ops; render_table shows only these), and the rule they break in the
  // spec's words. `best` and `blocked` are then the search's, on these operations alone.
  std::vector<std::size_t> focus;
  std::string explanation;

  // "partition what=3" (a spec's show_partition), "partition 3" (its default), "" (none).
  std::string partition_words() const {
    if (partition.empty() || partition.rfind("partition ", 0) == 0) return partition;
    return "partition " + partition;
  }

  std::string words() const {
    const std::string where = partition.empty() ? "" : " (" + partition_words() + ")";
    switch (verdict) {
      case Verdict::linearizable: return "linearizable";
      case Verdict::not_linearizable: return "no sequential order of these operations gives these results" + where;
      case Verdict::unknown: {
        std::string detail = exhausted;
        if (!partition.empty()) detail += (detail.empty() ? "" : ", ") + partition_words();
        return "unknown: budget exhausted after " + std::to_string(states) + " states" +
               (detail.empty() ? "" : " (" + detail + ")");
      }
    }
    return "unknown";
  }
};

}  // namespace lfcheck::lin
