# Sanitizer sub-builds: the stress layer again, compiled by clang under TSan and
# under ASan+UBSan, as part of this build, so one `cmake --build` and one `ctest`
# cover every layer. The binaries land in
#   <build>/sanitizer-thread/stress/lfcheck-stress
#   <build>/sanitizer-address/stress/lfcheck-stress
include(ExternalProject)
find_program(LFCHECK_CLANGXX NAMES clang++ clang++-14 REQUIRED)
foreach(_san thread address)
  ExternalProject_Add(lfcheck_sanitizer_${_san}
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${CMAKE_BINARY_DIR}/sanitizer-${_san}
    CMAKE_ARGS
      -DCMAKE_CXX_COMPILER=${LFCHECK_CLANGXX}
      -DCMAKE_BUILD_TYPE=RelWithDebInfo
      -DLFCHECK_SANITIZER=${_san}
      -DLFCHECK_LAYERS=stress
      -DLFCHECK_SANITIZER_SUBBUILDS=OFF
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    USES_TERMINAL_BUILD ON)
  set(LFCHECK_STRESS_${_san} ${CMAKE_BINARY_DIR}/sanitizer-${_san}/stress/lfcheck-stress
      CACHE INTERNAL "")
endforeach()
