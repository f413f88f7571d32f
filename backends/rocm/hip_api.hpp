// The one include for HIP: the real runtime headers, or, when nvcc compiles this backend for
// an NVIDIA GPU (VT_HIP_ON_CUDA), the project's mapping of the same calls onto CUDA.
#pragma once

#if defined(VT_HIP_ON_CUDA)
#include "hip_on_cuda.hpp"
#else
#include <hip/hip_runtime.h>
#endif
