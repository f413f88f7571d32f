// The Vulkan plugin's internals shared by its files: devices, memory, queues and events,
// and the functions each file provides. One file per object, as in backends/cpu/.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "shaders/params.h"
#include "vk_loader.hpp"
#include "vt/plugin_abi.h"

namespace vt::vulkan {

// ---- errors and logging (vk_error.cpp) ----

void set_host(const vt_host_api* host);
const vt_host_api* host();
void log(int level, const std::string& message);  // 0 error .. 3 debug
// Records the calling thread's error message for the core and returns `status`.
vt_status fail(vt_status status, const std::string& message);
const char* result_name(VkResult result);  // nullptr for a value it does not know
std::string describe(VkResult result);     // the name, or "VkResult <number>"
// VK_SUCCESS: VT_OK; otherwise fails with "vulkan: <what>: <VkResult name>".
vt_status check(VkResult result, const char* what);

// ---- devices (vk_instance.cpp, vk_props.cpp) ----

// The builds of every shader (vk_probe.cpp picks one per device): the device's own fma; the
// same keeping subnormal f32 values (for devices that flush them unless told); fma emulated
// exactly through double precision (for devices whose fma is not fused).
enum class ShaderBuild : uint32_t { native, denorm, f64_fma, count };
enum class Shader : uint32_t { conv_fwd, conv_update, rows, fma_probe, math_probe, count };

// A host-visible, persistently mapped buffer: staging memory and parameter blocks.
struct HostBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
  uint64_t size = 0;
};

struct Device {
  uint32_t index = 0;  // N of vulkan:N
  std::string label;   // "vulkan:N" for messages
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  vt_device_props props{};

  // Limits the plugin works within.
  uint64_t bind_alignment = 4;     // storage-buffer offsets (and 32-bit words)
  uint64_t max_binding_range = 0;  // bytes one storage-buffer binding can see
  uint64_t max_allocation = 0;
  uint32_t max_groups[3] = {};
  double timestamp_period_ns = 0;
  uint32_t timestamp_bits = 0;
  bool float64 = false;
  bool denorm_preserve = false;  // shaderDenormPreserveFloat32

  // Memory types: tensors, and host-visible staging.
  uint32_t device_type = 0;
  bool device_type_mapped = false;  // host-visible and coherent: mapped, published as unified
  uint32_t host_type = 0;

  // Queues of the compute family; vt queues share them round robin.
  uint32_t family = 0;
  std::vector<VkQueue> queues;
  std::unique_ptr<std::mutex[]> queue_locks;
  std::atomic<uint32_t> next_queue{0};

  // What is alive on the device: freeing memory waits for its queues, and the teardown at
  // process exit releases everything before the device itself.
  std::mutex live_lock;
  std::unordered_set<vt_queue> live_queues;
  std::unordered_set<vt_mem> live_mems;
  std::unordered_set<vt_event> live_events;

  // Pipelines (vk_pipeline.cpp).
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  VkPipelineCache cache = VK_NULL_HANDLE;
  std::once_flag build_once;
  ShaderBuild build = ShaderBuild::native;
  bool flushes_subnormals = false;  // the probe found f32 subnormals flushed in every build
  std::mutex pipeline_lock;
  std::vector<std::pair<uint64_t, VkPipeline>> pipelines;  // key: shader, path, width

  vt_mem dummy = nullptr;  // bound where an optional tensor is absent
};

// Opens the loader, the instance and every usable device (once per process); `forced`
// >= 0 keeps only that index of the usable devices (VT_VULKAN_DEVICE).
struct OpenResult {
  vt_init_result result = VT_INIT_FAILED;
  std::string reason;
};
OpenResult open_devices(int64_t forced);
uint32_t device_count();
Device* device_at(uint32_t index);  // nullptr when out of range
// True once the devices are closed at process exit. The Vulkan objects are gone then; a
// queue, buffer or event released later (by a static destructor) only frees its record.
bool closed();
vt_status closed_error(const char* what);

// Fills d.props and the limits from the physical device (vk_props.cpp).
void read_properties(Device& d);
vt_status device_props(uint32_t device, vt_device_props* out);

// ---- memory (vk_memory.cpp) ----

void choose_memory_types(Device& d);
vt_status create_host_buffer(Device& d, uint64_t bytes, HostBuffer* out);
void destroy_host_buffer(Device& d, HostBuffer& b);
void release_mem(Device& d, vt_mem mem);  // its buffer and memory; the record stays
vt_status mem_alloc(uint32_t device, uint64_t bytes, vt_mem* out);
void mem_free(uint32_t device, vt_mem mem);
void* mem_host_ptr(vt_mem mem);

// ---- queues (vk_queue.cpp) ----

// Work is recorded into the queue's current batch (a command buffer) and submitted when the
// batch fills or the host waits; a timeline semaphore counts finished batches.
constexpr uint32_t kBatches = 3;              // recording, and up to two in flight
constexpr uint32_t kBatchCommands = 64;       // commands per submission at most
constexpr uint64_t kStagingChunk = 4u << 20;  // staging is handed out in pieces of at most this
constexpr uint32_t kStagingChunks = 4;        // per batch; more submits the batch first
constexpr uint64_t kParamSlot = 512;          // bytes per dispatch's parameter block

struct Readback {  // a device-to-host copy finished by the host when its batch completes
  void* dst;
  const void* src;
  uint64_t bytes;
};

struct Batch {
  enum class State { idle, recording, submitted };
  State state = State::idle;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  HostBuffer params;
  uint64_t params_used = 0;
  std::vector<HostBuffer> staging;
  uint32_t staging_chunk = 0;
  uint64_t staging_used = 0;
  std::vector<Readback> readbacks;
  std::vector<std::pair<VkSemaphore, uint64_t>> waits;  // other queues' points to wait for
  uint64_t value = 0;                                   // the timeline value signalled when the batch completes
  uint32_t commands = 0;
};

// A piece of host-visible memory in the current batch.
struct Slice {
  VkBuffer buffer;
  uint64_t offset;
  char* host;
};

void release_queue(vt_queue q);  // waits, then destroys its Vulkan objects; the record stays
vt_status queue_create(uint32_t device, vt_queue* out);
void queue_destroy(vt_queue q);
vt_status queue_sync(vt_queue q);

// The following need q->lock held.
// Staging memory of `bytes` (<= kStagingChunk) in the current batch, which it begins if idle;
// may submit a batch whose staging is used up and continue in the next.
vt_status stage(vt_queue q, uint64_t bytes, Slice* out);
// A parameter block of the current batch.
vt_status param_slot(vt_queue q, Slice* out);
// The current batch ready for one more command (begun if idle, a barrier recorded so the
// command sees everything before it).
vt_status open_command(vt_queue q, Batch** out);
// Counts the command recorded since open_command; submits the batch when it is full.
vt_status close_command(vt_queue q);
// Submits the current batch if it is recording.
vt_status submit(vt_queue q);
// Waits on the host until the queue's timeline reaches `value`, then finishes the batches
// that completed (their readbacks).
vt_status wait_value(vt_queue q, uint64_t value);

// ---- copies (vk_copy.cpp) ----

vt_status mem_set(vt_queue q, vt_mem dst, uint64_t offset, uint8_t value, uint64_t bytes);
vt_status copy_h2d(vt_queue q, vt_mem dst, uint64_t offset, const void* src, uint64_t bytes);
vt_status copy_d2h(vt_queue q, void* dst, vt_mem src, uint64_t offset, uint64_t bytes);
vt_status copy_d2d(vt_queue q, vt_mem dst, uint64_t dst_offset, vt_mem src, uint64_t src_offset, uint64_t bytes);

// ---- events (vk_event.cpp) ----

void release_event(vt_event e);  // its query pool; the record stays
vt_status event_create(uint32_t device, vt_event* out);
void event_destroy(vt_event e);
vt_status event_record(vt_event e, vt_queue q);
vt_status queue_wait_event(vt_queue q, vt_event e);
vt_status event_sync(vt_event e);
vt_status event_elapsed_ms(vt_event start, vt_event end, float* ms);

// ---- shaders and pipelines (vk_shaders.cpp, vk_pipeline.cpp, vk_probe.cpp) ----

struct Spirv {
  const uint32_t* words;
  size_t bytes;
};
Spirv shader_code(Shader shader, ShaderBuild build);

vt_status create_layouts(Device& d);
void release_pipelines(Device& d);  // pipelines, layouts and the cache
// The pipeline of `shader` in `build`, with `specialisation` as its constant 0 (the conv
// width K, the row shader's roles; 0: none); created on first use and cached.
vt_status pipeline_for(Device& d, Shader shader, ShaderBuild build, int32_t specialisation, VkPipeline* out);
// The device's shader build, probed on first use.
ShaderBuild shader_build(Device& d);
// The pipeline in the device's own build.
vt_status pipeline(Device& d, Shader shader, int32_t specialisation, VkPipeline* out);

// Runs a probe shader (fma_probe or math_probe): out[i] = fn(a[i], b[i], c[i]) (VT_MATH_*),
// on a queue of its own.
vt_status run_math(Device& d, Shader probe, ShaderBuild build, uint32_t fn, const float* a, const float* b,
                   const float* c, float* out, size_t n);
// Which shader build gives IEEE results on this device (runs the fma probe).
ShaderBuild probe_build(Device& d);

// ---- dispatches (vk_dispatch.cpp) ----

struct Binding {
  vt_mem mem = nullptr;  // nullptr: the device's dummy buffer
  uint64_t base = 0;     // byte offset of the binding
  uint64_t range = 0;
};

struct DispatchDesc {
  VkPipeline pipeline = VK_NULL_HANDLE;
  const void* params = nullptr;
  uint32_t params_bytes = 0;
  std::array<Binding, VT_TENSOR_BINDINGS> tensors{};
  uint32_t groups_x = 0;
  uint64_t groups_y = 0;  // split into dispatches of the device's limit, base pushed
};

// Binds tensor t at `binding` (1..VT_TENSOR_BINDINGS) and fills its reference (offset,
// strides of its dims, dtype). An absent tensor leaves the dummy bound. Returns false with
// the reason when the tensor does not fit one binding of this device.
bool bind_tensor(const Device& d, const vt_tensor& t, uint32_t binding, TensorRef* ref, DispatchDesc* desc,
                 std::string* why);
// A 1-D count of work groups as a grid within the device's limits.
void grid_1d(const Device& d, uint64_t groups, DispatchDesc* desc);
vt_status dispatch(vt_queue q, const DispatchDesc& desc);

// ---- providers and the plugin tables (vk_providers.cpp, vk_plugin.cpp) ----

const vt_provider_desc* providers(uint32_t* count);
extern const vt_device_api kDeviceApi;

}  // namespace vt::vulkan

struct vt_mem_s {
  vt::vulkan::Device* device;
  VkBuffer buffer;
  VkDeviceMemory memory;
  uint64_t size;  // as allocated (rounded up to whole 32-bit words)
  void* mapped;   // host address when the memory is host-visible, else nullptr
};

struct vt_queue_s {
  vt::vulkan::Device* device;
  uint32_t queue_index;  // into device->queues
  VkCommandPool pool;
  VkSemaphore timeline;
  uint64_t last_value;  // the value of the newest batch begun
  std::array<vt::vulkan::Batch, vt::vulkan::kBatches> batches;
  uint32_t current;
  std::mutex lock;
  uint64_t submissions;  // batches submitted so far (tests read it to see batching)
};

struct vt_event_s {
  vt::vulkan::Device* device;
  VkQueryPool pool;  // one timestamp
  vt_queue queue;    // where it was last recorded, or nullptr
  uint64_t value;    // the batch of that queue that holds it
};
