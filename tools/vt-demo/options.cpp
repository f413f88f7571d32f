#include "options.hpp"

#include <stdexcept>
#include <string_view>

namespace vt::demo {

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--json") {
      o.json = true;
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--device") {
      if (i + 1 >= argc) throw std::invalid_argument("--device needs a device or backend name");
      o.device = argv[++i];
    } else if (a.rfind("--device=", 0) == 0) {
      o.device = std::string(a.substr(9));
    } else if (a == "--help" || a == "-h") {
      o.help = true;
    } else {
      throw std::invalid_argument("unknown argument '" + std::string(a) + "'");
    }
  }
  return o;
}

const char* usage() {
  return "usage: vt-demo [--json] [--quick] [--device NAME]\n"
         "  Runs a Qwen3.5-shaped Gated DeltaNet step (C = 8192: Hk = 16, Hv = 32, Dk = Dv = 128,\n"
         "  K = 4, bf16 activations, f32 state) on every loaded device: a prefill (conv + post-conv)\n"
         "  and a decode step (conv update + post-conv), with the provider that ran, the median\n"
         "  time, bandwidth against the floor bytes, and parity with the scalar reference.\n"
         "  --json          machine-readable output\n"
         "  --quick         smaller shapes\n"
         "  --device NAME   only this device (\"<backend>:<index>\") or this backend's devices\n"
         "Exit status: 0, or 1 when an op failed or wrote outside its outputs (or left one unwritten).\n";
}

}  // namespace vt::demo
