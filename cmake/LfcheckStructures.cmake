# The structures lfcheck knows are found, not listed: a structure NAME brings
#   models/NAME_models.cpp, stress/NAME_stress.cpp, property_tests/NAME_props.cpp
# and each layer's CMakeLists globs its own folder. LFCHECK_STRUCTURES is the list
# of names that have a model file, for the tests that iterate over structures.
file(GLOB _lfcheck_model_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/models/*_models.cpp)
set(LFCHECK_STRUCTURES "")
foreach(_src IN LISTS _lfcheck_model_sources)
  get_filename_component(_name ${_src} NAME_WE)
  string(REGEX REPLACE "_models$" "" _name ${_name})
  list(APPEND LFCHECK_STRUCTURES ${_name})
endforeach()
list(SORT LFCHECK_STRUCTURES)

# The structures with a sequential spec (specs/NAME_spec.hpp, registered by
# models/NAME_lin.cpp): `lfcheck lin` checks them, and the tests below iterate them.
file(GLOB _lfcheck_lin_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/models/*_lin.cpp)
set(LFCHECK_SPECS "")
foreach(_src IN LISTS _lfcheck_lin_sources)
  get_filename_component(_name ${_src} NAME_WE)
  string(REGEX REPLACE "_lin$" "" _name ${_name})
  list(APPEND LFCHECK_SPECS ${_name})
endforeach()
list(SORT LFCHECK_SPECS)
