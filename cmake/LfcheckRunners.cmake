# lfcheck's runners as libraries, compiled once per lfcheck build (issue 28): a
# structure's binary compiles only its own registration files and links one of
# these (cmake/Lfcheck.cmake, _lfcheck_runner).
#
#   lfcheck::model_runtime     run_scenario(): Relacy's context and every scheduler,
#                              instantiated once per thread count (g++, model flags)
#   lfcheck::model_runner      lfcheck-model's main() over the registered scenarios
#   lfcheck::lin_model_runner  lfcheck-lin-model's main() over the registered specs
#   lfcheck::stress_runner     lfcheck-stress's main(), compiled in this configuration
#                              (the sanitizer sub-builds compile their own)
#   lfcheck::props_runner      lfcheck-props's main() (GoogleTest with fault selection)
#
# Installed (find_package), the stress runner comes in three builds, one per
# sanitizer: lfcheck::stress_runner_none (g++) and, from the sanitizer sub-builds,
# lfcheck::stress_runner_thread and lfcheck::stress_runner_address (clang).
include_guard(GLOBAL)

set(_lfcheck_runner_targets "")
function(_lfcheck_runner_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "EXPORT_NAME" "SOURCES;LINK")
  add_library(${name} STATIC ${arg_SOURCES})
  target_link_libraries(${name} PUBLIC ${arg_LINK})
  target_compile_options(${name} PRIVATE ${LFCHECK_COMPILE_OPTIONS})
  if(PROJECT_IS_TOP_LEVEL)
    target_compile_options(${name} PRIVATE -Wall -Wextra)
  endif()
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${arg_EXPORT_NAME})
  add_library(lfcheck::${arg_EXPORT_NAME} ALIAS ${name})
  set(_lfcheck_runner_targets ${_lfcheck_runner_targets} ${name} PARENT_SCOPE)
endfunction()

if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND LFCHECK_LAYERS MATCHES "^(all|models)$")
  _lfcheck_runner_library(lfcheck_model_runtime EXPORT_NAME model_runtime
                          SOURCES ${PROJECT_SOURCE_DIR}/harness/model/run.cpp LINK lfcheck_model)
  # The Relacy engine, where a model run spends its time: -O2. At -O1 a run executes
  # 7-16% more instructions (callgrind, lfcheck-model-treiber --jobs 1 --iterations 3000
  # --scheduler pct: 644M at -O2, 750M at -O1; lfcheck-lin-model-deliqueue --scenarios 2
  # --seed 3: 254M / 271M); the registration files at -O1 cost nothing (647M, 246M with
  # only this unit at -O2), and compile in a quarter less time.
  target_compile_options(lfcheck_model_runtime PRIVATE -O2)
  _lfcheck_runner_library(lfcheck_model_runner EXPORT_NAME model_runner
                          SOURCES ${PROJECT_SOURCE_DIR}/harness/model/main.cpp LINK lfcheck_model_runtime)
  _lfcheck_runner_library(lfcheck_lin_model_runner EXPORT_NAME lin_model_runner
                          SOURCES ${PROJECT_SOURCE_DIR}/harness/lin/model_main.cpp
                                  ${PROJECT_SOURCE_DIR}/harness/lin/verify_main.cpp LINK lfcheck_model_runtime)
endif()
if(LFCHECK_LAYERS MATCHES "^(all|stress|bench)$")
  _lfcheck_runner_library(lfcheck_stress_runner EXPORT_NAME stress_runner
                          SOURCES ${PROJECT_SOURCE_DIR}/harness/stress/main.cpp LINK lfcheck_stress)
endif()
if(LFCHECK_LAYERS STREQUAL "all")
  _lfcheck_runner_library(lfcheck_props_runner EXPORT_NAME props_runner
                          SOURCES ${PROJECT_SOURCE_DIR}/harness/props/main.cpp LINK lfcheck_props)
endif()

if(LFCHECK_INSTALL AND LFCHECK_SANITIZER STREQUAL "none")
  include(GNUInstallDirs)
  foreach(_t IN LISTS _lfcheck_runner_targets)
    if(_t STREQUAL "lfcheck_stress_runner")
      # The installed name says which sanitizer it was built for (none here).
      set_target_properties(${_t} PROPERTIES EXPORT_NAME stress_runner_none)
    endif()
  endforeach()
  install(TARGETS ${_lfcheck_runner_targets} EXPORT lfcheckTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  # The sanitizer sub-builds' runners (lfcheck's own build, or the package alone:
  # CMakeLists.txt); a build without them installs none, and a project then has no
  # TSan/ASan layers (cmake/Lfcheck.cmake says why at its configure).
  if(LFCHECK_SANITIZER_SUBBUILDS)
    foreach(_san thread address)
      install(FILES ${CMAKE_BINARY_DIR}/sanitizer-${_san}/liblfcheck_stress_runner.a
              DESTINATION ${CMAKE_INSTALL_LIBDIR} RENAME liblfcheck_stress_runner_${_san}.a)
    endforeach()
  endif()
endif()
