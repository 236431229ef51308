# lfcheck as a package: the namespaced targets a project links, and (when lfcheck
# is the top-level project) the install rules that make find_package(lfcheck CONFIG)
# work. The dependencies are Debian's packages: relacy-dev (headers only: Relacy is
# not a CMake package), librapidcheck-dev (rapidcheckConfig.cmake with the
# un-namespaced targets rapidcheck and rapidcheck_gtest), googletest (GTest::gtest).
#
#   lfcheck::sync    the Sync policies and the clock (sync/), the fault catalogue, C++20
#   lfcheck::lin     the linearizability checker (lin/, header-only)
#   lfcheck::model   what a Relacy model TU needs: Relacy, RapidCheck, g++'s model flags
#   lfcheck::stress  what a real-thread stress TU needs (LFCHECK_REAL_THREADS, threads)
#   lfcheck::props   what a property TU needs: RapidCheck and GoogleTest
#
# Headers are included as "sync/std_sync.hpp" or <lfcheck/sync/std_sync.hpp>.
find_package(Threads REQUIRED)
find_package(rapidcheck REQUIRED)
find_package(GTest REQUIRED)
find_path(LFCHECK_RELACY_INCLUDE_DIR relacy/relacy.hpp)
if(NOT LFCHECK_RELACY_INCLUDE_DIR)
  message(FATAL_ERROR "Relacy's headers (relacy/relacy.hpp) are missing: install Debian's relacy-dev")
endif()

# <lfcheck/...> in the build tree: a link named lfcheck to the source root.
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/include)
if(NOT EXISTS ${PROJECT_BINARY_DIR}/include/lfcheck)
  file(CREATE_LINK ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/include/lfcheck SYMBOLIC)
endif()

add_library(lfcheck_sync INTERFACE)
target_include_directories(lfcheck_sync INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}> $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
  $<INSTALL_INTERFACE:include/lfcheck> $<INSTALL_INTERFACE:include>)
target_compile_features(lfcheck_sync INTERFACE cxx_std_20)
target_link_libraries(lfcheck_sync INTERFACE Threads::Threads)

add_library(lfcheck_lin INTERFACE)
target_link_libraries(lfcheck_lin INTERFACE lfcheck_sync)

# Models need g++ and two flags (cmake/LfcheckFlags.cmake says why). Their optimisation
# level is the build's (LFCHECK_COMPILE_OPTIONS: -O1); only the Relacy engine the runners
# share, lfcheck::model_runtime, is compiled at -O2 (cmake/LfcheckRunners.cmake).
add_library(lfcheck_model INTERFACE)
target_link_libraries(lfcheck_model INTERFACE lfcheck_lin rapidcheck)
target_compile_options(lfcheck_model INTERFACE
  $<$<CXX_COMPILER_ID:GNU>:-fno-sized-deallocation -fno-lifetime-dse>)

add_library(lfcheck_stress INTERFACE)
target_link_libraries(lfcheck_stress INTERFACE lfcheck_lin rapidcheck Threads::Threads)
target_compile_definitions(lfcheck_stress INTERFACE LFCHECK_REAL_THREADS=1)

add_library(lfcheck_props INTERFACE)
target_link_libraries(lfcheck_props INTERFACE lfcheck_lin rapidcheck GTest::gtest)

foreach(_t sync lin model stress props)
  set_target_properties(lfcheck_${_t} PROPERTIES EXPORT_NAME ${_t})
  add_library(lfcheck::${_t} ALIAS lfcheck_${_t})
endforeach()

option(LFCHECK_INSTALL "install rules for lfcheck (find_package(lfcheck CONFIG))" ${PROJECT_IS_TOP_LEVEL})
if(NOT LFCHECK_INSTALL)
  return()
endif()

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/lfcheck)
install(TARGETS lfcheck_sync lfcheck_lin lfcheck_model lfcheck_stress lfcheck_props EXPORT lfcheckTargets)
install(EXPORT lfcheckTargets NAMESPACE lfcheck:: DESTINATION ${_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/lfcheckConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lfcheckConfig.cmake INSTALL_DESTINATION ${_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/lfcheckConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lfcheckConfig.cmake ${PROJECT_BINARY_DIR}/lfcheckConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/Lfcheck.cmake ${PROJECT_SOURCE_DIR}/cmake/LfcheckFlags.cmake
        DESTINATION ${_cmake_dir})

# Headers under include/lfcheck/ (so both "sync/..." and <lfcheck/sync/...> resolve);
# the runners' sources, their scripts and the test scripts under share/lfcheck/, in
# the source tree's layout; the driver as bin/lfcheck.
set(_inc ${CMAKE_INSTALL_INCLUDEDIR}/lfcheck)
set(_share ${CMAKE_INSTALL_DATADIR}/lfcheck)
install(DIRECTORY sync lin DESTINATION ${_inc} FILES_MATCHING PATTERN "*.hpp" PATTERN "tests" EXCLUDE)
install(DIRECTORY harness/ DESTINATION ${_inc}/harness FILES_MATCHING PATTERN "*.hpp")
install(FILES specs/spec.hpp specs/relaxed.hpp DESTINATION ${_inc}/specs)
install(FILES property_tests/spec_state_machine.hpp property_tests/fault_selection.hpp
        DESTINATION ${_inc}/property_tests)
# The runners are libraries (cmake/LfcheckRunners.cmake); a project compiles only
# this unit of theirs (the sanitizer options of its stress binaries).
install(FILES harness/stress/sanitizer_defaults.cpp DESTINATION ${_share}/harness/stress)
install(FILES tools/mutants.py tools/merge_reports.py tools/lin_report.py tools/verdicts.py tools/one_line_argparse.py tools/nightly.py
        DESTINATION ${_share}/tools)
install(FILES cmake/LfcheckFaultsTests.cmake DESTINATION ${_share}/cmake)
install(DIRECTORY sanitizer_configs DESTINATION ${_share})
install(PROGRAMS tests/checked.sh tests/check_faults_caught.sh DESTINATION ${_share}/tests)
install(FILES tests/verdict_rules.py DESTINATION ${_share}/tests)
install(PROGRAMS lfcheck DESTINATION ${CMAKE_INSTALL_BINDIR})
