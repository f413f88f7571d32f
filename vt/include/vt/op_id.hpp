// The ops the registry knows, by id and stable name.
#pragma once
#include <array>
#include <optional>
#include <string_view>

#include "vt/plugin_abi.h"

namespace vt {

inline constexpr std::array<vt_op_id, VT_OP_LAST_> kAllOps = {VT_OP_CAUSAL_CONV1D_FWD, VT_OP_CAUSAL_CONV1D_UPDATE,
                                                              VT_OP_GDN_POST_CONV,     VT_OP_L2NORM,
                                                              VT_OP_GDN_GATING,        VT_OP_GDN_SPLIT};

constexpr bool op_is_known(int64_t raw) { return raw >= 1 && raw <= VT_OP_LAST_; }

constexpr std::string_view op_name(vt_op_id op) {
  switch (op) {
    case VT_OP_CAUSAL_CONV1D_FWD: return "causal_conv1d_fwd";
    case VT_OP_CAUSAL_CONV1D_UPDATE: return "causal_conv1d_update";
    case VT_OP_GDN_POST_CONV: return "gdn_post_conv";
    case VT_OP_L2NORM: return "l2norm";
    case VT_OP_GDN_GATING: return "gdn_gating";
    case VT_OP_GDN_SPLIT: return "gdn_split";
    default: break;
  }
  return "unknown_op";
}

constexpr std::optional<vt_op_id> op_from_name(std::string_view s) {
  for (vt_op_id op : kAllOps)
    if (op_name(op) == s) return op;
  return std::nullopt;
}

}  // namespace vt
