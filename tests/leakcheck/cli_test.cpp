// The command line: options, output formats and exit codes, in-process and through the binary.
#include "cli.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "temp_tree.hpp"

namespace vt::leakcheck::testing {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Cli, DefaultIsTheReport) {
  TempTree tree;
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "bucket           found  baseline\ncuda.api             0         0\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "exemptions: none\nallowlist: none\n\nverdict: clean\n")) << r.out;
  EXPECT_EQ(tree.run({"--report"}).out, r.out);
}

TEST(Cli, ListShowsEveryHit) {
  TempTree tree;
  tree.write("ops/a.hpp",
             "int x;\nint y = hipMalloc(&p, n);  // vt-leakcheck: allow(hip.api) listed too\n"
             "int z = VK_SUCCESS;\n");
  const RunResult r = tree.run({"--list"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "ops/a.hpp:2: hip.api: hipMalloc  [exempt]\nops/a.hpp:3: vulkan.api: VK_SUCCESS\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "verdict: FAIL")) << r.out;
}

TEST(Cli, Json) {
  TempTree tree;
  tree.write("vt/a.cpp", "int x;\nint y = hipMalloc(&p, n);\n");
  tree.write("vt/b.cpp", R"src(open("rocm:\"1");)src");
  const RunResult r = tree.run({"--json"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "\"files_scanned\": 2,")) << r.out;
  EXPECT_TRUE(contains(r.out, "{\"name\": \"hip.api\", \"found\": 1, \"baseline\": 0, \"status\": \"leak\"}")) << r.out;
  EXPECT_TRUE(contains(r.out,
                       "{\"file\": \"vt/a.cpp\", \"line\": 2, \"bucket\": \"hip.api\", \"text\": "
                       "\"hipMalloc\", \"status\": \"counted\"}"))
      << r.out;
  EXPECT_TRUE(contains(r.out, R"x("text": "\"rocm:\\\"1\"")x")) << r.out;
  EXPECT_TRUE(contains(r.out, "\"problems\": [\n    \"leak: hip.api has 1 hit, baseline 0\",\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "\"verdict\": \"fail\"\n}\n")) << r.out;
}

TEST(Cli, JsonListsExemptionsAndTheAllowlist) {
  TempTree tree;
  tree.write("vt/a.cpp", "int y = hipMalloc(&p, n);  // vt-leakcheck: allow(hip.api) the adapter's own call\n");
  tree.write("vt/b.cpp", "int z = VK_SUCCESS;\n");
  tree.add_config_line("allow vt/b.cpp vulkan.api 1 kept: an error code table");
  const RunResult r = tree.run({"--json"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "\"bucket\": \"hip.api\", \"text\": \"hipMalloc\", \"status\": \"exempt\"}")) << r.out;
  EXPECT_TRUE(contains(r.out, "\"bucket\": \"vulkan.api\", \"text\": \"VK_SUCCESS\", \"status\": \"allowlisted\"}"))
      << r.out;
  EXPECT_TRUE(contains(r.out,
                       "\"exemptions\": [\n    {\"file\": \"vt/a.cpp\", \"line\": 1, \"bucket\": \"hip.api\", "
                       "\"hits\": 1, \"reason\": \"the adapter's own call\"}\n  ],"))
      << r.out;
  EXPECT_TRUE(contains(r.out,
                       "\"allowlist\": [\n    {\"file\": \"vt/b.cpp\", \"bucket\": \"vulkan.api\", \"count\": 1, "
                       "\"found\": 1, \"reason\": \"kept: an error code table\", \"stale\": false}\n  ],"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "\"verdict\": \"clean\"")) << r.out;
}

TEST(Cli, JsonWhenClean) {
  TempTree tree;
  const RunResult r = tree.run({"--json"});
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(contains(r.out, "\"hits\": [],\n  \"exemptions\": [],\n  \"allowlist\": [],\n  \"problems\": [],\n"))
      << r.out;
}

TEST(Cli, DefaultConfigIsUnderTheRoot) {
  TempTree tree;
  tree.write("tools/leakcheck/vt.leakcheck", tree.read("vt.leakcheck"));
  tree.write("vt/a.cpp", "int y = hipMalloc(&p, n);\n");
  std::ostringstream out;
  std::ostringstream err;
  const int code = run_cli({"--root=" + tree.root().string()}, out, err);
  EXPECT_EQ(code, 1) << err.str();
  EXPECT_TRUE(contains(out.str(), "(config tools/leakcheck/vt.leakcheck)")) << out.str();
}

TEST(Cli, BadUsageExitsTwo) {
  TempTree tree;
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--frobnicate"}, {"--list", "--json"}, {"--config"}, {"--root", "/nonexistent/vt-leakcheck"}}) {
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_cli(args, out, err), 2) << args[0];
    EXPECT_TRUE(contains(err.str(), "vt-leakcheck: ")) << err.str();
  }
}

TEST(Cli, Help) {
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(run_cli({"--help"}, out, err), 0);
  EXPECT_TRUE(contains(out.str(), "--write-baseline"));
}

int run_binary(const TempTree& tree, const std::string& args) {
  const std::string command = "\"" VT_LC_BINARY "\" --root \"" + tree.root().string() + "\" --config \"" +
                              tree.config().string() + "\" " + args + " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Cli, BinaryExitCodes) {
  TempTree tree;
  EXPECT_EQ(run_binary(tree, ""), 0);
  tree.write("reference/a.cpp", "#ifdef VT_WITH_VULKAN\n#endif\n");
  EXPECT_EQ(run_binary(tree, ""), 1);
  EXPECT_EQ(run_binary(tree, "--bogus"), 2);
}

}  // namespace
}  // namespace vt::leakcheck::testing
