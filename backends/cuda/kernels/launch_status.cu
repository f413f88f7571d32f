#include <string>

#include "../cuda_backend.hpp"
#include "launch.hpp"

namespace vt::cuda::kern {

vt_status launch_status(const char* op) {
  const cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return VT_OK;  // the message below costs an allocation: only for errors
  return check(e, (std::string(op) + ": kernel launch").c_str());
}

vt_status launch_error(const char* message) {
  return fail(VT_STATUS_INVALID_ARGUMENT, std::string("cuda: ") + message);
}

}  // namespace vt::cuda::kern
