// The one error model of the public C++ API: every failure is thrown as vt::Error.
// Its message names the op or plugin and the rule broken; code() classifies it.
#pragma once
#include <stdexcept>
#include <string>

#include "vt/export.hpp"
#include "vt/plugin_abi.h"

namespace vt {

enum class Status : int {
  ok = VT_OK,
  invalid_argument = VT_STATUS_INVALID_ARGUMENT,
  out_of_memory = VT_STATUS_OUT_OF_MEMORY,
  unsupported = VT_STATUS_UNSUPPORTED,
  device_error = VT_STATUS_DEVICE_ERROR,
  declined = VT_STATUS_DECLINED,
  internal = VT_STATUS_INTERNAL,
  not_found = 100,        // no such device, backend, or provider
  plugin_required = 101,  // VT_REQUIRE named a backend that did not load cleanly
  strict_fallback = 102,  // strict mode refused a slower provider
};

VT_API const char* status_name(Status s) noexcept;

class VT_API Error : public std::runtime_error {
 public:
  Error(Status code, const std::string& message);
  Status code() const noexcept { return code_; }

 private:
  Status code_;
};

}  // namespace vt
