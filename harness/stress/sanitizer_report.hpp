// A sanitizer's report cut to what a person reads: the first report only (TSan's
// "WARNING: ThreadSanitizer: data race" up to its SUMMARY line; ASan's "ERROR:
// AddressSanitizer" likewise), both (or all) access stacks with the frames in the
// project's own code — the user's structure, its stress workload, lfcheck — and
// system frames (libstdc++, libc, the sanitizer runtime) counted, not listed; short
// type names (namespaces dropped, template arguments and long parameter lists cut
// to <…> and (…)); project-relative paths; the symbolizer's noise ("LLVMSymbolizer:
// error reading file") and the thread-creation stacks dropped. A 40 KB TSan report
// of a DeliQueue race becomes about 1.5 KB.
//
// Cost: linear in the report's size; used once, after a run died of a report.
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace lfcheck {

namespace detail {

inline bool report_starts(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

inline void erase_all(std::string& s, const std::string& what) {
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p)) s.erase(p, what.size());
}

// "lfcheck::DeliQueue<lfcheck::StdSync, ...>::unlink(lfcheck::Message<lfcheck::StdSync>*)"
// -> "DeliQueue<…>::unlink(Message<…>*)".
inline std::string short_function(std::string f) {
  erase_all(f, "(anonymous namespace)::");
  // Template arguments: every outermost <...> becomes <…> ("operator<" and "->" aside).
  std::string out;
  int depth = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    const char c = f[i];
    const bool op_lt = c == '<' && i >= 8 && f.compare(i - 8, 8, "operator") == 0;
    if (c == '<' && !op_lt) {
      if (depth++ == 0) out += "<…";
      continue;
    }
    if (c == '>' && depth > 0 && !(i > 0 && f[i - 1] == '-')) {
      if (--depth == 0) out += '>';
      continue;
    }
    if (depth == 0) out += c;
  }
  // Namespace qualifiers: drop "word::" when the word is a namespace-like prefix
  // (lower-case start: lfcheck::, std::, rl::), keep Class::member.
  std::string shorter;
  for (std::size_t i = 0; i < out.size();) {
    std::size_t j = i;
    while (j < out.size() && (std::isalnum(static_cast<unsigned char>(out[j])) || out[j] == '_')) ++j;
    const bool word_start = i == 0 || !(std::isalnum(static_cast<unsigned char>(out[i - 1])) || out[i - 1] == '_');
    if (j > i && word_start && out.compare(j, 2, "::") == 0 && std::islower(static_cast<unsigned char>(out[i]))) {
      i = j + 2;
      continue;
    }
    if (j == i) ++j;
    shorter.append(out, i, j - i);
    i = j;
  }
  // Parameter lists longer than 32 characters: (…).
  std::string result;
  for (std::size_t i = 0; i < shorter.size(); ++i) {
    if (shorter[i] == '(') {
      int d = 0;
      std::size_t k = i;
      for (; k < shorter.size(); ++k) {
        if (shorter[k] == '(') ++d;
        if (shorter[k] == ')' && --d == 0) break;
      }
      if (k < shorter.size() && k - i > 32) {
        result += "(…)";
        i = k;
        continue;
      }
    }
    result += shorter[i];
  }
  return result;
}

// A path as the project names it ("structures/deliqueue/deliqueue.hpp"); system
// headers by their file name.
inline std::string short_path(const std::string& path) {
  for (const char* top : {"/structures/", "/stress/", "/harness/", "/models/", "/sync/", "/specs/", "/property_tests/"}) {
    auto p = path.rfind(top);
    if (p != std::string::npos) return path.substr(p + 1);
  }
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

struct ReportFrame {
  std::string function, where;  // where: "file:line" or "" (unsymbolized)
  bool project = false;         // the project's code, not a system library or header
};

// "    #3 func /path/file.hpp:275:7 (lfcheck-stress+0x221ff1) (BuildId: ...)"
inline bool parse_frame(const std::string& line, ReportFrame& f) {
  auto hash = line.find('#');
  if (hash == std::string::npos || line.find_first_not_of(' ') != hash) return false;
  auto sp = line.find(' ', hash);
  if (sp == std::string::npos) return false;
  std::string rest = line.substr(sp + 1);
  auto build_id = rest.find(" (BuildId:");
  if (build_id != std::string::npos) rest.resize(build_id);
  std::string module;
  if (!rest.empty() && rest.back() == ')') {
    auto open = rest.rfind(" (");
    if (open != std::string::npos) {
      module = rest.substr(open + 2, rest.size() - open - 3);
      rest.resize(open);
    }
  }
  auto last = rest.rfind(' ');
  std::string loc = last == std::string::npos ? "" : rest.substr(last + 1);
  if (!loc.empty() && (loc[0] == '/' || loc[0] == '.') && loc.find(':') == std::string::npos) {
    // A file without a line (an inlined frame the debug info gives no line for).
    f.function = rest.substr(0, last);
    f.project = loc.rfind("/usr/", 0) != 0 && module.find(".so") == std::string::npos;
    f.where = short_path(loc);
  } else if (!loc.empty() && (loc[0] == '/' || loc[0] == '.')) {
    f.function = rest.substr(0, last);
    // file:line:col -> file:line
    auto c2 = loc.rfind(':');
    auto c1 = c2 == std::string::npos ? std::string::npos : loc.rfind(':', c2 - 1);
    const std::string file = c1 == std::string::npos ? loc.substr(0, c2) : loc.substr(0, c1);
    const std::string ln = c1 == std::string::npos ? loc.substr(c2 + 1) : loc.substr(c1 + 1, c2 - c1 - 1);
    f.project = file.rfind("/usr/", 0) != 0 && module.find(".so") == std::string::npos;
    f.where = short_path(file) + ":" + ln;
  } else {
    f.function = rest;
    f.project = false;
    f.where = module;
  }
  f.function = short_function(f.function);
  return true;
}

}  // namespace detail

// The short report of the first sanitizer report in `text` (a run's stderr), or ""
// if it holds none.
inline std::string short_sanitizer_report(const std::string& text, std::size_t max_frames = 10) {
  std::vector<std::string> lines;
  for (std::size_t p = 0; p < text.size();) {
    auto e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    lines.push_back(text.substr(p, e - p));
    p = e + 1;
  }
  std::size_t i = 0;
  for (; i < lines.size(); ++i)
    if (lines[i].find("WARNING: ThreadSanitizer:") != std::string::npos ||
        lines[i].find("ERROR: AddressSanitizer:") != std::string::npos ||
        lines[i].find("ERROR: LeakSanitizer:") != std::string::npos || lines[i].find(": runtime error:") != std::string::npos)
      break;
  if (i == lines.size()) return "";
  std::string out = lines[i] + "\n";
  std::vector<detail::ReportFrame> stack;
  detail::ReportFrame first_with_line;  // of the first stack: for a SUMMARY without a line
  bool skip_stack = false;  // a thread-creation stack
  auto flush = [&] {
    std::size_t shown = 0, system = 0;
    for (auto& f : stack) {
      if (!f.project) {
        ++system;
        continue;
      }
      if (shown++ == max_frames) {
        out += "      …\n";
        continue;
      }
      if (shown > max_frames) continue;
      out += "      " + f.function + "  " + f.where + "\n";
    }
    if (system) out += "      (+" + std::to_string(system) + " frames in system code: libstdc++, libc, the sanitizer runtime)\n";
    stack.clear();
  };
  for (++i; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.find("Symbolizer") != std::string::npos) continue;  // symbolizer noise
    detail::ReportFrame f;
    if (detail::parse_frame(l, f)) {
      if (!skip_stack) stack.push_back(f);
      if (first_with_line.where.empty() && f.project && f.where.find(':') != std::string::npos) first_with_line = f;
      continue;
    }
    flush();
    if (detail::report_starts(l, "SUMMARY:")) {
      std::string summary = l.substr(0, l.find(" in "));
      auto slash = summary.find(" /");
      if (slash != std::string::npos) summary = summary.substr(0, slash + 1) + detail::short_path(summary.substr(slash + 1));
      // TSan names the top frame's file; when the debug info gives that (inlined)
      // frame no line, name the first frame that has one, and say so.
      if (slash != std::string::npos && summary.find(':', slash) == std::string::npos && !first_with_line.where.empty())
        summary = summary.substr(0, slash + 1) + first_with_line.where + " (the first frame with a line, " +
                  first_with_line.function + "; the top frame has none)";
      out += "\n" + summary + "\n";
      break;
    }
    if (l.find_first_not_of(' ') == std::string::npos || detail::report_starts(l, "==")) continue;
    skip_stack = l.find(" created by ") != std::string::npos;
    if (skip_stack) {
      out += "  " + l.substr(l.find_first_not_of(' ')) + " (stack omitted)\n";
      continue;
    }
    out += "  " + detail::short_function(l.substr(l.find_first_not_of(' '))) + "\n";
  }
  flush();
  return out;
}

}  // namespace lfcheck
