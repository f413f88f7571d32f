#include <string>

#include "../cuda_backend.hpp"
#include "launch.hpp"

namespace vt::cuda::kern {

vt_status launch_status(const char* op) {
  return check(cudaGetLastError(), (std::string(op) + ": kernel launch").c_str());
}

vt_status launch_error(const char* message) { return fail(VT_STATUS_INVALID_ARGUMENT, std::string("cuda: ") + message); }

}  // namespace vt::cuda::kern
