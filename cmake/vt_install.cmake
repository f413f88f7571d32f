# Installation and the package config: find_package(vt CONFIG) gives vt::vt.
include(CMakePackageConfigHelpers)

install(TARGETS vt vt_abi vt_ops_headers EXPORT vtTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/vt/include/vt ${PROJECT_SOURCE_DIR}/ops/include/vt
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT vtTargets NAMESPACE vt:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vt)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/vtConfig.cmake.in
  ${PROJECT_BINARY_DIR}/vtConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vt)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/vtConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/vtConfig.cmake ${PROJECT_BINARY_DIR}/vtConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vt)
