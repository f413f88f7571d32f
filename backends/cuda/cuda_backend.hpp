// The CUDA plugin's internals shared by its files.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "vt/plugin_abi.h"

struct vt_queue_s {
  int device;
  cudaStream_t stream;
  bool bulk_copies;   // the device has sm_90's bulk copy engine (the conv prefill's staged x)
  bool early_launch;  // the device can start a kernel while the one before it drains (sm_90)
};

struct vt_event_s {
  int device;
  cudaEvent_t event;
};

struct vt_graph_s {
  cudaGraphExec_t exec;
};

namespace vt::cuda {

extern const vt_device_api kDeviceApi;

const vt_provider_desc* providers(uint32_t* count);

void set_host(const vt_host_api* host);
const vt_host_api* host();

// Records the calling thread's error message for the core and returns `status`.
vt_status fail(vt_status status, const std::string& message);
// Turns a CUDA error into a status with "cuda: <what>: <error name>: <text>".
vt_status check(cudaError_t err, const char* what);

inline char* ptr(vt_mem mem) { return reinterpret_cast<char*>(mem); }

// Makes `device` current on the calling thread; every entry that allocates or launches
// calls it first, since the host may use several devices from one thread.
vt_status use_device(int device);

}  // namespace vt::cuda

#define VT_CUDA_TRY(call, what)                                          \
  do {                                                                   \
    const vt_status vt_cuda_status_ = ::vt::cuda::check((call), (what)); \
    if (vt_cuda_status_ != VT_OK) return vt_cuda_status_;                \
  } while (0)
