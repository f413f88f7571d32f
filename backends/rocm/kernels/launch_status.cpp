#include <string>

#include "../rocm_backend.hpp"
#include "launch.hpp"

namespace vt::rocm::kern {

vt_status launch_status(const char* op) {
  return check(hipGetLastError(), (std::string(op) + ": kernel launch").c_str());
}

vt_status launch_error(const char* message) {
  return fail(VT_STATUS_INVALID_ARGUMENT, std::string("rocm: ") + message);
}

}  // namespace vt::rocm::kern
