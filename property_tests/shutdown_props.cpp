// Refcounted shutdown properties: a RapidCheck state machine drives the word
// through acquire / use / release / request_teardown / finish_shutdown against a
// sequential model (count, teardown, limit), with a small max_count per run so
// the overflow refusal is reached; plus a few direct checks of the contract.
// RapidCheck shrinks a failure to a minimal command sequence and prints how to
// reproduce it (RC_PARAMS).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

#include "property_tests/fault_selection.hpp"
#include "structures/shutdown/native_resource.hpp"
#include "structures/shutdown/refcounted_shutdown.hpp"

namespace lfcheck {
namespace {

using Resource = NativeResource<StdSync>;

// The sequential specification.
struct WordModel {
  std::uint64_t max_count = 1;
  std::uint64_t count = 0;
  bool teardown = false;
  std::uint64_t held_at_teardown = 0;
  bool unparked = false;   // the last release after teardown happened
  bool destroyed = false;

  std::uint64_t word() const { return (teardown ? std::uint64_t{1} << 63 : 0) | count; }
};

template <ShutdownFault F>
struct Sut {
  using Shut = RefcountedShutdown<Resource, StdSync, F>;
  explicit Sut(std::uint64_t max_count) : shut(std::make_unique<Shut>(make_resource(report), max_count)) {}
  // Give back whatever the sequence (or a failed assertion) left held, so the
  // object's destructor finishes the shutdown without blocking.
  ~Sut() {
    for (std::uint64_t held = shut->word_quiescent() & Shut::kCountMask; held > 0 && held < 64; --held)
      shut->release();
    // A faulty variant may have lost the unpark: then the destructor would park
    // forever. Leak the object instead (the property has failed already).
    if (!shut->resource_destroyed() && shut->held_at_teardown() != 0 && !shut->owner_unparked())
      (void)shut.release();
  }
  static Resource* make_resource(Resource::CloseReport& report) {
    Resource* r = StdSync::create<Resource>();
    r->set_close_report(&report);
    return r;
  }
  Resource::CloseReport report;
  std::unique_ptr<Shut> shut;
};

template <ShutdownFault F>
using Command = rc::state::Command<WordModel, Sut<F>>;

// After every command: the word is the model's word and the invariants hold.
template <ShutdownFault F>
void check_word(const WordModel& after, const Sut<F>& s) {
  RC_ASSERT(s.shut->word_quiescent() == after.word());
  RC_ASSERT(s.shut->check_invariants() == nullptr);
  RC_ASSERT(s.shut->resource_destroyed() == after.destroyed);
  RC_ASSERT(s.shut->owner_unparked() == after.unparked);  // unparked exactly when drained
}

template <ShutdownFault F>
struct TryAcquire : Command<F> {
  void checkPreconditions(const WordModel& m) const override { RC_PRE(!m.destroyed); }
  static Acquire expected(const WordModel& m) {
    if (m.teardown) return Acquire::dead;
    if (m.count >= m.max_count) return Acquire::overflow;
    return Acquire::acquired;
  }
  void apply(WordModel& m) const override {
    if (expected(m) == Acquire::acquired) ++m.count;
  }
  void run(const WordModel& m, Sut<F>& s) const override {
    const Acquire want = expected(m);
    const Acquire got = s.shut->try_acquire();
    RC_ASSERT(static_cast<int>(got) == static_cast<int>(want));
    if (got == Acquire::acquired) RC_ASSERT(s.shut->resource().use());
    check_word(this->nextState(m), s);
  }
  void show(std::ostream& os) const override { os << "try_acquire()"; }
};

template <ShutdownFault F>
struct Release : Command<F> {
  void checkPreconditions(const WordModel& m) const override { RC_PRE(m.count > 0); }
  void apply(WordModel& m) const override {
    --m.count;
    if (m.teardown && m.count == 0) m.unparked = true;
  }
  void run(const WordModel& m, Sut<F>& s) const override {
    const bool last_after_teardown = m.teardown && m.count == 1;
    RC_ASSERT(s.shut->release() == last_after_teardown);  // true: it unparked the owner
    check_word(this->nextState(m), s);
  }
  void show(std::ostream& os) const override { os << "release()"; }
};

// The owner's shutdown, first half: set teardown, learn how many references are out.
template <ShutdownFault F>
struct RequestTeardown : Command<F> {
  void checkPreconditions(const WordModel& m) const override { RC_PRE(!m.teardown); }
  void apply(WordModel& m) const override {
    m.teardown = true;
    m.held_at_teardown = m.count;
  }
  void run(const WordModel& m, Sut<F>& s) const override {
    RC_ASSERT(s.shut->request_teardown() == m.count);
    check_word(this->nextState(m), s);
  }
  void show(std::ostream& os) const override { os << "request_teardown()"; }
};

// Second half, once nothing is held (so it cannot block): destroys exactly once.
template <ShutdownFault F>
struct FinishShutdown : Command<F> {
  void checkPreconditions(const WordModel& m) const override {
    RC_PRE(m.teardown && m.count == 0 && !m.destroyed);
  }
  void apply(WordModel& m) const override { m.destroyed = true; }
  void run(const WordModel& m, Sut<F>& s) const override {
    // Every reference is back: if any was held at teardown, the last release must
    // have unparked the owner — otherwise it would sleep forever (lost wake-up).
    RC_ASSERT(s.shut->held_at_teardown() == m.held_at_teardown);
    RC_ASSERT(m.held_at_teardown == 0 || s.shut->owner_unparked());
    s.shut->finish_shutdown();
    RC_ASSERT(s.report.closes == 1u);
    RC_ASSERT(s.report.os_ok);
    RC_ASSERT(s.report.os_total == s.report.uses);  // every use reached the eventfd
    check_word(this->nextState(m), s);
  }
  void show(std::ostream& os) const override { os << "finish_shutdown()"; }
};

TEST(shutdown, word_matches_sequential_model) {
  with_selected_fault<ShutdownFault>([](auto fault) {
    constexpr ShutdownFault F = decltype(fault)::value;
    const bool ok = rc::check("the count/teardown word agrees with a sequential model", [] {
      WordModel model;
      model.max_count = *rc::gen::inRange<std::uint64_t>(1, 5);  // overflow reachable
      Sut<F> sut(model.max_count);
      rc::state::check(model, sut,
                       rc::state::gen::execOneOfWithArgs<TryAcquire<F>, TryAcquire<F>, Release<F>,
                                                         Release<F>, RequestTeardown<F>,
                                                         FinishShutdown<F>>());
    });
    EXPECT_TRUE(ok);
  });
}

// Guard: releases exactly once on scope exit, moves without double release, and a
// refused guard holds nothing.
TEST(shutdown, guard_releases_once) {
  using Shut = RefcountedShutdown<Resource>;
  static_assert(alignof(Shut) == 64, "the word must start a cache line");
  static_assert(sizeof(Shut) >= 128, "the word must have its line to itself");
  Shut shut(2);
  {
    Shut::Guard a = shut.guard();
    ASSERT_TRUE(a);
    ASSERT_TRUE(a->use());
    Shut::Guard b = std::move(a);
    EXPECT_FALSE(a);
    EXPECT_TRUE(b);
    EXPECT_EQ(shut.word_quiescent(), 1u);
    Shut::Guard c(shut);
    Shut::Guard d(shut);  // over the limit of 2
    EXPECT_TRUE(c);
    EXPECT_FALSE(d);
    EXPECT_EQ(d.status(), Acquire::overflow);
    EXPECT_EQ(shut.word_quiescent(), 2u);
  }
  EXPECT_EQ(shut.word_quiescent(), 0u);
  shut.shutdown();
  Shut::Guard late(shut);
  EXPECT_FALSE(late);
  EXPECT_EQ(late.status(), Acquire::dead);
  EXPECT_TRUE(shut.resource_destroyed());
}

// The owner parked in shutdown() is woken by the last release on another thread,
// and only by it; the resource is destroyed after that release's use.
TEST(shutdown, owner_waits_for_last_holder) {
  using Shut = RefcountedShutdown<Resource>;
  Resource::CloseReport report;
  Resource* r = StdSync::create<Resource>();
  r->set_close_report(&report);
  auto shut = std::make_unique<Shut>(r, Shut::kMaxCount);
  ASSERT_EQ(shut->try_acquire(), Acquire::acquired);
  std::atomic<bool> teardown_seen{false};
  std::thread holder([&] {
    while (!shut->dead()) StdSync::yield();
    teardown_seen.store(true, std::memory_order_relaxed);
    EXPECT_TRUE(shut->resource().use());
    EXPECT_TRUE(shut->release());  // the last reference after teardown: it unparks
  });
  shut->shutdown();
  EXPECT_TRUE(teardown_seen.load(std::memory_order_relaxed));
  holder.join();
  EXPECT_EQ(report.closes, 1u);
  EXPECT_EQ(report.uses, 1u);
  EXPECT_EQ(report.os_total, 1u);
  shut.reset();  // the destructor must not destroy the resource again
  EXPECT_EQ(report.closes, 1u);
}

}  // namespace
}  // namespace lfcheck
