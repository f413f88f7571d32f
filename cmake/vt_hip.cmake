# The HIP language on Debian's ROCm 5.2 packages (hipcc, libamdhip64-dev, rocm-device-libs).
# CMake's HIP support expects the /opt/rocm layout; on Debian four things need saying:
#  - the compiler is LLVM 15's own clang++ under its LLVM folder: /usr/bin/clang++-15 would
#    pick up the clang 14 runtime libraries that sit next to it;
#  - CMake looks for <ROCm root>/lib/cmake/hip-lang/hip-lang-config.cmake, which Debian installs
#    under the multiarch lib/<triple>/cmake/: a forwarding folder in the build tree bridges it;
#  - the amd_comgr, hsa-runtime64 and AMDDeviceLibs packages it depends on, for the same
#    reason (the forwarding config names their folders);
#  - clang itself needs --rocm-path=/usr and the multiarch device-library (bitcode) folder.
# Debian's device libraries stop at gfx1036: gfx1100 and later cannot be targeted with them.
#
# vt_hip_prepare(<var>) makes those settings (a user's own CMAKE_HIP_COMPILER is left alone)
# and sets <var> to TRUE when a HIP compiler is usable; the caller then enables HIP.

set(VT_HIP_LLVM_ROOT "/usr/lib/llvm-15" CACHE PATH "LLVM installation whose clang++ compiles HIP (Debian layout)")
set(VT_ROCM_ROOT "/usr" CACHE PATH "ROCm installation prefix (Debian: /usr)")

function(vt_hip_prepare out)
  set(${out} FALSE PARENT_SCOPE)
  find_program(VT_HIP_CLANG clang++ PATHS "${VT_HIP_LLVM_ROOT}/bin" NO_DEFAULT_PATH)
  if(DEFINED CMAKE_HIP_COMPILER AND NOT CMAKE_HIP_COMPILER STREQUAL VT_HIP_CLANG)
    check_language(HIP)
    if(CMAKE_HIP_COMPILER)
      set(${out} TRUE PARENT_SCOPE)
    endif()
    return()
  endif()

  set(libdir "${VT_ROCM_ROOT}/lib/${CMAKE_LIBRARY_ARCHITECTURE}")
  set(hip_lang "${libdir}/cmake/hip-lang/hip-lang-config.cmake")
  set(bitcode "${libdir}/amdgcn/bitcode")
  foreach(need VT_HIP_CLANG hip_lang bitcode)
    if(NOT ${need} OR NOT EXISTS "${${need}}")
      message(STATUS "vt: HIP toolchain incomplete (${need}: '${${need}}' not found)")
      return()
    endif()
  endforeach()

  # The forwarding config also names the dependency folders: CMake's own try_compile checks
  # load it in a fresh project, where cache settings of this one are not seen.
  set(shim "${PROJECT_BINARY_DIR}/vt-hip-root")
  file(WRITE "${shim}/lib/cmake/hip-lang/hip-lang-config.cmake"
       "set(amd_comgr_DIR \"${libdir}/cmake/amd_comgr\")\n"
       "set(hsa-runtime64_DIR \"${libdir}/cmake/hsa-runtime64\")\n"
       "set(AMDDeviceLibs_DIR \"${VT_ROCM_ROOT}/lib/cmake/AMDDeviceLibs\")\n"
       "include(\"${hip_lang}\")\n")
  if(EXISTS "${libdir}/cmake/hip-lang/hip-lang-config-version.cmake")
    file(WRITE "${shim}/lib/cmake/hip-lang/hip-lang-config-version.cmake"
         "include(\"${libdir}/cmake/hip-lang/hip-lang-config-version.cmake\")\n")
  endif()
  set(CMAKE_HIP_COMPILER "${VT_HIP_CLANG}" CACHE FILEPATH "HIP compiler")
  set(CMAKE_HIP_COMPILER_ROCM_ROOT "${shim}" CACHE PATH "ROCm root as CMake's HIP support sees it")
  set(CMAKE_HIP_FLAGS "--rocm-path=${VT_ROCM_ROOT} --rocm-device-lib-path=${bitcode}" CACHE STRING "Flags for the HIP compiler")
  set(${out} TRUE PARENT_SCOPE)
endfunction()
