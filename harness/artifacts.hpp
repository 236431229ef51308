// Where failure artifacts go (tables, traces, histories, replay files): the
// --artifacts DIR of a runner, else $LFCHECK_ARTIFACTS, else
// ${TMPDIR:-/tmp}/lfcheck-artifacts; created on demand.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <string>
#include <sys/stat.h>

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

}  // namespace lfcheck
