#include "support.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <map>

extern char** environ;

namespace vt::vulkan_test {

Runtime& runtime() {
  static Runtime rt{[] {
    Knobs k;
    k.plugins = std::vector<std::string>{VT_VULKAN_PLUGIN, VT_CPU_PLUGIN};
    return k;
  }()};
  rt.load();
  return rt;
}

std::string why_no_device() {
  Runtime& rt = runtime();
  if (!rt.devices("vulkan").empty()) return "";
  for (const PluginReport& p : rt.plugins())
    if (p.backend == "vulkan") return p.loaded ? "the plugin loaded with no device" : p.reason;
  return "the plugin was not found";
}

Device vulkan_device() { return runtime().device("vulkan:0"); }
Device cpu_device() { return runtime().device("cpu:0"); }

ChildResult run_child(const std::vector<std::string>& args,
                      const std::vector<std::pair<std::string, const char*>>& env) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; *e; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq) vars[std::string(*e, static_cast<size_t>(eq - *e))] = eq + 1;
  }
  for (const auto& [name, value] : env) {
    if (value) {
      vars[name] = value;
    } else {
      vars.erase(name);
    }
  }
  std::vector<std::string> env_text;
  for (const auto& [name, value] : vars) env_text.push_back(name + "=" + value);
  std::vector<char*> envp, argv;
  for (std::string& s : env_text) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> all = {VT_VULKAN_CHILD};
  all.insert(all.end(), args.begin(), args.end());
  for (std::string& s : all) argv.push_back(s.data());
  argv.push_back(nullptr);

  ChildResult r;
  int fds[2];
  if (pipe(fds) != 0) return r;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    r.output = "posix_spawn failed: " + std::string(std::strerror(spawned));
    return r;
  }
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) r.output.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

}  // namespace vt::vulkan_test
