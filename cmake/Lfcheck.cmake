# lfcheck_add_structure(NAME ...): check one lock-free structure with lfcheck's
# layers, from the structure's own project. lfcheck's own five structures are
# registered through this same function (cmake/LfcheckStructures.cmake).
#
#   lfcheck_add_structure(NAME
#     [SPEC <header> <type>]     the sequential spec (specs/spec.hpp): generated model
#                                scenarios with the linearizability check, the lin.*
#                                stress workloads, and props (unless PROPS are given)
#     [LIN <source>...]          instead of SPEC's generated file: registration files
#                                written by hand (LFCHECK_LIN(Spec) plus checks of their own)
#     [SCENARIOS <source>...]    hand-written Relacy scenarios (LFCHECK_MODEL)
#     [WORKLOADS <source>...]    hand-written stress workloads (LFCHECK_STRESS)
#     [PROPS <source>...]        hand-written properties (GoogleTest + RapidCheck)
#     [NO_MODEL <why>]           the code is not written against the Sync policy:
#                                no model layer; stress, lin and props still run
#     [HEADERS <file|dir>...]    the structure's code: a seeded fault the model layer
#                                must catch has to show a line of these (default: the
#                                calling directory)
#     [LINK_LIBRARIES <lib>...]) what the structure's files need (include dirs, libraries)
#
# It builds one binary per layer for this structure, so an edit of one structure
# rebuilds only its own:
#   <build>/models/lfcheck-model-NAME           SCENARIOS under Relacy (g++)
#   <build>/models/lfcheck-lin-model-NAME       the spec's generated scenarios under Relacy
#   <build>/stress/lfcheck-stress-NAME          WORKLOADS, litmus scenarios, lin.* workloads
#   <build>/sanitizer-{thread,address}/stress/lfcheck-stress-NAME   the same under TSan / ASan+UBSan
#                                               (ASan: lin.* only if NAME has no WORKLOADS)
#   <build>/sanitizer-address/stress/lfcheck-lin-stress-NAME   the lin.* workloads under ASan, built
#                                               when asked (lfcheck lin NAME --sanitizer address)
#   <build>/property_tests/lfcheck-props-NAME   PROPS, or the spec's state machine
# plus, over every structure of the project, lfcheck-model, lfcheck-lin-model,
# lfcheck-stress and lfcheck-props (under ASan also lfcheck-lin-stress, when asked;
# linked from the same objects: `./lfcheck model`
# with no name, the kill matrix). It registers the structure's ctest tests with the
# labels lfcheck's own get (model.NAME, props.NAME, stress.tsan.NAME, lin.model.NAME,
# ...; the one `nightly` test, ./lfcheck nightly), and the faults tests (model.NAME.faults_caught, ...) for each layer
# that some seeded fault of the catalogue names: none for a structure without faults.
# <build>/lfcheck-manifest.txt lists the structures and their layers for ./lfcheck.
#
# The sanitizer stress binaries come from sub-builds that configure the calling
# project again with clang, stress layer only (LFCHECK_SANITIZER_SUBBUILDS, default
# ON when clang++ is found). They get CMAKE_PREFIX_PATH, lfcheck_DIR, the compiler
# launcher and LFCHECK_SUBBUILD_CMAKE_ARGS (a list of -D options of your own).
include_guard(GLOBAL)

# Where lfcheck's runner sources and scripts are: its source tree (lfcheck's own
# build, add_subdirectory, FetchContent) or an installed prefix (find_package).
if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/../harness/model/run.cpp)
  get_filename_component(_lfcheck_data ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
  set(_lfcheck_driver ${_lfcheck_data}/lfcheck)
  set(_lfcheck_installed OFF)
else()
  set(_lfcheck_installed ON)
  get_filename_component(_lfcheck_data ${CMAKE_CURRENT_LIST_DIR}/../../../share/lfcheck ABSOLUTE)
  get_filename_component(_lfcheck_driver ${CMAKE_CURRENT_LIST_DIR}/../../../bin/lfcheck ABSOLUTE)
endif()
set_property(GLOBAL PROPERTY LFCHECK_DATA_DIR ${_lfcheck_data})
set_property(GLOBAL PROPERTY LFCHECK_DRIVER ${_lfcheck_driver})
include(${CMAKE_CURRENT_LIST_DIR}/LfcheckFlags.cmake)

set(LFCHECK_LAYERS "all" CACHE STRING "all | models | stress | bench (sanitizer sub-builds build only the stress layer)")
set(LFCHECK_SANITIZER "none" CACHE STRING "none | thread | address (address also turns on UBSan)")
set_property(CACHE LFCHECK_SANITIZER PROPERTY STRINGS none thread address)
# An installed lfcheck has the stress runner built under each sanitizer where clang++ was
# found when it was built (lfcheckConfig.cmake: lfcheck::stress_runner_thread, _address).
set(_lfcheck_sanitizer_runners ON)
if(_lfcheck_installed AND NOT (TARGET lfcheck::stress_runner_thread AND TARGET lfcheck::stress_runner_address))
  set(_lfcheck_sanitizer_runners OFF)
endif()
set_property(GLOBAL PROPERTY LFCHECK_SANITIZER_RUNNERS ${_lfcheck_sanitizer_runners})
if(NOT DEFINED LFCHECK_SANITIZER_SUBBUILDS)
  find_program(_lfcheck_clang NAMES clang++ clang++-14)
  if(_lfcheck_clang AND LFCHECK_SANITIZER STREQUAL "none" AND _lfcheck_sanitizer_runners)
    set(_lfcheck_subbuilds_default ON)
  else()
    set(_lfcheck_subbuilds_default OFF)
    if(_lfcheck_clang AND NOT _lfcheck_sanitizer_runners)
      message(STATUS "lfcheck: no TSan/ASan stress layers: the installed lfcheck (${_lfcheck_data}) has no "
                     "stress runner built under the sanitizers (it was built without clang++): "
                     "build and install it again where clang++ is found")
    endif()
  endif()
  option(LFCHECK_SANITIZER_SUBBUILDS "Also build the stress layer under TSan and ASan+UBSan (clang sub-builds)"
         ${_lfcheck_subbuilds_default})
endif()
# lfcheck's fast flags: the structures' registration objects and lfcheck's runners are
# compiled with these after the project's own flags (so -O1 -g1 where the project says
# -O2 -g): a third less compile time and memory, and no slower where the time goes (the
# Relacy engine, lfcheck::model_runtime, keeps -O2). Empty: the project's flags alone.
set(LFCHECK_COMPILE_OPTIONS "-O1;-g1" CACHE STRING
    "compile options of lfcheck's targets in this build, after the project's flags (empty: the project's alone)")
set(LFCHECK_TEST_SCALE 100 CACHE STRING "the ctest runs' budgets in percent of the defaults (stress --ops 400000, lin --scenarios 40); tests/run_examples.sh builds examples/ with 10")
set(LFCHECK_SUBBUILD_CMAKE_ARGS "" CACHE STRING "extra -D options for the sanitizer sub-builds (a list)")

# _lfcheck_layer_on(LAYER OUT): whether this build makes LAYER (model, stress, props).
function(_lfcheck_layer_on layer out)
  set(on OFF)
  if(layer STREQUAL "model" AND LFCHECK_LAYERS MATCHES "^(all|models)$" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(on ON)
  elseif(layer STREQUAL "stress" AND LFCHECK_LAYERS MATCHES "^(all|stress|bench)$")
    set(on ON)
  elseif(layer STREQUAL "props" AND LFCHECK_LAYERS STREQUAL "all")
    set(on ON)
  endif()
  set(${out} ${on} PARENT_SCOPE)
endfunction()

# The runners: libraries compiled once, by lfcheck (cmake/LfcheckRunners.cmake),
# installed as lfcheck::model_runner, lfcheck::lin_model_runner, ... A project's
# binary links one of them with its structures' registration objects and a unit
# of its own (lfcheck_project_dirs: where its sources and build tree are, for
# failure tables, and lfcheck's driver, for replay lines (harness/report/replay_file.hpp);
# the stress layer's sanitizer options). Returns the list to link.
function(_lfcheck_runner layer out)
  if(NOT TARGET lfcheck_project_dirs)
    get_property(driver GLOBAL PROPERTY LFCHECK_DRIVER)
    file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/lfcheck-project-dirs.cpp CONTENT
"// Generated by cmake/Lfcheck.cmake: where this project lives, for lfcheck's runners.
#include \"harness/report/project_dirs.hpp\"
static const lfcheck::ProjectDirsRegistrar lfcheck_project_dirs_registrar{\"${CMAKE_SOURCE_DIR}\", \"${CMAKE_BINARY_DIR}\", \"${driver}\"};
")
    add_library(lfcheck_project_dirs OBJECT ${CMAKE_BINARY_DIR}/lfcheck-project-dirs.cpp)
    target_link_libraries(lfcheck_project_dirs PRIVATE lfcheck::sync)
    target_compile_options(lfcheck_project_dirs PRIVATE ${LFCHECK_COMPILE_OPTIONS})
  endif()
  set(links lfcheck_project_dirs)
  if(layer STREQUAL "model")
    list(APPEND links lfcheck::model_runner)
  elseif(layer STREQUAL "lin_model")
    list(APPEND links lfcheck::lin_model_runner)
  elseif(layer STREQUAL "stress" OR layer STREQUAL "lin_stress")
    if(NOT TARGET lfcheck_sanitizer_defaults)
      get_property(data GLOBAL PROPERTY LFCHECK_DATA_DIR)
      add_library(lfcheck_sanitizer_defaults OBJECT ${data}/harness/stress/sanitizer_defaults.cpp)
      target_link_libraries(lfcheck_sanitizer_defaults PRIVATE lfcheck::stress)
      target_compile_options(lfcheck_sanitizer_defaults PRIVATE ${LFCHECK_COMPILE_OPTIONS})
      lfcheck_sanitizer_defaults(lfcheck_sanitizer_defaults ${data}/sanitizer_configs)
    endif()
    # lfcheck's own build compiles the runner in this configuration; an installed
    # lfcheck has one build per sanitizer (lfcheck::stress_runner_none|thread|address).
    if(TARGET lfcheck::stress_runner)
      list(APPEND links lfcheck_sanitizer_defaults lfcheck::stress_runner)
    elseif(TARGET lfcheck::stress_runner_${LFCHECK_SANITIZER})
      list(APPEND links lfcheck_sanitizer_defaults lfcheck::stress_runner_${LFCHECK_SANITIZER})
    else()
      message(FATAL_ERROR "lfcheck: the installed lfcheck (${data}) has no stress runner built for "
                          "LFCHECK_SANITIZER=${LFCHECK_SANITIZER} (it was built without clang++): build and install "
                          "it again where clang++ is found, or configure with -DLFCHECK_SANITIZER_SUBBUILDS=OFF")
    endif()
  elseif(layer STREQUAL "props")
    list(APPEND links lfcheck::props_runner)
  endif()
  set(${out} ${links} PARENT_SCOPE)
endfunction()

# _lfcheck_binary(TARGET DIR RUNNER OBJECTS): a runner binary from a runner library
# and registration objects, in <build>/DIR.
function(_lfcheck_binary target dir runner objects)
  add_executable(${target})
  target_link_libraries(${target} PRIVATE ${runner} ${objects})
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/${dir})
endfunction()

# _lfcheck_objects(TARGET LAYER NAME SOURCES LIBS): one structure's registration
# files of one runner (model, lin_model, stress, props), filed under NAME
# (LFCHECK_STRUCTURE, harness/registration.hpp).
function(_lfcheck_objects target layer name sources libs)
  add_library(${target} OBJECT ${sources})
  if(layer STREQUAL "lin_model")
    target_link_libraries(${target} PRIVATE lfcheck::model ${libs})
  elseif(layer STREQUAL "lin_stress")
    target_link_libraries(${target} PRIVATE lfcheck::stress ${libs})
  else()
    target_link_libraries(${target} PRIVATE lfcheck::${layer} ${libs})
  endif()
  target_compile_definitions(${target} PRIVATE LFCHECK_STRUCTURE="${name}")
  target_compile_options(${target} PRIVATE ${LFCHECK_COMPILE_OPTIONS})
  set_property(GLOBAL APPEND PROPERTY LFCHECK_OBJECTS_${layer} ${target})
endfunction()

function(lfcheck_add_structure name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NO_MODEL" "SPEC;LIN;SCENARIOS;WORKLOADS;PROPS;HEADERS;LINK_LIBRARIES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "lfcheck_add_structure(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT name MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR "lfcheck_add_structure(${name}): a name is lower-case letters, digits and _ "
                        "(it names binaries, tests and the props' test suite)")
  endif()
  get_property(known GLOBAL PROPERTY LFCHECK_STRUCTURES)
  if(name IN_LIST known)
    message(FATAL_ERROR "lfcheck_add_structure(${name}): registered twice")
  endif()
  set(spec_header "")
  if(arg_SPEC)
    list(LENGTH arg_SPEC n)
    if(NOT n EQUAL 2)
      message(FATAL_ERROR "lfcheck_add_structure(${name}): SPEC takes a header and a type: SPEC queue_spec.hpp QueueSpec")
    endif()
    list(GET arg_SPEC 0 spec_header)
    list(GET arg_SPEC 1 spec_type)
    get_filename_component(spec_header ${spec_header} ABSOLUTE)
  endif()
  if(arg_SPEC AND arg_LIN)
    message(FATAL_ERROR "lfcheck_add_structure(${name}): SPEC or LIN, not both (LIN is SPEC's file written by hand)")
  endif()
  if(DEFINED arg_NO_MODEL AND arg_SCENARIOS)
    message(FATAL_ERROR "lfcheck_add_structure(${name}): SCENARIOS are written against the Sync policy; NO_MODEL has none")
  endif()
  if(NOT arg_SPEC AND NOT arg_LIN AND NOT arg_SCENARIOS AND NOT arg_WORKLOADS)
    message(FATAL_ERROR "lfcheck_add_structure(${name}): nothing to check: give a SPEC (or SCENARIOS, WORKLOADS)")
  endif()

  # The spec's registration and props files, generated (rewritten only when they change).
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/lfcheck-${name})
  set(lin_sources ${arg_LIN})
  set(props_sources ${arg_PROPS})
  if(arg_SPEC)
    set(lin_sources ${gen}/${name}_lin.cpp)
    file(CONFIGURE OUTPUT ${lin_sources} @ONLY CONTENT
"// Generated by lfcheck_add_structure(@name@): the spec's registration for every layer.
#include \"harness/lin_registry.hpp\"
#include \"@spec_header@\"

LFCHECK_LIN(@spec_type@);
")
    if(NOT arg_PROPS)
      set(props_sources ${gen}/${name}_props.cpp)
      file(CONFIGURE OUTPUT ${props_sources} @ONLY CONTENT
"// Generated by lfcheck_add_structure(@name@): props from the spec (its sequential state machine).
#include \"property_tests/spec_state_machine.hpp\"
#include \"@spec_header@\"

LFCHECK_SPEC_PROPS(@spec_type@, @name@)
")
    endif()
  endif()

  _lfcheck_layer_on(model model_on)
  _lfcheck_layer_on(stress stress_on)
  _lfcheck_layer_on(props props_on)
  if(DEFINED arg_NO_MODEL)
    set(model_on OFF)
  endif()
  set(layers "")
  set(libs ${arg_LINK_LIBRARIES})

  if(model_on AND arg_SCENARIOS)
    _lfcheck_objects(lfcheck_${name}_model model ${name} "${arg_SCENARIOS}" "${libs}")
    _lfcheck_runner(model runner)
    _lfcheck_binary(lfcheck-model-${name} models "${runner}" lfcheck_${name}_model)
    list(APPEND layers model)
  endif()
  if(model_on AND lin_sources)
    _lfcheck_objects(lfcheck_${name}_lin_model lin_model ${name} "${lin_sources}" "${libs}")
    _lfcheck_runner(lin_model runner)
    _lfcheck_binary(lfcheck-lin-model-${name} models "${runner}" lfcheck_${name}_lin_model)
    list(APPEND layers lin-model)
  endif()
  # The stress binary: the workloads, the scenarios as litmus tests and the spec's lin.*
  # workloads. Under ASan (LFCHECK_SANITIZER=address: the ASan sub-build) the lin.*
  # workloads of a structure that has hand-written WORKLOADS are a binary of their
  # own, lfcheck-lin-stress-NAME, left out of the default build: no ctest test runs
  # them (stress.asan.NAME runs the others) and they were about half of that build's
  # compile time; `lfcheck lin NAME --sanitizer address` (and a stress command that
  # selects lin.*) builds it when asked. A structure without WORKLOADS keeps them in
  # lfcheck-stress-NAME (where it has no other workload they are its stress layer: a
  # scenario is a litmus workload only if it says real_threads), and that binary's
  # objects make its lfcheck-lin-stress-NAME too.
  set(stress_sources ${arg_WORKLOADS} ${arg_SCENARIOS})
  set(lin_stress_apart OFF)
  if(LFCHECK_SANITIZER STREQUAL "address" AND lin_sources AND arg_WORKLOADS)
    set(lin_stress_apart ON)
  else()
    list(APPEND stress_sources ${lin_sources})
  endif()
  if(stress_on AND stress_sources)
    _lfcheck_objects(lfcheck_${name}_stress stress ${name} "${stress_sources}" "${libs}")
    _lfcheck_runner(stress runner)
    _lfcheck_binary(lfcheck-stress-${name} stress "${runner}" lfcheck_${name}_stress)
    list(APPEND layers stress)
  endif()
  if(stress_on AND lin_sources AND LFCHECK_SANITIZER STREQUAL "address")
    if(lin_stress_apart)
      set(lin_objects lfcheck_${name}_lin_stress)
      _lfcheck_objects(${lin_objects} lin_stress ${name} "${lin_sources}" "${libs}")
      set_target_properties(${lin_objects} PROPERTIES EXCLUDE_FROM_ALL ON)
    else()
      set(lin_objects lfcheck_${name}_stress)
      set_property(GLOBAL APPEND PROPERTY LFCHECK_OBJECTS_lin_stress ${lin_objects})
    endif()
    _lfcheck_runner(lin_stress runner)
    _lfcheck_binary(lfcheck-lin-stress-${name} stress "${runner}" ${lin_objects})
    set_target_properties(lfcheck-lin-stress-${name} PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
  if(props_on AND props_sources)
    _lfcheck_objects(lfcheck_${name}_props props ${name} "${props_sources}" "${libs}")
    _lfcheck_runner(props runner)
    _lfcheck_binary(lfcheck-props-${name} property_tests "${runner}" lfcheck_${name}_props)
    list(APPEND layers props)
  endif()

  set_property(GLOBAL APPEND PROPERTY LFCHECK_STRUCTURES ${name})
  if(lin_sources)
    set_property(GLOBAL PROPERTY LFCHECK_SPEC_${name} TRUE)
    list(APPEND layers spec)
  endif()
  string(REPLACE ";" "," layer_list "${layers}")
  if(DEFINED arg_NO_MODEL)
    set(why "${arg_NO_MODEL}")
  else()
    set(why "-")
  endif()
  set_property(GLOBAL APPEND PROPERTY LFCHECK_MANIFEST "structure\t${name}\t${layer_list}\t${why}")
  _lfcheck_schedule_finalize()

  if(LFCHECK_LAYERS STREQUAL "all" AND (NOT DEFINED BUILD_TESTING OR BUILD_TESTING))
    if(arg_HEADERS)
      set(headers ${arg_HEADERS})
    else()
      set(headers ${CMAKE_CURRENT_SOURCE_DIR})
    endif()
    _lfcheck_add_tests(${name} "${layers}" "${why}" "${headers}")
  endif()
endfunction()

# The ctest tests of one structure: the same names and labels for lfcheck's own
# structures and a user's. Model and stress runs go through checked.sh, which holds
# their JSON/JUnit to verdict_rules.py.
function(_lfcheck_add_tests name layers why headers)
  get_property(data GLOBAL PROPERTY LFCHECK_DATA_DIR)
  get_property(driver GLOBAL PROPERTY LFCHECK_DRIVER)
  set(checked ${data}/tests/checked.sh)
  set(out ${CMAKE_BINARY_DIR}/lfcheck-results)
  file(MAKE_DIRECTORY ${out})
  set(_s ${name})
  # The budgets of the short runs, scaled by LFCHECK_TEST_SCALE (at least 1).
  math(EXPR ops "400000 * ${LFCHECK_TEST_SCALE} / 100")
  math(EXPR lin_scenarios "(40 * ${LFCHECK_TEST_SCALE} + 99) / 100")
  math(EXPR spec_scenarios "(100 * ${LFCHECK_TEST_SCALE} + 99) / 100")
  set(tsan ${CMAKE_BINARY_DIR}/sanitizer-thread/stress/lfcheck-stress-${name})
  set(asan ${CMAKE_BINARY_DIR}/sanitizer-address/stress/lfcheck-stress-${name})
  set(lin_model "")
  if("lin-model" IN_LIST layers)
    set(lin_model $<TARGET_FILE:lfcheck-lin-model-${name}>)
  endif()

  # Models: every scenario, random (100k iterations) + exhaustive bound-2 search
  # (+ full search where the scenario says it finishes); all must pass. A structure
  # with a spec and no hand-written scenarios: the generated ones (100 scenarios).
  set(model_run "")
  if("model" IN_LIST layers)
    set(model_run $<TARGET_FILE:lfcheck-model-${_s}> ${_s})
    set(model_labels "model")
  elseif(lin_model)
    set(model_run ${lin_model} ${_s} --scenarios ${spec_scenarios})
    set(model_labels "model;lin")
  endif()
  if(model_run)
    add_test(NAME model.${_s} COMMAND ${checked} ${out}/model-${_s}.json ${out}/model-${_s}.xml --
                                     ${model_run} --quiet --json ${out}/model-${_s}.json --junit ${out}/model-${_s}.xml)
    set_tests_properties(model.${_s} PROPERTIES LABELS "${model_labels}" TIMEOUT 1500)
  elseif(NOT why STREQUAL "-")
    # Not written against the Sync policy: the model layer cannot run, and says why.
    add_test(NAME model.${_s} COMMAND /bin/sh -c "echo \"$1\"; exit 77" sh
                                     "lfcheck: ${_s} has no model layer (NO_MODEL): ${why}")
    set_tests_properties(model.${_s} PROPERTIES LABELS "model" SKIP_RETURN_CODE 77)
  endif()

  if("props" IN_LIST layers)
    # The timeout is a backstop: tests that can hang carry their own watchdog.
    add_test(NAME props.${_s} COMMAND lfcheck-props-${_s} --gtest_filter=${_s}.*)
    set_tests_properties(props.${_s} PROPERTIES LABELS "props" TIMEOUT 900)
  endif()

  if("stress" IN_LIST layers AND LFCHECK_SANITIZER_SUBBUILDS)
    # Short stress runs (random seed, printed first) under each sanitizer.
    add_test(NAME stress.tsan.${_s} COMMAND ${checked} ${out}/stress-tsan-${_s}.json --
                                            ${tsan} ${_s} --ops ${ops} --quiet --json ${out}/stress-tsan-${_s}.json)
    set_tests_properties(stress.tsan.${_s} PROPERTIES LABELS "stress;tsan" TIMEOUT 900)
    add_test(NAME stress.asan.${_s} COMMAND ${checked} ${out}/stress-asan-${_s}.json --
                                            ${asan} ${_s} --ops ${ops} --quiet --json ${out}/stress-asan-${_s}.json)
    set_tests_properties(stress.asan.${_s} PROPERTIES LABELS "stress;asan" TIMEOUT 900)
  endif()

  # Linearizability against the spec (lfcheck lin): generated scenarios under Relacy
  # (random seed, printed first) and on real threads under TSan.
  if(lin_model)
    add_test(NAME lin.model.${_s} COMMAND ${checked} ${out}/lin-model-${_s}.json ${out}/lin-model-${_s}.xml --
                                         ${lin_model} ${_s} --scenarios ${lin_scenarios} --quiet
                                         --json ${out}/lin-model-${_s}.json --junit ${out}/lin-model-${_s}.xml)
    set_tests_properties(lin.model.${_s} PROPERTIES LABELS "lin;model" TIMEOUT 900)
  endif()
  get_property(has_spec GLOBAL PROPERTY LFCHECK_SPEC_${_s})
  if(has_spec AND "stress" IN_LIST layers AND LFCHECK_SANITIZER_SUBBUILDS)
    add_test(NAME lin.stress.tsan.${_s} COMMAND ${checked} ${out}/lin-tsan-${_s}.json --
                                               ${tsan} ${_s} --workload lin.* --lin-scenarios ${lin_scenarios}
                                               --ops ${ops} --quiet --json ${out}/lin-tsan-${_s}.json)
    set_tests_properties(lin.stress.tsan.${_s} PROPERTIES LABELS "lin;stress;tsan" TIMEOUT 900)
  endif()

  # The faults tests, for the layers some fault of the catalogue names. The
  # catalogue is in C++, so they are discovered when ctest runs (as
  # gtest_discover_tests does), from the structure's `--list-faults`.
  set(lister "")
  if("model" IN_LIST layers)
    set(lister $<TARGET_FILE:lfcheck-model-${_s}>)
  elseif(lin_model)
    set(lister ${lin_model})
  elseif("stress" IN_LIST layers)
    set(lister $<TARGET_FILE:lfcheck-stress-${_s}>)
  endif()
  if(NOT lister)
    return()
  endif()
  set(binaries "")
  if("model" IN_LIST layers)
    list(APPEND binaries "model=$<TARGET_FILE:lfcheck-model-${_s}>")
  endif()
  if("props" IN_LIST layers)
    list(APPEND binaries "props=$<TARGET_FILE:lfcheck-props-${_s}>")
  endif()
  if("stress" IN_LIST layers AND LFCHECK_SANITIZER_SUBBUILDS)
    list(APPEND binaries "stress=${tsan}")
  endif()
  if(lin_model)
    list(APPEND binaries "lin=${lin_model}")
  endif()
  # A model failure of a seeded fault must show a line of the structure's own code
  # (Relacy's raw history: absolute paths, or relative ones under ccache's base_dir).
  set(patterns "")
  foreach(h IN LISTS headers)
    get_filename_component(h ${h} ABSOLUTE)
    if(IS_DIRECTORY ${h})
      file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR} ${h})
      if(rel STREQUAL "" OR rel MATCHES "^[.][.]")
        get_filename_component(rel ${h} NAME)
      endif()
      set(tail "/[^ ]*")
    else()
      get_filename_component(rel ${h} NAME)
      set(tail "")
    endif()
    string(REGEX REPLACE "([.+?()|^$*])" "\\\\\\1" rel "${rel}")
    list(APPEND patterns "${rel}${tail}")
  endforeach()
  list(JOIN patterns "|" code_regex)
  set(code_regex "(${code_regex})\\([0-9]+\\)")
  set(discover ${CMAKE_CURRENT_BINARY_DIR}/lfcheck-${_s}/faults_tests.cmake)
  file(GENERATE OUTPUT ${discover} CONTENT
"# Generated by lfcheck_add_structure(${_s}): registers the faults tests for the
# layers the seeded faults name, read from the catalogue when ctest runs.
set(_structure \"${_s}\")
set(_lister \"${lister}\")
set(_binaries \"${binaries}\")
set(_script \"${data}/tests/check_faults_caught.sh\")
set(_code_regex [==[${code_regex}]==])
include(\"${data}/cmake/LfcheckFaultsTests.cmake\")
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${discover})
endfunction()

# After the calling project's CMakeLists: the aggregate binaries, the sanitizer
# sub-builds and the manifest, once.
function(_lfcheck_schedule_finalize)
  get_property(scheduled GLOBAL PROPERTY LFCHECK_FINALIZE_SCHEDULED)
  if(NOT scheduled)
    set_property(GLOBAL PROPERTY LFCHECK_FINALIZE_SCHEDULED TRUE)
    cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL _lfcheck_finalize)
  endif()
endfunction()

function(_lfcheck_finalize)
  foreach(spec model:lfcheck-model:models lin_model:lfcheck-lin-model:models
               stress:lfcheck-stress:stress props:lfcheck-props:property_tests
               lin_stress:lfcheck-lin-stress:stress)
    string(REPLACE ":" ";" spec ${spec})
    list(GET spec 0 layer)
    list(GET spec 1 target)
    list(GET spec 2 dir)
    get_property(objects GLOBAL PROPERTY LFCHECK_OBJECTS_${layer})
    if(objects)
      _lfcheck_runner(${layer} runner)
      _lfcheck_binary(${target} ${dir} "${runner}" "${objects}")
      if(layer STREQUAL "lin_stress")
        # Every structure's lin.* workloads under ASan, built when asked (above).
        set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL ON)
      endif()
    endif()
  endforeach()

  get_property(objects GLOBAL PROPERTY LFCHECK_OBJECTS_stress)
  if(LFCHECK_SANITIZER_SUBBUILDS AND objects)
    _lfcheck_sanitizer_subbuilds()
  endif()

  # The nightly (ctest --preset nightly, or ctest -L nightly): ./lfcheck nightly, the
  # one definition of a night, for $LFCHECK_NIGHTLY_BUDGET (default 8h) of checks.
  get_property(driver GLOBAL PROPERTY LFCHECK_DRIVER)
  set(out ${CMAKE_BINARY_DIR}/lfcheck-results)
  add_test(NAME nightly COMMAND /bin/sh -c "exec \"$0\" nightly --budget \"\${LFCHECK_NIGHTLY_BUDGET:-8h}\" --json \"$1\" --junit \"$2\""
                                ${driver} ${out}/nightly.json ${out}/nightly.xml)
  set_tests_properties(nightly PROPERTIES LABELS "nightly" TIMEOUT 100000
                       ENVIRONMENT "LFCHECK_BUILD_DIR=${CMAKE_BINARY_DIR};LFCHECK_SKIP_SETUP=1")

  get_property(lines GLOBAL PROPERTY LFCHECK_MANIFEST)
  string(REPLACE ";" "\n" lines "${lines}")
  file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/lfcheck-manifest.txt @ONLY CONTENT
"lfcheck-manifest 1
source\t${CMAKE_SOURCE_DIR}
project\t${CMAKE_PROJECT_NAME}
sanitizer_subbuilds\t${LFCHECK_SANITIZER_SUBBUILDS}
${lines}
")
endfunction()

# The stress layer again, compiled by clang under TSan and under ASan+UBSan, as part
# of this build (one `cmake --build` and one `ctest` cover every layer): the calling
# project configured again in <build>/sanitizer-{thread,address}, stress layer only.
function(_lfcheck_sanitizer_subbuilds)
  include(ExternalProject)
  get_property(runners GLOBAL PROPERTY LFCHECK_SANITIZER_RUNNERS)
  if(NOT runners)
    get_property(data GLOBAL PROPERTY LFCHECK_DATA_DIR)
    message(FATAL_ERROR "the sanitizer sub-builds need the stress runner built under TSan and ASan, which the "
                        "installed lfcheck (${data}) has not (it was built without clang++): build and install "
                        "it again where clang++ is found, or configure with -DLFCHECK_SANITIZER_SUBBUILDS=OFF")
  endif()
  find_program(LFCHECK_CLANGXX NAMES clang++ clang++-14)
  if(NOT LFCHECK_CLANGXX)
    message(FATAL_ERROR "the sanitizer sub-builds need clang++ (Debian: clang, libclang-rt-14-dev); "
                        "or configure with -DLFCHECK_SANITIZER_SUBBUILDS=OFF")
  endif()
  set(forward "")
  foreach(var CMAKE_PREFIX_PATH lfcheck_DIR CMAKE_CXX_COMPILER_LAUNCHER rapidcheck_DIR GTest_DIR LFCHECK_BUILD_SELF)
    if(DEFINED ${var} AND NOT "${${var}}" STREQUAL "")
      string(REPLACE ";" "|" value "${${var}}")
      list(APPEND forward "-D${var}=${value}")
    endif()
  endforeach()
  if(DEFINED lfcheck_SOURCE_DIR AND NOT PROJECT_NAME STREQUAL "lfcheck")
    list(APPEND forward "-DFETCHCONTENT_SOURCE_DIR_LFCHECK=${lfcheck_SOURCE_DIR}")
  endif()
  foreach(san thread address)
    lfcheck_sanitizer_flags(${san} flags)
    list(JOIN flags " " flags)
    ExternalProject_Add(lfcheck_sanitizer_${san}
      SOURCE_DIR ${CMAKE_SOURCE_DIR}
      BINARY_DIR ${CMAKE_BINARY_DIR}/sanitizer-${san}
      LIST_SEPARATOR |
      CMAKE_ARGS
        -DCMAKE_CXX_COMPILER=${LFCHECK_CLANGXX}
        "-DCMAKE_CXX_FLAGS=${flags}"
        "-DCMAKE_EXE_LINKER_FLAGS=${flags}"
        -DCMAKE_BUILD_TYPE=RelWithDebInfo
        # -O1 -g1: what TSan and ASan are meant to run at, with line tables for their
        # reports' frames (and inlined frames); a third less compile time and memory
        # than CMake's -O2 -g (issue 28), the sanitizer's own cost dominating the run.
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
        -DLFCHECK_SANITIZER=${san}
        -DLFCHECK_LAYERS=stress
        -DLFCHECK_SANITIZER_SUBBUILDS=OFF
        ${forward}
        ${LFCHECK_SUBBUILD_CMAKE_ARGS}
      BUILD_ALWAYS ON
      INSTALL_COMMAND ""
      STEP_TARGETS configure
      USES_TERMINAL_BUILD ON)
  endforeach()
endfunction()
