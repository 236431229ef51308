// Every scenario of a spec up to a bound, for `lfcheck verify` (harness/lin/verify.hpp):
// a prefix of 0..P calls, 2..T threads of 1..K calls each (and the spec's closing
// call, if it has one), a suffix of 0..S calls — each call a letter of the spec's
// finite alphabet for its slot (specs/spec.hpp: alphabet(Slot)) — smallest first, so
// that the first failing scenario is a smallest one.
//
// Order: by size (the calls, not counting closing calls), then by thread count, prefix
// length, suffix length, the threads' lengths, and the letters (their places in the
// slots' alphabets), lexicographically. Shard I of N takes the scenarios I, I+N, ...
// of this one list; every shard computes the whole list (cheap beside running it).
//
// Reductions (Reduction), each a claim about the spec held to the unreduced
// enumeration by tests/verify_reduction_truth.sh (same verdict for every scenario
// as for the one that stands for it):
//   threads  threads that run the same calls are interchangeable: of the scenarios that
//            differ only by a permutation of interchangeable threads, one is run.
//            Threads t and u are interchangeable when their alphabets are the same
//            calls, or when neither is the owner (thread 0, spec::Slot::owner()) and
//            their alphabets have as many letters — the k-th letter of each being the
//            same call on its own thread (a spec's alphabet(Slot) builds each thread's
//            letters in one order, as gen_call does). A spec whose threads differ
//            otherwise says `static constexpr bool interchangeable_threads = false;`.
//   values   a data-independent spec (one that declares value_of and with_value: the
//            structure and its model never look at those values, e.g. a stack's
//            elements): every value-carrying call gets a value of its own, 1, 2, 3, ...
//            in order of appearance (prefix, threads in order, suffix), so scenarios
//            that differ only in their values are one. Sound by data independence
//            (Wolper 1986; for linearizability, Abdulla et al., TACAS 2013: "differentiated"
//            histories): a scenario with repeated values is the image of this one under a
//            renaming of values, its executions the images of this one's, and the
//            renaming of a linearization is a linearization — so if this scenario
//            passes, every one it stands for does. A value-carrying letter is then one
//            letter whatever value the alphabet gave it.
// Of each class of scenarios that thread permutations make alike, the smallest in the
// order above runs: s runs iff no permutation p of interchangeable threads makes p(s)
// smaller (with values, the permutation is of the calls, whose values follow).
//
// Cost: every scenario over the (value-reduced) alphabets is visited once, each checked
// against at most 3! thread permutations; the kept ones are stored (encoded). The
// unreduced count is computed, not visited.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "harness/lin/scenario.hpp"
#include "lin/collection.hpp"
#include "specs/spec.hpp"

namespace lfcheck::lin {

// A spec that lfcheck verify can enumerate: its finite call alphabet per slot.
template <class S>
concept HasAlphabet = requires(spec::Slot slot) {
  { S::alphabet(slot) } -> std::same_as<std::vector<typename S::Call>>;
};

// A data-independent spec: value_of(call) names the value a call carries (0: none),
// with_value(call, v) is the same call carrying v (lin/collection.hpp's with_value).
template <class S>
concept DataIndependent = HasWithValue<S> && requires(const typename S::Call& c) {
  { S::value_of(c) } -> std::convertible_to<unsigned>;
};

template <class S>
constexpr bool interchangeable_threads() {
  if constexpr (requires { S::interchangeable_threads; }) return S::interchangeable_threads;
  else return true;
}

// The size of what verify enumerates: T x K (+P), and a suffix of S calls.
struct VerifyBound {
  unsigned threads = 2;  // 2..T threads
  unsigned calls = 2;    // 1..K calls each (a closing call comes on top)
  unsigned prefix = 1;   // 0..P calls before them
  unsigned suffix = 0;   // 0..S calls after them

  // "2×2 (+1)", "3×1 (+1, suffix 1)": how verdicts name it.
  std::string text() const {
    std::string t = std::to_string(threads) + "\u00d7" + std::to_string(calls) + " (+" + std::to_string(prefix);
    if (suffix) t += ", suffix " + std::to_string(suffix);
    return t + ")";
  }
  bool operator==(const VerifyBound&) const = default;
};

struct Reduction {
  bool threads = true;  // interchangeable threads
  bool values = true;   // data independence
  // Tests only (tests/verify_reduction_truth.sh): a pseudo-random subset of each slot's
  // letters, the same for slots whose alphabets have as many letters (so
  // interchangeable threads stay interchangeable): other, smaller specs. 0: every letter.
  std::uint64_t letters_seed = 0;
};

// One scenario of the enumeration, as the runner keeps it.
struct EnumeratedScenario {
  std::string encoded;  // encode(): what verify_one and the replay file take
  unsigned calls = 0;   // its size (closing calls not counted)
  unsigned threads = 0, longest = 0, prefix = 0, suffix = 0;  // its shape

  // Whether a bound holds it (a smaller bound's scenarios are a larger one's too).
  bool within(const VerifyBound& b) const {
    return threads <= b.threads && longest <= b.calls && prefix <= b.prefix && suffix <= b.suffix;
  }
};

struct Enumeration {
  std::vector<EnumeratedScenario> scenarios;  // the kept ones, smallest first
  std::uint64_t unreduced = 0;                // every scenario of the bound over the alphabets
  bool thread_symmetry = false;               // some threads were interchangeable
  bool values_reduced = false;                // the spec is data-independent: values reduced
  std::string alphabets;                      // each slot's letters, for the report
};

namespace detail {

// One slot's alphabet as enumerated: its letters (with values reduced, one per
// value-carrying call whatever its value), their text, and whether each carries a value.
template <class S>
struct SlotLetters {
  std::vector<typename S::Call> letters;
  std::vector<std::string> shown;
  std::vector<bool> carries;   // a value-carrying letter (values reduced only)
  std::uint64_t declared = 0;  // how many letters the spec's alphabet has (the unreduced count)
};

inline std::string slot_name(spec::Slot s) {
  switch (s.where) {
    case spec::Where::prefix: return "prefix";
    case spec::Where::suffix: return "suffix";
    case spec::Where::parallel:
      return "thread " + std::to_string(s.thread) + " of " + std::to_string(s.threads);
    default: return "sequential";
  }
}

template <class S>
class Enumerator {
 public:
  using Call = typename S::Call;

  // False (and why) if the spec's alphabets cannot be enumerated as asked.
  bool build(const VerifyBound& b, Reduction r, std::string& why) {
    bound_ = b;
    letters_seed_ = r.letters_seed;
    if (HasThreadCloser<S> && b.calls > kMaxOpsPerThread - 1) {
      why = std::string(S::name) + " ends every thread with a closing call: at most " +
            std::to_string(kMaxOpsPerThread - 1) + " calls per thread";
      return false;
    }
    values_ = false;
    if constexpr (DataIndependent<S>) values_ = r.values;
    if (!slot(spec::Slot{spec::Where::prefix}, prefix_, b.prefix > 0, why) ||
        !slot(spec::Slot{spec::Where::suffix}, suffix_, b.suffix > 0, why))
      return false;
    threads_.clear();  // (clear and resize: assign(n, {}) made g++ 12 warn through Relacy's operator new)
    threads_.resize(b.threads + 1);
    for (unsigned n = 2; n <= b.threads; ++n) {
      threads_[n].resize(n);
      for (unsigned t = 0; t < n; ++t)
        if (!slot(spec::Slot{spec::Where::parallel, t, n}, threads_[n][t], true, why)) return false;
    }
    classes_.clear();
    classes_.resize(b.threads + 1);
    for (unsigned n = 2; n <= b.threads; ++n)
      if (!thread_classes(n, r.threads, classes_[n], why)) return false;
    return true;
  }

  // How many words run() would visit (saturating): the cost of enumerating.
  std::uint64_t visits() const {
    std::uint64_t total = 0;
    for (const Shape& shape : shapes()) {
      std::uint64_t n = 1;
      for (auto* s : positions(shape)) n = s->letters.size() && n > UINT64_MAX / s->letters.size() ? UINT64_MAX
                                                                                                   : n * s->letters.size();
      total = total > UINT64_MAX - n ? UINT64_MAX : total + n;
    }
    return total;
  }

  Enumeration run() {
    Enumeration out;
    out.values_reduced = values_;
    for (unsigned n = 2; n <= bound_.threads; ++n)
      for (unsigned t = 0; t < n; ++t)
        out.thread_symmetry = out.thread_symmetry || classes_[n][t] != t;
    out.alphabets = describe_alphabets();
    for (const Shape& shape : shapes()) {
      out.unreduced += unreduced(shape);
      visit(shape, out);
    }
    return out;
  }

 private:
  struct Shape {
    unsigned size, prefix, suffix;
    std::vector<unsigned> lengths;  // per thread
  };
  // A scenario as letter indices: the prefix's, each thread's, the suffix's.
  struct Word {
    std::vector<unsigned> prefix, suffix;
    std::vector<std::vector<unsigned>> threads;
    // The enumeration's order within one size, thread count, prefix and suffix.
    bool operator<(const Word& o) const {
      for (std::size_t t = 0; t < threads.size(); ++t)
        if (threads[t].size() != o.threads[t].size()) return threads[t].size() < o.threads[t].size();
      if (prefix != o.prefix) return prefix < o.prefix;
      if (threads != o.threads) return threads < o.threads;
      return suffix < o.suffix;
    }
  };

  bool slot(spec::Slot s, SlotLetters<S>& out, bool needed, std::string& why) {
    const std::vector<Call> declared = subset(S::alphabet(s), s);
    out.declared = declared.size();
    if (declared.empty() && needed) {
      why = std::string(S::name) + "'s alphabet for the " + slot_name(s) + " is empty";
      return false;
    }
    std::map<std::string, unsigned> seen;
    for (const Call& c : declared) {
      const std::string text = S::show(c);
      if (seen.count(text)) {
        why = std::string(S::name) + "'s alphabet for the " + slot_name(s) + " has " + text +
              " twice (letters are told apart by how show() prints them)";
        return false;
      }
      seen[text] = 0;
      bool carries = false;
      Call letter = c;
      if constexpr (DataIndependent<S>) {
        carries = values_ && S::value_of(c) != 0;
        if (carries) letter = S::with_value(c, 1);  // its value comes from its place
      }
      const std::string shown = S::show(letter);
      if (carries && std::find(out.shown.begin(), out.shown.end(), shown) != out.shown.end()) continue;
      out.letters.push_back(letter);
      out.shown.push_back(shown);
      out.carries.push_back(carries);
    }
    return true;
  }

  // Reduction::letters_seed's subset: decided by the seed, the alphabet's size and
  // whether the slot is a thread's, the prefix or the suffix; never empty.
  std::vector<Call> subset(std::vector<Call> all, spec::Slot s) const {
    if (!letters_seed_ || all.size() < 2) return all;
    std::uint64_t x = letters_seed_ * 0x9E3779B97F4A7C15ull + all.size() * 31 + static_cast<unsigned>(s.where);
    std::vector<Call> kept;
    for (const Call& c : all) {
      x ^= x >> 33;  // a few rounds of a 64-bit mix per letter
      x *= 0xff51afd7ed558ccdull;
      x ^= x >> 33;
      if (x & 1) kept.push_back(c);
    }
    if (kept.empty()) kept.push_back(all[x % all.size()]);
    return kept;
  }

  // The class of each of n threads: the least thread it is interchangeable with (the
  // relation's transitive closure: each claim composes, letter by letter). False (and
  // why) if two interchangeable threads' k-th letters differ in carrying a value.
  bool thread_classes(unsigned n, bool on, std::vector<unsigned>& cls, std::string& why) {
    cls.resize(n);
    std::iota(cls.begin(), cls.end(), 0u);
    if (!on || !interchangeable_threads<S>()) return true;
    auto& ts = threads_[n];
    auto same = [&](unsigned a, unsigned b) {
      if (ts[a].shown == ts[b].shown) return true;
      const spec::Slot sa{spec::Where::parallel, a, n}, sb{spec::Where::parallel, b, n};
      return !sa.owner() && !sb.owner() && ts[a].letters.size() == ts[b].letters.size();
    };
    for (unsigned b = 0; b < n; ++b)
      for (unsigned a = 0; a < b; ++a)
        if (same(a, b)) {  // join b's class into a's: every member takes the lesser name
          const unsigned from = std::max(cls[a], cls[b]), to = std::min(cls[a], cls[b]);
          for (unsigned& c : cls)
            if (c == from) c = to;
        }
    for (unsigned t = 0; t < n; ++t)
      if (ts[t].carries != ts[cls[t]].carries) {
        why = std::string(S::name) + ": threads " + std::to_string(cls[t]) + " and " + std::to_string(t) + " of " +
              std::to_string(n) + " are interchangeable, but a letter of one carries a value and its counterpart "
              "on the other does not";
        return false;
      }
    return true;
  }

  std::string describe_alphabets() {
    std::string out;
    auto line = [&](const std::string& name, const SlotLetters<S>& s) {
      out += "  " + name + " (" + std::to_string(s.letters.size()) + "):";
      for (std::size_t i = 0; i < s.shown.size(); ++i) out += " " + s.shown[i] + (s.carries[i] ? "*" : "");
      out += "\n";
    };
    if (bound_.prefix) line("prefix", prefix_);
    for (unsigned t = 0; t < bound_.threads; ++t) line("thread " + std::to_string(t), threads_[bound_.threads][t]);
    if (bound_.suffix) line("suffix", suffix_);
    if (values_) out += "  (*: each such call carries a value of its own, 1, 2, ... in order of appearance)\n";
    return out;
  }

  std::vector<Shape> shapes() const {
    std::vector<Shape> all;
    for (unsigned n = 2; n <= bound_.threads; ++n) {
      std::vector<unsigned> lengths(n, 1);
      while (true) {
        const unsigned parallel = std::accumulate(lengths.begin(), lengths.end(), 0u);
        for (unsigned p = 0; p <= bound_.prefix; ++p)
          for (unsigned s = 0; s <= bound_.suffix; ++s) all.push_back({parallel + p + s, p, s, lengths});
        unsigned t = n;  // the next lengths, as an odometer of 1..calls
        while (t > 0 && lengths[t - 1] == bound_.calls) lengths[--t] = 1;
        if (t == 0) break;
        ++lengths[t - 1];
      }
    }
    std::stable_sort(all.begin(), all.end(), [](const Shape& a, const Shape& b) {
      if (a.size != b.size) return a.size < b.size;
      if (a.lengths.size() != b.lengths.size()) return a.lengths.size() < b.lengths.size();
      if (a.prefix != b.prefix) return a.prefix < b.prefix;
      if (a.suffix != b.suffix) return a.suffix < b.suffix;
      return a.lengths < b.lengths;
    });
    return all;
  }

  // The letter slots of a shape's positions: the prefix's, each thread's, the suffix's.
  std::vector<const SlotLetters<S>*> positions(const Shape& shape) const {
    const unsigned n = static_cast<unsigned>(shape.lengths.size());
    std::vector<const SlotLetters<S>*> slot_of;
    for (unsigned i = 0; i < shape.prefix; ++i) slot_of.push_back(&prefix_);
    for (unsigned t = 0; t < n; ++t)
      for (unsigned i = 0; i < shape.lengths[t]; ++i) slot_of.push_back(&threads_[n][t]);
    for (unsigned i = 0; i < shape.suffix; ++i) slot_of.push_back(&suffix_);
    return slot_of;
  }

  // The shape's scenarios over the spec's alphabets as declared (saturating).
  std::uint64_t unreduced(const Shape& shape) const {
    std::uint64_t n = 1;
    for (auto* s : positions(shape)) n = s->declared && n > UINT64_MAX / s->declared ? UINT64_MAX : n * s->declared;
    return n;
  }

  // Every word of one shape, in order; the canonical ones are kept.
  void visit(const Shape& shape, Enumeration& out) {
    const unsigned n = static_cast<unsigned>(shape.lengths.size());
    const auto slot_of = positions(shape);
    for (auto* s : slot_of)
      if (s->letters.empty()) return;  // (a prefix or suffix slot with no letters)
    std::vector<unsigned> digits(slot_of.size(), 0);
    const auto perms = permutations(n);
    while (true) {
      Word w = word(shape, digits);
      if (canonical(w, perms)) out.scenarios.push_back(enumerated(w, shape));
      std::size_t i = digits.size();  // odometer: the last position turns fastest
      while (i > 0 && digits[i - 1] + 1 == slot_of[i - 1]->letters.size()) digits[--i] = 0;
      if (i == 0) break;
      ++digits[i - 1];
    }
  }

  Word word(const Shape& shape, const std::vector<unsigned>& digits) const {
    Word w;
    w.prefix.assign(digits.begin(), digits.begin() + shape.prefix);
    std::size_t at = shape.prefix;
    for (unsigned len : shape.lengths) {
      w.threads.emplace_back(digits.begin() + at, digits.begin() + at + len);
      at += len;
    }
    w.suffix.assign(digits.begin() + at, digits.end());
    return w;
  }

  // The permutations of n threads that map each thread into its class (identity excluded).
  std::vector<std::vector<unsigned>> permutations(unsigned n) const {
    std::vector<unsigned> p(n);
    std::iota(p.begin(), p.end(), 0u);
    std::vector<std::vector<unsigned>> out;
    while (std::next_permutation(p.begin(), p.end())) {
      bool ok = true;
      for (unsigned t = 0; t < n; ++t) ok = ok && classes_[n][p[t]] == classes_[n][t];
      if (ok) out.push_back(p);
    }
    return out;
  }

  // s runs iff no permutation of interchangeable threads (thread t becomes p[t]) makes it smaller.
  static bool canonical(const Word& w, const std::vector<std::vector<unsigned>>& perms) {
    for (const auto& p : perms) {
      Word q = w;
      for (std::size_t t = 0; t < p.size(); ++t) q.threads[p[t]] = w.threads[t];
      if (q < w) return false;
    }
    return true;
  }

  EnumeratedScenario enumerated(const Word& w, const Shape& shape) const {
    EnumeratedScenario e;
    e.encoded = encode(scenario(w, values_));
    e.calls = shape.size;
    e.threads = static_cast<unsigned>(w.threads.size());
    e.longest = *std::max_element(shape.lengths.begin(), shape.lengths.end());
    e.prefix = shape.prefix;
    e.suffix = shape.suffix;
    return e;
  }

  // The scenario a word spells; with `fresh_values`, every value-carrying call (value_of
  // not 0) gets the next value, 1, 2, ... in order of appearance.
  Scenario<S> scenario(const Word& w, bool fresh_values) const {
    Scenario<S> sc;
    const unsigned n = static_cast<unsigned>(w.threads.size());
    unsigned next_value = 1;
    auto letter = [&](const SlotLetters<S>& s, unsigned l) {
      Call c = s.letters[l];
      if constexpr (DataIndependent<S>)
        if (fresh_values && S::value_of(c) != 0) {
          c = S::with_value(c, next_value);
          if (static_cast<unsigned>(S::value_of(c)) != next_value && bad_value_.empty())
            bad_value_ = std::string(S::name) + "'s with_value cannot give " + S::show(s.letters[l]) + " the value " +
                         std::to_string(next_value) + " (value_of does not give it back): the bound has more "
                         "value-carrying calls than the spec has values";
          ++next_value;
        }
      return c;
    };
    for (unsigned l : w.prefix) sc.prefix.push_back(letter(prefix_, l));
    for (unsigned t = 0; t < n; ++t) {
      std::vector<Call> calls;
      for (unsigned l : w.threads[t]) calls.push_back(letter(threads_[n][t], l));
      if constexpr (HasThreadCloser<S>) calls.push_back(S::close_thread(spec::Slot{spec::Where::parallel, t, n}));
      sc.threads.push_back(std::move(calls));
    }
    for (unsigned l : w.suffix) sc.suffix.push_back(letter(suffix_, l));
    return sc;
  }

  VerifyBound bound_;
  SlotLetters<S> prefix_, suffix_;
  std::vector<std::vector<SlotLetters<S>>> threads_;  // [n][t]
  std::vector<std::vector<unsigned>> classes_;        // [n][t]
  bool values_ = false;
  std::uint64_t letters_seed_ = 0;
  mutable std::string bad_value_;  // a value the spec could not give (enumerate then refuses)

 public:
  const std::string& bad_value() const { return bad_value_; }

  // The reductions' claims about one scenario `sc` of the enumeration built with
  // {threads: on, values: off} (tests/verify_reduction_truth.sh): `same` are its images
  // under the permutations of interchangeable threads (each must have sc's verdict),
  // `fresh[0]` is sc with every value-carrying call given a value of its own in order of
  // appearance, as the values reduction runs it (if sc fails it must fail), fresh[1..]
  // the same of each image. False if sc has a call its slot's alphabet does not.
  bool relatives(const Scenario<S>& sc, std::vector<Scenario<S>>& same, std::vector<Scenario<S>>& fresh) const {
    const unsigned n = static_cast<unsigned>(sc.threads.size());
    if (n < 2 || n > bound_.threads) return false;
    Word w;
    if (!indices(sc.prefix, prefix_, w.prefix) || !indices(sc.suffix, suffix_, w.suffix)) return false;
    for (unsigned t = 0; t < n; ++t) {
      std::vector<Call> calls = sc.threads[t];
      if constexpr (HasThreadCloser<S>) {
        if (calls.empty()) return false;
        calls.pop_back();
      }
      w.threads.emplace_back();
      if (!indices(calls, threads_[n][t], w.threads.back())) return false;
    }
    same.clear();
    fresh = {scenario(w, true)};
    for (const auto& p : permutations(n)) {
      Word q = w;
      for (std::size_t t = 0; t < p.size(); ++t) q.threads[p[t]] = w.threads[t];
      same.push_back(scenario(q, false));
      fresh.push_back(scenario(q, true));
    }
    return true;
  }

 private:
  bool indices(const std::vector<Call>& calls, const SlotLetters<S>& slot, std::vector<unsigned>& out) const {
    for (const Call& c : calls) {
      const auto at = std::find(slot.shown.begin(), slot.shown.end(), S::show(c));
      if (at == slot.shown.end()) return false;
      out.push_back(static_cast<unsigned>(at - slot.shown.begin()));
    }
    return true;
  }
};

}  // namespace detail

// The reductions' claims about one encoded scenario of `bound` over S's alphabets (see
// Enumerator::relatives): false if it is not one, or S has no alphabet.
template <class S>
bool reduction_relatives(const VerifyBound& bound, std::uint64_t letters_seed, const std::string& encoded,
                         std::vector<std::string>& same, std::vector<std::string>& fresh) {
  if constexpr (!HasAlphabet<S>) {
    return false;
  } else {
    detail::Enumerator<S> e;
    std::string why;
    Scenario<S> sc;
    std::vector<Scenario<S>> images, freshened;
    if (!e.build(bound, Reduction{true, false, letters_seed}, why) || !decode(encoded, sc) ||
        !e.relatives(sc, images, freshened))
      return false;
    same.clear();
    fresh.clear();
    for (const auto& q : images) same.push_back(encode(q));
    for (const auto& q : freshened) fresh.push_back(encode(q));
    return true;
  }
}

// The most scenarios enumerate() visits (after the values reduction, before the thread
// one): about a minute's work, far more than any bound whose scenarios could all be run.
constexpr std::uint64_t kMaxEnumerated = 50'000'000;

// Every scenario of `bound` over S's alphabets, smallest first, one per class of the
// reductions asked for; false (and why) if S's alphabets do not allow it.
template <class S>
bool enumerate(const VerifyBound& bound, Reduction reduction, Enumeration& out, std::string& why) {
  if constexpr (!HasAlphabet<S>) {
    why = std::string(S::name) + "'s spec declares no call alphabet";
    return false;
  } else {
    detail::Enumerator<S> e;
    if (!e.build(bound, reduction, why)) return false;
    if (e.visits() > kMaxEnumerated) {
      why = "up to " + bound.text() + " " + S::name + " has " + std::to_string(e.visits()) +
            " scenarios to enumerate before the reductions, more than verify enumerates (" +
            std::to_string(kMaxEnumerated) + "): a smaller bound, or a smaller alphabet";
      return false;
    }
    out = e.run();
    why = e.bad_value();
    return why.empty();
  }
}

}  // namespace lfcheck::lin
