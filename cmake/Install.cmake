# What `cmake --install` puts under the prefix:
#   bin/tethersim
#   lib/libtethersim_*.a                the layers a program needs to build
#                                       and run models (not app: its headers
#                                       are private to the command)
#   include/tethersim/                  their headers and version.hpp
#   lib/cmake/tethersim/                the package: find_package(tethersim
#                                       CONFIG) gives tethersim::engine,
#                                       tethersim::io, tethersim::decomposition...
include(CMakePackageConfigHelpers)

set(tethersim_installed_libraries physics model io scenario engine mpi decomposition)
set(tethersim_config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/tethersim)

foreach(library ${tethersim_installed_libraries})
  set_target_properties(tethersim_${library} PROPERTIES EXPORT_NAME ${library})
  # The headers are C++20 (std::span, <bit>): programs that include them
  # are compiled as C++20 whatever their own default.
  target_compile_features(tethersim_${library} INTERFACE cxx_std_20)
  # An installed sanitizer build's libraries call into the sanitizer
  # runtimes, so whatever links them must link those too (tethersim_flags,
  # which carries the option in this tree, is not installed).
  if(TETHERSIM_SANITIZE)
    target_link_options(tethersim_${library} INTERFACE
      $<INSTALL_INTERFACE:${TETHERSIM_SANITIZER_LINK_OPTIONS}>)
  endif()
endforeach()
# The dependencies found by cmake/Dependencies.cmake as project targets go
# with the package, so a program links exactly the HDF5 and Random123
# tethersim was built with.
set_target_properties(tethersim_hdf5 PROPERTIES EXPORT_NAME hdf5)
set_target_properties(tethersim_random123 PROPERTIES EXPORT_NAME random123)

install(TARGETS tethersim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
list(TRANSFORM tethersim_installed_libraries PREPEND tethersim_ OUTPUT_VARIABLE _libraries)
install(TARGETS ${_libraries} tethersim_hdf5 tethersim_random123
  EXPORT tethersimTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tethersim
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/generated/tethersim/version.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tethersim)

install(EXPORT tethersimTargets
  NAMESPACE tethersim::
  DESTINATION ${tethersim_config_dir})
configure_package_config_file(cmake/tethersimConfig.cmake.in
  ${PROJECT_BINARY_DIR}/generated/tethersimConfig.cmake
  INSTALL_DESTINATION ${tethersim_config_dir})
# 0.x releases change the interface between minor versions.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/generated/tethersimConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/generated/tethersimConfig.cmake
  ${PROJECT_BINARY_DIR}/generated/tethersimConfigVersion.cmake
  DESTINATION ${tethersim_config_dir})
# The licence and how to cite the software, beside the documentation.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CITATION.cff
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
