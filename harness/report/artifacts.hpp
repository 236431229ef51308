// Where failure artifacts go (tables, traces, histories, replay files): the
// --artifacts DIR of a runner, else $LFCHECK_ARTIFACTS, else
// ${TMPDIR:-/tmp}/lfcheck-artifacts; created on demand.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace lfcheck {

inline std::string artifacts_dir(const std::string& chosen) {
  if (!chosen.empty()) return chosen;
  if (const char* a = std::getenv("LFCHECK_ARTIFACTS"); a && *a) return a;
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp && *tmp ? tmp : "/tmp") + "/lfcheck-artifacts";
}

// mkdir -p; false if a component cannot be created.
inline bool make_dirs(const std::string& dir) {
  std::string path = dir.rfind('/', 0) == 0 ? "/" : "";
  std::istringstream parts(dir);
  for (std::string part; std::getline(parts, part, '/');) {
    if (part.empty()) continue;
    path += part + "/";
    if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) return false;
  }
  return true;
}

// Writes `text` to `path` whole or not at all: into a file of this process's own
// first (PATH.PID.tmp), then renamed over `path` (rename(2) replaces the name in
// one step). So a process killed while writing (--first-failure stops the other
// workers), or two processes writing one artifact (two slices of a run that both
// fail, two tests on one artifacts directory), never leave a truncated file: a
// reader opens one complete version. False (and no file) if it cannot be written.
inline bool write_whole_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + "." + std::to_string(::getpid()) + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out.flush()) {
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace lfcheck
