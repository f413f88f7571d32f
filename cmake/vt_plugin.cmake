# vt_add_plugin(<backend> SOURCES ...): a backend plugin, libvt-backend-<backend>.so.
# It sees only the ABI and device-neutral headers (no libvt link: the core loads it), and
# its linker map exports the one entry symbol.
add_library(vt_abi INTERFACE)
target_include_directories(vt_abi INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/vt/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

set(VT_PLUGIN_MAP "${CMAKE_CURRENT_LIST_DIR}/plugin.map")

function(vt_add_plugin backend)
  cmake_parse_arguments(ARG "NO_INSTALL" "OUTPUT_DIRECTORY" "SOURCES;LIBRARIES" ${ARGN})
  set(target vt-backend-${backend})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE vt_abi vt_warnings ${ARG_LIBRARIES})
  target_link_options(${target} PRIVATE "-Wl,--version-script=${VT_PLUGIN_MAP}")
  # --no-undefined catches a missing library at link time; sanitizer builds leave the
  # runtime's symbols to the executable, so they skip it.
  if(NOT VT_SANITIZE)
    target_link_options(${target} PRIVATE "-Wl,--no-undefined")
  endif()
  set_target_properties(${target} PROPERTIES PREFIX "lib" LINK_DEPENDS "${VT_PLUGIN_MAP}")
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}")
  endif()
  if(NOT ARG_NO_INSTALL)
    install(TARGETS ${target} LIBRARY DESTINATION "${VT_INSTALL_PLUGIN_DIR}" COMPONENT plugins)
  endif()
endfunction()
