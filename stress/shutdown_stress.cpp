// Refcounted shutdown stress: N threads hammer a few shutdown objects, each
// owning a NativeResource (heap buffer + eventfd), while owners — any thread,
// at random — shut them down mid-round. Every round (kRoundOps operations per
// thread) starts with fresh objects, so a run creates and tears down thousands.
//
// Each operation is one of:
//   user:    try_acquire on a random object (Guard); if acquired, use the resource
//            and either release at once or keep the reference for later ops (at
//            most kMaxHeld per thread; all are released by the round's last op);
//   release: give back one kept reference;
//   owner:   claim a not-yet-claimed object, release everything this thread holds
//            (an owner never parks while holding a reference, so no thread can wait
//            for itself), shutdown(), then publish `done`.
//
// Checked at once, by the thread that sees it:
//   * a use under a reference finds the resource intact (buffer pattern, eventfd);
//   * a try_acquire that started after shutdown() returned is refused (dead);
//   * never more holders than max_count (object 0 has max_count 2, so overflow
//     refusals happen all the time);
//   * shutdown() returns with the resource destroyed exactly once.
// Checked at every quiescent point (all threads stopped, between rounds):
//   * every attempt has exactly one outcome: acquired + dead + overflow == attempts,
//     and every acquired reference was released;
//   * per object: the resource was destroyed exactly once (objects not shut down
//     during the round are shut down here, which must not park), its use count
//     equals the references acquired on it, the eventfd counted every use, and
//     check_invariants() holds;
//   * under ASan, LSan at exit: nothing leaked.
// A watchdog ends the run (exit 1, with the replay line) if an owner stays parked
// in shutdown() for the run's hang window (--hang-seconds; by default a quarter of
// --duration, 5 to 60 s), at most 10 s: a lost wake-up shows as a failure, not a hang.
//
// Noise: RefcountedShutdown marks its race windows with shutdown_detail::noise();
// this workload's policy (NoisySync) yields or spins there now and then.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "harness/stress/sanitizer.hpp"
#include "harness/stress_registry.hpp"
#include "structures/shutdown/native_resource.hpp"
#include "structures/shutdown/refcounted_shutdown.hpp"

namespace lfcheck {
namespace {

constexpr unsigned kObjects = 4;
constexpr std::uint64_t kRoundOps = 128;
constexpr std::size_t kMaxHeld = 2;
constexpr std::uint64_t kSmallLimit = 2;  // max_count of object 0

// StdSync, plus noise at the structure's marked points.
struct NoisySync : StdSync {
  static std::uint64_t& noise_state() {
    thread_local std::uint64_t state = 0;
    return state;
  }
  static void noise() {
    std::uint64_t& x = noise_state();
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    switch (x & 15) {
      case 0: std::this_thread::yield(); break;
      case 1:
      case 2:
        for (int i = 0; i < 32; ++i) spin_hint();
        break;
      default: break;
    }
  }
};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <ShutdownFault F>
const char* fault_name() {
  for (const auto& f : FaultTraits<ShutdownFault>::catalogue)
    if (f.id == F) return f.name;
  return "";
}

// The same replay line the stress runner prints (the watchdog ends the process
// itself, so it cannot hand the failure back to the runner).
template <ShutdownFault F>
std::string replay_line(const StressOptions& o) {
  std::string line = "./lfcheck stress shutdown --threads " + std::to_string(o.threads);
  if (o.ops) {
    line += " --ops " + std::to_string(o.ops);
  } else {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", o.nominal_duration > 0 ? o.nominal_duration : o.duration);
    line += std::string(" --duration ") + buf;
  }
  line += " --seed " + std::to_string(o.seed);
  if (F != ShutdownFault::none) line += std::string(" --fault ") + fault_name<F>();
  if (std::string(kSanitizerName) != "thread") line += std::string(" --sanitizer ") + kSanitizerName;
  return line;
}

template <ShutdownFault F>
struct ShutdownStress {
  static constexpr const char* name = "owners_vs_users";
  static constexpr const char* description =
      "4 objects per round, fresh each round; users acquire/use/hold/release, random "
      "owners shut down mid-round; object 0 has max_count 2";

  using Res = NativeResource<NoisySync>;
  using Shut = RefcountedShutdown<Res, NoisySync, F>;

  struct alignas(64) Object {
    Shut* shut = nullptr;
    std::uint64_t max_count = Shut::kMaxCount;
    typename Res::CloseReport report;        // written by the destroying thread
    std::atomic<bool> claimed{false};        // an owner has taken this object
    std::atomic<bool> done{false};           // its owner's shutdown() returned
    std::atomic<std::int64_t> holders{0};    // references held now (relaxed: a check only)
    std::atomic<std::int64_t> parked_since{0};  // ns; 0 = no owner in shutdown()

    void renew() {
      delete shut;  // after shutdown: must not destroy the resource again
      report = {};
      Res* r = NoisySync::create<Res>();
      r->set_close_report(&report);
      shut = new Shut(r, max_count);
      claimed.store(false, std::memory_order_relaxed);  // quiescent: the barrier orders these
      done.store(false, std::memory_order_relaxed);
      holders.store(0, std::memory_order_relaxed);
    }
  };

  struct Held {
    unsigned object;
    typename Shut::Guard guard;
  };

  struct alignas(64) PerThread {
    std::uint64_t attempts = 0, acquired = 0, dead = 0, overflow = 0, released = 0;
    std::uint64_t shutdowns = 0, parks = 0;
    std::uint64_t acquired_on[kObjects] = {};  // this round
    bool seeded = false;
    std::vector<Held> held;
    std::string error;
  };

  static void run(StressRun& run) {
    const unsigned n = run.options().threads;
    std::unique_ptr<Object[]> objects(new Object[kObjects]);
    objects[0].max_count = kSmallLimit;
    for (unsigned i = 0; i < kObjects; ++i) objects[i].renew();
    std::vector<PerThread> threads(n);
    std::uint64_t shutdowns_total = 0, parks_total = 0, rounds = 0;

    auto release_held = [&](PerThread& me, std::size_t i) {
      Object& o = objects[me.held[i].object];
      // Relaxed: a check counter; decremented before the reference is given back,
      // so it never counts a holder that has left.
      o.holders.fetch_sub(1, std::memory_order_relaxed);
      me.held[i].guard.reset();
      ++me.released;
      me.held[i] = std::move(me.held.back());
      me.held.pop_back();
    };

    auto user = [&](PerThread& me, std::mt19937_64& rng) {
      const unsigned k = static_cast<unsigned>(rng() % kObjects);
      Object& o = objects[k];
      // Acquire: pairs with the owner's release store after shutdown() returned.
      const bool after_shutdown = o.done.load(std::memory_order_acquire);
      ++me.attempts;
      typename Shut::Guard g(*o.shut);
      switch (g.status()) {
        case Acquire::acquired: {
          ++me.acquired;
          ++me.acquired_on[k];
          if (after_shutdown) me.error = "a user got a reference after shutdown() returned";
          const std::int64_t h = o.holders.fetch_add(1, std::memory_order_relaxed) + 1;
          if (h > static_cast<std::int64_t>(o.max_count)) me.error = "more holders than max_count";
          if (!g->use()) me.error = "resource not intact while a reference is held";
          if (me.held.size() < kMaxHeld && rng() % 3 == 0) {
            me.held.push_back(Held{k, std::move(g)});
          } else {
            o.holders.fetch_sub(1, std::memory_order_relaxed);
            g.reset();
            ++me.released;
          }
          break;
        }
        case Acquire::dead: ++me.dead; break;
        case Acquire::overflow: ++me.overflow; break;
      }
    };

    auto owner = [&](PerThread& me, std::mt19937_64& rng) {
      Object& o = objects[rng() % kObjects];
      // Acq_rel: one owner per object; nothing else is published through it.
      if (o.claimed.exchange(true, std::memory_order_acq_rel)) return;
      while (!me.held.empty()) release_held(me, me.held.size() - 1);
      o.parked_since.store(now_ns(), std::memory_order_relaxed);  // the watchdog's clock
      if (o.shut->request_teardown() != 0) ++me.parks;  // references out: it will park
      o.shut->finish_shutdown();
      o.parked_since.store(0, std::memory_order_relaxed);
      if (o.report.closes != 1) me.error = "shutdown() returned without destroying the resource once";
      ++me.shutdowns;
      // Release: pairs with the users' acquire load of `done`.
      o.done.store(true, std::memory_order_release);
    };

    auto op = [&](unsigned t, std::mt19937_64& rng) {
      PerThread& me = threads[t];
      if (!me.seeded) {
        NoisySync::noise_state() = rng() | 1;
        me.seeded = true;
      }
      const bool last_of_round = run.last_of_round(t);  // the round may end early (its deadline)
      const unsigned dice = static_cast<unsigned>(rng() % 1000);
      if (dice < 250) {
        if (!me.held.empty()) release_held(me, rng() % me.held.size());
        else user(me, rng);
      } else if (dice < 253) {
        owner(me, rng);  // ~1.5 mid-round shutdowns per round with 4 threads
      } else {
        user(me, rng);
      }
      if (last_of_round) {
        while (!me.held.empty()) release_held(me, me.held.size() - 1);
      }
    };

    auto at_quiescence = [&] {
      ++rounds;
      std::uint64_t acquired_on[kObjects] = {};
      for (auto& th : threads) {
        if (!th.error.empty()) return run.fail(th.error);
        if (!th.held.empty()) return run.fail("a thread still holds a reference at the round's end");
        if (th.acquired + th.dead + th.overflow != th.attempts)
          return run.fail("a try_acquire has no outcome");
        if (th.acquired != th.released) return run.fail("an acquired reference was not released");
        for (unsigned k = 0; k < kObjects; ++k) acquired_on[k] += th.acquired_on[k];
        shutdowns_total += th.shutdowns;
        parks_total += th.parks;
        th.shutdowns = th.parks = 0;
        std::fill(std::begin(th.acquired_on), std::end(th.acquired_on), 0);
      }
      for (unsigned k = 0; k < kObjects; ++k) {
        Object& o = objects[k];
        if (const char* e = o.shut->check_invariants()) return run.fail(std::string("check_invariants: ") + e);
        if ((o.shut->word_quiescent() & Shut::kCountMask) != 0)
          return run.fail("references counted at a quiescent point");
        if (!o.done.load(std::memory_order_relaxed)) {
          o.shut->shutdown();  // nothing is held: must not park
          ++shutdowns_total;
        }
        if (o.report.closes != 1) return run.fail("resource destroyed other than exactly once");
        if (o.report.uses != acquired_on[k]) return run.fail("uses of a resource differ from references taken on it");
        if (!o.report.os_ok) return run.fail("an eventfd call on the resource failed");
        if (o.report.os_total != o.report.uses) return run.fail("the eventfd did not count every use");
        o.renew();
      }
    };

    // A correct park lasts at most one round (ms); the runner's hang window bounds it.
    const double hang_seconds = run.options().hang_seconds > 0 ? std::min(run.options().hang_seconds, 10.0) : 10.0;
    // Watchdog: an owner that has not returned from shutdown() after hang_seconds
    // is a lost wake-up (or a reference never given back). It reads only the
    // objects' atomics; it first writes its words raw (no allocation, no stdio: they
    // reach stderr even if the process is stuck inside a sanitizer's own locks), then
    // has the runner end the process with the verdict written (StressRun::hang: JSON,
    // JUnit, replay; before, a raw exit_group left no JSON and the kill matrix
    // counted the catch as an error).
    char hang_secs[16];
    std::snprintf(hang_secs, sizeof hang_secs, "%g", hang_seconds);
    const std::string hang_what =
        std::string("an owner has not returned from shutdown() after ") + hang_secs + " s: a lost wake-up";
    const std::string hang_report =
        std::string("\nlfcheck stress: shutdown/") + name + " FAILED (HANG: " + hang_what +
        ")\nreplay: " + replay_line<F>(run.options()) + "\n";
    std::atomic<bool> finished{false};  // relaxed: only ends the watchdog's polling
    std::thread watchdog([&] {
      while (!finished.load(std::memory_order_relaxed)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        for (unsigned k = 0; k < kObjects; ++k) {
          const std::int64_t since = objects[k].parked_since.load(std::memory_order_relaxed);
          if (since != 0 && (now_ns() - since) * 1e-9 > hang_seconds) {
            (void)!::write(2, hang_report.data(), hang_report.size());
            StressRun::hang(hang_what.c_str());
          }
        }
      }
    });

    run.run_rounds(op, at_quiescence, kRoundOps);
    finished.store(true, std::memory_order_relaxed);
    watchdog.join();
    for (unsigned k = 0; k < kObjects; ++k) {
      // After a passing last round every object is fresh; after a failure it may be
      // anything. An object still counting references is left alone (the run has
      // failed already; shutting it down would park forever).
      Shut* s = objects[k].shut;
      if ((s->word_quiescent() & Shut::kCountMask) != 0) continue;
      if (!s->resource_destroyed() && !(s->word_quiescent() & Shut::kTeardown)) s->shutdown();
      if (s->resource_destroyed()) delete s;
    }
    std::uint64_t attempts = 0, acquired = 0, dead = 0, overflow = 0;
    for (auto& th : threads) {
      attempts += th.attempts;
      acquired += th.acquired;
      dead += th.dead;
      overflow += th.overflow;
    }
    std::printf("  %llu rounds, %llu shutdowns (%llu parked), %llu try_acquire: %llu acquired, "
                "%llu dead, %llu overflow\n",
                static_cast<unsigned long long>(rounds), static_cast<unsigned long long>(shutdowns_total),
                static_cast<unsigned long long>(parks_total), static_cast<unsigned long long>(attempts),
                static_cast<unsigned long long>(acquired), static_cast<unsigned long long>(dead),
                static_cast<unsigned long long>(overflow));
  }
};

LFCHECK_STRESS(ShutdownFault, ShutdownStress);

}  // namespace
}  // namespace lfcheck
