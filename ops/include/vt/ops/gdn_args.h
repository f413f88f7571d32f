/* Argument structs of the GDN ops, as providers receive them through vt_op_call::args.
 * C layout; each starts with struct_size and only grows at the end. An absent optional
 * tensor has mem == NULL and rank == 0. Semantics and rules: ../shared/spec/ops.md; the
 * device-neutral layer (ops/src/) has validated every rule before a provider sees a call.
 */
#ifndef VT_OPS_GDN_ARGS_H
#define VT_OPS_GDN_ARGS_H

#include "vt/plugin_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vt_activation {
  VT_ACTIVATION_NONE = 0,
  VT_ACTIVATION_SILU = 1,
  VT_ACTIVATION_MAX_ENUM_ = 0x7fffffff
} vt_activation;

#define VT_CONV_MIN_WIDTH 2
#define VT_CONV_MAX_WIDTH 8
#define VT_CONV_DEFAULT_CHUNK 8

/* The exact (sequence, first token) work items of a prefill step (ops.md section 3). */
typedef struct vt_conv_chunk_plan {
  vt_tensor items; /* i32 [n_items, 2]: sequence index, first local token of the chunk */
  int64_t n_items;
  int64_t num_seqs;   /* N the plan was built for */
  int64_t num_tokens; /* T the plan was built for */
  int32_t chunk_size;
} vt_conv_chunk_plan;

typedef struct vt_causal_conv1d_fwd_args {
  uint32_t struct_size;
  vt_tensor x;                 /* [T, C] */
  vt_tensor weight;            /* [C, K] */
  vt_tensor bias;              /* [C] or absent */
  vt_tensor out;               /* [T, C] */
  vt_tensor conv_state;        /* [S, C, W] any strides, or absent (stateless) */
  vt_tensor state_indices;     /* [N] i32, or absent (stateless) */
  vt_tensor has_initial_state; /* [N] u8 or i32, or absent (all false) */
  vt_tensor query_start_loc;   /* [N+1] i32 */
  vt_activation activation;
  const vt_conv_chunk_plan* plan; /* optional */
  /* derived by validation, for providers' convenience */
  int64_t num_tokens, channels, width /* K */, num_seqs, num_slots;
} vt_causal_conv1d_fwd_args;

typedef struct vt_causal_conv1d_update_args {
  uint32_t struct_size;
  vt_tensor x;             /* [B, C] or [B, L, C] */
  vt_tensor weight;        /* [C, K] */
  vt_tensor bias;          /* [C] or absent */
  vt_tensor out;           /* same shape as x; may be x itself */
  vt_tensor conv_state;    /* [S, C, W] any strides */
  vt_tensor state_indices; /* [B] i32, or absent: sequence b uses slot b */
  vt_activation activation;
  /* derived: x viewed as [B, L, C] */
  int64_t batch, tokens_per_seq, channels, width /* K */, num_slots;
  int64_t x_seq_stride, x_tok_stride, out_seq_stride, out_tok_stride;
} vt_causal_conv1d_update_args;

typedef struct vt_gdn_post_conv_args {
  uint32_t struct_size;
  vt_tensor conv_out;        /* [T, C], C = 2*Hk*Dk + Hv*Dv */
  vt_tensor a, b;            /* [T, Hv] */
  vt_tensor A_log;           /* [Hv] f32 */
  vt_tensor dt_bias;         /* [Hv] f32 */
  vt_tensor q_out, k_out;    /* [T, Hk, Dk] */
  vt_tensor v_out;           /* [T, Hv, Dv] */
  vt_tensor g_out, beta_out; /* [T, Hv] f32 */
  int32_t l2norm;            /* nonzero: normalise q and k */
  float eps;
  int64_t num_tokens, key_heads, value_heads, key_dim, value_dim;
} vt_gdn_post_conv_args;

typedef struct vt_l2norm_args {
  uint32_t struct_size;
  vt_tensor x;   /* [R, D] or [T, H, D] */
  vt_tensor out; /* same shape */
  float eps;
  /* derived: rows as [R1, R2, D] (R1 = 1 for rank 2) */
  int64_t outer, inner, dim;
} vt_l2norm_args;

typedef struct vt_gdn_gating_args {
  uint32_t struct_size;
  vt_tensor a, b;            /* [T, Hv] */
  vt_tensor A_log, dt_bias;  /* [Hv] f32 */
  vt_tensor g_out, beta_out; /* [T, Hv] f32 */
  int64_t num_tokens, value_heads;
} vt_gdn_gating_args;

typedef struct vt_gdn_split_args {
  uint32_t struct_size;
  vt_tensor conv_out;     /* [T, C] */
  vt_tensor q_out, k_out; /* [T, Hk, Dk] */
  vt_tensor v_out;        /* [T, Hv, Dv] */
  int64_t num_tokens, key_heads, value_heads, key_dim, value_dim;
} vt_gdn_split_args;

#ifdef __cplusplus
}
#endif

#endif
