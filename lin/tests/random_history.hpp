// Random histories that are linearizable by construction, and a mutation that usually
// makes them not: the randomized self-check and the benchmark draw their inputs here.
//
// real_time: `threads` simulated threads; at each tick one random thread takes its next
// step: invoke a new op, reach its linearization point (the model runs it: that is its
// result), or respond. Each op's interval contains its linearization point, so the
// linearization-point order is a witness. Stamps advance by 1 per tick, but with
// probability 1/8 (Simulation) a tick keeps the previous stamp (equal stamps: overlap,
// the tie rule).
// program_order: a prefix, per-thread sequences and a suffix; the results come from one
// random interleaving of the threads (ops are listed thread by thread, not in that order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "lin/history.hpp"
#include "lin/tests/example_specs.hpp"

namespace lfcheck::lin::examples {

// How the simulated threads run (real_time).
struct Simulation {
  unsigned same_stamp_one_in = 8;  // a tick keeps the previous stamp with probability 1/N
  bool slow_thread = false;        // one random thread (or none) takes its steps 4 times less
                                   // often once a call is open, so its calls overlap many
  std::uint32_t first_serial = 0;  // the serial of the first call
};

// gen(rng, serial) -> Call; serial numbers the ops in invocation order.
template <class S, class CallGen>
History<S> random_real_time_history(Rng& rng, std::uint32_t threads, std::size_t ops, CallGen&& gen,
                                    const Simulation& sim = {}) {
  History<S> h;
  h.order = Order::real_time;
  h.ops.reserve(ops);
  enum class Step { idle, invoked, linearized };
  std::vector<Step> step(threads, Step::idle);
  std::vector<std::size_t> current(threads, 0);
  typename S::State state = S::initial();
  const std::uint32_t slow = sim.slow_thread ? static_cast<std::uint32_t>(rng() % (threads + 1)) : threads;
  std::uint64_t now = 0;
  std::size_t started = 0, running = 0;
  while (started < ops || running > 0) {
    const auto t = static_cast<std::uint32_t>(rng() % threads);
    if (t == slow && step[t] != Step::idle && rng() % 4 != 0) continue;
    if (step[t] == Step::idle && started == ops) continue;
    if (rng() % sim.same_stamp_one_in != 0) ++now;
    switch (step[t]) {
      case Step::idle: {
        Operation<S> op;
        op.call = gen(rng, sim.first_serial + static_cast<std::uint32_t>(started));
        op.thread = t;
        op.invoke = now;
        current[t] = h.ops.size();
        h.ops.push_back(op);
        ++started;
        ++running;
        step[t] = Step::invoked;
        break;
      }
      case Step::invoked:
        h.ops[current[t]].result = S::apply(state, h.ops[current[t]].call);
        step[t] = Step::linearized;
        break;
      case Step::linearized:
        h.ops[current[t]].response = now;
        --running;
        step[t] = Step::idle;
        break;
    }
  }
  return h;
}

template <class S>
History<S> random_real_time_history(Rng& rng, std::uint32_t threads, std::size_t ops) {
  return random_real_time_history<S>(rng, threads, ops, [](Rng& r, std::uint32_t) { return S::random_call(r); });
}

template <class S, class CallGen>
History<S> random_scenario(Rng& rng, std::size_t prefix, const std::vector<std::size_t>& per_thread,
                           std::size_t suffix, CallGen&& gen) {
  History<S> h;
  h.order = Order::program_order;
  std::uint32_t serial = 0;
  const auto add = [&](std::uint32_t thread, Phase phase) {
    Operation<S> op;
    op.call = gen(rng, serial++);
    op.thread = thread;
    op.phase = phase;
    h.ops.push_back(op);
  };
  for (std::size_t i = 0; i < prefix; ++i) add(0, Phase::prefix);
  std::vector<std::size_t> first(per_thread.size());
  for (std::size_t t = 0; t < per_thread.size(); ++t) {
    first[t] = h.ops.size();
    for (std::size_t i = 0; i < per_thread[t]; ++i) add(static_cast<std::uint32_t>(t), Phase::parallel);
  }
  for (std::size_t i = 0; i < suffix; ++i) add(0, Phase::suffix);

  typename S::State state = S::initial();
  const auto run = [&](std::size_t i) { h.ops[i].result = S::apply(state, h.ops[i].call); };
  for (std::size_t i = 0; i < prefix; ++i) run(i);
  std::vector<std::size_t> done(per_thread.size(), 0);
  std::size_t left = 0;
  for (std::size_t k : per_thread) left += k;
  for (; left > 0; --left) {
    std::size_t t;
    do t = rng() % per_thread.size();
    while (done[t] == per_thread[t]);
    run(first[t] + done[t]++);
  }
  for (std::size_t i = h.ops.size() - suffix; i < h.ops.size(); ++i) run(i);
  return h;
}

template <class S>
History<S> random_scenario(Rng& rng, std::size_t prefix, const std::vector<std::size_t>& per_thread, std::size_t suffix) {
  return random_scenario<S>(rng, prefix, per_thread, suffix, [](Rng& r, std::uint32_t) { return S::random_call(r); });
}

// Calls for a container spec (Call = ContainerCall): unique values (the op's serial),
// and a mix that keeps about `size` values in the structure: put and take equally likely
// while the calls so far put fewer than `size` more values in than they took out, takes
// three times as likely after that. A checker's cost grows exponentially with how many
// values sit in the structure in an order the history leaves open, so this is the knob
// of how hard a long container history is.
inline auto bounded_container_calls(int size) {
  return [size, held = 0](Rng& rng, std::uint32_t serial) mutable {
    const bool put = held < size ? rng() % 2 == 0 : rng() % 4 == 0;
    held = put ? held + 1 : held > 0 ? held - 1 : 0;
    return ContainerCall{put, static_cast<int>(serial)};
  };
}

// Replaces one random op's result by a different plausible one (S::random_result);
// returns the op's index, or h.ops.size() if no different result was drawn.
template <class S>
std::size_t mutate_one_result(History<S>& h, Rng& rng) {
  if (h.ops.empty()) return 0;
  const std::size_t i = rng() % h.ops.size();
  for (int attempt = 0; attempt < 16; ++attempt) {
    const typename S::Result r = S::random_result(h.ops[i].call, rng);
    if (!(r == h.ops[i].result)) {
      h.ops[i].result = r;
      return i;
    }
  }
  return h.ops.size();
}

}  // namespace lfcheck::lin::examples
