// Refcounted shutdown properties: the spec's state machine (specs/shutdown_spec.hpp
// is the one reference model): acquire / release by three holders, dead(),
// request_teardown and finish_shutdown against the sequential count/teardown model
// with limit 2 (so overflow is reached), check_invariants() after every call; plus
// direct checks of the contract that are not a model (the Guard, the owner parked
// on another thread). RapidCheck shrinks a failure to a minimal call sequence and
// prints how to reproduce it (RC_PARAMS).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

#include "property_tests/spec_state_machine.hpp"
#include "specs/shutdown_spec.hpp"
#include "structures/shutdown/native_resource.hpp"
#include "structures/shutdown/refcounted_shutdown.hpp"

LFCHECK_SPEC_PROPS(lfcheck::specs::ShutdownSpec, shutdown)

// The same spec at limit 1: any two holders reach the overflow refusal (at the
// scenarios' limit 2 it takes all three, late in a sequence); limit 2 is still
// needed for two references out at teardown.
TEST(shutdown, state_machine_matches_spec_at_limit_1) {
  EXPECT_TRUE(lfcheck::props::check_spec_state_machine<lfcheck::specs::ShutdownSpecOf<1>>());
}

namespace lfcheck {
namespace {

using Resource = NativeResource<StdSync>;

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
