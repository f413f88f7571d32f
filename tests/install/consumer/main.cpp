// A host program built against the installed vt. Usage: vt_consumer <installed plugin folder>.
// The CPU plugin must come from that folder with no environment variable set, and work.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <vt/vt.hpp>

namespace {

int fail(const std::string& why) {
  std::fprintf(stderr, "vt_consumer: %s\n", why.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return fail("usage: vt_consumer <installed plugin folder>");
  for (const char* var : {"VT_PLUGINS", "VT_PLUGIN_PATH", "LD_LIBRARY_PATH"})
    if (std::getenv(var)) return fail(std::string(var) + " is set: this test needs it unset");
  char real[PATH_MAX];
  if (!realpath(argv[1], real)) return fail(std::string("no such folder: ") + argv[1]);
  const std::string plugin_dir = real;  // the loader reports canonical folders

  try {
    vt::Runtime rt;
    rt.load();
    const vt::PluginReport* cpu = nullptr;
    for (const vt::PluginReport& r : rt.plugins()) {
      std::printf("plugin %s: %s %s\n", r.path.c_str(), r.loaded ? "loaded" : "skipped:", r.reason.c_str());
      if (r.loaded && r.backend == "cpu") cpu = &r;
    }
    if (!cpu) return fail("the cpu backend did not load");
    if (cpu->path.rfind(plugin_dir + "/", 0) != 0)
      return fail("the cpu plugin came from " + cpu->path + ", not from the installed " + plugin_dir);

    const vt::Device dev = rt.device("cpu:0");
    vt::Buffer buf = dev.alloc(256);
    vt::Queue q = dev.create_queue();
    std::vector<unsigned char> in(256), out(256);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned char>(i * 7 + 3);
    q.upload(buf, 0, in.data(), in.size());
    q.download(out.data(), buf, 0, out.size());
    // Into host memory from the device too: HostBuffer's symbols from the installed libvt.
    vt::HostBuffer host = dev.alloc_host(256);
    q.download(host.data(), buf, 0, host.size());
    q.sync();
    if (in != out) return fail("cpu:0 returned different bytes than were uploaded");
    if (std::memcmp(host.data(), in.data(), in.size()) != 0)
      return fail("cpu:0 downloaded other bytes into a HostBuffer");
    std::printf("vt_consumer: ok: %s (%s)\n", dev.name().c_str(), dev.properties().name.c_str());
  } catch (const vt::Error& e) {
    return fail(e.what());
  }
  return 0;
}
