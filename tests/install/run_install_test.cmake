# cmake -P script behind install.consumer: install BUILD_DIR into a fresh prefix, check what
# landed, build the consumer against the prefix and run it with no library or plugin path set.
cmake_minimum_required(VERSION 3.25)
foreach(var BUILD_DIR CONSUMER_DIR WORK_DIR PLUGIN_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "run_install_test.cmake needs -D${var}=...")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${WORK_DIR}")

# Runs a command; stops the script with its output when it fails.
function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  message(STATUS "${what}: ok")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(config_args "")
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} ${config_args})

# The real plugin is installed; the test plugins are not.
if(NOT EXISTS "${prefix}/${PLUGIN_DIR}/libvt-backend-cpu.so")
  message(FATAL_ERROR "no ${prefix}/${PLUGIN_DIR}/libvt-backend-cpu.so after install")
endif()
file(GLOB_RECURSE strays "${prefix}/*libvt-backend-fault-*")
if(strays)
  message(FATAL_ERROR "test plugins were installed: ${strays}")
endif()

set(configure_args -S ${CONSUMER_DIR} -B ${consumer_build} -DCMAKE_PREFIX_PATH=${prefix}
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=${CONFIG})
if(GENERATOR)
  list(APPEND configure_args -G ${GENERATOR})
endif()
if(CXX_COMPILER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
if(SANITIZE)  # a sanitized libvt needs its runtime loaded first, by the program
  list(APPEND configure_args -DCMAKE_CXX_FLAGS=-fsanitize=${SANITIZE} -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${SANITIZE})
endif()
step("configure consumer" ${CMAKE_COMMAND} ${configure_args})

# find_package must have taken the installed package, not some other vt.
file(STRINGS "${consumer_build}/CMakeCache.txt" vt_dir REGEX "^vt_DIR:")
string(FIND "${vt_dir}" "${prefix}/" at)
if(NOT at GREATER -1)
  message(FATAL_ERROR "find_package(vt) did not use the installed tree: ${vt_dir}")
endif()

step("build consumer" ${CMAKE_COMMAND} --build ${consumer_build} ${config_args})

find_program(consumer vt_consumer PATHS ${consumer_build} ${consumer_build}/${CONFIG} NO_DEFAULT_PATH REQUIRED)
step("run consumer" ${CMAKE_COMMAND} -E env
  --unset=LD_LIBRARY_PATH --unset=VT_PLUGINS --unset=VT_PLUGIN_PATH --unset=VT_REQUIRE --unset=VT_DISABLE_PROVIDERS
  ${consumer} ${prefix}/${PLUGIN_DIR})
message("${step_output}")
