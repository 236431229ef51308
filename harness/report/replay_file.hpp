// Replay files: "key=value" lines under a "lfcheck-replay 1" header, readable by
// the C++ runners and by ./lfcheck (shell). Values have newlines escaped as \n.
//   layer=model|stress, structure, scenario/workload, scheduler, bound, fault,
//   failure, state (Relacy's scheduler state) or command (stress: the replay line)
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "harness/report/artifacts.hpp"

namespace lfcheck {

class ReplayFile {
 public:
  ReplayFile& set(const std::string& key, const std::string& value) {
    values_[key] = value;
    return *this;
  }
  std::string get(const std::string& key) const {
    auto it = values_.find(key);
    return it == values_.end() ? "" : it->second;
  }
  // Whole or not at all (write_whole_file): `./lfcheck replay` never reads half a file.
  bool write(const std::string& path) const {
    std::ostringstream out;
    out << "lfcheck-replay 1\n";
    for (auto& [k, v] : values_) {
      std::string escaped;
      for (char c : v) escaped += c == '\n' ? std::string("\\n") : std::string(1, c);
      out << k << "=" << escaped << "\n";
    }
    return write_whole_file(path, out.str());
  }
  bool read(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line) || line != "lfcheck-replay 1") return false;
    while (std::getline(in, line)) {
      auto eq = line.find('=');
      if (eq == std::string::npos) continue;
      std::string v, raw = line.substr(eq + 1);
      for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '\\' && i + 1 < raw.size() && raw[i + 1] == 'n') {
          v += '\n';
          ++i;
        } else {
          v += raw[i];
        }
      }
      values_[line.substr(0, eq)] = v;
    }
    return true;
  }

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace lfcheck
