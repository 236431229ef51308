// Replay files: "key=value" lines under a "lfcheck-replay 1" header, readable by
// the C++ runners and by ./lfcheck (shell). Values have newlines escaped as \n.
//   layer=model|stress, structure, scenario/workload, scheduler, bound, fault,
//   failure, state (Relacy's scheduler state) or command and args (stress: the
//   replay line as printed, and the driver's arguments in it), build (the build
//   tree that wrote it: `lfcheck replay FILE` runs its binaries from anywhere)
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <system_error>

#include "harness/report/artifacts.hpp"
#include "harness/report/project_dirs.hpp"

namespace lfcheck {

// How a person runs lfcheck's driver from where they stand, and the build tree a
// runner belongs to: what the replay lines of a failure say (issue 27 — "./lfcheck"
// is only lfcheck's source tree's; a project's driver is <prefix>/bin/lfcheck, and
// a replay must find the build tree that wrote it).
//   driver_command(): "lfcheck" if $PATH finds this build's driver under that name,
//     "./lfcheck" if it is in the current directory, else its absolute path
//     (the project's registration: harness/report/project_dirs.hpp);
//   driver_build(): the top build directory (the registration's build tree; a sanitizer
//     sub-build's, <build>/sanitizer-NAME, is its parent's), where
//     lfcheck-manifest.txt is; every replay file records it (build=).
//   shell_word(s): s quoted for a shell if it needs it.
inline std::string shell_word(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%") ==
                        std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::string driver_build() {
  namespace fs = std::filesystem;
  if (project_dirs().compile_dir.empty()) return "";
  const fs::path dir = fs::path(project_dirs().compile_dir).lexically_normal();
  const std::string name = dir.filename().string();
  std::error_code ec;
  if (name.rfind("sanitizer-", 0) == 0 && fs::exists(dir.parent_path() / "lfcheck-manifest.txt", ec))
    return dir.parent_path().string();
  return dir.string();
}

inline std::string driver_command() {
  namespace fs = std::filesystem;
  if (project_dirs().driver.empty()) return "lfcheck";
  std::error_code ec;
  const fs::path driver = fs::weakly_canonical(project_dirs().driver, ec);
  auto same = [&](const fs::path& p) {
    std::error_code e;
    return fs::equivalent(p, driver, e);
  };
  if (const char* path = std::getenv("PATH")) {
    std::string dirs = path;
    for (std::size_t at = 0; at <= dirs.size();) {
      const std::size_t end = std::min(dirs.find(':', at), dirs.size());
      const std::string dir = dirs.substr(at, end - at);
      if (!dir.empty() && fs::exists(fs::path(dir) / "lfcheck", ec)) return same(fs::path(dir) / "lfcheck") ? "lfcheck" : shell_word(driver.string());
      at = end + 1;
    }
  }
  if (same(fs::current_path(ec) / "lfcheck")) return "./lfcheck";
  return shell_word(driver.string());
}


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
    auto values = values_;
    if (!values.count("build") && !driver_build().empty()) values["build"] = driver_build();
    for (auto& [k, v] : values) {
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
