// The instance and device selection: every physical device that can run the plugin's
// shaders becomes vulkan:N (GPUs before CPU implementations), or only the one that
// VT_VULKAN_DEVICE names. Opened once per process and never closed, like the plugin itself.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "vk_backend.hpp"

namespace vt::vulkan {
namespace {

struct Context {
  VkInstance instance = VK_NULL_HANDLE;
  std::vector<std::unique_ptr<Device>> devices;
};

// Allocated once and never freed: records the core releases at exit may still reach it.
Context* g_context = nullptr;
std::atomic<bool> g_closed{false};

struct Candidate {
  VkPhysicalDevice physical;
  VkPhysicalDeviceProperties props;
  uint32_t family;
  uint32_t queue_count;
  bool float64;
};

// Why a physical device cannot serve, or "" when it can (then `c` is filled).
std::string assess(VkPhysicalDevice pd, Candidate* c) {
  VkPhysicalDeviceProperties p{};
  vk.vkGetPhysicalDeviceProperties(pd, &p);
  const std::string name = p.deviceName;
  if (VK_API_VERSION_MAJOR(p.apiVersion) == 1 && VK_API_VERSION_MINOR(p.apiVersion) < 2)
    return name + ": Vulkan " + std::to_string(VK_API_VERSION_MINOR(p.apiVersion)) + ".x, 1.2 needed";

  auto f12 = vk_struct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto f11 = vk_struct<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  f11.pNext = &f12;
  auto f = vk_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  f.pNext = &f11;
  vk.vkGetPhysicalDeviceFeatures2(pd, &f);
  if (!f11.storageBuffer16BitAccess) return name + ": no storageBuffer16BitAccess (f16/bf16 tensors)";
  if (!f12.timelineSemaphore) return name + ": no timeline semaphores";

  const VkPhysicalDeviceLimits& l = p.limits;
  if (l.maxPerStageDescriptorStorageBuffers < VT_TENSOR_BINDINGS + 1)
    return name + ": " + std::to_string(l.maxPerStageDescriptorStorageBuffers) + " storage buffers per stage, " +
           std::to_string(VT_TENSOR_BINDINGS + 1) + " needed";
  if (l.maxComputeWorkGroupInvocations < VT_ROWS_GROUP || l.maxComputeWorkGroupSize[0] < VT_ROWS_GROUP)
    return name + ": work groups below " + std::to_string(VT_ROWS_GROUP) + " invocations";

  uint32_t n = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families.data());
  // The compute family with the most queues, timestamps preferred.
  int best = -1;
  for (uint32_t i = 0; i < n; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
    if (best < 0) {
      best = static_cast<int>(i);
      continue;
    }
    const auto& b = families[static_cast<uint32_t>(best)];
    const bool ts = families[i].timestampValidBits > 0, best_ts = b.timestampValidBits > 0;
    if ((ts && !best_ts) || (ts == best_ts && families[i].queueCount > b.queueCount)) best = static_cast<int>(i);
  }
  if (best < 0) return name + ": no compute queue";
  c->physical = pd;
  c->props = p;
  c->family = static_cast<uint32_t>(best);
  c->queue_count = std::min<uint32_t>(families[c->family].queueCount, 4);
  c->float64 = f.features.shaderFloat64 != 0;
  return "";
}

vt_status create_device(const Candidate& c, Device& d) {
  std::vector<float> priorities(c.queue_count, 1.0f);
  auto qi = vk_struct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  qi.queueFamilyIndex = c.family;
  qi.queueCount = c.queue_count;
  qi.pQueuePriorities = priorities.data();

  auto f12 = vk_struct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  f12.timelineSemaphore = VK_TRUE;
  auto f11 = vk_struct<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  f11.pNext = &f12;
  f11.storageBuffer16BitAccess = VK_TRUE;
  auto f = vk_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  f.pNext = &f11;
  f.features.shaderFloat64 = c.float64 ? VK_TRUE : VK_FALSE;  // the emulated-FMA shaders use it

  auto ci = vk_struct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);

  ci.pNext = &f;
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &qi;
  if (const vt_status s = check(vk.vkCreateDevice(c.physical, &ci, nullptr, &d.device), "vkCreateDevice"); s != VT_OK)
    return s;
  d.physical = c.physical;
  d.family = c.family;
  d.float64 = c.float64;
  d.queues.resize(c.queue_count);
  for (uint32_t i = 0; i < c.queue_count; ++i) vk.vkGetDeviceQueue(d.device, c.family, i, &d.queues[i]);
  d.queue_locks = std::make_unique<std::mutex[]>(c.queue_count);
  choose_memory_types(d);
  read_properties(d);
  vt_status s = create_layouts(d);
  if (s == VT_OK) s = mem_alloc(d.index, 16, &d.dummy);
  if (s != VT_OK) {
    release_pipelines(d);
    vk.vkDestroyDevice(d.device, nullptr);
  }
  return s;
}

// Releases everything still alive on the devices, then the devices and the instance. Runs at
// process exit, before the driver's own static destructors (it is registered after them).
void close_devices() {
  if (!g_context) return;
  for (auto& dp : g_context->devices) {
    Device& d = *dp;
    std::lock_guard<std::mutex> lock(d.live_lock);
    for (vt_queue q : d.live_queues) release_queue(q);
    for (vt_event e : d.live_events) release_event(e);
    for (vt_mem m : d.live_mems) release_mem(d, m);
    delete d.dummy;
    d.dummy = nullptr;
    release_pipelines(d);
    vk.vkDestroyDevice(d.device, nullptr);
  }
  vk.vkDestroyInstance(g_context->instance, nullptr);
  g_closed.store(true);
}

// Gives up on the instance when no device is usable.
OpenResult close_instance(OpenResult r) {
  vk.vkDestroyInstance(g_context->instance, nullptr);
  delete g_context;
  g_context = nullptr;
  return r;
}

OpenResult open(int64_t forced) {
  std::string why;
  if (!load_loader(&why)) return {VT_INIT_UNAVAILABLE, why};
  uint32_t version = VK_API_VERSION_1_0;
  if (vk.vkEnumerateInstanceVersion) vk.vkEnumerateInstanceVersion(&version);
  if (VK_API_VERSION_MINOR(version) < 2 && VK_API_VERSION_MAJOR(version) == 1)
    return {VT_INIT_UNAVAILABLE,
            "the Vulkan loader offers 1." + std::to_string(VK_API_VERSION_MINOR(version)) + ", 1.2 needed"};

  auto app = vk_struct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "vt";
  app.pEngineName = "vt";
  app.apiVersion = VK_API_VERSION_1_2;
  auto ici = vk_struct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  ici.pApplicationInfo = &app;
  auto* ctx = new Context;
  const std::set<std::string> before = loaded_objects();
  const VkResult r = vk.vkCreateInstance(&ici, nullptr, &ctx->instance);
  keep_loaded_since(before);
  if (r != VK_SUCCESS) {
    delete ctx;
    // No driver (VK_ERROR_INCOMPATIBLE_DRIVER) means no device here, not a broken plugin.
    const vt_init_result kind = r == VK_ERROR_INCOMPATIBLE_DRIVER ? VT_INIT_UNAVAILABLE : VT_INIT_FAILED;
    return {kind, "no Vulkan device: vkCreateInstance returned " + describe(r)};
  }
  g_context = ctx;
  if (!load_instance_functions(ctx->instance, &why)) return {VT_INIT_FAILED, why};

  uint32_t n = 0;
  vk.vkEnumeratePhysicalDevices(ctx->instance, &n, nullptr);
  std::vector<VkPhysicalDevice> physical(n);
  if (n) vk.vkEnumeratePhysicalDevices(ctx->instance, &n, physical.data());
  if (n == 0) return close_instance({VT_INIT_UNAVAILABLE, "no Vulkan device"});

  std::vector<Candidate> usable;
  std::string rejected;
  for (VkPhysicalDevice pd : physical) {
    Candidate c{};
    const std::string no = assess(pd, &c);
    if (no.empty()) {
      usable.push_back(c);
    } else {
      rejected += (rejected.empty() ? "" : "; ") + no;
      log(2, "vulkan: skipping " + no);
    }
  }
  if (usable.empty()) return close_instance({VT_INIT_UNAVAILABLE, "no usable Vulkan device (" + rejected + ")"});
  std::stable_partition(usable.begin(), usable.end(),
                        [](const Candidate& c) { return c.props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU; });
  if (forced >= 0) {
    if (forced >= static_cast<int64_t>(usable.size()))
      return close_instance({VT_INIT_UNAVAILABLE, "VT_VULKAN_DEVICE=" + std::to_string(forced) + " but there are " +
                                                      std::to_string(usable.size()) + " usable Vulkan devices"});
    usable = {usable[static_cast<size_t>(forced)]};
  }

  for (const Candidate& c : usable) {
    auto d = std::make_unique<Device>();
    d->index = static_cast<uint32_t>(ctx->devices.size());
    d->label = "vulkan:" + std::to_string(d->index);
    ctx->devices.push_back(std::move(d));  // listed before creation: mem_alloc finds it
    Device& dev = *ctx->devices.back();
    if (create_device(c, dev) != VT_OK) {
      log(1, std::string("vulkan: cannot open ") + c.props.deviceName);
      ctx->devices.pop_back();  // the failed device leaks its partial objects; it is never used
      continue;
    }
    log(2, dev.label + ": " + dev.props.name + " (" + dev.props.arch + ")");
  }
  if (ctx->devices.empty()) return close_instance({VT_INIT_FAILED, "no Vulkan device could be opened"});
  return {VT_INIT_READY, ""};
}

}  // namespace

OpenResult open_devices(int64_t forced) {
  static std::mutex m;
  static bool opened = false;
  static OpenResult result;
  std::lock_guard<std::mutex> lock(m);
  if (!opened) {
    result = open(forced);
    opened = true;
    if (result.result == VT_INIT_READY) {
      // Constructed after the driver's statics, so destroyed before them.
      static const struct Closer {
        ~Closer() { close_devices(); }
      } closer;
    }
  }
  return result;
}

bool closed() { return g_closed.load(); }

vt_status closed_error(const char* what) {
  return fail(VT_STATUS_DEVICE_ERROR, std::string("vulkan: ") + what + ": the devices were closed at process exit");
}

uint32_t device_count() { return g_context ? static_cast<uint32_t>(g_context->devices.size()) : 0; }

Device* device_at(uint32_t index) {
  if (!g_context || index >= g_context->devices.size()) return nullptr;
  return g_context->devices[index].get();
}

}  // namespace vt::vulkan
