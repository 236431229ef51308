// A fuzzer program's labels, flat positions, reduction and printing (program.hpp).
#include "models/selftest/dpor_fuzz/program.hpp"

#include <algorithm>
#include <cstdio>

namespace lfcheck::dpor_fuzz {

const char* name(Mo mo) {
  switch (mo) {
    case Mo::relaxed: return "relaxed";
    case Mo::consume: return "consume";
    case Mo::acquire: return "acquire";
    case Mo::release: return "release";
    case Mo::acq_rel: return "acq_rel";
    case Mo::seq_cst: return "seq_cst";
  }
  return "?";
}

namespace {

bool observes(const Op& op) {
  switch (op.kind) {
    case Kind::load: case Kind::rmw: case Kind::cas: case Kind::cas_loop: case Kind::cell_load: case Kind::wait:
    case Kind::await: case Kind::take: case Kind::peek: case Kind::local_block: case Kind::publish:
      return true;
    default:
      return false;
  }
}

void label_all(std::vector<Op>& ops, unsigned& next) {
  for (Op& op : ops) {
    op.label = observes(op) ? static_cast<int>(next++) : -1;
    label_all(op.body, next);
  }
}

// The program's parts in their flat order: before, the threads, invariant, after.
template <class P, class F>
void for_each_part(P& p, F&& f) {
  f(kBefore, p.before);
  for (unsigned t = 0; t < p.threads.size(); ++t) f(static_cast<int>(t), p.threads[t]);
  f(kInvariant, p.invariant);
  f(kAfter, p.after);
}

void collect(const std::vector<Op>& ops, int part, std::vector<unsigned>& path, std::vector<Position>& out) {
  for (unsigned i = 0; i < ops.size(); ++i) {
    path.push_back(i);
    out.push_back({part, path});
    collect(ops[i].body, part, path, out);
    path.pop_back();
  }
}

// Keeps the statements whose flat number (counted by `next`, in collect()'s order) is in `keep`.
std::vector<Op> filter(const std::vector<Op>& ops, const std::vector<bool>& keep, std::size_t& next) {
  std::vector<Op> out;
  for (const Op& op : ops) {
    const bool kept = next < keep.size() && keep[next];
    ++next;
    std::vector<Op> body = filter(op.body, keep, next);
    if (!kept) continue;
    Op copy = op;
    copy.body = std::move(body);
    out.push_back(std::move(copy));
  }
  return out;
}

std::string fmt(const char* f, auto... args) {
  char text[256];
  std::snprintf(text, sizeof text, f, args...);
  return text;
}

const char* rmw_name(Rmw r) {
  switch (r) {
    case Rmw::exchange: return "exchange";
    case Rmw::fetch_add: return "fetch_add";
    case Rmw::fetch_sub: return "fetch_sub";
    case Rmw::fetch_or: return "fetch_or";
    case Rmw::fetch_and: return "fetch_and";
  }
  return "?";
}

const char* hint_name(Hint h) { return h == Hint::yield ? "yield()" : "spin_hint()"; }

std::string use_text(const Op& op) {
  switch (op.use) {
    case BlockUse::load: return fmt("b->a.load(%s)", name(op.failure));
    case BlockUse::store: return fmt("b->a.store(%d, %s)", op.value, name(op.failure));
    case BlockUse::fetch_add: return fmt("b->a.fetch_add(1, %s)", name(op.failure));
    case BlockUse::cell_load: return "b->c.load()";
    case BlockUse::cell_store: return fmt("b->c.store(%d)", op.value);
    case BlockUse::lock_store: return fmt("b->m.lock(); b->a.store(%d, relaxed); b->m.unlock()", op.value);
    case BlockUse::lock_unlock: return "b->m.lock(); b->m.unlock()";
    case BlockUse::notify: return "b->v.notify_all()";
  }
  return "?";
}

std::string labelled(const Op& op, const std::string& text) {
  return op.label >= 0 ? fmt("r%d = ", op.label) + text : text;
}

void print_ops(const std::vector<Op>& ops, int depth, unsigned& number, const std::vector<unsigned>& numbers,
               std::string& out) {
  for (const Op& op : ops) {
    const unsigned shown = number < numbers.size() ? numbers[number] : number;
    ++number;
    out += fmt("  #%-3u", shown) + std::string(2 * depth + 2, ' ') + print(op);
    if (op.kind == Kind::locked || op.kind == Kind::await) {
      out += " {\n";
      print_ops(op.body, depth + 1, number, numbers, out);
      out += std::string(2 * depth + 8, ' ') + (op.kind == Kind::locked ? fmt("} m%u.unlock()", op.mutex)
                                                                         : std::string("  ") + hint_name(op.hint) + "\n" +
                                                                               std::string(2 * depth + 8, ' ') + "}");
    }
    out += "\n";
  }
}

bool uses_sync_blocks(const std::vector<Op>& ops) {
  for (const Op& op : ops)
    if (op.kind == Kind::publish || (op.kind == Kind::local_block && op.block == BlockKind::sync) ||
        uses_sync_blocks(op.body))
      return true;
  return false;
}

bool uses_sync_blocks(const Program& p) {
  bool any = !p.slot_filled.empty();
  for_each_part(p, [&](int, const std::vector<Op>& ops) { any = any || uses_sync_blocks(ops); });
  return any;
}

}  // namespace

void assign_labels(Program& p) {
  unsigned next = 0;
  for_each_part(p, [&](int part, std::vector<Op>& ops) {
    if (part != kInvariant) label_all(ops, next);  // an invariant's reads are its observe statements
  });
  p.labels = next;
}

std::vector<Position> positions(const Program& p) {
  std::vector<Position> out;
  for_each_part(p, [&](int part, const std::vector<Op>& ops) {
    std::vector<unsigned> path;
    collect(ops, part, path, out);
  });
  return out;
}

Program keep_only(const Program& p, const std::vector<bool>& keep) {
  Program q = p;
  std::size_t next = 0;
  for_each_part(q, [&](int, std::vector<Op>& ops) { ops = filter(ops, keep, next); });
  std::vector<std::vector<Op>> threads;
  for (auto& t : q.threads)
    if (!t.empty()) threads.push_back(std::move(t));
  if (threads.empty()) threads.emplace_back();
  q.threads = std::move(threads);
  assign_labels(q);
  return q;
}

std::string print(const Op& op) {
  switch (op.kind) {
    case Kind::load: return labelled(op, fmt("a%u.load(%s)", op.object, name(op.order)));
    case Kind::store: return fmt("a%u.store(%d, %s)", op.object, op.value, name(op.order));
    case Kind::rmw: return labelled(op, fmt("a%u.%s(%d, %s)", op.object, rmw_name(op.rmw), op.value, name(op.order)));
    case Kind::cas:
      return labelled(op, fmt("a%u.compare_exchange_%s(e = %d, %d, %s, %s)  [r: ok, e]", op.object,
                              op.weak ? "weak" : "strong", op.expected, op.value, name(op.order), name(op.failure)));
    case Kind::cas_loop:
      return labelled(op, fmt("e = a%u.load(relaxed); while (!a%u.compare_exchange_%s(e, e + %d, %s, %s)) spin_hint(); e",
                              op.object, op.object, op.weak ? "weak" : "strong", op.value, name(op.order),
                              name(op.failure)));
    case Kind::fence: return fmt("fence(%s)", name(op.order));
    case Kind::cell_load: return labelled(op, fmt("c%u.load()", op.object));
    case Kind::cell_store: return fmt("c%u.store(%d)", op.object, op.value);
    case Kind::locked: return fmt("m%u.lock()", op.mutex);
    case Kind::wait:
      return labelled(op, op.timed ? fmt("m%u.lock(); for (2 rounds) while (c%u != %d) v%u.wait_for_ns(m%u, 1); "
                                         "m%u.unlock()  [r: c%u, time-outs]",
                                         op.mutex, op.cell, op.value, op.object, op.mutex, op.mutex, op.cell)
                                   : fmt("m%u.lock(); while (c%u != %d) v%u.wait(m%u); m%u.unlock()  [r: c%u]", op.mutex,
                                         op.cell, op.value, op.object, op.mutex, op.mutex, op.cell));
    case Kind::signal: {
      const char* n = op.all ? "notify_all" : "notify_one";
      return op.outside ? fmt("m%u.lock(); c%u.store(%d); m%u.unlock(); v%u.%s()", op.mutex, op.cell, op.value,
                              op.mutex, op.object, n)
                        : fmt("m%u.lock(); c%u.store(%d); v%u.%s(); m%u.unlock()", op.mutex, op.cell, op.value,
                              op.object, n, op.mutex);
    }
    case Kind::notify: return fmt("v%u.%s()", op.object, op.all ? "notify_all" : "notify_one");
    case Kind::hint: return hint_name(op.hint);
    case Kind::await:
      return labelled(op, fmt("while (a%u.load(%s) != %d)", op.object, name(op.order), op.value)) +
             "  [r: the last iteration's reads, the exit]";
    case Kind::publish:
      return labelled(op, fmt("b = create<SyncBlock>(); b->c.store(%d); old = p%u.exchange(b, %s); destroy(old)  "
                              "[r: which block b is]",
                              op.value, op.object, name(op.order)));
    case Kind::take:
      return labelled(op, fmt("b = p%u.exchange(nullptr, %s); if (b) { b->a.load(relaxed); destroy(b) }  "
                              "[r: block, its a]",
                              op.object, name(op.order)));
    case Kind::peek:
      return labelled(op, fmt("b = p%u.load(%s); if (b) %s  [r: block]", op.object, name(op.order),
                              use_text(op).c_str()));
    case Kind::local_block:
      return labelled(op, fmt("b = create<%s>(); destroy(b)  [r: which block]",
                              op.block == BlockKind::sync ? "SyncBlock" : "PlainBlock"));
    case Kind::check: return fmt("check(!(a%u == %d && a%u == %d))", op.object, op.value, op.mutex, op.expected);
    case Kind::observe: return fmt("observe (a%u, a%u)  [the run's union of states]", op.object, op.mutex);
  }
  return "?";
}

std::vector<unsigned> kept_numbers(const Program& p, const std::vector<bool>& keep) {
  const std::vector<Position> at = positions(p);
  std::vector<unsigned> out;
  for (unsigned i = 0; i < at.size(); ++i) {
    bool kept = i < keep.size() && keep[i];
    // Its parents (earlier positions of the same part whose path is a prefix of its) must be kept too.
    for (unsigned j = 0; kept && j < i; ++j)
      if (at[j].part == at[i].part && at[j].path.size() < at[i].path.size() &&
          std::equal(at[j].path.begin(), at[j].path.end(), at[i].path.begin()) && !keep[j])
        kept = false;
    if (kept) out.push_back(i);
  }
  return out;
}

std::string print(const Program& p, const std::vector<unsigned>& numbers) {
  std::string out = fmt("program %llu of seed %llu: %zu thread%s\n", static_cast<unsigned long long>(p.index),
                        static_cast<unsigned long long>(p.seed), p.threads.size(), p.threads.size() == 1 ? "" : "s");
  auto initials = [&](const char* what, const char* prefix, const std::vector<Initial>& v) {
    if (v.empty()) return;
    out += fmt("  %s:", what);
    for (std::size_t i = 0; i < v.size(); ++i)
      out += fmt(" %s%zu = %s", prefix, i, v[i].has_value ? std::to_string(v[i].value).c_str() : "(no value)");
    out += "\n";
  };
  initials("atomics", "a", p.atomics);
  initials("cells", "c", p.cells);
  if (p.mutexes) out += fmt("  mutexes: %u\n", p.mutexes);
  if (p.condvars) out += fmt("  condition variables: %u\n", p.condvars);
  if (uses_sync_blocks(p))
    out += p.block_stores_after ? "  SyncBlock { atomic<int> a (its 0 stored after create()); cell<int> c{0}; mutex m; condvar v; }\n"
                                : "  SyncBlock { atomic<int> a{0}; cell<int> c{0}; mutex m; condvar v; }\n";
  if (!p.slot_filled.empty()) {
    out += "  slots:";
    for (std::size_t i = 0; i < p.slot_filled.size(); ++i)
      out += fmt(" p%zu = %s", i, p.slot_filled[i] ? "a block the constructor created" : "null");
    out += "\n";
  }
  unsigned number = 0;  // flat numbers (#N, what --keep names) follow positions()
  auto part = [&](const std::string& what, const std::vector<Op>& ops) {
    if (ops.empty()) return;
    out += what + ":\n";
    print_ops(ops, 0, number, numbers, out);
  };
  part("before()", p.before);
  for (std::size_t t = 0; t < p.threads.size(); ++t) part(fmt("thread %zu", t), p.threads[t]);
  part("invariant() (at every scheduling point)", p.invariant);
  part("after() (then: reads every atomic, cell and slot, frees what is left)", p.after);
  return out;
}

}  // namespace lfcheck::dpor_fuzz
