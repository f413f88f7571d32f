// gdn_post_conv and its pieces (gdn_split, l2norm, gdn_gating) in one shader whose work
// groups take roles by range: rows (normalised or copied q/k, or l2norm's rows), the v copy,
// and the gates. The pieces dispatch it with only their roles, so the fused op equals their
// composition bit for bit by construction.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"
#include "math.glsl"

// The roles this pipeline serves (VT_ROLE_*): the pieces leave out the math they never run.
layout(constant_id = 0) const int ROLES = VT_ROLE_ROWS | VT_ROLE_V | VT_ROLE_GATES | VT_ROLE_NORMALISE;
layout(local_size_x = VT_ROWS_GROUP) in;
layout(push_constant) uniform Push { uint base_y; } pc;
layout(set = 0, binding = VT_PARAMS_BINDING, std430) readonly buffer ParamBlock { RowsParams P; };
VT_TENSOR(In, 1)
VT_TENSOR(OutA, 2)
VT_TENSOR(OutB, 3)
VT_TENSOR(V, 4)
VT_TENSOR(GateA, 5)
VT_TENSOR(GateB, 6)
VT_TENSOR(ALog, 7)
VT_TENSOR(DtBias, 8)
VT_TENSOR(G, 9)
VT_TENSOR(Beta, 10)

const uint kLanes = 32u;
shared float partials[VT_ROWS_PER_GROUP][32];
shared float row_scale[VT_ROWS_PER_GROUP];

// parity.md's canonical sum of squares: lane l accumulates elements l, l+32, ... with fma;
// then p[l] = p[l] + p[l+s] for l < s, s = 16..1, done by lane 0 in that order whatever the
// device's subgroup size. Then x * (1 / sqrt(sum + eps)), each step correctly rounded.
void role_rows(uint group) {
  uint lane = gl_LocalInvocationID.x % kLanes;
  uint slot = gl_LocalInvocationID.x / kLanes;
  uint r = group * VT_ROWS_PER_GROUP + slot;
  bool live = r < P.rows;
  uint i = live ? r / P.inner : 0u;
  uint j = live ? r % P.inner : 0u;
  uint in_row = P.in_.off + i * P.in_.s0 + j * P.in_.s1;
  const bool normalise = (ROLES & VT_ROLE_NORMALISE) != 0;
  precise float p = 0.0;
  if (live && normalise) {
    for (uint e = lane; e < P.dim; e += kLanes) {
      float x = VT_LOAD(In, in_row + e, P.in_.dtype);
      p = vt_fma(x, x, p);
    }
  }
  partials[slot][lane] = p;
  memoryBarrierShared();
  barrier();
  if (lane == 0u && live && normalise) {
    for (uint s = 16u; s >= 1u; s /= 2u) {
      for (uint l = 0u; l < s; ++l) {
        precise float sum_pair = partials[slot][l] + partials[slot][l + s];
        partials[slot][l] = sum_pair;
      }
    }
    precise float sum = partials[slot][0] + P.eps;
    row_scale[slot] = vt_recip(vt_sqrt(sum));
  }
  memoryBarrierShared();
  barrier();
  if (!live) return;
  float scale = row_scale[slot];
  bool first_half = j < P.split;
  uint jj = first_half ? j : j - P.split;
  for (uint e = lane; e < P.dim; e += kLanes) {
    float x = VT_LOAD(In, in_row + e, P.in_.dtype);
    precise float y = x * scale;
    float o = normalise ? y : x;
    if (first_half) {
      VT_STORE(OutA, P.out_a.off + i * P.out_a.s0 + jj * P.out_a.s1 + e, P.out_a.dtype, o);
    } else {
      VT_STORE(OutB, P.out_b.off + i * P.out_b.s0 + jj * P.out_b.s1 + e, P.out_b.dtype, o);
    }
  }
}

// Element e of the v part, token by token: a copy with dtype conversion only.
void role_v(uint group) {
  uint e = group * VT_ROWS_GROUP + gl_LocalInvocationID.x;
  if (e >= P.v_count) return;
  uint t = e / P.v_per_token, j = e % P.v_per_token;
  uint h = j / P.v_dim, d = j % P.v_dim;
  float x = VT_LOAD(In, P.in_.off + t * P.in_.s0 + P.v_column + j, P.in_.dtype);
  VT_STORE(V, P.v.off + t * P.v.s0 + h * P.v.s1 + d, P.v.dtype, x);
}

// g = -(exp(A_log) * softplus(a + dt_bias)), beta = sigmoid(b): the reference's order.
void role_gate(uint group) {
  uint e = group * VT_ROWS_GROUP + gl_LocalInvocationID.x;
  if (e >= P.gate_count) return;
  uint t = e / P.heads, h = e % P.heads;
  float av = VT_LOAD(GateA, P.a.off + t * P.a.s0 + h, P.a.dtype);
  float bias = VT_LOAD(DtBias, P.dt_bias.off + h * P.dt_bias.s0, P.dt_bias.dtype);
  precise float u = av + bias;
  float sp = vt_softplus(u);
  float ex = vt_exp(VT_LOAD(ALog, P.a_log.off + h * P.a_log.s0, P.a_log.dtype));
  precise float prod = ex * sp;
  precise float g = -prod;
  VT_STORE(G, P.g.off + t * P.g.s0 + h, P.g.dtype, g);
  float bv = VT_LOAD(GateB, P.b.off + t * P.b.s0 + h, P.b.dtype);
  VT_STORE(Beta, P.beta.off + t * P.beta.s0 + h, P.beta.dtype, vt_sigmoid(bv));
}

void main() {
  uint group = (pc.base_y + gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (group < P.row_groups) {
    if ((ROLES & VT_ROLE_ROWS) != 0) role_rows(group);
    return;
  }
  group -= P.row_groups;
  if (group < P.v_groups) {
    if ((ROLES & VT_ROLE_V) != 0) role_v(group);
    return;
  }
  group -= P.v_groups;
  if (group < P.gate_groups && (ROLES & VT_ROLE_GATES) != 0) role_gate(group);
}
