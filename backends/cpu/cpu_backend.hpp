// The CPU plugin's internals: one device (the host), host memory, synchronous queues.
#pragma once
#include "vt/plugin_abi.h"

namespace vt::cpu {

extern const vt_device_api kDeviceApi;

// The op providers this plugin registers (cpu_providers.cpp).
const vt_provider_desc* providers(uint32_t* count);

// Records the calling thread's error for the core and returns `status`.
vt_status fail(vt_status status, const char* message);
void set_host(const vt_host_api* host);

}  // namespace vt::cpu
