// Compile test (and a small smoke run): one translation unit that includes both
// DeliQueue and TimerSet — with their baselines — and uses them together, as a
// user composing them would: a timer whose callback posts a message, both on one
// shared VirtualClock (the queue's, which the timers borrow). Before the clocks had one header (sync/clock.hpp) this
// file did not compile (SteadyClock and VirtualClock were defined twice).
// Exit 0: the message posted by the timer was delivered at the timer's time.
#include <cstdio>

#include "structures/deliqueue/deliqueue.hpp"
#include "structures/deliqueue/locked_message_queue.hpp"
#include "structures/timers/global_lock_timers.hpp"
#include "structures/timers/timers.hpp"

namespace {

using lfcheck::StdSync;
using Clock = lfcheck::VirtualClock<StdSync>;

}  // namespace

int main() {
  lfcheck::DeliQueue<StdSync, lfcheck::DeliFault::none, Clock> queue;
  lfcheck::TimerSet<StdSync, Clock> timers(queue.clock(), 1);  // one clock for both
  lfcheck::LockedMessageQueue<StdSync, Clock> legacy;
  lfcheck::GlobalLockTimers<StdSync, Clock> global(queue.clock(), 1);
  (void)legacy;
  (void)global;

  lfcheck::Message<> msg;
  msg.what.store(7);
  struct Ctx {
    decltype(queue)* q;
    lfcheck::Message<>* m;
    bool posted;
  } ctx{&queue, &msg, false};
  auto on_fire = [](void* arg, std::uint64_t, std::int64_t when, std::int64_t) {
    auto* c = static_cast<Ctx*>(arg);
    c->posted = c->q->enqueue(c->m, when);  // the message is due when the timer was
  };
  decltype(timers)::Timer timer(on_fire, &ctx);
  if (timers.add(0, timer, 50) != lfcheck::TimerError::ok) return std::puts("add failed"), 1;

  queue.advance_clock(50);  // moves the shared clock (and would wake a parked Looper)
  timers.advance(50);       // already there: wakes the timer workers
  timers.run_due(0);
  lfcheck::Message<>* got = queue.poll();
  const bool ok = ctx.posted && got == &msg && got->what.load() == 7 && got->when.load() == 50;
  std::printf("deliqueue + timers in one program: %s\n", ok ? "the timer's message was delivered" : "FAILED");
  return ok ? 0 : 1;
}
