// lfcheck-props' main: GoogleTest's, plus the checks that keep a pass honest.
// A pass must mean properties ran, so these are usage errors (exit 2), not passes:
//  - no test matches the filter (--gtest_filter=typo ran 0 tests and passed);
//  - RC_PARAMS leaves RapidCheck no case to try (max_success=0: "OK, passed 0 tests");
//  - LFCHECK_FAULT names a fault that no test that ran instantiates (a typo, or a
//    fault of a structure the filter left out: the correct code would pass instead).
// Otherwise: exit 0 if every test passed, 1 if one failed.
// A failed Sync::check inside a structure (a seeded fault handing back a message
// nobody posted, say) throws here instead of aborting, so RapidCheck reports it as
// the property's failure, shrinks it and prints its reproduce line.
#include <cstdio>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "property_tests/fault_selection.hpp"
#include "sync/std_sync.hpp"

namespace {
[[noreturn]] void throw_check_failure(const char* what) {
  throw std::logic_error(std::string("lfcheck check failed: ") + what);
}
}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  // Release: pairs with check()'s acquire load of the handler.
  lfcheck::StdSync::check_failure_handler().store(&throw_check_failure, std::memory_order_release);
  const int max_success = rc::detail::configuration().testParams.maxSuccess;
  if (max_success <= 0) {
    std::fprintf(stderr, "lfcheck-props: RC_PARAMS sets max_success=%d: RapidCheck would try no case, "
                         "so a pass would check nothing\n", max_success);
    return 2;
  }
  const bool listing = GTEST_FLAG_GET(list_tests);
  const int status = RUN_ALL_TESTS();
  if (listing) return status;
  if (testing::UnitTest::GetInstance()->test_to_run_count() == 0) {
    std::fprintf(stderr, "lfcheck-props: no test matches the filter (see --gtest_list_tests)\n");
    return 2;
  }
  const std::string fault(lfcheck::selected_fault());
  if (!fault.empty() && fault != "none" && !lfcheck::selected_fault_instantiated()) {
    std::fprintf(stderr, "lfcheck-props: no test that ran has fault '%s' (unknown, or of a structure the "
                         "filter left out): the correct code ran instead\n", fault.c_str());
    return 2;
  }
  return status == 0 ? 0 : 1;
}
