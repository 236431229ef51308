// Which modules of a ThreadSanitizer report were built without TSan.
//
// TSan sees the synchronization of instrumented code only. When a report's stacks
// pass through a shared object compiled without -fsanitize=thread (a library from a
// distribution package), that object's atomics, fences and system calls are
// invisible to TSan, and the report may be about an order TSan could not see rather
// than a race. The runner then says so in the verdict and in the JSON
// ("uninstrumented": [...]) and points to the ways out (docs/your-structure.md,
// "Checking a library you did not write"). The verdict stays a failure: nothing is
// suppressed, and nothing is hidden that lies in instrumented code.
//
// How a module is judged: a frame line of the report names its module, "(NAME+0xOFFSET)";
// TSan prints the file's base name, so it is found among the modules loaded in this
// process (dl_iterate_phdr; the supervisor is the runner's parent, forked after the
// libraries were loaded). A module the process did not load (dlopen'ed later by the
// run) is not judged.
// A module compiled with TSan calls the runtime's __tsan_func_entry at every function
// entry, so its file holds that name (the executable, which carries the runtime
// itself, too). The C and C++ runtime libraries (libc, libstdc++, libgcc_s, libm, the
// dynamic loader, the vDSO) are never instrumented and need not be: TSan intercepts
// the synchronization they offer (pthread, malloc, ...). Every other module whose
// file lacks the name is reported.
// Cost: one read of each distinct module file named in the first report.
#pragma once

#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace lfcheck {

namespace detail {

// The modules named by the frame lines of the first report in `text`, in order of
// first appearance.
inline std::vector<std::string> report_modules(const std::string& text) {
  std::vector<std::string> out;
  const auto start = text.find("WARNING: ThreadSanitizer:");
  if (start == std::string::npos) return out;
  auto end = text.find("SUMMARY: ThreadSanitizer", start);
  if (end == std::string::npos) end = text.size();
  for (std::size_t p = start; p < end;) {
    std::size_t e = text.find('\n', p);
    if (e == std::string::npos || e > end) e = end;
    const std::string line = text.substr(p, e - p);
    p = e + 1;
    const auto hash = line.find_first_not_of(' ');
    if (hash == std::string::npos || line[hash] != '#') continue;  // not a frame
    // The module: the last "(...+0x" group of the line.
    const auto plus = line.rfind("+0x");
    if (plus == std::string::npos) continue;
    const auto open = line.rfind('(', plus);
    if (open == std::string::npos) continue;
    const std::string module = line.substr(open + 1, plus - open - 1);
    if (!module.empty() && std::find(out.begin(), out.end(), module) == out.end()) out.push_back(module);
  }
  return out;
}

inline std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

inline bool runtime_library(const std::string& base) {
  static const char* const kRuntime[] = {"libc.so", "libc-", "libstdc++.so", "libgcc_s.so", "libm.so", "ld-linux",
                                         "libpthread.so", "libdl.so", "librt.so", "linux-vdso", "[vdso]"};
  for (const char* r : kRuntime)
    if (base.rfind(r, 0) == 0) return true;
  return false;
}

// Whether the file at `path` was compiled with TSan: it names __tsan_func_entry.
// A file that cannot be read is not judged (false: nothing is claimed about it).
inline bool names_tsan_entry(const std::string& path, bool& readable) {
  std::ifstream in(path, std::ios::binary);
  readable = static_cast<bool>(in);
  if (!readable) return false;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return bytes.find("__tsan_func_entry") != std::string::npos;
}

// The path of the loaded module whose file is named `base` ("" if none): the
// executable (/proc/self/exe) or a shared object of this process.
inline std::string loaded_module_path(const std::string& base) {
  char exe[4096];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    if (base_name(exe) == base) return exe;
  }
  struct Search {
    const std::string* base;
    std::string found;
  } search{&base, ""};
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        auto* s = static_cast<Search*>(data);
        if (info->dlpi_name && *info->dlpi_name && base_name(info->dlpi_name) == *s->base) {
          s->found = info->dlpi_name;
          return 1;
        }
        return 0;
      },
      &search);
  return search.found;
}

}  // namespace detail

// The base names of `modules` (paths or base names of loaded modules) that were built
// without TSan; the C and C++ runtime libraries and modules not loaded here are not judged.
inline std::vector<std::string> built_without_tsan(const std::vector<std::string>& modules) {
  std::vector<std::string> out;
  for (const std::string& module : modules) {
    const std::string base = detail::base_name(module);
    if (base.empty() || detail::runtime_library(base)) continue;
    const std::string path = module[0] == '/' ? module : detail::loaded_module_path(base);
    if (path.empty()) continue;  // not loaded here: not judged
    bool readable = false;
    if (!detail::names_tsan_entry(path, readable) && readable &&
        std::find(out.begin(), out.end(), base) == out.end())
      out.push_back(base);
  }
  return out;
}

// The base names of the modules of the first TSan report in `text` that were built
// without TSan (see the top); empty if none, or if `text` holds no TSan report.
inline std::vector<std::string> uninstrumented_modules(const std::string& text) {
  return built_without_tsan(detail::report_modules(text));
}

// The base names of the shared objects this process loaded that were built without TSan
// (the runtime libraries aside): where a report's stacks are all in code built with TSan,
// the order TSan missed may be kept inside one of these, in code no frame shows.
inline std::vector<std::string> loaded_without_tsan() {
  std::vector<std::string> loaded;
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        if (info->dlpi_name && *info->dlpi_name) static_cast<std::vector<std::string>*>(data)->push_back(info->dlpi_name);
        return 0;
      },
      &loaded);
  return built_without_tsan(loaded);
}

}  // namespace lfcheck
