#include "device_axis.hpp"

#include <algorithm>
#include <cctype>

#include "expectations.hpp"

namespace vt::parity {

Runtime& parity_runtime() {
  static Runtime rt{Knobs{}};
  rt.load();  // once; later calls return at once
  return rt;
}

std::vector<std::string> device_names() {
  std::vector<std::string> names;
  for (const Device& d : parity_runtime().devices()) names.push_back(d.name());
  return names;
}

std::vector<BackendState> backend_states() {
  std::vector<BackendState> out;
  auto find = [&](const std::string& b) {
    return std::find_if(out.begin(), out.end(), [&](const BackendState& s) { return s.backend == b; });
  };
  for (const PluginReport& p : parity_runtime().plugins()) {
    const std::string name = p.backend.empty() ? p.path : p.backend;
    auto it = find(name);
    if (it == out.end()) it = out.insert(out.end(), BackendState{name, false, ""});
    if (p.loaded && p.device_count > 0) {
      it->runs = true;
      it->reason.clear();
    } else if (!it->runs) {
      it->reason = p.loaded ? "loaded from " + p.path + " but it reports no device" : p.reason + " (" + p.path + ")";
    }
  }
  for (const BackendExpectation& e : backend_expectations())
    if (find(e.backend) == out.end())
      out.push_back({e.backend, false, "no plugin found in the search path (not built, or installed elsewhere)"});
  return out;
}

void PrintTo(const BackendState& b, std::ostream* os) { *os << b.backend; }

std::string test_name_part(const std::string& name) {
  std::string s = name;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

}  // namespace vt::parity
