// Round-robin slices of the sampled runs, for --first-failure (issue 17): a bug
// that one scenario's random sampling shows is found after a slice of every
// other scenario's iterations, not after all of them (a fault in the fourth of
// six scenarios was caught at iteration 300,001: three whole random runs first).
//
// Guarantees:
//  - slice_plan(runs, iterations, base) turns each sampled run (random, pct) of
//    `iterations` executions, starting at iteration `base`, into slices of
//    kSliceIterations: slice k covers iterations [base + k*S, base + (k+1)*S), the
//    last one what is left. The slices of all runs come round-robin (slice 0 of
//    every sampled run, then slice 1, ...), then the other runs in their order.
//    Together the slices of a run sample exactly the run's iterations: Relacy's
//    random scheduler seeds iteration i's choices with i, so a slice's execution
//    is the unsliced run's execution of the same number.
//  - fold_slices(items, results) gives one record per run, in run order: a run
//    whose slices all finished and passed is one pass with the slices' iterations
//    and seconds summed (PCT: also their executions longer than k and, where every
//    slice says it, their calibration executions — each slice calibrates on its own,
//    so a sliced run's iterations are the unsliced run's plus 8 per further slice,
//    and its calibration_executions say how many; k the largest of the slices');
//    a run with a failing slice is that slice's record (the first failing slice in
//    plan order) with the same sums over every finished slice of the run — the
//    executions that ran; else a slice that could
//    not check its work (verdict error) makes the run's record; a run with no failure
//    but a slice not run to its end (stopped by the first failure elsewhere) has
//    no record, like an unsliced run that was stopped.
// Cost: one fork per slice under --jobs N (the parent's pages shared).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "harness/report/report.hpp"

namespace lfcheck {

// 1,000: a fault that one scenario shows at its first iterations is found after
// (scenarios - 1) x 1,000 executions of the others (bench/scheduler_compare.py: with
// 10,000, deliqueue.unsaturated_timeout took 80,001 executions, 1.05 s). The cost:
// a slice's set-up, and one fork per slice under --jobs N (the correct shutdown
// model's --first-failure run, the cheapest scenarios: 2.8 s -> 3.3 s at --jobs 2).
inline constexpr std::uint64_t kSliceIterations = 1'000;

template <class Entry>
struct PlanItem {
  const Entry* entry = nullptr;
  std::string scheduler;
  std::size_t run = 0;          // the run (scenario, scheduler) this item is, or is a slice of
  std::uint64_t first = 0;      // a slice: its first iteration
  std::uint64_t iterations = 0;  // a slice: how many; 0: the whole run
};

inline bool sampled_scheduler(const std::string& s) { return s == "random" || s == "pct"; }

template <class Entry>
std::vector<PlanItem<Entry>> slice_plan(const std::vector<std::pair<const Entry*, std::string>>& runs,
                                        std::uint64_t iterations, std::uint64_t base) {
  std::vector<PlanItem<Entry>> items;
  const std::uint64_t slices = (iterations + kSliceIterations - 1) / kSliceIterations;
  for (std::uint64_t k = 0; k < slices; ++k)
    for (std::size_t r = 0; r < runs.size(); ++r)
      if (sampled_scheduler(runs[r].second)) {
        const std::uint64_t done = k * kSliceIterations;
        const std::uint64_t n = iterations - done < kSliceIterations ? iterations - done : kSliceIterations;
        items.push_back({runs[r].first, runs[r].second, r, base + done, n});
      }
  for (std::size_t r = 0; r < runs.size(); ++r)
    if (!sampled_scheduler(runs[r].second)) items.push_back({runs[r].first, runs[r].second, r, 0, 0});
  return items;
}

namespace detail {
inline void set_field(RunRecord& r, const std::string& key, const std::string& json_value) {
  for (auto& [k, v] : r.fields)
    if (k == key) {
      v = json_value;
      return;
    }
  r.fields.emplace_back(key, json_value);
}
inline void erase_field(RunRecord& r, const std::string& key) {
  for (auto it = r.fields.begin(); it != r.fields.end(); ++it)
    if (it->first == key) {
      r.fields.erase(it);
      return;
    }
}

inline std::uint64_t count_field(const RunRecord& r, const std::string& key) {
  const std::string v = r.get(key);
  return v.empty() ? 0 : std::stoull(v);
}
}  // namespace detail

template <class Entry>
std::vector<std::optional<RunRecord>> fold_slices(const std::vector<PlanItem<Entry>>& items,
                                                  std::vector<std::optional<RunRecord>> results,
                                                  std::size_t runs) {
  struct Sum {
    std::uint64_t iterations = 0;
    std::uint64_t longer = 0, calibration = 0, pct_steps = 0;  // pct (issue 46)
    bool calibration_known = true;  // every finished PCT slice said its calibration executions
    double seconds = 0;
    std::size_t slices = 0, finished = 0;
    std::optional<RunRecord> first_fail, first_error, first_done;
  };
  std::vector<Sum> sums(runs);
  for (std::size_t i = 0; i < items.size(); ++i) {
    Sum& s = sums[items[i].run];
    ++s.slices;
    if (!results[i]) continue;
    RunRecord& r = *results[i];
    ++s.finished;
    s.iterations += std::stoull(r.get("iterations").empty() ? "0" : r.get("iterations"));
    s.longer += detail::count_field(r, "longer_than_pct_steps");
    s.pct_steps = std::max(s.pct_steps, detail::count_field(r, "pct_steps"));
    if (r.get("calibration_executions").empty()) s.calibration_known = false;
    s.calibration += detail::count_field(r, "calibration_executions");
    s.seconds += std::stod(r.get("seconds").empty() ? "0" : r.get("seconds"));
    if (r.verdict == Verdict::fail) {
      if (!s.first_fail) s.first_fail = std::move(r);
    } else if (r.verdict == Verdict::error) {
      if (!s.first_error) s.first_error = std::move(r);
    } else if (!s.first_done) {
      s.first_done = std::move(r);
    }
  }
  std::vector<std::optional<RunRecord>> out(runs);
  for (std::size_t r = 0; r < runs; ++r) {
    Sum& s = sums[r];
    std::optional<RunRecord> rec;
    if (s.first_fail) rec = std::move(s.first_fail);
    else if (s.finished == s.slices) rec = s.first_error ? std::move(s.first_error) : std::move(s.first_done);
    if (!rec) continue;
    if (s.slices > 1) {
      detail::set_field(*rec, "iterations", std::to_string(s.iterations));
      char secs[32];
      std::snprintf(secs, sizeof secs, "%.3f", s.seconds);
      detail::set_field(*rec, "seconds", secs);
      detail::set_field(*rec, "slices", std::to_string(s.finished));
      if (!rec->get("pct_steps").empty()) {
        detail::set_field(*rec, "pct_steps", std::to_string(s.pct_steps));
        detail::set_field(*rec, "longer_than_pct_steps", std::to_string(s.longer));
        if (s.calibration_known) detail::set_field(*rec, "calibration_executions", std::to_string(s.calibration));
        else detail::erase_field(*rec, "calibration_executions");  // not a count of every slice's
      }
    }
    out[r] = std::move(rec);
  }
  return out;
}

}  // namespace lfcheck
