// vt-demo's command line, parsed once.
#pragma once
#include <string>

namespace vt::demo {

struct Options {
  bool json = false;
  bool quick = false;  // smaller shapes
  std::string device;  // a device ("x:0") or a backend name; empty: every loaded device
  bool help = false;
};

// Throws std::invalid_argument with a message for an unknown or incomplete argument.
Options parse_options(int argc, char** argv);
const char* usage();

}  // namespace vt::demo
