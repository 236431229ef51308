// The searches keep their paths on the heap: a history of 10,000 ops needs no more of the
// call stack than one of 10. Each search runs on a thread whose stack is 256 KiB, a
// history whose only order is 10,000 ops deep (each op returns before the next is
// invoked), so a search that took one C++ frame per linearized op (about 200 bytes in a
// release build, more under ASan) would overflow it and crash the test binary. Issue 47:
// the permutation search recursed once per op; its 10,000-op benchmark rows overflowed
// the 8 MiB main stack under ASan+UBSan ("AddressSanitizer: stack-overflow").
#include <gtest/gtest.h>
#include <pthread.h>

#include <cstddef>
#include <functional>
#include <stdexcept>

#include "lin/checker.hpp"
#include "lin/permutation_search.hpp"
#include "lin/tests/example_specs.hpp"
#include "lin/tests/test_support.hpp"

namespace {

using namespace lfcheck::lin;
using namespace lfcheck::lin::examples;

constexpr std::size_t kSmallStack = 256 * 1024;

// Runs f on a new thread with a kSmallStack-byte stack and waits for it.
void on_small_stack(std::function<void()> f) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, kSmallStack), 0);
  pthread_t thread;
  const auto body = [](void* arg) -> void* {
    (*static_cast<std::function<void()>*>(arg))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, body, &f), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

// push(0), pop() -> 0, push(2), pop() -> 2, ...: `ops` ops, each one returning before the
// next is invoked, so every search must go `ops` deep to linearize it.
History<StackSpec> one_after_another(std::size_t ops) {
  History<StackSpec> h;
  h.order = Order::real_time;
  for (std::size_t i = 0; i < ops; ++i) {
    Operation<StackSpec> op;
    const int v = static_cast<int>(i - i % 2);
    op.call = i % 2 == 0 ? put(v) : take();
    op.result = i % 2 == 0 ? kVoid : some(v);
    op.invoke = 2 * i;
    op.response = 2 * i + 1;
    h.ops.push_back(op);
  }
  return h;
}

TEST(DeepHistory, PermutationSearchNeedsNoStackPerOp) {
  const History<StackSpec> h = one_after_another(10000);
  Report r;
  on_small_stack([&] { r = permutation_search(h, Budget{1'000'000, 60}); });
  EXPECT_EQ(r.verdict, Verdict::linearizable) << r.words();
  EXPECT_EQ(r.best.size(), h.ops.size());
}

TEST(DeepHistory, CheckerNeedsNoStackPerOp) {
  const History<StackSpec> h = one_after_another(10000);
  Report r;
  on_small_stack([&] { r = check(h); });
  EXPECT_EQ(r.verdict, Verdict::linearizable) << r.words();
  EXPECT_EQ(witness_problem(h, r.best), "");
}

}  // namespace
