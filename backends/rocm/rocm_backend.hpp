// The ROCm plugin's internals shared by its files: the objects behind the ABI's handles and
// the turning of HIP errors into vt statuses.
#pragma once
#include <string>

#include "hip_api.hpp"
#include "vt/plugin_abi.h"

struct vt_queue_s {
  int device;
  hipStream_t stream;
};

struct vt_event_s {
  int device;
  hipEvent_t event;
};

struct vt_graph_s {
  hipGraphExec_t exec;
};

namespace vt::rocm {

extern const vt_device_api kDeviceApi;
// Sets the queue, event and graph entries of the table (rocm_queue.cpp).
void fill_queue_entries(vt_device_api& d);

const vt_provider_desc* providers(uint32_t* count);

void set_host(const vt_host_api* host);

// Records the calling thread's error message for the core and returns `status`.
vt_status fail(vt_status status, const std::string& message);
// Turns a HIP error into VT_STATUS_DEVICE_ERROR with "rocm: <what>: <error name>: <text>".
vt_status check(hipError_t err, const char* what);

inline char* ptr(vt_mem mem) { return reinterpret_cast<char*>(mem); }

// Makes `device` current on the calling thread; every entry that allocates or launches calls
// it first, since the host may drive several devices from one thread.
vt_status use_device(int device);

}  // namespace vt::rocm

#define VT_HIP_TRY(call, what)                                          \
  do {                                                                  \
    const vt_status vt_hip_status_ = ::vt::rocm::check((call), (what)); \
    if (vt_hip_status_ != VT_OK) return vt_hip_status_;                 \
  } while (0)
