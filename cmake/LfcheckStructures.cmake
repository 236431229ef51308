# lfcheck's own structures, registered through the public lfcheck_add_structure
# (cmake/Lfcheck.cmake), the same function a user's project calls. Each structure
# NAME keeps its files where they were: models/NAME_models.cpp (scenarios),
# stress/NAME_stress.cpp (workloads), property_tests/NAME_props.cpp (properties)
# and, for a structure with a spec, models/NAME_lin.cpp (its registration, with
# compile-time checks of its own). The list of names is the one place a structure
# of lfcheck's is named in CMake.
set(LFCHECK_STRUCTURES treiber deliqueue removal shutdown timers)

# A structure's registration files of one kind: DIR/NAME_KIND.cpp, and DIR/NAME_PART_KIND.cpp
# where one file would be a monster translation unit (e.g. property_tests/deliqueue_spec_props.cpp).
function(_lfcheck_own_files out name dir kind)
  file(GLOB files RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/${dir}/${name}_${kind}.cpp ${PROJECT_SOURCE_DIR}/${dir}/${name}_*_${kind}.cpp)
  set(${out} ${files} PARENT_SCOPE)
endfunction()

foreach(_name IN LISTS LFCHECK_STRUCTURES)
  _lfcheck_own_files(_scenarios ${_name} models models)
  _lfcheck_own_files(_workloads ${_name} stress stress)
  _lfcheck_own_files(_props ${_name} property_tests props)
  _lfcheck_own_files(_lin ${_name} models lin)
  set(_args SCENARIOS ${_scenarios} WORKLOADS ${_workloads} PROPS ${_props}
            HEADERS structures LINK_LIBRARIES lfcheck_core)
  if(_lin)
    list(APPEND _args LIN ${_lin})
  endif()
  lfcheck_add_structure(${_name} ${_args})
endforeach()

# A registration file no structure lists would be left out silently: refuse it.
file(GLOB _registrations RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/models/*_models.cpp ${PROJECT_SOURCE_DIR}/models/*_lin.cpp
     ${PROJECT_SOURCE_DIR}/stress/*_stress.cpp ${PROJECT_SOURCE_DIR}/property_tests/*_props.cpp)
foreach(_file IN LISTS _registrations)
  string(REGEX REPLACE "^[a-z_]+/([a-z0-9]+)_([a-z0-9_]+_)?(models|lin|stress|props)\\.cpp$" "\\1" _owner ${_file})
  if(NOT _owner IN_LIST LFCHECK_STRUCTURES)
    message(FATAL_ERROR "${_file} belongs to no structure: add its name to LFCHECK_STRUCTURES in "
                        "cmake/LfcheckStructures.cmake")
  endif()
endforeach()
