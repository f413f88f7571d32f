// The shaders' SPIR-V, compiled from shaders/ by glslangValidator at build time and
// embedded here, in three builds each (ShaderBuild).
#include <cstdint>

#include "vk_backend.hpp"

namespace vt::vulkan {
namespace {

#include "conv_fwd.native.h"
#include "conv_fwd.denorm.h"
#include "conv_fwd.f64.h"
#include "conv_update.native.h"
#include "conv_update.denorm.h"
#include "conv_update.f64.h"
#include "rows.native.h"
#include "rows.denorm.h"
#include "rows.f64.h"
#include "fma_probe.native.h"
#include "fma_probe.denorm.h"
#include "fma_probe.f64.h"
#include "math_probe.native.h"
#include "math_probe.denorm.h"
#include "math_probe.f64.h"

template <size_t N>
Spirv spirv(const uint32_t (&words)[N]) {
  return {words, sizeof words};
}

}  // namespace

#define VT_SHADER_BUILDS(name)                                            \
  case Shader::name:                                                      \
    return build == ShaderBuild::f64_fma  ? spirv(vt_spv_##name##_f64)    \
           : build == ShaderBuild::denorm ? spirv(vt_spv_##name##_denorm) \
                                          : spirv(vt_spv_##name##_native);

Spirv shader_code(Shader shader, ShaderBuild build) {
  switch (shader) {
    VT_SHADER_BUILDS(conv_fwd)
    VT_SHADER_BUILDS(conv_update)
    VT_SHADER_BUILDS(rows)
    VT_SHADER_BUILDS(fma_probe)
    VT_SHADER_BUILDS(math_probe)
    case Shader::count: break;
  }
  return {nullptr, 0};
}

}  // namespace vt::vulkan
