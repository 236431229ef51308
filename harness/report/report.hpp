// Run records and their renderings: the JSON of DESIGN §6, JUnit XML, and the
// terminal summary table. Shared by every runner so all layers report alike.
//
// Verdicts and the exit status: a run is "pass" (its check ran and found nothing),
// "fail" (a check failed: a bug was found) or "error" (it could not check: e.g. no
// work was done). exit_status(runs) is the one place that turns verdicts into the
// process's exit status (1 if any run failed, else 2 if any could not check or
// there was no run at all, else 0), and the JSON and JUnit files are written from
// the same records, so they cannot say pass while the status says otherwise.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace lfcheck {

enum class Verdict { pass, fail, error };

inline const char* verdict_name(Verdict v) {
  return v == Verdict::pass ? "pass" : v == Verdict::fail ? "fail" : "error";
}

// One record = one run of one checker; fields are (name, value) pairs kept in
// order, values already typed as JSON scalars via the helpers below.
struct RunRecord {
  std::vector<std::pair<std::string, std::string>> fields;  // value is JSON text
  Verdict verdict = Verdict::pass;
  std::string failure;  // the checker's own words when not pass
  std::string details;  // history / report text for JUnit

  static std::string quote(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
          if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
          } else {
            out += static_cast<char>(c);
          }
      }
    }
    return out + "\"";
  }
  RunRecord& str(const std::string& k, const std::string& v) {
    fields.emplace_back(k, quote(v));
    return *this;
  }
  RunRecord& num(const std::string& k, std::uint64_t v) {
    fields.emplace_back(k, std::to_string(v));
    return *this;
  }
  RunRecord& real(const std::string& k, double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    fields.emplace_back(k, buf);
    return *this;
  }
  bool passed() const { return verdict == Verdict::pass; }
  // Sets the verdict and writes it as the "verdict" field (at this position).
  RunRecord& set_verdict(Verdict v) {
    verdict = v;
    return str("verdict", verdict_name(v));
  }
  // A value that is already JSON text (an array or object built by the caller).
  RunRecord& json(const std::string& k, const std::string& json_text) {
    fields.emplace_back(k, json_text);
    return *this;
  }
  RunRecord& boolean(const std::string& k, bool v) {
    fields.emplace_back(k, v ? "true" : "false");
    return *this;
  }
  std::string get(const std::string& k) const {
    for (auto& [key, v] : fields)
      if (key == k) return v.size() >= 2 && v.front() == '"' ? v.substr(1, v.size() - 2) : v;
    return "";
  }
  std::string json() const {
    std::string out = "{";
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) out += ",";
      out += quote(fields[i].first) + ":" + fields[i].second;
    }
    return out + "}";
  }
};

// The exit status the verdicts stand for (see the top of this file).
inline int exit_status(const std::vector<RunRecord>& runs) {
  bool error = runs.empty();
  for (auto& r : runs) {
    if (r.verdict == Verdict::fail) return 1;
    error = error || r.verdict == Verdict::error;
  }
  return error ? 2 : 0;
}

// Writes {"runs":[...]}; returns false (and says why) if the file cannot be written.
inline bool write_runs_json(const std::string& path, const std::vector<RunRecord>& runs) {
  std::ofstream out(path);
  if (!out) {
    std::fprintf(stderr, "lfcheck: cannot write %s\n", path.c_str());
    return false;
  }
  out << "{\"runs\":[";
  for (std::size_t i = 0; i < runs.size(); ++i) out << (i ? ",\n" : "\n") << runs[i].json();
  out << "\n]}\n";
  return static_cast<bool>(out);
}

inline std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// JUnit XML: one testsuite per layer, one testcase per run; classname = structure.
inline bool write_junit(const std::string& path, const std::string& suite,
                        const std::vector<RunRecord>& runs,
                        const std::vector<std::string>& name_keys) {
  std::ofstream out(path);
  if (!out) {
    std::fprintf(stderr, "lfcheck: cannot write %s\n", path.c_str());
    return false;
  }
  std::size_t failures = 0, errors = 0;
  double total = 0;
  for (auto& r : runs) {
    failures += r.verdict == Verdict::fail;
    errors += r.verdict == Verdict::error;
    total += std::atof(r.get("seconds").c_str());
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\""
      << xml_escape(suite) << "\" tests=\"" << runs.size() << "\" failures=\"" << failures
      << "\" errors=\"" << errors << "\" time=\"" << total << "\">\n";
  for (auto& r : runs) {
    std::string name;
    for (auto& k : name_keys) name += (name.empty() ? "" : ".") + r.get(k);
    out << "  <testcase classname=\"" << xml_escape(r.get("structure")) << "\" name=\""
        << xml_escape(name) << "\" time=\"" << r.get("seconds") << "\">\n";
    if (!r.passed()) {
      const char* element = r.verdict == Verdict::fail ? "failure" : "error";
      out << "    <" << element << " message=\"" << xml_escape(r.failure) << "\"><![CDATA[" << r.details
          << "]]></" << element << ">\n";
    }
    out << "  </testcase>\n";
  }
  out << "</testsuite>\n</testsuites>\n";
  return static_cast<bool>(out);
}

// Fixed-width terminal table: one row per run, the given columns.
inline void print_table(std::FILE* to, const std::vector<RunRecord>& runs,
                        const std::vector<std::string>& columns) {
  std::vector<std::size_t> width(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    width[c] = columns[c].size();
    for (auto& r : runs) width[c] = std::max(width[c], r.get(columns[c]).size());
  }
  auto row = [&](auto cell) {
    for (std::size_t c = 0; c < columns.size(); ++c)
      std::fprintf(to, "%-*s%s", static_cast<int>(width[c]), cell(c).c_str(),
                   c + 1 < columns.size() ? "  " : "\n");
  };
  row([&](std::size_t c) { return columns[c]; });
  row([&](std::size_t c) { return std::string(width[c], '-'); });
  for (auto& r : runs) row([&](std::size_t c) { return r.get(columns[c]); });
}

}  // namespace lfcheck
