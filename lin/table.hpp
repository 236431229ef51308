// A history as a Lincheck-style table: one column per thread, each cell
// `call: result`, the checker's words last.
//
//   program_order: the prefix rows above a rule (gutter "init"), the parallel part (row k
//   holds each thread's k-th op), the suffix below a rule (gutter "post").
//   real_time: one row per op in invocation order, the gutter giving its interval
//   relative to the first invocation shown; histories of more than kTableRows rows show
//   only the window around where the search stopped (the first blocked op, or the end of
//   the longest linearizable sequence), and say how many rows they leave out.
//
// Marks: `#k` beside an op in the report's best sequence (its position in it, from 1:
// for a linearizable history, the whole linearization), `?` beside a blocked op (one the
// search could not place after that sequence). A report that names a partition shows only
// that partition's ops, and one with a monitor's focus only those (each says so, and the
// monitor's explanation and any note follow the checker's words).
// Cost: O(n log n) for n ops; the text is O(rows x threads).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "lin/history.hpp"
#include "lin/relaxed.hpp"
#include "lin/report.hpp"
#include "lin/spec.hpp"

namespace lfcheck::lin {

inline constexpr std::size_t kTableRows = 40;

template <Spec S>
  requires Showable<S>
std::string render_table(const History<S>& h, const Report& report) {
  // The ops shown: all, the failing partition's, or the few a monitor found no order for.
  std::vector<std::size_t> shown;
  if (!report.focus.empty())
    shown = report.focus;
  else
    for (std::size_t i = 0; i < h.ops.size(); ++i)
      if (report.partition.empty() || spec_partition<S>(h.ops[i].call) == report.partition_key) shown.push_back(i);

  std::map<std::size_t, std::string> mark;
  for (std::size_t k = 0; k < report.best.size(); ++k) mark[report.best[k]] = "#" + std::to_string(k + 1);
  for (std::size_t i : report.blocked) mark[i] = "?";
  const auto cell = [&](std::size_t i) {
    std::string c = std::string(S::show(h.ops[i].call)) + ": " + std::string(S::show(h.ops[i].result));
    if (const auto m = mark.find(i); m != mark.end()) c += "  " + m->second;
    return c;
  };

  std::vector<std::uint32_t> threads;
  for (std::size_t i : shown) threads.push_back(h.ops[i].thread);
  std::sort(threads.begin(), threads.end());
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  const auto column = [&](std::uint32_t t) {
    return static_cast<std::size_t>(std::lower_bound(threads.begin(), threads.end(), t) - threads.begin());
  };

  // Rows: a gutter text and one cell per thread; a rule is a row with rule = true.
  struct Row {
    std::string gutter;
    std::vector<std::string> cells;
    bool rule = false;
  };
  std::vector<Row> rows;
  const auto blank = [&] { return Row{"", std::vector<std::string>(threads.size()), false}; };
  std::string elided_before, elided_after;  // real_time windows

  if (h.order == Order::program_order) {
    std::vector<std::vector<std::size_t>> parallel(threads.size());
    std::vector<std::size_t> prefix, suffix;
    for (std::size_t i : shown) {
      if (h.ops[i].phase == Phase::prefix) prefix.push_back(i);
      else if (h.ops[i].phase == Phase::suffix) suffix.push_back(i);
      else parallel[column(h.ops[i].thread)].push_back(i);
    }
    for (std::size_t i : prefix) {
      Row r = blank();
      r.gutter = "init";
      r.cells[column(h.ops[i].thread)] = cell(i);
      rows.push_back(r);
    }
    if (!prefix.empty()) rows.push_back(Row{"", {}, true});
    std::size_t depth = 0;
    for (const auto& p : parallel) depth = std::max(depth, p.size());
    for (std::size_t k = 0; k < depth; ++k) {
      Row r = blank();
      for (std::size_t c = 0; c < parallel.size(); ++c)
        if (k < parallel[c].size()) r.cells[c] = cell(parallel[c][k]);
      rows.push_back(r);
    }
    if (!suffix.empty()) rows.push_back(Row{"", {}, true});
    for (std::size_t i : suffix) {
      Row r = blank();
      r.gutter = "post";
      r.cells[column(h.ops[i].thread)] = cell(i);
      rows.push_back(r);
    }
  } else {
    std::stable_sort(shown.begin(), shown.end(),
                     [&](std::size_t a, std::size_t b) { return h.ops[a].invoke < h.ops[b].invoke; });
    std::size_t from = 0, to = shown.size();
    if (shown.size() > kTableRows) {
      std::size_t focus = report.best.empty() ? 0 : report.best.back();
      if (!report.blocked.empty()) focus = report.blocked.front();
      const auto at = static_cast<std::size_t>(std::find(shown.begin(), shown.end(), focus) - shown.begin());
      from = at < kTableRows / 2 ? 0 : std::min(at - kTableRows / 2, shown.size() - kTableRows);
      to = from + kTableRows;
    }
    const std::uint64_t origin = shown.empty() ? 0 : h.ops[shown.front()].invoke;
    if (from > 0) elided_before = "(" + std::to_string(from) + " earlier rows elided)\n";
    for (std::size_t k = from; k < to; ++k) {
      const std::size_t i = shown[k];
      Row r = blank();
      r.gutter = "+" + std::to_string(h.ops[i].invoke - origin) + ".." + "+" + std::to_string(h.ops[i].response - origin);
      r.cells[column(h.ops[i].thread)] = cell(i);
      rows.push_back(r);
    }
    if (to < shown.size()) elided_after = "(" + std::to_string(shown.size() - to) + " later rows elided)\n";
  }

  // Layout.
  std::size_t gutter_width = 4;
  std::vector<std::size_t> width(threads.size());
  for (std::size_t c = 0; c < threads.size(); ++c) width[c] = 7 + std::to_string(threads[c]).size();
  for (const Row& r : rows) {
    gutter_width = std::max(gutter_width, r.gutter.size());
    for (std::size_t c = 0; c < r.cells.size(); ++c) width[c] = std::max(width[c], r.cells[c].size());
  }
  const auto pad = [](std::string s, std::size_t w) { return s.append(w - std::min(w, s.size()), ' '); };
  std::string out;
  const auto line = [&](const std::string& gutter, const std::vector<std::string>& cells) {
    std::string l = pad(gutter, gutter_width);
    for (std::size_t c = 0; c < threads.size(); ++c) l += " | " + pad(c < cells.size() ? cells[c] : "", width[c]);
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  };
  std::vector<std::string> header;
  for (std::uint32_t t : threads) header.push_back("thread " + std::to_string(t));
  line(h.order == Order::real_time ? "time" : "", header);
  const auto rule = [&] {
    std::string l(gutter_width, '-');
    for (std::size_t c = 0; c < threads.size(); ++c) l += "-+-" + std::string(width[c], '-');
    out += l + "\n";
  };
  rule();
  out += elided_before;
  for (const Row& r : rows) {
    if (r.rule) rule();
    else line(r.gutter, r.cells);
  }
  out += elided_after;
  if (!report.focus.empty())
    out += "(only the operations no order explains, even on their own: " + std::to_string(shown.size()) + " of " +
           std::to_string(h.ops.size()) + ")\n";
  else if (!report.partition.empty())
    out += "(only " + report.partition_words() + ": " + std::to_string(shown.size()) + " of " +
           std::to_string(h.ops.size()) + " operations)\n";
  out += report.words() + "\n";
  if (!report.explanation.empty()) out += report.algorithm + ": " + report.explanation + "\n";
  if (!report.note.empty()) out += "note: " + report.note + "\n";
  if constexpr (HasOutOfOrder<S>) {
    if (report.verdict == Verdict::linearizable)
      out += worst_out_of_order(h, report).words() + "\n";
    else
      out += "relaxed spec: it allows results up to " + std::to_string(S::out_of_order_bound) +
             " places out of order, and still no order fits\n";
  }
  return out;
}

}  // namespace lfcheck::lin
