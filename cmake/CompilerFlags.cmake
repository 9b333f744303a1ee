# Compiler flags shared by every tethersim target, via the interface library
# tethersim_flags. Bit-identical trajectories across rank counts depend on
# IEEE semantics: no fast-math, and no fused multiply-add contraction, which
# could otherwise differ between two inlined copies of one formula.

add_library(tethersim_flags INTERFACE)

target_compile_options(tethersim_flags INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  -ffp-contract=off
  # errno is never read after a math call; this lets sqrt compile to one
  # instruction without changing any result.
  -fno-math-errno)

# GCC 12 reports false -Wrestrict, -Wstringop-overflow and -Warray-bounds
# positives inside libstdc++'s string concatenation at -O3 (GCC bug 105651
# and its kin; the last two show once the standard headers come from a
# precompiled header). Out-of-bounds accesses are still caught at run time
# by the AddressSanitizer pass.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(tethersim_flags INTERFACE -Wno-restrict -Wno-stringop-overflow -Wno-array-bounds)
endif()

if(TETHERSIM_WERROR)
  target_compile_options(tethersim_flags INTERFACE -Werror)
endif()

set(TETHERSIM_SANITIZER_LINK_OPTIONS -fsanitize=address,undefined)
if(TETHERSIM_SANITIZE)
  target_compile_options(tethersim_flags INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(tethersim_flags INTERFACE ${TETHERSIM_SANITIZER_LINK_OPTIONS})
  # Every program keeps the modules MPI and HDF5 load, so that the leak check
  # can name their allocations at exit (see the file).
  target_sources(tethersim_flags INTERFACE
    $<BUILD_INTERFACE:$<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:${PROJECT_SOURCE_DIR}/tests/sanitizers/modules_stay_loaded.cpp>>)
endif()

# Guard against someone adding fast-math through CMAKE_CXX_FLAGS.
foreach(flags_var CMAKE_CXX_FLAGS CMAKE_CXX_FLAGS_RELEASE CMAKE_CXX_FLAGS_RELWITHDEBINFO)
  if("${${flags_var}}" MATCHES "fast-math|Ofast|fp-contract=fast")
    message(FATAL_ERROR "${flags_var} contains '${CMAKE_MATCH_0}': tethersim requires IEEE "
      "floating point (bit-identical trajectories). Remove it.")
  endif()
endforeach()

# Release: -O3 without -march=native so a binary built on a login node runs
# the same arithmetic on every compute node.
set(CMAKE_CXX_FLAGS_RELEASE "-O3 -DNDEBUG" CACHE STRING "" FORCE)
