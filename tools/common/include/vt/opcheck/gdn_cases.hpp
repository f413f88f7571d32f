// The GDN op cases: what a case varies (shapes, dtypes, layouts, edge cases) and the
// builders that turn those parameters and a seed into an OpCase. Semantics: ops.md.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vt/dtype.hpp"
#include "vt/opcheck/op_case.hpp"

namespace vt::opcheck {

struct ConvFwdParams {
  int64_t channels = 37;
  int64_t width = 4;  // K
  DType x = DType::f32, weight = DType::f32, out = DType::f32, state = DType::f32;
  std::vector<int32_t> lengths = {5, 3};  // tokens per sequence; 0 is an empty sequence
  // Slot per sequence: negative marks padding, >= num_slots is out of range (skipped).
  // Empty: distinct random slots.
  std::vector<int32_t> slots;
  int64_t num_slots = 0;  // 0: one per sequence plus two that stay untouched
  enum class Initial { absent, mixed, all } initial = Initial::mixed;  // has_initial_state
  DType initial_dtype = DType::u8;
  bool stateless = false;  // no conv_state, no state_indices
  bool bias = true;
  bool silu = true;
  int32_t plan_chunk = 0;         // chunk size of a chunk plan; 0: no plan
  bool transposed_state = false;  // [S, W, C] storage seen as [S, C, W] through strides
  int64_t x_row_extra = 0;        // x is a column slice of rows this much wider
  int64_t out_row_extra = 0;
  bool specials = false;      // NaN, infinities and subnormals among x
  bool host_indices = true;   // pass host copies of query_start_loc and state_indices
  bool model_values = false;  // x and state near N(0, 1), as in a model (vt-bench), not spread over binades
};

struct ConvUpdateParams {
  int64_t channels = 37;
  int64_t width = 4;
  DType x = DType::f32, weight = DType::f32, out = DType::f32, state = DType::f32;
  int64_t batch = 5;
  int64_t tokens = 0;     // 0: x is [B, C]; otherwise [B, L, C] with L = tokens
  bool in_place = false;  // out is x
  bool indices = true;    // state_indices given (else sequence b uses slot b)
  int64_t padding = 1;    // sequences marked as padding (with indices)
  int64_t num_slots = 0;  // 0: batch plus two
  bool bias = true;
  bool silu = true;
  bool transposed_state = false;
  int64_t x_row_extra = 0;  // x rows (tokens) this much wider than C
  bool specials = false;    // NaN, infinities and subnormals among the inputs
  bool host_indices = true;
  bool model_values = false;  // as in ConvFwdParams
};

struct PostConvParams {
  int64_t tokens = 6, key_heads = 2, value_heads = 4, key_dim = 24, value_dim = 40;
  DType in = DType::f32, gate = DType::f32, out = DType::f32;  // conv_out; a and b; q, k, v
  bool l2norm = true;
  float eps = 1e-6f;
  int64_t row_extra = 0;  // conv_out, a and b are row views into wider rows
  // Row kinds cycle through normal, a sum of squares that overflows f32 (zeros expected), a
  // NaN, large and tiny magnitudes, and subnormals.
  bool special_rows = false;
  bool softplus_threshold = false;  // a + dt_bias around softplus's threshold (20)
};

struct L2NormParams {
  int64_t rows = 7;   // R, or T for rank 3
  int64_t heads = 0;  // 0: rank 2 [R, D]; otherwise rank 3 [T, H, D]
  int64_t dim = 24;
  DType in = DType::f32, out = DType::f32;
  float eps = 1e-6f;
  int64_t row_extra = 0;      // outer strides this much wider than dense
  bool special_rows = false;  // as in PostConvParams
};

struct GatingParams {
  int64_t tokens = 6, heads = 8;
  DType gate = DType::f32;
  int64_t row_extra = 0;
  bool softplus_threshold = false;
  bool specials = false;  // NaN, infinities and subnormals among a and b
};

struct SplitParams {
  int64_t tokens = 5, key_heads = 2, value_heads = 4, key_dim = 24, value_dim = 40;
  DType in = DType::f32, out = DType::f32;
  int64_t row_extra = 0;
  bool specials = false;  // NaN, infinities and subnormals among the inputs
};

std::unique_ptr<OpCase> make_case(std::string name, const ConvFwdParams& p, uint64_t seed);
std::unique_ptr<OpCase> make_case(std::string name, const ConvUpdateParams& p, uint64_t seed);
std::unique_ptr<OpCase> make_case(std::string name, const PostConvParams& p, uint64_t seed);
std::unique_ptr<OpCase> make_case(std::string name, const L2NormParams& p, uint64_t seed);
std::unique_ptr<OpCase> make_case(std::string name, const GatingParams& p, uint64_t seed);
std::unique_ptr<OpCase> make_case(std::string name, const SplitParams& p, uint64_t seed);

}  // namespace vt::opcheck
