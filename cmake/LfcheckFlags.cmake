# Compiler flags of the layers (part of the lfcheck package: cmake/Lfcheck.cmake).
include_guard(GLOBAL)

# Models (Relacy) need g++ and two flags, both checked on Debian 12's GCC 12:
#  -fno-sized-deallocation: otherwise `delete` calls the sized operator delete,
#    which Relacy does not replace: it bypasses Relacy's allocator and aborts
#    with "free(): invalid pointer".
#  -fno-lifetime-dse: at -O1 and above GCC deletes the store by which Relacy marks
#    a destroyed object, and Relacy then silently stops reporting use of freed
#    memory. models/selftest/use_after_free_probe.cpp keeps this honest.
# The lfcheck::model target carries them; this is for lfcheck's own probes.
function(lfcheck_model_flags target)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "The Relacy models need g++ (configure with the default or models preset)")
  endif()
  target_compile_options(${target} PRIVATE -fno-sized-deallocation -fno-lifetime-dse -O2)
endfunction()

# lfcheck_sanitizer_flags(SANITIZER OUT): compile and link flags of a sanitizer build.
function(lfcheck_sanitizer_flags sanitizer out)
  if(sanitizer STREQUAL "thread")
    set(${out} -fsanitize=thread -fno-omit-frame-pointer PARENT_SCOPE)
  elseif(sanitizer STREQUAL "address")
    set(${out} -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer PARENT_SCOPE)
  elseif(sanitizer STREQUAL "none")
    set(${out} "" PARENT_SCOPE)
  else()
    message(FATAL_ERROR "LFCHECK_SANITIZER must be none, thread or address, not '${sanitizer}'")
  endif()
endfunction()

# Sanitizer flags for a whole (sub-)build, chosen by LFCHECK_SANITIZER (the tsan and
# asan presets; the sub-builds also pass them as CMAKE_CXX_FLAGS, so every target of
# the configured project is instrumented, wherever it was declared).
if(DEFINED LFCHECK_SANITIZER)
  lfcheck_sanitizer_flags(${LFCHECK_SANITIZER} _lfcheck_san_flags)
  if(_lfcheck_san_flags)
    add_compile_options(${_lfcheck_san_flags})
    add_link_options(${_lfcheck_san_flags})
  endif()
endif()

# The sanitizer option files (sanitizer_configs/ of lfcheck) are compiled into the
# stress binary (as the sanitizers' default options), so every run applies them —
# through ./lfcheck, ctest, or the binary started by hand.
function(lfcheck_sanitizer_defaults target dir)
  foreach(_kind tsan asan ubsan lsan)
    file(READ ${dir}/${_kind}.options _text)
    # The text becomes a compile definition: an edited file must configure again.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${dir}/${_kind}.options)
    string(REGEX REPLACE "#[^\n]*" "" _text "${_text}")
    string(REGEX REPLACE "[ \t\r\n]+" " " _text "${_text}")
    string(STRIP "${_text}" _text)
    string(REPLACE "@SANITIZER_CONFIGS@" "${dir}" _text "${_text}")
    string(TOUPPER ${_kind} _upper)
    target_compile_definitions(${target} PRIVATE LFCHECK_${_upper}_DEFAULTS="${_text}")
  endforeach()
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS
               ${dir}/tsan.options ${dir}/asan.options ${dir}/ubsan.options ${dir}/lsan.options)
endfunction()
