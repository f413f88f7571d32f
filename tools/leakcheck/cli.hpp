// The command line of vt-leakcheck, callable in-process so tests run it without a subprocess.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace vt::leakcheck {

// `args` excludes the program name. Returns the exit code: 0 clean, 1 leak or stale state,
// 2 bad usage or an unreadable or malformed config or baseline.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace vt::leakcheck
