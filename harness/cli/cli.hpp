// Command-line parsing shared by the runners (model, stress, lin). Every error is one
// line on stderr and exit status 2 (DESIGN §6): a runner never crashes on input.
#pragma once

#include <charconv>
#include <fstream>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lfcheck::cli {

enum ExitStatus : int { kPass = 0, kCheckFailed = 1, kUsage = 2 };

[[noreturn]] inline void usage_error(const std::string& program, const std::string& message) {
  std::fprintf(stderr, "%s: %s (try --help)\n", program.c_str(), message.c_str());
  std::exit(kUsage);
}

// Parses a whole non-negative decimal number in [min, max]; anything else is a usage error.
inline std::uint64_t parse_number(const std::string& program, std::string_view option,
                                  std::string_view text, std::uint64_t min, std::uint64_t max) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < min || value > max) {
    usage_error(program, std::string(option) + " takes a whole number from " +
                             std::to_string(min) + " to " + std::to_string(max) + ", not '" +
                             std::string(text) + "'");
  }
  return value;
}

inline double parse_seconds(const std::string& program, std::string_view option,
                            std::string_view text) {
  char* end = nullptr;
  std::string s(text);
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !(v > 0) || v > 1e7) {
    usage_error(program, std::string(option) + " takes a positive number of seconds, not '" + s + "'");
  }
  return v;
}

// A tiny declarative parser: options with a value, flags, and positionals.
class Parser {
 public:
  explicit Parser(std::string program) : program_(std::move(program)) {}

  void option(std::string name, std::function<void(std::string_view)> on_value) {
    options_[std::move(name)] = std::move(on_value);
  }
  void flag(std::string name, std::function<void()> on_set) { flags_[std::move(name)] = std::move(on_set); }

  // Returns the positional arguments; exits 2 on an unknown option or a missing value.
  std::vector<std::string> parse(int argc, char** argv) {
    std::vector<std::string> positional;
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      std::string value;
      bool has_inline_value = false;
      if (arg.rfind("--", 0) == 0) {
        auto eq = arg.find('=');
        if (eq != std::string::npos) {
          value = arg.substr(eq + 1);
          arg = arg.substr(0, eq);
          has_inline_value = true;
        }
        if (auto f = flags_.find(arg); f != flags_.end() && !has_inline_value) {
          f->second();
          continue;
        }
        auto o = options_.find(arg);
        if (o == options_.end()) usage_error(program_, "unknown option '" + arg + "'");
        if (!has_inline_value) {
          if (i + 1 >= argc) usage_error(program_, arg + " needs a value");
          value = argv[++i];
        }
        o->second(value);
      } else if (arg.size() > 1 && arg[0] == '-') {
        usage_error(program_, "unknown option '" + arg + "'");
      } else {
        positional.push_back(arg);
      }
    }
    return positional;
  }

  const std::string& program() const { return program_; }

 private:
  std::string program_;
  std::map<std::string, std::function<void(std::string_view)>> options_;
  std::map<std::string, std::function<void()>> flags_;
};

// A shard of a long command's work (issue 17): --shard I/N, or GoogleTest's
// GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS (the CI's own fan-out; --shard wins).
// Shard I keeps the work items I, I+N, I+2N, ... of the unsharded run's list, so N
// shards together do every item once. Each runner says what its items are.
struct Shard {
  std::uint64_t index = 0, total = 1;
  bool sharded() const { return total > 1; }
  bool keeps(std::uint64_t item) const { return item % total == index; }
  std::string text() const { return std::to_string(index) + "/" + std::to_string(total); }
};

// Reads the GoogleTest variables now and registers --shard on `p`.
inline void add_shard_option(Parser& p, Shard& shard) {
  auto set = [&p, &shard](const std::string& from, std::string_view index, std::string_view total) {
    shard.total = parse_number(p.program(), from + " (total)", total, 1, 1'000'000);
    shard.index = parse_number(p.program(), from + " (index)", index, 0, shard.total - 1);
  };
  if (const char* total = std::getenv("GTEST_TOTAL_SHARDS")) {
    const char* index = std::getenv("GTEST_SHARD_INDEX");
    if (!index) usage_error(p.program(), "GTEST_TOTAL_SHARDS is set but GTEST_SHARD_INDEX is not");
    set("GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS", index, total);
  }
  p.option("--shard", [&p, set](std::string_view v) {
    const auto slash = v.find('/');
    if (slash == std::string_view::npos) usage_error(p.program(), "--shard takes I/N, not '" + std::string(v) + "'");
    set("--shard", v.substr(0, slash), v.substr(slash + 1));
  });
}

// GoogleTest's protocol: a sharding-aware runner touches GTEST_SHARD_STATUS_FILE.
inline void acknowledge_sharding() {
  if (const char* status = std::getenv("GTEST_SHARD_STATUS_FILE")) std::ofstream{status};
}

}  // namespace lfcheck::cli
