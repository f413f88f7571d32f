// Errors and the current device: every HIP failure becomes a vt status with a message that
// names the plugin, the call and HIP's own name and text for the error.
#include <atomic>

#include "rocm_backend.hpp"

namespace vt::rocm {
namespace {

std::atomic<const vt_host_api*> g_host{nullptr};

}  // namespace

void set_host(const vt_host_api* h) { g_host.store(h); }

vt_status fail(vt_status status, const std::string& message) {
  if (const vt_host_api* h = g_host.load()) h->set_error(message.c_str());
  return status;
}

vt_status check(hipError_t err, const char* what) {
  if (err == hipSuccess) return VT_OK;
  (void)hipGetLastError();  // clear a non-sticky error so the next call starts clean
  return fail(VT_STATUS_DEVICE_ERROR,
              std::string("rocm: ") + what + ": " + hipGetErrorName(err) + ": " + hipGetErrorString(err));
}

vt_status use_device(int device) {
  int current = -1;
  if (hipGetDevice(&current) == hipSuccess && current == device) return VT_OK;
  VT_HIP_TRY(hipSetDevice(device), "hipSetDevice");
  return VT_OK;
}

}  // namespace vt::rocm
