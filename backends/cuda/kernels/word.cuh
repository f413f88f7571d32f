// The word that moves `Bytes` bytes in one load or store. Only CUDA's vector types, so that
// the benches (backends/cuda/bench) can include it alone.
#pragma once
#include <vector_types.h>

namespace vt::cuda::kern {

template <int Bytes>
struct Word;
template <>
struct Word<16> {
  using type = uint4;
};
template <>
struct Word<8> {
  using type = uint2;
};
template <>
struct Word<4> {
  using type = unsigned int;
};
template <>
struct Word<2> {
  using type = unsigned short;
};

}  // namespace vt::cuda::kern
