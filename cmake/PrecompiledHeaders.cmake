# Precompiled headers: Eigen (through include/tethersim/physics/vector.hpp)
# and GoogleTest are parsed by nearly every translation unit and took a
# third of a clean build's compile time. Each target compiles them once.
# Off: -DTETHERSIM_PRECOMPILED_HEADERS=OFF (for include-what-you-use checks,
# where a header must compile on its own).
option(TETHERSIM_PRECOMPILED_HEADERS "Precompile Eigen, GoogleTest and common standard headers" ON)

set(tethersim_common_headers <Eigen/Core> <Eigen/Geometry> <algorithm> <array> <cmath> <cstdint>
  <functional> <memory> <optional> <span> <string> <unordered_map> <utility> <vector>)

# tethersim_precompile(TARGET [GTEST]): the common headers (and GoogleTest)
# precompiled for TARGET's translation units.
function(tethersim_precompile target)
  if(NOT TETHERSIM_PRECOMPILED_HEADERS)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 opt "GTEST" "" "")
  target_precompile_headers(${target} PRIVATE ${tethersim_common_headers})
  if(opt_GTEST)
    target_precompile_headers(${target} PRIVATE <gtest/gtest.h>)
  endif()
endfunction()
