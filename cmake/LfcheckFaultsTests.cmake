# Included by ctest (TEST_INCLUDE_FILES, set up by lfcheck_add_structure): registers
# one structure's faults tests, <layer>.NAME.faults_caught, for each layer that some
# seeded fault of its catalogue names, so a structure without faults has none and
# one whose faults are all model faults has no props faults test that checks nothing.
# The catalogue is C++, read from the structure's binary (`--list-faults NAME`), as
# gtest_discover_tests reads a test binary. Inputs (set by the generated caller):
#   _structure  the structure's name
#   _lister     a binary of the structure that lists its faults
#   _binaries   "layer=binary" for each layer the structure has
#   _script     check_faults_caught.sh
#   _code_regex what a model failure's history must show: a line of the structure's code

if(NOT EXISTS "${_lister}")
  add_test(${_structure}.faults.not_built /bin/sh -c "echo 'lfcheck: ${_lister} is not built: build the project first'; exit 1")
  return()
endif()
execute_process(COMMAND "${_lister}" "${_structure}" --list-faults
                OUTPUT_VARIABLE _listing ERROR_VARIABLE _error RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  add_test(${_structure}.faults.not_listed /bin/sh -c "echo 'lfcheck: ${_lister} --list-faults failed: ${_rc}'; exit 1")
  return()
endif()

set(_named "")
string(REPLACE "\n" ";" _lines "${_listing}")
foreach(_line IN LISTS _lines)
  if(_line MATCHES "caught by: ([^]]*)\\]")
    string(REPLACE "," ";" _layers "${CMAKE_MATCH_1}")
    list(APPEND _named ${_layers})
  endif()
endforeach()
list(REMOVE_DUPLICATES _named)

# Labels and time-outs of each layer's test; what check_faults_caught.sh needs.
set(_labels_model "model;faults")
set(_labels_props "props;faults")
set(_labels_stress "stress;faults")
set(_labels_lin "lin;faults")
set(_timeout_model 1500)
set(_timeout_props 1500)
set(_timeout_stress 900)
set(_timeout_lin 900)
foreach(_layer IN LISTS _named)
  set(_test ${_layer}.${_structure}.faults_caught)
  set(_binary "")
  foreach(_pair IN LISTS _binaries)
    if(_pair MATCHES "^${_layer}=(.*)$")
      set(_binary "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(NOT DEFINED _labels_${_layer})
    add_test(faults.${_structure}.catalogue /bin/sh -c "echo 'lfcheck: a seeded fault of ${_structure} names an unknown layer (${_layer}): layers are model, props, stress, lin'; exit 1")
    continue()
  elseif(_binary STREQUAL "")
    add_test(${_test} /bin/sh -c "echo 'lfcheck: seeded faults of ${_structure} name the ${_layer} layer, which ${_structure} does not have'; exit 1")
  elseif(_layer STREQUAL "model")
    add_test(${_test} "${_script}" ${_layer} ${_structure} "${_binary}" "${_lister}" "${_code_regex}")
  else()
    add_test(${_test} "${_script}" ${_layer} ${_structure} "${_binary}" "${_lister}")
  endif()
  set_tests_properties(${_test} PROPERTIES LABELS "${_labels_${_layer}}" TIMEOUT ${_timeout_${_layer}})
endforeach()
