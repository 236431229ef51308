// A failing Relacy execution as a person reads it: the per-thread step table on
// the terminal, and under the artifacts directory the table, the raw history, the
// Chrome/Perfetto trace and a replay file. Used by every model-layer runner
// (hand-written scenarios and generated lin scenarios), so all report alike.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "harness/report/artifacts.hpp"
#include "harness/report/project_dirs.hpp"
#include "harness/report/failure_views.hpp"
#include "harness/report/steps.hpp"
#include "harness/report/replay_file.hpp"
#include "sync/relacy_sync.hpp"

namespace lfcheck {

// A source path as the project names it: relative to the source root of the project
// that built this runner (project_dirs(), registered by the binary's generated unit:
// lfcheck's tree or a user's project, so a user's table names "queue.hpp", not a
// build path), else by lfcheck's own folders ("structures/treiber/treiber_stack.hpp",
// "harness/..." of an installed lfcheck), else as it was given. A relative path (ccache's
// base_dir rewrites them) is taken from the directory the compiler ran in (the top
// build directory under Ninja).
inline std::string project_path(const std::string& file) {
  namespace fs = std::filesystem;
  const ProjectDirs& dirs = project_dirs();
  if (!dirs.source_root.empty()) {
    fs::path p(file);
    if (p.is_relative() && !dirs.compile_dir.empty()) p = fs::path(dirs.compile_dir) / p;
    const std::string full = p.lexically_normal().string(), root = fs::path(dirs.source_root).lexically_normal().string();
    const std::string prefix = !root.empty() && root.back() == '/' ? root : root + "/";
    if (full.rfind(prefix, 0) == 0) return full.substr(prefix.size());
  }
  for (const char* top : {"structures/", "models/", "harness/", "sync/", "specs/"}) {
    auto p = file.find(std::string("/") + top);
    if (p != std::string::npos) return file.substr(p + 1);
    if (file.rfind(std::string("./") + top, 0) == 0) return file.substr(2);
  }
  return file;
}

// Relacy's history text as steps, with the structures' variable names.
inline std::vector<Step> model_steps(const std::string& history) {
  std::vector<Step> steps = parse_relacy_history(history);
  name_variables(steps, [](const std::string& address) {
    return RelacySync::label_of(reinterpret_cast<const void*>(std::strtoull(address.c_str(), nullptr, 16)));
  });
  for (auto& s : steps) s.file = project_path(s.file);
  return steps;
}

struct ModelArtifacts {
  std::string stem;  // "" when nothing could be written
};

// Prints the step table (and the raw history if asked), writes the artifacts
// named stem.{history.txt,table.txt,trace.json,replay}; `replay` already holds the
// layer-specific keys. Returns the stem written.
inline ModelArtifacts write_model_failure(const std::string& history, int threads, const std::string& title,
                                          const std::string& artifacts_option, const std::string& stem_name,
                                          ReplayFile replay, bool print_history) {
  const std::vector<Step> steps = model_steps(history);
  const std::string table = render_thread_table(steps, threads);
  std::printf("\n%s", table.c_str());
  if (print_history) std::printf("\n%s\n", history.c_str());
  const std::string dir = artifacts_dir(artifacts_option);
  if (!make_dirs(dir)) {
    std::fprintf(stderr, "lfcheck: cannot create %s; no artifacts written\n", dir.c_str());
    return {};
  }
  const std::string stem = dir + "/" + stem_name;
  write_whole_file(stem + ".history.txt", history);
  write_whole_file(stem + ".table.txt", table);
  write_trace(stem + ".trace.json", steps, threads, title);
  replay.write(stem + ".replay");
  std::printf("\ntrace:  %s.trace.json (open in ui.perfetto.dev or chrome://tracing)\n", stem.c_str());
  std::printf("table:  %s.table.txt   history: %s.history.txt\n", stem.c_str(), stem.c_str());
  std::printf("replay: %s replay %s\n", driver_command().c_str(), shell_word(stem + ".replay").c_str());
  return {stem};
}

}  // namespace lfcheck
