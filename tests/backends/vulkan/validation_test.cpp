// A workload of every op, copies and events under the Khronos validation layer, in a child
// process (the layer is switched on through the loader's environment). Skipped when the
// layer is not installed (Debian: vulkan-validationlayers).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "support.hpp"

namespace vt::vulkan_test {
namespace {

bool validation_layer_installed() {
  std::vector<std::string> dirs = {"/usr/share/vulkan/explicit_layer.d", "/usr/local/share/vulkan/explicit_layer.d",
                                   "/etc/vulkan/explicit_layer.d"};
  for (const char* var : {"VK_LAYER_PATH", "VK_ADD_LAYER_PATH"})
    if (const char* v = std::getenv(var)) dirs.push_back(v);
  for (const std::string& d : dirs)
    if (std::filesystem::exists(d + "/VkLayer_khronos_validation.json")) return true;
  return false;
}

TEST(VulkanValidation, AWorkloadOfEveryOpIsClean) {
  VT_SKIP_WITHOUT_VULKAN();
  if (!validation_layer_installed()) GTEST_SKIP() << "VK_LAYER_KHRONOS_validation is not installed";
  // Synchronization validation checks the barriers between batched commands. Under ASan the
  // layer leaks some of its own state with it (1.3.239), so leak checks are off in this child.
  const ChildResult r =
      run_child({"workload"}, {{"VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation"},
                               {"VK_LOADER_DEBUG", "layer"},
                               {"VK_LAYER_ENABLES", "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT"},
                               {"ASAN_OPTIONS", "detect_leaks=0"}});
  // The loader says which layers it inserted: proof that the layer ran at all.
  EXPECT_NE(r.output.find("VK_LAYER_KHRONOS_validation"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Validation Error"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Validation Warning"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("VUID-"), std::string::npos) << r.output;
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

}  // namespace
}  // namespace vt::vulkan_test
