// Self-test of the model build: a scenario with a real use after free must be
// reported by Relacy. GCC at -O1 and above deletes the store by which Relacy
// marks a freed object unless -fno-lifetime-dse is given; then this probe would
// pass silently and every model's "no use of freed memory" would be a lie.
// Exit 0: Relacy reported the use after free (the model build is sound).
// Exit 1: it did not.
#include "sync/relacy_sync.hpp"

namespace {

using Sync = lfcheck::RelacySync;

struct Node {
  Sync::cell<int> payload{7};
};

// Thread 0 unpublishes the node and frees it at once (no grace period);
// thread 1 may still be reading it.
struct UseAfterFree : rl::test_suite<UseAfterFree, 2> {
  Sync::atomic<Node*> shared{nullptr};
  void before() { shared.store(Sync::create<Node>(), std::memory_order_relaxed); }
  void thread(unsigned index) {
    if (index == 0) {
      Node* n = shared.exchange(nullptr, std::memory_order_acq_rel);
      Sync::destroy(n);
    } else {
      Node* n = shared.load(std::memory_order_acquire);
      if (n) (void)n->payload.load();
    }
  }
};

}  // namespace

int main() {
  rl::test_params params;
  params.iteration_count = 10000;
  rl::ostringstream out;
  params.output_stream = &out;
  params.progress_stream = &out;
  rl::simulate<UseAfterFree>(params);
  const bool caught = params.test_result == rl::test_result_access_to_freed_memory;
  std::printf("use-after-free probe: Relacy says %s after %llu iterations -> %s\n",
              rl::test_result_str(params.test_result),
              static_cast<unsigned long long>(params.stop_iteration + 1),
              caught ? "caught (model flags are sound)" : "NOT CAUGHT: check -fno-lifetime-dse");
  return caught ? 0 : 1;
}
