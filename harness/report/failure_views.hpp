// Two views of a failing execution (harness/report/steps.hpp steps):
//  - a per-thread table for the terminal: one column per thread, one row per
//    step, with the variable, the operation, the value, the memory order and
//    the source line;
//  - a Chrome/Perfetto trace (JSON "traceEvents"): one track per thread, one
//    slice per high-level operation (from Sync::operation markers; steps outside
//    any marked operation are grouped by function), an instant per atomic step,
//    and flow arrows from a release write to the acquire read that read its value.
//    Open it at ui.perfetto.dev or chrome://tracing.
// Reads-from is inferred by value: an acquire read is linked to the latest
// earlier release write of the same variable, by another thread, of the value it
// read. Relacy does not print which store a load read, so this is the closest
// release write with that value — stated in the README.
#pragma once

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness/report/artifacts.hpp"
#include "harness/report/steps.hpp"
#include "harness/report/report.hpp"

namespace lfcheck {

inline std::string step_kind_name(const Step& s) {
  switch (s.kind) {
    case Step::Kind::load: return "load";
    case Step::Kind::store: return "store";
    case Step::Kind::cas_ok: return "CAS ok";
    case Step::Kind::cas_fail: return "CAS fail";
    case Step::Kind::rmw: return s.text.substr(0, s.text.find_first_of(" ,"));
    case Step::Kind::fence: return "fence";
    case Step::Kind::wait: return "wait";
    case Step::Kind::op_begin: return "begin";
    case Step::Kind::op_end: return "end";
    case Step::Kind::verdict: return "FAILED";
    case Step::Kind::other: break;
  }
  return "";
}

inline std::string short_order(const std::string& o) {
  if (o == "relaxed") return "rlx";
  if (o == "acquire") return "acq";
  if (o == "release") return "rel";
  if (o == "acq_rel") return "acq_rel";
  if (o == "seq_cst") return "sc";
  return o;
}

inline std::string base_name(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// `main_file`: lines in that file show as ":LINE" (the table names it once above).
inline std::string step_cell(const Step& s, const std::string& main_file = "") {
  if (s.kind == Step::Kind::op_begin) return ">> " + s.value;
  if (s.kind == Step::Kind::op_end) return "<< " + s.value;
  std::string where = s.file.empty() ? ""
                      : s.file == main_file ? "  :" + std::to_string(s.line)
                                            : "  " + base_name(s.file) + ":" + std::to_string(s.line);
  if (s.kind == Step::Kind::verdict) return "!! " + s.text + where;
  if (s.kind == Step::Kind::other || s.kind == Step::Kind::wait) return s.text + where;
  std::string cell = s.variable.empty() ? "" : s.variable + " ";
  cell += step_kind_name(s);
  if (!s.value.empty()) cell += " " + s.value;
  if (!s.order.empty()) cell += " " + short_order(s.order);
  return cell + where;
}

// The table, with `threads` columns (0..threads-1).
inline std::string render_thread_table(const std::vector<Step>& steps, int threads,
                                        std::size_t column_width = 0) {
  if (column_width == 0) column_width = threads <= 2 ? 60 : threads == 3 ? 48 : 40;
  std::map<std::string, int> per_file;
  for (auto& s : steps)
    if (!s.file.empty()) ++per_file[s.file];
  std::string main_file;
  int most = 0;
  for (auto& [f, n] : per_file)
    if (n > most) most = n, main_file = f;
  std::string out;
  if (!main_file.empty()) out += "source: " + main_file + " (\":LINE\" below)\n";
  auto pad = [&](std::string s) {
    if (s.size() > column_width) s = s.substr(0, column_width - 3) + "...";
    return s + std::string(column_width - s.size(), ' ');
  };
  char buf[16];
  out += "step  ";
  for (int t = 0; t < threads; ++t) out += pad("thread " + std::to_string(t)) + " | ";
  out += "\n";
  out += std::string(6 + threads * (column_width + 3), '-') + "\n";
  for (auto& s : steps) {
    std::snprintf(buf, sizeof buf, "%4u  ", s.index);
    out += buf;
    for (int t = 0; t < threads; ++t) out += pad(t == s.thread ? step_cell(s, main_file) : "") + " | ";
    while (!out.empty() && (out.back() == ' ' || out.back() == '|')) out.pop_back();
    out += "\n";
  }
  return out;
}

inline std::vector<std::pair<std::size_t, std::size_t>> reads_from(const std::vector<Step>& steps) {
  std::vector<std::pair<std::size_t, std::size_t>> flows;  // (writer step, reader step)
  for (std::size_t r = 0; r < steps.size(); ++r) {
    const Step& rd = steps[r];
    const bool reads = rd.kind == Step::Kind::load || rd.kind == Step::Kind::cas_ok ||
                       rd.kind == Step::Kind::cas_fail || rd.kind == Step::Kind::rmw;
    if (!reads || rd.address.empty() || !is_acquire(rd.order)) continue;
    for (std::size_t w = r; w-- > 0;) {
      const Step& wr = steps[w];
      const bool writes = wr.kind == Step::Kind::store || wr.kind == Step::Kind::cas_ok ||
                          wr.kind == Step::Kind::rmw;
      if (!writes || wr.address != rd.address || wr.written != rd.read) continue;
      if (wr.thread != rd.thread && is_release(wr.order)) flows.emplace_back(w, r);
      break;  // the latest write of that value decides
    }
  }
  return flows;
}

// Writes the trace; returns false if the file cannot be written.
// A thread with no step gets a track too (a model execution's thread always has
// steps, so an empty track shows a step lost on the way), unless `idle_tracks` is
// false: a stress run that a sanitizer ended before some thread's first operation.
inline bool write_trace(const std::string& path, const std::vector<Step>& steps, int threads,
                        const std::string& title, bool idle_tracks = true) {
  std::ostringstream out;
  auto ts = [&](const Step& s) { return s.time_us >= 0 ? s.time_us : s.index * 10.0; };
  std::vector<std::string> events;
  auto q = RunRecord::quote;
  auto num = [](double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3f", v);
    return std::string(b);
  };
  events.push_back("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":0,\"ts\":0,\"args\":{\"name\":" +
                   q(title) + "}}");
  std::vector<bool> has_steps(static_cast<std::size_t>(threads > 0 ? threads : 0), idle_tracks);
  for (const Step& s : steps)
    if (s.thread >= 0 && s.thread < threads) has_steps[static_cast<std::size_t>(s.thread)] = true;
  for (int t = 0; t < threads; ++t) {
    if (!has_steps[static_cast<std::size_t>(t)]) continue;
    events.push_back("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":" + std::to_string(t) +
                     ",\"ts\":0,\"args\":{\"name\":" + q("thread " + std::to_string(t)) + "}}");
  }

  // Slices per thread: marked operations (properly nested by construction), then
  // groups of consecutive unmarked steps in one function.
  std::map<int, std::vector<std::size_t>> open;  // thread -> indices of open begins
  std::map<int, double> last_ts;
  struct Slice { int thread; double begin, end; std::string name; };
  std::vector<Slice> slices;
  std::map<int, int> depth;
  std::map<int, Slice> group;  // unmarked steps being grouped, per thread
  auto close_group = [&](int t) {
    auto g = group.find(t);
    if (g != group.end()) {
      slices.push_back(g->second);
      group.erase(g);
    }
  };
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    const double at = ts(s);
    last_ts[s.thread] = at;
    if (s.kind == Step::Kind::op_begin) {
      close_group(s.thread);
      open[s.thread].push_back(i);
      ++depth[s.thread];
    } else if (s.kind == Step::Kind::op_end) {
      auto& stack = open[s.thread];
      if (!stack.empty()) {
        const Step& b = steps[stack.back()];
        // Index-based time leaves 10 units per step: +1 keeps the end inside them.
        slices.push_back({s.thread, ts(b), at + (s.time_us >= 0 ? 0.0 : 1.0), b.value});
        stack.pop_back();
        --depth[s.thread];
      }
    } else if (depth[s.thread] == 0) {
      auto g = group.find(s.thread);
      if (g != group.end() && g->second.name == s.function) {
        g->second.end = at + 1;
      } else {
        close_group(s.thread);
        group[s.thread] = Slice{s.thread, at - 1, at + 1, s.function.empty() ? "step" : s.function};
      }
    }
  }
  for (auto& [t, g] : group) slices.push_back(g);
  for (auto& [t, stack] : open)  // operations still running when the execution stopped
    for (auto it = stack.rbegin(); it != stack.rend(); ++it)
      slices.push_back({t, ts(steps[*it]), last_ts[t] + 2 + static_cast<double>(it - stack.rbegin()),
                        steps[*it].value + " (unfinished)"});
  for (auto& sl : slices)
    events.push_back("{\"ph\":\"X\",\"cat\":\"operation\",\"name\":" + q(sl.name) +
                     ",\"pid\":1,\"tid\":" + std::to_string(sl.thread) + ",\"ts\":" + num(sl.begin) +
                     ",\"dur\":" + num(sl.end - sl.begin) + "}");
  for (auto& s : steps) {
    if (s.kind == Step::Kind::op_begin || s.kind == Step::Kind::op_end) continue;
    std::string args = "{\"step\":" + std::to_string(s.index);
    if (!s.variable.empty()) args += ",\"variable\":" + q(s.variable);
    if (!s.value.empty()) args += ",\"value\":" + q(s.value);
    if (!s.order.empty()) args += ",\"order\":" + q(s.order);
    if (!s.file.empty()) args += ",\"source\":" + q(s.file + ":" + std::to_string(s.line));
    args += "}";
    std::string name = s.kind == Step::Kind::verdict ? s.text : step_cell(s);
    events.push_back("{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"step\",\"name\":" + q(name) + ",\"pid\":1,\"tid\":" +
                     std::to_string(s.thread) + ",\"ts\":" + num(ts(s)) + ",\"args\":" + args + "}");
  }
  int id = 0;
  for (auto [w, r] : reads_from(steps)) {
    ++id;
    const std::string common = ",\"cat\":\"reads-from\",\"name\":" + q("reads-from " + steps[r].variable) +
                               ",\"pid\":1,\"id\":" + std::to_string(id);
    events.push_back("{\"ph\":\"s\"" + common + ",\"tid\":" + std::to_string(steps[w].thread) +
                     ",\"ts\":" + num(ts(steps[w])) + "}");
    events.push_back("{\"ph\":\"f\",\"bp\":\"e\"" + common + ",\"tid\":" + std::to_string(steps[r].thread) +
                     ",\"ts\":" + num(ts(steps[r])) + "}");
  }
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  for (std::size_t i = 0; i < events.size(); ++i) out << (i ? ",\n" : "") << events[i];
  out << "\n]}\n";
  return write_whole_file(path, out.str());
}

}  // namespace lfcheck
