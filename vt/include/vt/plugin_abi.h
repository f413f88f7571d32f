/* The plugin ABI: everything the core and a backend plugin exchange.
 *
 * A plugin is a shared library exporting exactly one symbol, VT_PLUGIN_ENTRY_SYMBOL. The core
 * calls it with the ABI version it speaks and gets back a table of C function pointers.
 * Every table starts with {abi_major, abi_minor, struct_size}; tables only grow at the end, so
 * a reader uses struct_size to know which entries exist. No C++ type, exception or allocator
 * crosses this line; an object is released by the side that created it.
 *
 * Errors: functions return vt_status. Before returning anything but VT_OK a plugin may call
 * host->set_error() with a message naming the plugin and the rule broken.
 */
#ifndef VT_PLUGIN_ABI_H
#define VT_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VT_ABI_MAJOR 1u
/* Minor versions: 1.1 added the device table's host_alloc and host_free; 1.2 the provider
 * descriptor's knobs. */
#define VT_ABI_MINOR 2u
#define VT_PLUGIN_ENTRY_SYMBOL "vt_plugin_entry"

typedef enum vt_status {
  VT_OK = 0,
  VT_STATUS_INVALID_ARGUMENT = 1,
  VT_STATUS_OUT_OF_MEMORY = 2,
  VT_STATUS_UNSUPPORTED = 3, /* the entry or feature is not offered by this device */
  VT_STATUS_DEVICE_ERROR = 4,
  VT_STATUS_DECLINED = 5, /* a provider passes this call to the next one down */
  VT_STATUS_INTERNAL = 6,
  VT_STATUS_MAX_ENUM_ = 0x7fffffff /* every int32 is a valid value: a bad one is caught, not UB */
} vt_status;

typedef enum vt_init_result {
  VT_INIT_READY = 0,
  VT_INIT_UNAVAILABLE = 1, /* runtime or device absent: skipped, not an error */
  VT_INIT_FAILED = 2,      /* present but broken: skipped with the reason */
  VT_INIT_MAX_ENUM_ = 0x7fffffff
} vt_init_result;

/* Op ids are append-only; a plugin naming an id the core does not know is rejected
 * (or, when the plugin speaks a newer minor version, that provider alone is skipped). */
typedef enum vt_op_id {
  VT_OP_CAUSAL_CONV1D_FWD = 1,
  VT_OP_CAUSAL_CONV1D_UPDATE = 2,
  VT_OP_GDN_POST_CONV = 3,
  VT_OP_L2NORM = 4,
  VT_OP_GDN_GATING = 5,
  VT_OP_GDN_SPLIT = 6,
  VT_OP_LAST_ = VT_OP_GDN_SPLIT,
  VT_OP_MAX_ENUM_ = 0x7fffffff
} vt_op_id;

typedef enum vt_dtype {
  VT_DTYPE_F32 = 0,
  VT_DTYPE_F16 = 1,
  VT_DTYPE_BF16 = 2,
  VT_DTYPE_I32 = 3,
  VT_DTYPE_U8 = 4, /* also bool: 0 false, anything else true */
  VT_DTYPE_MAX_ENUM_ = 0x7fffffff
} vt_dtype;

/* Capability bits of a device: what a host may ask, never "which kind is this". */
enum {
  VT_CAP_UNIFIED_MEMORY = 1u << 0, /* device memory is host-addressable */
  VT_CAP_ASYNC_READBACK = 1u << 1, /* device-to-host copies can overlap the host */
  VT_CAP_SECOND_QUEUE = 1u << 2,   /* queues run concurrently */
  VT_CAP_GRAPH_CAPTURE = 1u << 3,  /* queue capture/replay entries work */
  VT_CAP_16BIT_STORAGE = 1u << 4,  /* f16/bf16 tensors are supported in memory */
  /* the device's kernels flush f32 subnormals to zero, so results that pass through subnormal
     values differ from the reference (parity.md holds bit-identity only for IEEE arithmetic) */
  VT_CAP_FLUSHES_SUBNORMALS = 1u << 5
};

typedef struct vt_device_props {
  uint32_t struct_size;
  char name[128]; /* human-readable model name */
  char arch[64];  /* architecture string, e.g. an ISA level or chip family */
  uint64_t memory_bytes;
  uint64_t shared_memory_bytes; /* per work-group scratch, 0 if none */
  uint32_t compute_major, compute_minor;
  uint32_t compute_units;
  uint32_t subgroup_size; /* lanes executing in lock step, 1 for scalar devices */
  uint32_t caps;          /* VT_CAP_* bits */
} vt_device_props;

typedef struct vt_mem_s* vt_mem;     /* a device allocation, opaque to the core */
typedef struct vt_queue_s* vt_queue; /* an in-order queue of work on one device */
typedef struct vt_event_s* vt_event; /* a point in a queue */
typedef struct vt_graph_s* vt_graph; /* captured queue work, replayable */

/* A strided view of device memory: element strides, 64-bit, rank <= 4. */
#define VT_MAX_RANK 4
typedef struct vt_tensor {
  vt_mem mem;      /* NULL for an absent optional tensor */
  uint64_t offset; /* bytes from the start of mem to element [0,...] */
  vt_dtype dtype;
  uint32_t rank;
  int64_t shape[VT_MAX_RANK];
  int64_t strides[VT_MAX_RANK]; /* in elements */
} vt_tensor;

struct vt_host_api;

/* One op invocation, handed to a provider. `args` points to the op's argument struct from
 * ops/ (C layout, starting with its own struct_size). */
typedef struct vt_op_call {
  uint32_t struct_size;
  vt_op_id op;
  uint32_t device; /* index within the plugin */
  vt_queue queue;
  const void* args;
  const struct vt_host_api* host; /* the dispatching runtime: knobs, log, errors */
} vt_op_call;

typedef struct vt_provider_desc {
  uint32_t struct_size;
  vt_op_id op;
  const char* name; /* stable, unique per (op, backend) */
  int32_t priority; /* higher is preferred */
  /* optional: returns nonzero when the provider can serve this device */
  int (*supports)(const vt_device_props* props);
  /* runs the op, or returns VT_STATUS_DECLINED to pass the call on */
  vt_status (*run)(const vt_op_call* call);
  /* ABI 1.2: the knobs (VT_* names) that steer this provider, as a list ended by a null
   * pointer; null for none. During its calls the provider's host table answers these knobs
   * alone, any other reading as unset, so the list is all that can change what it does: the
   * parity suite forces a variant only where a provider lists its knob, vt-bench times one
   * only there, and vt-info shows the lists. A descriptor that ends before this field (an
   * older plugin) sees every knob. */
  const char* const* knobs;
} vt_provider_desc;

/* What the core offers a plugin. */
typedef struct vt_host_api {
  uint32_t abi_major, abi_minor, struct_size;
  /* level: 0 error, 1 warn, 2 info, 3 debug */
  void (*log)(int level, const char* message);
  /* sets the calling thread's error message for the status about to be returned */
  void (*set_error)(const char* message);
  /* a knob's parsed value by name in the runtime that owns `self`; returns nonzero and
   * fills *value when it is set */
  int (*knob_int)(const struct vt_host_api* self, const char* name, int64_t* value);
} vt_host_api;

/* A plugin's one way to read a knob: nonzero and *value filled when `host` offers knob_int
 * (by its struct_size) and the knob is set; 0 for a null host, an older host, or an unset
 * knob. */
static inline int vt_host_knob_int(const vt_host_api* host, const char* name, int64_t* value) {
  return host && host->struct_size >= offsetof(vt_host_api, knob_int) + sizeof host->knob_int && host->knob_int &&
         host->knob_int(host, name, value) != 0;
}

/* Memory, queues, events and synchronisation of a plugin's devices. */
typedef struct vt_device_api {
  uint32_t abi_major, abi_minor, struct_size;
  uint32_t (*device_count)(void);
  vt_status (*device_props)(uint32_t device, vt_device_props* out);

  vt_status (*mem_alloc)(uint32_t device, uint64_t bytes, vt_mem* out);
  void (*mem_free)(uint32_t device, vt_mem mem);
  /* optional: host address of the allocation when it is host-addressable, else NULL */
  void* (*mem_host_ptr)(vt_mem mem);

  vt_status (*queue_create)(uint32_t device, vt_queue* out);
  void (*queue_destroy)(vt_queue queue);
  vt_status (*queue_sync)(vt_queue queue); /* waits for everything enqueued */

  /* copies and fills are ordered on the queue; host memory must stay valid until it syncs */
  vt_status (*mem_set)(vt_queue q, vt_mem dst, uint64_t offset, uint8_t value, uint64_t bytes);
  vt_status (*copy_h2d)(vt_queue q, vt_mem dst, uint64_t offset, const void* src, uint64_t bytes);
  vt_status (*copy_d2h)(vt_queue q, void* dst, vt_mem src, uint64_t offset, uint64_t bytes);
  vt_status (*copy_d2d)(vt_queue q, vt_mem dst, uint64_t dst_offset, vt_mem src, uint64_t src_offset, uint64_t bytes);

  vt_status (*event_create)(uint32_t device, vt_event* out);
  void (*event_destroy)(vt_event event);
  vt_status (*event_record)(vt_event event, vt_queue queue);
  vt_status (*queue_wait_event)(vt_queue queue, vt_event event); /* device-side wait */
  vt_status (*event_sync)(vt_event event);                       /* host-side wait */
  vt_status (*event_elapsed_ms)(vt_event start, vt_event end, float* ms);

  /* optional, all four or none, and needed by a device that sets VT_CAP_GRAPH_CAPTURE:
   * record a queue's work and replay it on any queue of the same device */
  vt_status (*capture_begin)(vt_queue queue);
  vt_status (*capture_end)(vt_queue queue, vt_graph* out);
  vt_status (*graph_launch)(vt_graph graph, vt_queue queue);
  void (*graph_destroy)(vt_graph graph);

  /* ABI 1.1, optional, both or neither: host memory for copies to and from the device that
   * needs no staging (page-locked), so that a queue's copies from or into it return before
   * they complete. host_alloc sets *out to at least `bytes` (> 0) of host memory, usable by
   * every device of the plugin, aligned to 64 bytes at least. Without them the core serves
   * Device::alloc_host with ordinary host memory. */
  vt_status (*host_alloc)(uint32_t device, uint64_t bytes, void** out);
  void (*host_free)(uint32_t device, void* ptr);
} vt_device_api;

/* The table a plugin's entry returns. */
typedef struct vt_plugin_api {
  uint32_t abi_major, abi_minor, struct_size;
  const char* backend_name; /* "cpu", ...: lower-case letters, digits, '-' and '_' */
  /* Called once per runtime that loads the plugin (so possibly more than once per process);
   * on UNAVAILABLE or FAILED writes the reason into reason[0..reason_size). */
  vt_init_result (*init)(const vt_host_api* host, char* reason, size_t reason_size);
  const vt_device_api* devices;
  uint32_t provider_count;
  const vt_provider_desc* providers;
} vt_plugin_api;

typedef const vt_plugin_api* (*vt_plugin_entry_fn)(uint32_t core_abi_major, uint32_t core_abi_minor);

/* The smallest tables the core accepts for major version 1. */
#define VT_PLUGIN_API_V1_SIZE ((uint32_t)(offsetof(vt_plugin_api, providers) + sizeof(void*)))
#define VT_DEVICE_API_V1_SIZE ((uint32_t)(offsetof(vt_device_api, graph_destroy) + sizeof(void*)))
/* The device table of ABI 1.1, with host_alloc and host_free. */
#define VT_DEVICE_API_V1_1_SIZE ((uint32_t)(offsetof(vt_device_api, host_free) + sizeof(void*)))
#define VT_PROVIDER_DESC_V1_SIZE ((uint32_t)(offsetof(vt_provider_desc, run) + sizeof(void*)))
/* The provider descriptor of ABI 1.2, with knobs. */
#define VT_PROVIDER_DESC_V1_2_SIZE ((uint32_t)(offsetof(vt_provider_desc, knobs) + sizeof(void*)))

#if defined(__GNUC__)
#define VT_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define VT_PLUGIN_EXPORT
#endif

/* A plugin defines exactly this: VT_PLUGIN_EXPORT VT_PLUGIN_ENTRY_DECL { ... } */
#define VT_PLUGIN_ENTRY_DECL const vt_plugin_api* vt_plugin_entry(uint32_t core_abi_major, uint32_t core_abi_minor)

#ifdef __cplusplus
}
#endif

#endif
