// Public handles over a plugin's device table; every status is checked here.
#include "vt/device.hpp"

#include <new>
#include <string>
#include <utility>

#include "runtime_impl.hpp"
#include "vt/error.hpp"
#include "vt/runtime.hpp"
#include "vt/tensor.hpp"

namespace vt {
namespace {

const detail::DeviceRecord& need(const detail::DeviceRecord* rec, const char* what) {
  if (!rec) throw Error(Status::invalid_argument, std::string(what) + ": empty or moved-from handle");
  return *rec;
}

void check_range(const detail::DeviceRecord& d, const char* what, const Buffer& b, uint64_t offset, uint64_t bytes) {
  if (!(b.device() == Device(&d)))
    throw Error(Status::invalid_argument, d.name + ": " + what + ": the buffer belongs to " +
                                              (b.device().valid() ? b.device().name() : std::string("no device")));
  if (offset > b.size() || bytes > b.size() - offset)
    throw Error(Status::invalid_argument, d.name + ": " + what + ": bytes [" + std::to_string(offset) + ", " +
                                              std::to_string(offset + bytes) + ") outside a " +
                                              std::to_string(b.size()) + "-byte buffer");
}

}  // namespace

const std::string& Device::name() const { return need(rec_, "device").name; }
const std::string& Device::backend() const { return need(rec_, "device").plugin->backend; }
uint32_t Device::index() const { return need(rec_, "device").index; }
const DeviceProperties& Device::properties() const { return need(rec_, "device").props; }
Runtime& Device::runtime() const { return *need(rec_, "device").runtime; }

Buffer Device::alloc(uint64_t bytes) const {
  const auto& d = need(rec_, "alloc");
  if (bytes == 0) return Buffer(rec_, nullptr, 0);
  // Refused here, the same way on every backend, rather than left to an allocator that might
  // overcommit or abort (a sanitizer's does) on a size the device can never hold.
  if (d.props.memory_bytes && bytes > d.props.memory_bytes)
    throw Error(Status::out_of_memory, d.name + ": alloc of " + std::to_string(bytes) +
                                           " bytes: more than the device's " + std::to_string(d.props.memory_bytes) +
                                           " bytes of memory");
  vt_mem mem = nullptr;
  detail::check(d.api().mem_alloc(d.index, bytes, &mem), d, ("alloc of " + std::to_string(bytes) + " bytes").c_str());
  return Buffer(rec_, mem, bytes);
}

// Where the backend offers no host memory of its own, HostBuffer's memory is the core's,
// aligned as the ABI promises a plugin's to be.
constexpr std::align_val_t kHostAlign{64};

HostBuffer Device::alloc_host(uint64_t bytes) const {
  const auto& d = need(rec_, "alloc_host");
  if (bytes == 0) return HostBuffer(rec_, nullptr, 0);
  const std::string what = "alloc_host of " + std::to_string(bytes) + " bytes";
  if (d.props.pinned_host) {  // the plugin has host_alloc (Runtime::load)
    void* p = nullptr;
    detail::check(d.plugin->host_alloc(d.index, bytes, &p), d, what.c_str());
    if (!p) throw Error(Status::internal, d.name + ": " + what + ": the plugin reported success and no memory");
    return HostBuffer(rec_, p, bytes);
  }
  void* p = ::operator new(static_cast<size_t>(bytes), kHostAlign, std::nothrow);
  if (!p) throw Error(Status::out_of_memory, d.name + ": " + what + ": out of host memory");
  return HostBuffer(rec_, p, bytes);
}

Queue Device::create_queue() const {
  const auto& d = need(rec_, "create_queue");
  vt_queue q = nullptr;
  detail::check(d.api().queue_create(d.index, &q), d, "queue_create");
  return Queue(rec_, q);
}

Event Device::create_event() const {
  const auto& d = need(rec_, "create_event");
  vt_event e = nullptr;
  detail::check(d.api().event_create(d.index, &e), d, "event_create");
  return Event(rec_, e);
}

// --- Buffer

Buffer::Buffer(Buffer&& o) noexcept
    : rec_(std::exchange(o.rec_, nullptr)), mem_(std::exchange(o.mem_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    release();
    rec_ = std::exchange(o.rec_, nullptr);
    mem_ = std::exchange(o.mem_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

Buffer::~Buffer() { release(); }

void Buffer::release() noexcept {
  if (rec_ && mem_) rec_->api().mem_free(rec_->index, mem_);
  mem_ = nullptr;
}

void* Buffer::host_ptr() const {
  if (!rec_ || !mem_ || !rec_->api().mem_host_ptr) return nullptr;
  return rec_->api().mem_host_ptr(mem_);
}

// --- HostBuffer

HostBuffer::HostBuffer(HostBuffer&& o) noexcept
    : rec_(std::exchange(o.rec_, nullptr)),
      data_(std::exchange(o.data_, nullptr)),
      bytes_(std::exchange(o.bytes_, 0)) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& o) noexcept {
  if (this != &o) {
    release();
    rec_ = std::exchange(o.rec_, nullptr);
    data_ = std::exchange(o.data_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

HostBuffer::~HostBuffer() { release(); }

// The memory's owner follows from the device's plugin, as alloc_host chose it.
bool HostBuffer::pinned() const { return data_ && rec_->props.pinned_host; }

void HostBuffer::release() noexcept {
  if (data_) {
    if (pinned()) rec_->plugin->host_free(rec_->index, data_);
    else ::operator delete(data_, kHostAlign);
  }
  data_ = nullptr;
}

// --- Event

Event::Event(Event&& o) noexcept : rec_(std::exchange(o.rec_, nullptr)), ev_(std::exchange(o.ev_, nullptr)) {}

Event& Event::operator=(Event&& o) noexcept {
  if (this != &o) {
    if (rec_ && ev_) rec_->api().event_destroy(ev_);
    rec_ = std::exchange(o.rec_, nullptr);
    ev_ = std::exchange(o.ev_, nullptr);
  }
  return *this;
}

Event::~Event() {
  if (rec_ && ev_) rec_->api().event_destroy(ev_);
}

void Event::sync() const {
  const auto& d = need(rec_, "event sync");
  detail::check(d.api().event_sync(ev_), d, "event_sync");
}

float Event::elapsed_ms(const Event& start, const Event& end) {
  const auto& d = need(start.rec_, "event elapsed");
  if (start.rec_ != end.rec_)
    throw Error(Status::invalid_argument, d.name + ": elapsed_ms: the events belong to different devices");
  float ms = 0;
  detail::check(d.api().event_elapsed_ms(start.ev_, end.ev_, &ms), d, "event_elapsed_ms");
  return ms;
}

// --- Graph

Graph::Graph(Graph&& o) noexcept : rec_(std::exchange(o.rec_, nullptr)), g_(std::exchange(o.g_, nullptr)) {}

Graph& Graph::operator=(Graph&& o) noexcept {
  if (this != &o) {
    if (rec_ && g_) rec_->api().graph_destroy(g_);
    rec_ = std::exchange(o.rec_, nullptr);
    g_ = std::exchange(o.g_, nullptr);
  }
  return *this;
}

Graph::~Graph() {
  if (rec_ && g_) rec_->api().graph_destroy(g_);
}

// --- Queue

Queue::Queue(Queue&& o) noexcept : rec_(std::exchange(o.rec_, nullptr)), q_(std::exchange(o.q_, nullptr)) {}

Queue& Queue::operator=(Queue&& o) noexcept {
  if (this != &o) {
    if (rec_ && q_) rec_->api().queue_destroy(q_);
    rec_ = std::exchange(o.rec_, nullptr);
    q_ = std::exchange(o.q_, nullptr);
  }
  return *this;
}

Queue::~Queue() {
  if (rec_ && q_) rec_->api().queue_destroy(q_);
}

void Queue::fill(Buffer& dst, uint64_t offset, uint8_t value, uint64_t bytes) {
  const auto& d = need(rec_, "fill");
  check_range(d, "fill", dst, offset, bytes);
  if (bytes == 0) return;
  detail::check(d.api().mem_set(q_, dst.handle(), offset, value, bytes), d, "fill");
}

void Queue::upload(Buffer& dst, uint64_t offset, const void* src, uint64_t bytes) {
  const auto& d = need(rec_, "upload");
  check_range(d, "upload", dst, offset, bytes);
  if (bytes == 0) return;
  if (!src) throw Error(Status::invalid_argument, d.name + ": upload: null host pointer");
  detail::check(d.api().copy_h2d(q_, dst.handle(), offset, src, bytes), d, "upload");
}

void Queue::download(void* dst, const Buffer& src, uint64_t offset, uint64_t bytes) {
  const auto& d = need(rec_, "download");
  check_range(d, "download", src, offset, bytes);
  if (bytes == 0) return;
  if (!dst) throw Error(Status::invalid_argument, d.name + ": download: null host pointer");
  detail::check(d.api().copy_d2h(q_, dst, src.handle(), offset, bytes), d, "download");
}

void Queue::download(void* dst, const TensorView& src) {
  const auto& d = need(rec_, "download");
  if (!(src.device() == Device(&d)))
    throw Error(Status::invalid_argument, d.name + ": download: the tensor is on another device");
  if (!src.is_contiguous())
    throw Error(Status::invalid_argument, d.name + ": download: " + src.describe() + " is not contiguous");
  const uint64_t bytes = src.end_byte() - src.first_byte();
  if (bytes == 0) return;
  if (!dst) throw Error(Status::invalid_argument, d.name + ": download: null host pointer");
  detail::check(d.api().copy_d2h(q_, dst, src.raw().mem, src.first_byte(), bytes), d, "download");
}

void Queue::copy(Buffer& dst, uint64_t dst_offset, const Buffer& src, uint64_t src_offset, uint64_t bytes) {
  const auto& d = need(rec_, "copy");
  check_range(d, "copy (destination)", dst, dst_offset, bytes);
  check_range(d, "copy (source)", src, src_offset, bytes);
  if (bytes == 0) return;
  detail::check(d.api().copy_d2d(q_, dst.handle(), dst_offset, src.handle(), src_offset, bytes), d, "copy");
}

void Queue::sync() {
  const auto& d = need(rec_, "sync");
  detail::check(d.api().queue_sync(q_), d, "queue_sync");
}

void Queue::record(Event& event) {
  const auto& d = need(rec_, "record");
  if (!event.handle()) throw Error(Status::invalid_argument, d.name + ": record: empty or moved-from event");
  if (event.device().record() != rec_)
    throw Error(Status::invalid_argument, d.name + ": record: the event belongs to another device");
  detail::check(d.api().event_record(event.handle(), q_), d, "event_record");
}

void Queue::wait(const Event& event) {
  const auto& d = need(rec_, "wait");
  if (!event.handle()) throw Error(Status::invalid_argument, d.name + ": wait: empty or moved-from event");
  if (event.device().record() != rec_)
    throw Error(Status::invalid_argument, d.name + ": wait: the event belongs to another device");
  detail::check(d.api().queue_wait_event(q_, event.handle()), d, "queue_wait_event");
}

// A device with graph_capture has all four capture entries (the loader skips a plugin
// otherwise), so a Graph, which only capture_end makes, can be launched and destroyed.
void Queue::capture_begin() {
  const auto& d = need(rec_, "capture_begin");
  if (!d.props.graph_capture)
    throw Error(Status::unsupported, d.name + ": capture_begin: the device does not offer graph capture");
  detail::check(d.api().capture_begin(q_), d, "capture_begin");
}

Graph Queue::capture_end() {
  const auto& d = need(rec_, "capture_end");
  if (!d.props.graph_capture)
    throw Error(Status::unsupported, d.name + ": capture_end: the device does not offer graph capture");
  vt_graph g = nullptr;
  detail::check(d.api().capture_end(q_, &g), d, "capture_end");
  if (!g) throw Error(Status::internal, d.name + ": capture_end: the plugin reported success and no graph");
  return Graph(rec_, g);
}

void Queue::launch(const Graph& graph) {
  const auto& d = need(rec_, "launch");
  if (!graph.handle()) throw Error(Status::invalid_argument, d.name + ": launch: empty or moved-from graph");
  if (graph.device().record() != rec_)
    throw Error(Status::invalid_argument, d.name + ": launch: the graph was captured on " + graph.device().name());
  detail::check(d.api().graph_launch(graph.handle(), q_), d, "graph_launch");
}

std::string_view Queue::run_op(vt_op_id op, const void* args) {
  const auto& d = need(rec_, "run_op");
  const vt_op_call call{sizeof(vt_op_call), op, d.index, q_, args, d.host};
  return d.runtime->registry().dispatch(op, d.target(), call);
}

}  // namespace vt
