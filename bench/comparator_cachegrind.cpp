// lfcheck-cachegrind-heap VARIANT PATTERN N: one push-all/pop-all pass of the
// branchless_vs_branchy_heap workload, for valgrind's cachegrind branch
// simulation (these VMs have no hardware branch-miss counters). The heap work
// sits in one non-inlined function per comparator (everything it calls is
// flattened into it), so the report reads its conditional branches (Bc) and
// mispredictions (Bcm) from the cachegrind output by function name, without the
// key set-up. Deterministic: the same counts on every run and every load.
//   valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes
//            --cachegrind-out-file=F lfcheck-cachegrind-heap branchless random 4096
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bench/comparator_heap.hpp"

using namespace lfcheck::bench;

extern "C" [[gnu::noinline, gnu::flatten]] std::uint64_t lfcheck_heap_ops_branchless(const std::vector<Key>& keys) {
  KeyHeap<Branchless> h(KeyOnly<Branchless>(), static_cast<std::uint32_t>(keys.size()));
  return push_all_pop_all(h, keys);
}
extern "C" [[gnu::noinline, gnu::flatten]] std::uint64_t lfcheck_heap_ops_branchy(const std::vector<Key>& keys) {
  KeyHeap<Branchy> h(KeyOnly<Branchy>(), static_cast<std::uint32_t>(keys.size()));
  return push_all_pop_all(h, keys);
}

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s branchless|branchy random|ties|sorted N\n", argv[0]);
    return 2;
  }
  Pattern p = Pattern::random;
  if (!std::strcmp(argv[2], "ties")) p = Pattern::ties;
  else if (!std::strcmp(argv[2], "sorted")) p = Pattern::sorted;
  else if (std::strcmp(argv[2], "random")) return 2;
  const auto keys = make_keys(p, std::strtoul(argv[3], nullptr, 10));
  const bool branchless = !std::strcmp(argv[1], "branchless");
  if (!branchless && std::strcmp(argv[1], "branchy")) return 2;
  const std::uint64_t sum = branchless ? lfcheck_heap_ops_branchless(keys) : lfcheck_heap_ops_branchy(keys);
  std::printf("%llu\n", static_cast<unsigned long long>(sum));
  return 0;
}
