// vt-info: which plugins were found, loaded or skipped (and why), the devices and their
// properties, and every op's providers per backend in selection order.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "vt/tools/json.hpp"
#include "vt/vt.hpp"

namespace {

using vt::tools::json_string;

std::string caps_text(const vt::DeviceProperties& p) {
  std::string s;
  auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!s.empty()) s += ' ';
    s += name;  // not "" + std::string(name): GCC 12 at -O3 warns (-Wrestrict) on that
  };
  add(p.unified_memory, "unified-memory");
  add(p.async_readback, "async-readback");
  add(p.second_queue, "second-queue");
  add(p.graph_capture, "graph-capture");
  add(p.storage_16bit, "16bit-storage");
  add(p.flushes_subnormals, "flushes-subnormals");
  add(p.pinned_host, "pinned-host");
  return s.empty() ? "none" : s;
}

void print_text(vt::Runtime& rt, const std::string& load_error) {
  std::printf("vt-info\n\nplugin search path:\n");
  if (rt.knobs().plugins) std::printf("  (VT_PLUGINS set: only the listed files)\n");
  else
    for (const auto& d : rt.search_path()) std::printf("  %s\n", d.c_str());

  std::printf("\nplugins:\n");
  if (rt.plugins().empty()) std::printf("  none found\n");
  for (const auto& p : rt.plugins()) {
    std::printf("  %s: %s, %s\n", p.backend.empty() ? "?" : p.backend.c_str(), p.loaded ? "loaded" : "skipped",
                p.path.c_str());
    if (!p.loaded) std::printf("      reason: %s\n", p.reason.c_str());
    for (const auto& n : p.notes) std::printf("      note: %s\n", n.c_str());
  }
  if (!load_error.empty()) std::printf("\nerror: %s\n", load_error.c_str());

  std::printf("\ndevices:\n");
  if (rt.devices().empty()) std::printf("  none\n");
  for (const auto& d : rt.devices()) {
    const auto& p = d.properties();
    std::printf("  %s: %s\n", d.name().c_str(), p.name.c_str());
    std::printf("      arch %s, compute %u.%u, %u compute units, subgroup %u\n", p.arch.c_str(), p.compute_major,
                p.compute_minor, p.compute_units, p.subgroup_size);
    std::printf("      memory %.1f GiB, shared memory %llu KiB\n", static_cast<double>(p.memory_bytes) / (1u << 30),
                static_cast<unsigned long long>(p.shared_memory_bytes / 1024));
    std::printf("      capabilities: %s\n", caps_text(p).c_str());
  }

  std::printf("\nop providers (selection order):\n");
  for (vt_op_id op : vt::kAllOps) {
    std::printf("  %s\n", std::string(vt::op_name(op)).c_str());
    bool any = false;
    for (const auto& backend : rt.backends()) {
      const auto list = rt.registry().providers(op, backend);
      if (list.empty()) continue;
      any = true;
      std::string line;
      for (const auto& p : list)
        line += (line.empty() ? "" : " > ") + p.name + " (" + std::to_string(p.priority) +
                (p.disabled ? ", disabled" : "") + ")";
      std::printf("    %-10s %s\n", backend.c_str(), line.c_str());
      for (const auto& d : rt.devices(backend)) {
        std::string chain;
        for (const auto& n : rt.selection(op, d)) chain += (chain.empty() ? "" : " > ") + n;
        std::printf("      %-8s walks: %s\n", d.name().c_str(), chain.empty() ? "(none usable)" : chain.c_str());
      }
      // The knobs that steer each provider (vt_provider_desc::knobs); one that lists none
      // is left out.
      for (const auto& p : list) {
        if (p.knobs && p.knobs->empty()) continue;
        std::string knobs;
        for (const auto& k : p.knobs.value_or(std::vector<std::string>{})) knobs += (knobs.empty() ? "" : ", ") + k;
        std::printf("      knobs of %s: %s\n", p.name.c_str(),
                    p.knobs ? knobs.c_str() : "any (its descriptor predates ABI 1.2)");
      }
    }
    if (!any) std::printf("    (no providers)\n");
  }
}

void print_json(vt::Runtime& rt, const std::string& load_error) {
  std::string j = "{\n  \"search_path\": [";
  bool first = true;
  for (const auto& d : rt.search_path()) {
    j += (first ? "" : ", ") + json_string(d);
    first = false;
  }
  j += "],\n  \"explicit_plugins\": ";
  j += rt.knobs().plugins ? "true" : "false";
  j += ",\n  \"plugins\": [";
  first = true;
  for (const auto& p : rt.plugins()) {
    j += first ? "\n" : ",\n";
    first = false;
    j += "    {\"path\": " + json_string(p.path) + ", \"backend\": " + json_string(p.backend) +
         ", \"loaded\": " + (p.loaded ? "true" : "false") + ", \"reason\": " + json_string(p.reason) +
         ", \"abi\": " + json_string(std::to_string(p.abi_major) + "." + std::to_string(p.abi_minor)) +
         ", \"devices\": " + std::to_string(p.device_count) + ", \"notes\": [";
    for (size_t i = 0; i < p.notes.size(); ++i) j += (i ? ", " : "") + json_string(p.notes[i]);
    j += "]}";
  }
  j += "\n  ],\n  \"error\": " + (load_error.empty() ? std::string("null") : json_string(load_error));
  j += ",\n  \"devices\": [";
  first = true;
  for (const auto& d : rt.devices()) {
    const auto& p = d.properties();
    j += first ? "\n" : ",\n";
    first = false;
    j += "    {\"name\": " + json_string(d.name()) + ", \"backend\": " + json_string(d.backend()) +
         ", \"model\": " + json_string(p.name) + ", \"arch\": " + json_string(p.arch) + ", \"compute_version\": " +
         json_string(std::to_string(p.compute_major) + "." + std::to_string(p.compute_minor)) +
         ", \"compute_units\": " + std::to_string(p.compute_units) +
         ", \"subgroup_size\": " + std::to_string(p.subgroup_size) +
         ", \"memory_bytes\": " + std::to_string(p.memory_bytes) +
         ", \"shared_memory_bytes\": " + std::to_string(p.shared_memory_bytes) +
         ", \"unified_memory\": " + (p.unified_memory ? "true" : "false") +
         ", \"async_readback\": " + (p.async_readback ? "true" : "false") +
         ", \"second_queue\": " + (p.second_queue ? "true" : "false") +
         ", \"graph_capture\": " + (p.graph_capture ? "true" : "false") +
         ", \"storage_16bit\": " + (p.storage_16bit ? "true" : "false") +
         ", \"flushes_subnormals\": " + (p.flushes_subnormals ? "true" : "false") +
         ", \"pinned_host\": " + (p.pinned_host ? "true" : "false") + "}";
  }
  j += "\n  ],\n  \"ops\": {";
  first = true;
  for (vt_op_id op : vt::kAllOps) {
    j += (first ? "\n    " : ",\n    ") + json_string(vt::op_name(op)) + ": {";
    first = false;
    bool first_backend = true;
    for (const auto& backend : rt.backends()) {
      j += (first_backend ? "" : ", ") + json_string(backend) + ": [";
      first_backend = false;
      bool first_p = true;
      for (const auto& p : rt.registry().providers(op, backend)) {
        std::string knobs = "null";  // a descriptor before ABI 1.2: every knob
        if (p.knobs) {
          knobs = "[";
          for (size_t i = 0; i < p.knobs->size(); ++i) knobs += (i ? ", " : "") + json_string((*p.knobs)[i]);
          knobs += "]";
        }
        j += (first_p ? "" : ", ") + std::string("{\"name\": ") + json_string(p.name) +
             ", \"priority\": " + std::to_string(p.priority) + ", \"disabled\": " + (p.disabled ? "true" : "false") +
             ", \"knobs\": " + knobs + "}";
        first_p = false;
      }
      j += "]";
    }
    j += "}";
  }
  j += "\n  }\n}\n";
  std::fputs(j.c_str(), stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf(
          "usage: vt-info [--json]\n\nShows the plugins found (loaded or skipped, with the reason), the devices\n"
          "and their properties, and each op's providers per backend in selection order.\n\nknobs:\n");
      for (const auto& k : vt::Knobs::specs()) std::printf("  %-28s %-24s %s\n", k.name, k.accepted, k.meaning);
      return 0;
    } else {
      std::fprintf(stderr, "vt-info: unknown argument '%s' (try --help)\n", argv[i]);
      return 2;
    }
  }
  vt::Runtime rt;
  std::string load_error;
  try {
    rt.load();
  } catch (const vt::Error& e) {
    load_error = e.what();
  }
  if (json) print_json(rt, load_error);
  else print_text(rt, load_error);
  return load_error.empty() ? 0 : 1;
}
