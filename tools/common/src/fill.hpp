// Input values shared by the case builders: spread over several binades, never zero, plus
// the targeted special values and rows of parity.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "vt/dtype.hpp"
#include "vt/opcheck/case_memory.hpp"
#include "vt/opcheck/random.hpp"

namespace vt::opcheck::detail {

// Activations (x, state, conv_out): 2^-8 .. 2^9.
inline float activation(Rng& rng) { return rng.binade(-8, 8); }
// A model's activations, for timing: normalised hidden states through a projection are
// near N(0, 1). Spread over binades, one in seven width-4 conv outputs lies below -85.9, where
// SiLU's exact division takes its rare out-of-line path; a benchmark of that mix times the
// rare path, not the op.
inline float model_activation(Rng& rng) { return rng.normal(); }
// x, state: model or parity-coverage activations.
inline float activation(Rng& rng, bool model) { return model ? model_activation(rng) : activation(rng); }
// Conv weights and biases: small enough that a width-8 f16 output stays finite.
inline float conv_weight(Rng& rng) { return rng.binade(-6, 1); }
// A subnormal of `dtype`, never zero (hardware that flushes subnormals fails on these).
float subnormal(Rng& rng, DType dtype);
// NaN, +inf, -inf or a subnormal of `dtype`.
float special_value(Rng& rng, DType dtype);
// An activation, or with probability p a special value.
float activation_or_special(Rng& rng, DType dtype, float p);

// `count` distinct slots out of [0, num_slots), in random order.
std::vector<int32_t> distinct_slots(Rng& rng, int64_t num_slots, int64_t count);
void shuffle(Rng& rng, std::vector<int32_t>& v);

// Row-major strides of `shape` with every outer stride widened by `row_extra` elements per row
// of the innermost dimension (a row view into a wider buffer).
std::vector<int64_t> padded_strides(const std::vector<int64_t>& shape, int64_t row_extra);

enum class RowKind { normal, overflow, nan, large, tiny, subnormal };
// The kind of row t: always normal unless special rows are on, then cycling through all.
RowKind row_kind(int64_t t, bool special_rows);
// An element of such a row in `dtype` (large and tiny scale to what the dtype can hold; in
// f16 a sum of squares cannot overflow, so its "overflow" row is merely large).
float row_value(Rng& rng, RowKind kind, DType dtype, bool nan_here);

// a and b [T, Hv], A_log and dt_bias [Hv]. With `threshold`, a + dt_bias lands within a few
// ulp of softplus's threshold of 20, on both sides.
void fill_gates(CaseMemory& m, int a, int b, int A_log, int dt_bias, Rng& rng, bool threshold, bool specials);

std::string dtype_text(DType t);
std::string dims_text(const std::vector<int64_t>& dims);  // "[4, 37]"

}  // namespace vt::opcheck::detail
