// Everything a host application needs from the core.
#pragma once
#include "vt/device.hpp"
#include "vt/dtype.hpp"
#include "vt/error.hpp"
#include "vt/knobs.hpp"
#include "vt/log.hpp"
#include "vt/op_id.hpp"
#include "vt/registry.hpp"
#include "vt/runtime.hpp"
#include "vt/tensor.hpp"
