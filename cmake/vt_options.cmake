# Build switches and the compiler flags every target of the project shares.
option(VT_BUILD_TESTS "Build the GoogleTest suites" ON)
option(VT_WERROR "Treat compiler warnings as errors" OFF)
set(VT_SANITIZE "" CACHE STRING "Sanitizers for the host code: address,undefined or thread")

add_library(vt_warnings INTERFACE)
target_compile_options(vt_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:C,CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<AND:$<BOOL:${VT_WERROR}>,$<COMPILE_LANGUAGE:C,CXX>>:-Werror>)

# parity.md: no contraction behind the contract's back; every fma is explicit.
add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:-ffp-contract=off>)

if(VT_SANITIZE)
  add_compile_options(-fsanitize=${VT_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${VT_SANITIZE})
endif()

find_package(Threads REQUIRED)

# Where plugins live relative to the core library's folder once installed (the loader
# searches <folder of libvt>/${VT_PLUGIN_SUBDIR}).
set(VT_PLUGIN_SUBDIR "vt/plugins")
set(VT_INSTALL_PLUGIN_DIR "${CMAKE_INSTALL_LIBDIR}/${VT_PLUGIN_SUBDIR}")
