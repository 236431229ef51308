# Compiler flags of the layers.

# Models (Relacy) need g++ and two flags, both checked on Debian 12's GCC 12:
#  -fno-sized-deallocation: otherwise `delete` calls the sized operator delete,
#    which Relacy does not replace: it bypasses Relacy's allocator and aborts
#    with "free(): invalid pointer".
#  -fno-lifetime-dse: at -O1 and above GCC deletes the store by which Relacy marks
#    a destroyed object, and Relacy then silently stops reporting use of freed
#    memory. models/selftest/use_after_free_probe.cpp keeps this honest.
function(lfcheck_model_flags target)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "The Relacy models need g++ (configure with the default or models preset)")
  endif()
  target_compile_options(${target} PRIVATE -fno-sized-deallocation -fno-lifetime-dse -O2)
endfunction()

# Sanitizer flags for a whole (sub-)build, chosen by LFCHECK_SANITIZER.
if(LFCHECK_SANITIZER STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(LFCHECK_SANITIZER STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
elseif(NOT LFCHECK_SANITIZER STREQUAL "none")
  message(FATAL_ERROR "LFCHECK_SANITIZER must be none, thread or address, not '${LFCHECK_SANITIZER}'")
endif()

# The sanitizer option files in sanitizer_configs/ are compiled into the stress
# binary (as the sanitizers' default options), so every run applies them —
# through ./lfcheck, ctest, or the binary started by hand.
function(lfcheck_sanitizer_defaults target)
  set(_dir ${PROJECT_SOURCE_DIR}/sanitizer_configs)
  foreach(_kind tsan asan ubsan lsan)
    file(READ ${_dir}/${_kind}.options _text)
    string(REGEX REPLACE "#[^\n]*" "" _text "${_text}")
    string(REGEX REPLACE "[ \t\r\n]+" " " _text "${_text}")
    string(STRIP "${_text}" _text)
    string(REPLACE "@SANITIZER_CONFIGS@" "${_dir}" _text "${_text}")
    string(TOUPPER ${_kind} _upper)
    target_compile_definitions(${target} PRIVATE LFCHECK_${_upper}_DEFAULTS="${_text}")
  endforeach()
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS
               ${_dir}/tsan.options ${_dir}/asan.options ${_dir}/ubsan.options ${_dir}/lsan.options)
endfunction()
