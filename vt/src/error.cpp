#include "vt/error.hpp"

namespace vt {

const char* status_name(Status s) noexcept {
  switch (s) {
    case Status::ok: return "ok";
    case Status::invalid_argument: return "invalid argument";
    case Status::out_of_memory: return "out of memory";
    case Status::unsupported: return "unsupported";
    case Status::device_error: return "device error";
    case Status::declined: return "declined";
    case Status::internal: return "internal error";
    case Status::not_found: return "not found";
    case Status::plugin_required: return "required plugin missing";
    case Status::strict_fallback: return "strict provider fallback";
  }
  return "unknown status";
}

Error::Error(Status code, const std::string& message) : std::runtime_error(message), code_(code) {}

}  // namespace vt
