/* Parameter blocks of the compute shaders, one per shader, shared by the GLSL sources and the
 * C++ that fills them, so the two can never disagree on a layout. Every field is 32 bits and
 * the blocks are read as std430 storage buffers, whose layout of such structs is the C one.
 *
 * A TensorRef addresses a tensor inside its binding: `off` is the element offset of element
 * [0, ...] from the binding's start (the buffer is bound at an aligned byte offset at or
 * below the tensor's), the strides are in elements, and `dtype` is a vt_dtype code.
 */
#ifndef VT_VULKAN_PARAMS_H
#define VT_VULKAN_PARAMS_H

#ifdef __cplusplus
#include <cstdint>
#define VT_U32 uint32_t
#define VT_I32 int32_t
#define VT_F32 float
namespace vt::vulkan {
#else
#define VT_U32 uint
#define VT_I32 int
#define VT_F32 float
#endif

/* vt_dtype codes (plugin_abi.h). */
#define VT_DT_F32 0u
#define VT_DT_F16 1u
#define VT_DT_BF16 2u
#define VT_DT_I32 3u
#define VT_DT_U8 4u

/* Binding 0 holds the parameter block; tensors follow. */
#define VT_PARAMS_BINDING 0
#define VT_TENSOR_BINDINGS 10

/* Work-group shapes. The conv shaders put one channel on each invocation; the row shader
 * gives each row 32 invocations, lane l accumulating the canonical partial sum l. */
#define VT_CONV_GROUP 128
#define VT_ROWS_GROUP 256
#define VT_ROWS_PER_GROUP 8
#define VT_CONV_MAX_WIDTH 8

struct TensorRef {
  VT_U32 off;
  VT_U32 s0;
  VT_U32 s1;
  VT_U32 s2;
  VT_U32 dtype;
};

/* flags of the conv shaders */
#define VT_CONV_SILU 1u
#define VT_CONV_BIAS 2u
#define VT_CONV_STATEFUL 4u /* conv_state and state_indices present */
#define VT_CONV_INITIAL 8u  /* has_initial_state present */
#define VT_CONV_PLAN 16u    /* programs are chunk-plan items */
#define VT_CONV_SLOTS 32u   /* update: state_indices present */

/* causal_conv1d_fwd: bindings x 1, weight 2, bias 3, out 4, state 5, slots 6, initial 7,
 * query_start_loc 8, plan 9. Work group (channel block, program). */
struct ConvFwdParams {
  TensorRef x, weight, bias, dst, state, slots, initial, qsl, plan;
  VT_I32 tokens, channels, seqs, slots_count;
  VT_I32 chunk;
  VT_U32 programs;
  VT_U32 flags;
};

/* causal_conv1d_update: bindings x 1, weight 2, bias 3, out 4, state 5, slots 6. x and out
 * are [B, L, C] through the sequence and token strides. Work group (channel block, sequence). */
struct ConvUpdateParams {
  TensorRef x, weight, bias, dst, state, slots;
  VT_U32 x_seq, x_tok, out_seq, out_tok;
  VT_I32 batch, tokens, channels, slots_count;
  VT_U32 flags;
};

/* gdn_post_conv, gdn_split, l2norm and gdn_gating: one shader whose work groups take three
 * roles by range. Rows: row r = (i, j) with i = r / inner, j = r % inner reads
 * in[i*s0 + j*s1 + e] and writes out_a (j < split) or out_b (j - split). V copy: element
 * e of a token's v part. Gates: (token, head).
 * Bindings: in 1, out_a 2, out_b 3, v 4, a 5, b 6, A_log 7, dt_bias 8, g 9, beta 10. */
/* rows.comp's specialisation constant: the roles a pipeline has, and whether its rows are
 * normalised (else copied). */
#define VT_ROLE_ROWS 1
#define VT_ROLE_V 2
#define VT_ROLE_GATES 4
#define VT_ROLE_NORMALISE 8
struct RowsParams {
  TensorRef in_, out_a, out_b, v, a, b, a_log, dt_bias, g, beta;
  VT_U32 rows, inner, split, dim;
  VT_F32 eps;
  VT_U32 v_count, v_per_token, v_dim, v_column;
  VT_U32 gate_count, heads;
  VT_U32 row_groups, v_groups, gate_groups;
};

/* The math probes: result[i] = fn(a[i], b[i], c[i]) over f32 bit patterns, for the unit
 * tests of the shader math (math_probe) and the fma probe at start-up (fma_probe, fn unused).
 * Bindings a 1, b 2, c 3, result 4. */
#define VT_MATH_FMA 0u
#define VT_MATH_EXP 1u
#define VT_MATH_LOG1P 2u
#define VT_MATH_DIV_GE1 3u
#define VT_MATH_RECIP 4u
#define VT_MATH_SQRT 5u
#define VT_MATH_SIGMOID 6u
#define VT_MATH_SILU 7u
#define VT_MATH_SOFTPLUS 8u
#define VT_MATH_TO_F16 9u /* out = the f16 bits of a, widened back: low 16 bits the code */
#define VT_MATH_TO_BF16 10u
#define VT_MATH_FROM_F16 11u /* a's low 16 bits as f16, widened to f32 */
#define VT_MATH_FROM_BF16 12u
#define VT_MATH_MUL 13u
#define VT_MATH_ADD 14u

struct MathParams {
  TensorRef a, b, c, result;
  VT_U32 count;
  VT_U32 fn;
};

#ifdef __cplusplus
}  // namespace vt::vulkan
#endif
#undef VT_U32
#undef VT_I32
#undef VT_F32

#endif
