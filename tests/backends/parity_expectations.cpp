// The parity suite's per-backend expectations (tests/parity/expectations.hpp): the contract
// of parity.md per backend, the provider each op must report, and declared gaps. A backend
// listed here but not built or not loadable shows as a skipped availability test.
#include "../parity/expectations.hpp"

namespace vt::parity {
namespace {

using opcheck::Tolerance;

// The same provider name for every op.
std::vector<std::pair<vt_op_id, std::string>> every_op(const std::string& name) {
  return {{VT_OP_CAUSAL_CONV1D_FWD, name}, {VT_OP_CAUSAL_CONV1D_UPDATE, name},
          {VT_OP_GDN_POST_CONV, name},     {VT_OP_L2NORM, name},
          {VT_OP_GDN_GATING, name},        {VT_OP_GDN_SPLIT, name}};
}

constexpr const char* kFlushedSubnormals =
    "this device flushes f32 subnormals to zero, so rows of subnormal values normalise differently "
    "(parity.md's bit-identity needs IEEE arithmetic)";

}  // namespace

const std::vector<BackendExpectation>& backend_expectations() {
  static const std::vector<BackendExpectation> table = {
      // The fast provider (above the scalar reference and its own baseline variant).
      {"cpu", {Tolerance::Mode::bitwise, 0}, every_op("fast"), {}, {}, false},
      {"cuda",
       {Tolerance::Mode::bitwise, 0},
       {{VT_OP_CAUSAL_CONV1D_FWD, "cuda.conv_fwd"},
        {VT_OP_CAUSAL_CONV1D_UPDATE, "cuda.conv_update"},
        {VT_OP_GDN_POST_CONV, "cuda.post_conv"},
        {VT_OP_L2NORM, "cuda.l2norm"},
        {VT_OP_GDN_GATING, "cuda.gating"},
        {VT_OP_GDN_SPLIT, "cuda.split"}},
       {},
       {},
       true},
      // Bit-identical: HIP kernels with explicit fma, no contraction, IEEE division and
      // square root, and the canonical reduction over 32-lane groups on any wavefront size.
      {"rocm",
       {Tolerance::Mode::bitwise, 0},
       {{VT_OP_CAUSAL_CONV1D_FWD, "rocm.conv_fwd"},
        {VT_OP_CAUSAL_CONV1D_UPDATE, "rocm.conv_update"},
        {VT_OP_GDN_POST_CONV, "rocm.post_conv"},
        {VT_OP_L2NORM, "rocm.l2norm"},
        {VT_OP_GDN_GATING, "rocm.gating"},
        {VT_OP_GDN_SPLIT, "rocm.split"}},
       {},
       {},
       true},
      // Bit-identical: the shaders round exactly like the reference even where the driver's
      // fma is not fused (lavapipe), division and square root are corrected to IEEE. A device
      // that flushes f32 subnormals (NVIDIA's driver, even under DenormPreserve) cannot be:
      // rows of subnormal values get another norm, so no ulp bound holds on them, and the
      // cases built of such rows are expected to fail there (and only there).
      {"vulkan",
       {Tolerance::Mode::bitwise, 0},
       {{VT_OP_CAUSAL_CONV1D_FWD, "vulkan.conv_fwd"},
        {VT_OP_CAUSAL_CONV1D_UPDATE, "vulkan.conv_update"},
        {VT_OP_GDN_POST_CONV, "vulkan.post_conv"},
        {VT_OP_L2NORM, "vulkan.l2norm"},
        {VT_OP_GDN_GATING, "vulkan.gating"},
        {VT_OP_GDN_SPLIT, "vulkan.split"}},
       {},
       {{"post_special_rows_f32", kFlushedSubnormals, true},
        {"post_special_rows_bf16", kFlushedSubnormals, true},  // f16 cannot hold those values: it passes
        {"l2n_special_rows*", kFlushedSubnormals, true}},
       false},
  };
  return table;
}

}  // namespace vt::parity
