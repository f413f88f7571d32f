// Devices, memory, queues, events and captured graphs: thin handles over a plugin's tables.
// A Device is a cheap copyable handle owned by the Runtime; Buffer, HostBuffer, Queue, Event
// and Graph own their plugin object (a HostBuffer perhaps the core's memory) and release it
// on destruction (move-only).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "vt/export.hpp"
#include "vt/plugin_abi.h"

namespace vt {

class Runtime;
class Buffer;
class HostBuffer;
class Queue;
class Event;
class TensorView;
namespace detail {
struct DeviceRecord;
}

struct VT_API DeviceProperties {
  std::string name, arch;
  uint64_t memory_bytes = 0, shared_memory_bytes = 0;
  uint32_t compute_major = 0, compute_minor = 0, compute_units = 0, subgroup_size = 0;
  bool unified_memory = false, async_readback = false, second_queue = false, graph_capture = false,
       storage_16bit = false, flushes_subnormals = false;
  bool pinned_host = false;  // Device::alloc_host gives page-locked memory (HostBuffer::pinned)
  vt_device_props raw{};
};

class VT_API Device {
 public:
  Device() = default;
  explicit Device(const detail::DeviceRecord* record) : rec_(record) {}
  bool valid() const { return rec_ != nullptr; }
  const std::string& name() const;  // "<backend>:<index>"
  const std::string& backend() const;
  uint32_t index() const;  // within the backend
  const DeviceProperties& properties() const;
  Runtime& runtime() const;

  Buffer alloc(uint64_t bytes) const;
  // Host memory for this device's uploads and downloads: page-locked by the backend where
  // it offers that (properties().pinned_host), so that a queue's copies from and into it
  // return before they complete and overlap other work; else ordinary host memory, with
  // which copies work the same but may wait for the device. Zero bytes give an empty one.
  HostBuffer alloc_host(uint64_t bytes) const;
  Queue create_queue() const;
  Event create_event() const;

  const detail::DeviceRecord* record() const { return rec_; }
  friend bool operator==(const Device& a, const Device& b) { return a.rec_ == b.rec_; }

 private:
  const detail::DeviceRecord* rec_ = nullptr;
};

class VT_API Buffer {
 public:
  Buffer() = default;
  Buffer(const detail::DeviceRecord* rec, vt_mem mem, uint64_t bytes) : rec_(rec), mem_(mem), bytes_(bytes) {}
  Buffer(Buffer&& o) noexcept;
  Buffer& operator=(Buffer&& o) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  uint64_t size() const { return bytes_; }
  vt_mem handle() const { return mem_; }
  Device device() const { return Device(rec_); }
  // Host address when the device's memory is host-addressable, else nullptr.
  void* host_ptr() const;

 private:
  void release() noexcept;
  const detail::DeviceRecord* rec_ = nullptr;
  vt_mem mem_ = nullptr;
  uint64_t bytes_ = 0;
};

// Host memory from Device::alloc_host, freed by the side that allocated it.
class VT_API HostBuffer {
 public:
  HostBuffer() = default;
  HostBuffer(const detail::DeviceRecord* rec, void* data, uint64_t bytes) : rec_(rec), data_(data), bytes_(bytes) {}
  HostBuffer(HostBuffer&& o) noexcept;
  HostBuffer& operator=(HostBuffer&& o) noexcept;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer();

  void* data() const { return data_; }
  uint64_t size() const { return bytes_; }
  // Page-locked by the backend (see alloc_host): the device's pinned_host, where not empty.
  bool pinned() const;
  Device device() const { return Device(rec_); }

 private:
  void release() noexcept;
  const detail::DeviceRecord* rec_ = nullptr;
  void* data_ = nullptr;
  uint64_t bytes_ = 0;
};

class VT_API Event {
 public:
  Event() = default;
  Event(const detail::DeviceRecord* rec, vt_event ev) : rec_(rec), ev_(ev) {}
  Event(Event&& o) noexcept;
  Event& operator=(Event&& o) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();

  void sync() const;  // blocks the host until the recorded point is reached
  // Milliseconds between two recorded, completed events of one device.
  static float elapsed_ms(const Event& start, const Event& end);
  vt_event handle() const { return ev_; }
  Device device() const { return Device(rec_); }

 private:
  const detail::DeviceRecord* rec_ = nullptr;
  vt_event ev_ = nullptr;
};

class VT_API Graph {
 public:
  Graph() = default;
  Graph(const detail::DeviceRecord* rec, vt_graph g) : rec_(rec), g_(g) {}
  Graph(Graph&& o) noexcept;
  Graph& operator=(Graph&& o) noexcept;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  ~Graph();
  vt_graph handle() const { return g_; }
  Device device() const { return Device(rec_); }  // where it was captured

 private:
  const detail::DeviceRecord* rec_ = nullptr;
  vt_graph g_ = nullptr;
};

class VT_API Queue {
 public:
  Queue() = default;
  Queue(const detail::DeviceRecord* rec, vt_queue q) : rec_(rec), q_(q) {}
  Queue(Queue&& o) noexcept;
  Queue& operator=(Queue&& o) noexcept;
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;
  ~Queue();

  Device device() const { return Device(rec_); }
  vt_queue handle() const { return q_; }

  // Ordered on the queue. Host memory passed in must stay valid until sync().
  void fill(Buffer& dst, uint64_t offset, uint8_t value, uint64_t bytes);
  void upload(Buffer& dst, uint64_t offset, const void* src, uint64_t bytes);
  void download(void* dst, const Buffer& src, uint64_t offset, uint64_t bytes);
  // The bytes of a contiguous tensor view.
  void download(void* dst, const TensorView& src);
  void copy(Buffer& dst, uint64_t dst_offset, const Buffer& src, uint64_t src_offset, uint64_t bytes);
  void sync();

  void record(Event& event);
  void wait(const Event& event);  // later work on this queue waits for the event

  // Graph capture (DeviceProperties::graph_capture): work enqueued between begin and end is
  // recorded instead of run, and replayed by launch().
  void capture_begin();
  Graph capture_end();
  void launch(const Graph& graph);

  // Runs an op through the registry: the selected provider, with decline-and-forward.
  // `args` is the op's argument struct from ops/. Returns the name of the provider that ran.
  std::string_view run_op(vt_op_id op, const void* args);

 private:
  const detail::DeviceRecord* rec_ = nullptr;
  vt_queue q_ = nullptr;
};

}  // namespace vt
