// Generated concurrent scenarios for `lfcheck lin`: a sequential prefix, 2-3
// threads of a few calls each, a sequential suffix — all drawn from the spec's
// gen_call (specs/spec.hpp) by RapidCheck generators, so a failing scenario
// shrinks (fewer threads, fewer calls, simpler arguments) for free.
//
// A scenario runs many times (Relacy iterations, or real-thread executions); each
// execution fills a Results record (fixed arrays: no allocation, so it can live
// inside a Relacy simulation), which becomes a lin::History in program order:
// the prefix before everything, each thread's calls in order, threads concurrent,
// the suffix after everything (DESIGN §7).
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "lin/history.hpp"
#include "specs/spec.hpp"

namespace lfcheck::lin {

// Compile-time ceilings: Relacy's thread count is a template argument, and the
// per-execution record is fixed-size.
constexpr unsigned kMaxThreads = 3;
constexpr unsigned kMaxOpsPerThread = 8;
constexpr unsigned kMaxPrefix = 4;
constexpr unsigned kMaxSuffix = 4;
// The thread number prefix and suffix calls run as (Subject::run's argument) and
// are shown under (the table's "init"/"post" rows): they run alone, ordered with
// every thread, as the owner (spec::Slot::owner()).
constexpr std::uint32_t kSetupThread = 0;

struct Shape {
  unsigned threads = 3;   // at most; generated scenarios have 2..threads
  unsigned ops = 5;       // calls per thread, at most (at least 1)
  unsigned prefix = 3;    // prefix calls, at most
  unsigned suffix = 2;    // suffix calls, at most
};

template <class S>
struct Scenario {
  using Call = typename S::Call;
  std::vector<Call> prefix;
  std::vector<std::vector<Call>> threads;
  std::vector<Call> suffix;

  std::size_t calls() const {
    std::size_t n = prefix.size() + suffix.size();
    for (auto& t : threads) n += t.size();
    return n;
  }
};

// A spec may end every parallel thread with a fixed call (specs/spec.hpp: close_thread),
// appended after the thread's generated calls and never shrunk away.
template <class S>
concept HasThreadCloser = requires(spec::Slot slot) {
  { S::close_thread(slot) } -> std::same_as<typename S::Call>;
};

namespace detail {
template <class S>
rc::Gen<std::vector<typename S::Call>> gen_calls(spec::Slot slot, unsigned lo, unsigned hi) {
  return rc::gen::mapcat(rc::gen::inRange<unsigned>(lo, hi + 1), [slot](unsigned n) {
    return rc::gen::container<std::vector<typename S::Call>>(n, S::gen_call(slot));
  });
}
}  // namespace detail

// RapidCheck generator of scenarios within `shape` (clamped to the ceilings).
template <class S>
rc::Gen<Scenario<S>> gen_scenario(Shape shape) {
  using Calls = std::vector<typename S::Call>;
  const unsigned max_threads = std::clamp(shape.threads, 2u, kMaxThreads);
  // A closing call takes one of a thread's places.
  const unsigned ops = std::clamp(shape.ops, 1u, kMaxOpsPerThread - (HasThreadCloser<S> ? 1u : 0u));
  const unsigned prefix = std::min(shape.prefix, kMaxPrefix), suffix = std::min(shape.suffix, kMaxSuffix);
  auto thread_calls = [ops](unsigned t, unsigned n) {
    const spec::Slot slot{spec::Where::parallel, t, n};
    auto calls = detail::gen_calls<S>(slot, 1, ops);
    if constexpr (HasThreadCloser<S>)
      return rc::gen::map(std::move(calls), [slot](Calls c) {
        c.push_back(S::close_thread(slot));
        return c;
      });
    else
      return calls;
  };
  auto threads = rc::gen::mapcat(rc::gen::inRange<unsigned>(2, max_threads + 1), [thread_calls](unsigned n) {
    if (n == 2)
      return rc::gen::map(rc::gen::tuple(thread_calls(0, 2), thread_calls(1, 2)),
                          [](std::tuple<Calls, Calls> t) {
                            return std::vector<Calls>{std::get<0>(t), std::get<1>(t)};
                          });
    return rc::gen::map(rc::gen::tuple(thread_calls(0, 3), thread_calls(1, 3), thread_calls(2, 3)),
                        [](std::tuple<Calls, Calls, Calls> t) {
                          return std::vector<Calls>{std::get<0>(t), std::get<1>(t), std::get<2>(t)};
                        });
  });
  return rc::gen::map(
      rc::gen::tuple(detail::gen_calls<S>(spec::Slot{spec::Where::prefix}, 0, prefix), threads,
                     detail::gen_calls<S>(spec::Slot{spec::Where::suffix}, 0, suffix)),
      [](std::tuple<Calls, std::vector<Calls>, Calls> t) {
        return Scenario<S>{std::move(std::get<0>(t)), std::move(std::get<1>(t)), std::move(std::get<2>(t))};
      });
}

// What one execution of a scenario returned: fixed arrays, trivially copyable.
template <class S>
struct Results {
  using Result = typename S::Result;
  Result prefix[kMaxPrefix]{};
  Result threads[kMaxThreads][kMaxOpsPerThread]{};
  Result suffix[kMaxSuffix]{};

  // (Element by element: `results = Results{}` makes GCC 12 fail with an internal error.)
  void reset() {
    for (auto& r : prefix) r = Result{};
    for (auto& t : threads)
      for (auto& r : t) r = Result{};
    for (auto& r : suffix) r = Result{};
  }

  bool same_as(const Results& o, const Scenario<S>& sc) const {
    for (std::size_t i = 0; i < sc.prefix.size(); ++i)
      if (!(prefix[i] == o.prefix[i])) return false;
    for (std::size_t t = 0; t < sc.threads.size(); ++t)
      for (std::size_t i = 0; i < sc.threads[t].size(); ++i)
        if (!(threads[t][i] == o.threads[t][i])) return false;
    for (std::size_t i = 0; i < sc.suffix.size(); ++i)
      if (!(suffix[i] == o.suffix[i])) return false;
    return true;
  }
};

// When each call of one execution was invoked and returned, on real threads: one
// monotonic clock (ns), laid out as Results (the stress layer's lin.scenarios).
struct Stamps {
  struct Span {
    std::uint64_t invoke = 0, response = 0;
  };
  Span prefix[kMaxPrefix]{};
  Span threads[kMaxThreads][kMaxOpsPerThread]{};
  Span suffix[kMaxSuffix]{};
};

// Which parallel calls of one execution returned before which others were invoked:
// row a, bit b (a and b numbered thread by thread) — the real-time order the
// checker holds an execution to, beyond program order.
struct Precedence {
  std::uint32_t rows[kMaxThreads * kMaxOpsPerThread] = {};
  bool operator==(const Precedence&) const = default;
};
static_assert(kMaxThreads * kMaxOpsPerThread <= 32, "Precedence rows are 32-bit masks");

template <class S>
Precedence precedence(const Scenario<S>& sc, const Stamps& st) {
  Precedence p;
  unsigned a = 0;
  for (std::size_t t = 0; t < sc.threads.size(); ++t)
    for (std::size_t i = 0; i < sc.threads[t].size(); ++i, ++a) {
      unsigned b = 0;
      for (std::size_t u = 0; u < sc.threads.size(); ++u)
        for (std::size_t j = 0; j < sc.threads[u].size(); ++j, ++b)
          if (u != t && st.threads[t][i].response < st.threads[u][j].invoke) p.rows[a] |= 1u << b;
    }
  return p;
}

// The execution as a history: in program order (see the header comment), or, with
// stamps, in real-time order (a call precedes every call invoked after it returned).
template <class S>
History<S> to_history(const Scenario<S>& sc, const Results<S>& r, const Stamps* stamps = nullptr) {
  History<S> h;
  h.order = stamps ? Order::real_time : Order::program_order;
  auto stamp = [stamps](Operation<S>& op, const Stamps::Span& span) {
    if (!stamps) return;
    op.invoke = span.invoke;
    op.response = span.response;
  };
  for (std::size_t i = 0; i < sc.prefix.size(); ++i) {
    Operation<S> op;
    op.call = sc.prefix[i];
    op.result = r.prefix[i];
    op.thread = kSetupThread;
    op.phase = Phase::prefix;
    if (stamps) stamp(op, stamps->prefix[i]);
    h.ops.push_back(op);
  }
  for (std::size_t t = 0; t < sc.threads.size(); ++t)
    for (std::size_t i = 0; i < sc.threads[t].size(); ++i) {
      Operation<S> op;
      op.call = sc.threads[t][i];
      op.result = r.threads[t][i];
      op.thread = static_cast<std::uint32_t>(t);
      op.phase = Phase::parallel;
      if (stamps) stamp(op, stamps->threads[t][i]);
      h.ops.push_back(op);
    }
  for (std::size_t i = 0; i < sc.suffix.size(); ++i) {
    Operation<S> op;
    op.call = sc.suffix[i];
    op.result = r.suffix[i];
    op.thread = kSetupThread;
    op.phase = Phase::suffix;
    if (stamps) stamp(op, stamps->suffix[i]);
    h.ops.push_back(op);
  }
  return h;
}

// A scenario as text: "prefix: push(1); t0: pop(), pop(); t1: push(2); suffix: take_all()".
template <class S>
std::string describe(const Scenario<S>& sc) {
  auto list = [](const std::vector<typename S::Call>& calls) {
    std::string s;
    for (std::size_t i = 0; i < calls.size(); ++i) s += (i ? ", " : "") + S::show(calls[i]);
    return s;
  };
  std::string out;
  if (!sc.prefix.empty()) out += "prefix: " + list(sc.prefix) + "; ";
  for (std::size_t t = 0; t < sc.threads.size(); ++t) out += "t" + std::to_string(t) + ": " + list(sc.threads[t]) + "; ";
  if (!sc.suffix.empty()) out += "suffix: " + list(sc.suffix);
  else if (!out.empty()) out.resize(out.size() - 2);
  return out;
}

// A scenario as bytes (for replay files): the same binary reads it back.
template <class S>
std::string encode(const Scenario<S>& sc) {
  static_assert(std::is_trivially_copyable_v<typename S::Call>);
  std::string hex;
  auto byte = [&hex](unsigned char b) {
    static const char* digits = "0123456789abcdef";
    hex += digits[b >> 4];
    hex += digits[b & 15];
  };
  auto list = [&](const std::vector<typename S::Call>& calls) {
    byte(static_cast<unsigned char>(calls.size()));
    for (auto& c : calls) {
      unsigned char raw[sizeof c];
      std::memcpy(raw, &c, sizeof c);
      for (unsigned char b : raw) byte(b);
    }
  };
  list(sc.prefix);
  byte(static_cast<unsigned char>(sc.threads.size()));
  for (auto& t : sc.threads) list(t);
  list(sc.suffix);
  return hex;
}

template <class S>
bool decode(const std::string& hex, Scenario<S>& sc) {
  std::size_t at = 0;
  auto byte = [&](unsigned char& b) {
    if (at + 2 > hex.size()) return false;
    auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    b = static_cast<unsigned char>(nibble(hex[at]) * 16 + nibble(hex[at + 1]));
    at += 2;
    return true;
  };
  auto list = [&](std::vector<typename S::Call>& calls, unsigned limit) {
    unsigned char n = 0;
    if (!byte(n) || n > limit) return false;
    calls.resize(n);
    for (auto& c : calls) {
      unsigned char raw[sizeof c];
      for (unsigned char& b : raw)
        if (!byte(b)) return false;
      std::memcpy(&c, raw, sizeof c);
    }
    return true;
  };
  unsigned char threads = 0;
  if (!list(sc.prefix, kMaxPrefix) || !byte(threads) || threads > kMaxThreads) return false;
  sc.threads.resize(threads);
  for (auto& t : sc.threads)
    if (!list(t, kMaxOpsPerThread)) return false;
  return list(sc.suffix, kMaxSuffix) && at == hex.size();
}

}  // namespace lfcheck::lin
