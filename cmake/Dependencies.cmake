# Every dependency is a Debian package installed by jobs/local/setup.sh.

find_package(MPI REQUIRED COMPONENTS C CXX)

set(HDF5_PREFER_PARALLEL ON)
find_package(HDF5 REQUIRED COMPONENTS C)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR "tethersim needs the MPI-parallel HDF5 (Debian: libhdf5-openmpi-dev); "
    "found a serial HDF5 at ${HDF5_INCLUDE_DIRS}")
endif()
add_library(tethersim_hdf5 INTERFACE)
target_include_directories(tethersim_hdf5 SYSTEM INTERFACE ${HDF5_INCLUDE_DIRS})
target_link_libraries(tethersim_hdf5 INTERFACE ${HDF5_C_LIBRARIES} MPI::MPI_C)
target_compile_definitions(tethersim_hdf5 INTERFACE ${HDF5_DEFINITIONS})

find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(Boost 1.74 REQUIRED COMPONENTS program_options)
find_package(toml11 3.7 REQUIRED)
# JSON output (summary.json, info --json, observables.jsonl): numbers that
# read back exactly, in the shortest text that does.
find_package(nlohmann_json 3.10 REQUIRED)

# Random123 is header-only and ships no CMake package.
find_path(RANDOM123_INCLUDE_DIR Random123/philox.h REQUIRED)
add_library(tethersim_random123 INTERFACE)
target_include_directories(tethersim_random123 SYSTEM INTERFACE ${RANDOM123_INCLUDE_DIR})

# Third-party headers are SYSTEM so our -Werror does not judge them.
get_target_property(_eigen_inc Eigen3::Eigen INTERFACE_INCLUDE_DIRECTORIES)
set_target_properties(Eigen3::Eigen PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${_eigen_inc}")
get_target_property(_toml_inc toml11::toml11 INTERFACE_INCLUDE_DIRECTORIES)
if(_toml_inc)
  set_target_properties(toml11::toml11 PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${_toml_inc}")
endif()

if(TETHERSIM_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
