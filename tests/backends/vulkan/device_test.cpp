// Device listing and properties, VT_VULKAN_DEVICE, and the plugin's init result without a
// Vulkan driver.
#include <gtest/gtest.h>

#include "support.hpp"

namespace vt::vulkan_test {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(VulkanDevice, ListsDevicesWithTheirProperties) {
  VT_SKIP_WITHOUT_VULKAN();
  const std::vector<Device> devices = runtime().devices("vulkan");
  for (size_t i = 0; i < devices.size(); ++i) {
    const Device& d = devices[i];
    EXPECT_EQ(d.name(), "vulkan:" + std::to_string(i));
    const DeviceProperties& p = d.properties();
    SCOPED_TRACE(d.name() + " " + p.name + " (" + p.arch + ")");
    EXPECT_FALSE(p.name.empty());
    EXPECT_FALSE(p.arch.empty());  // the driver's name and version
    EXPECT_TRUE(p.compute_major > 1 || (p.compute_major == 1 && p.compute_minor >= 2));  // Vulkan 1.2+
    EXPECT_GE(p.subgroup_size, 1u);
    EXPECT_EQ(p.subgroup_size & (p.subgroup_size - 1), 0u) << "a power of two";
    EXPECT_GE(p.shared_memory_bytes, 16384u);  // Vulkan's minimum for compute
    EXPECT_GT(p.memory_bytes, 0u);
    EXPECT_TRUE(p.storage_16bit);
    EXPECT_TRUE(p.async_readback);
    EXPECT_FALSE(p.graph_capture);
    // A unified device hands out host addresses, and only then.
    Buffer b = d.alloc(64);
    EXPECT_EQ(b.host_ptr() != nullptr, p.unified_memory);
  }
}

TEST(VulkanDevice, LavapipeReportsItsKnownLimits) {
  VT_SKIP_WITHOUT_VULKAN();
  const DeviceProperties& p = vulkan_device().properties();
  if (!has(p.arch, "llvmpipe")) GTEST_SKIP() << "vulkan:0 is " << p.name << ", not lavapipe";
  EXPECT_EQ(p.shared_memory_bytes, 32768u);
  EXPECT_TRUE(p.unified_memory);   // its one memory type is host-visible
  EXPECT_GE(p.subgroup_size, 4u);  // follows the CPU's vector width
}

TEST(VulkanDevice, ForcedDeviceIsTheOnlyOneListed) {
  VT_SKIP_WITHOUT_VULKAN();
  const ChildResult one = run_child({"report"}, {{"VT_VULKAN_DEVICE", "0"}});
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_TRUE(has(one.output, "plugin vulkan loaded=1")) << one.output;
  EXPECT_TRUE(has(one.output, "device vulkan:0 " + vulkan_device().properties().name)) << one.output;
  EXPECT_FALSE(has(one.output, "device vulkan:1")) << one.output;

  const ChildResult none = run_child({"report"}, {{"VT_VULKAN_DEVICE", "15"}});
  ASSERT_EQ(none.exit_code, 0) << none.output;
  EXPECT_TRUE(has(none.output, "loaded=0")) << none.output;
  EXPECT_TRUE(has(none.output, "unavailable: VT_VULKAN_DEVICE=15")) << none.output;
}

// A driver unloaded at vkDestroyInstance orphans its static allocations, which LeakSanitizer
// then reports against an unknown module (lavapipe on an AMD host failed every Vulkan test of
// the ASan build); the plugin keeps what the loader opened mapped.
TEST(VulkanDevice, DriversStayMappedUntilExit) {
  VT_SKIP_WITHOUT_VULKAN();
  const ChildResult r = run_child({"resident"}, {});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has(r.output, ", 0 unmapped at exit")) << r.output;
}

TEST(VulkanDevice, UnavailableWithTheReasonWithoutADriver) {
  const ChildResult r = run_child({"report"}, {{"VK_DRIVER_FILES", "/nonexistent"}, {"VK_ICD_FILENAMES", nullptr}});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has(r.output, "plugin vulkan loaded=0 reason=unavailable: no Vulkan device")) << r.output;
  EXPECT_TRUE(has(r.output, "VK_ERROR_INCOMPATIBLE_DRIVER")) << r.output;
  EXPECT_FALSE(has(r.output, "device vulkan:")) << r.output;
}

}  // namespace
}  // namespace vt::vulkan_test
