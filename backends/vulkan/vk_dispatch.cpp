// Recording one compute dispatch: its parameter block, a descriptor set binding each tensor's
// buffer at an aligned offset at or below the tensor (the shader adds the element offset),
// and work-group rows beyond the device's limit split into several dispatches.
#include <algorithm>
#include <cstring>

#include "vk_backend.hpp"

namespace vt::vulkan {
namespace {

uint64_t element_bytes(vt_dtype t) {
  switch (t) {
    case VT_DTYPE_F16:
    case VT_DTYPE_BF16: return 2;
    case VT_DTYPE_U8: return 1;
    default: return 4;
  }
}

}  // namespace

bool bind_tensor(const Device& d, const vt_tensor& t, uint32_t binding, TensorRef* ref, DispatchDesc* desc,
                 std::string* why) {
  *ref = TensorRef{};
  if (!t.mem) return true;
  const uint64_t esize = element_bytes(t.dtype);
  uint64_t last = 0;  // the element furthest from [0, ...]
  bool empty = false;
  for (uint32_t i = 0; i < t.rank; ++i) {
    if (t.shape[i] == 0) empty = true;
    if (t.shape[i] > 1) last += static_cast<uint64_t>(t.shape[i] - 1) * static_cast<uint64_t>(t.strides[i]);
  }
  const uint64_t base = t.offset / d.bind_alignment * d.bind_alignment;
  const uint64_t end = t.offset + (empty ? 0 : (last + 1) * esize);
  const uint64_t range = std::min(t.mem->size - base, d.max_binding_range);
  if (end - base > range) {
    *why = "a tensor spans " + std::to_string(end - base) + " bytes, more than one storage-buffer binding of " +
           d.label + " can see (" + std::to_string(d.max_binding_range) + ")";
    return false;
  }
  uint32_t strides[3] = {};
  for (uint32_t i = 0; i < t.rank && i < 3; ++i)
    strides[i] = t.shape[i] > 1 ? static_cast<uint32_t>(t.strides[i]) : 0;  // fits: the span does
  *ref = TensorRef{static_cast<uint32_t>((t.offset - base) / esize), strides[0], strides[1], strides[2],
                   static_cast<uint32_t>(t.dtype)};
  desc->tensors[binding - 1] = Binding{t.mem, base, range};
  return true;
}

void grid_1d(const Device& d, uint64_t groups, DispatchDesc* desc) {
  desc->groups_x = static_cast<uint32_t>(std::min<uint64_t>(groups, d.max_groups[0]));
  desc->groups_y = desc->groups_x ? (groups + desc->groups_x - 1) / desc->groups_x : 0;
}

vt_status dispatch(vt_queue q, const DispatchDesc& desc) {
  if (desc.groups_x == 0 || desc.groups_y == 0) return VT_OK;
  Device& d = *q->device;
  if (desc.params_bytes > kParamSlot || desc.groups_x > d.max_groups[0] || desc.groups_y > UINT32_MAX)
    return fail(VT_STATUS_INTERNAL, "vulkan: dispatch: parameter block or grid out of range");
  std::lock_guard<std::mutex> lock(q->lock);
  Slice params;
  if (const vt_status s = param_slot(q, &params); s != VT_OK) return s;
  std::memcpy(params.host, desc.params, desc.params_bytes);
  Batch* b = nullptr;
  if (const vt_status s = open_command(q, &b); s != VT_OK) return s;

  auto ai = vk_struct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  ai.descriptorPool = b->pool;
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &d.set_layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  if (const vt_status s = check(vk.vkAllocateDescriptorSets(d.device, &ai, &set), "vkAllocateDescriptorSets");
      s != VT_OK)
    return s;
  VkDescriptorBufferInfo infos[VT_TENSOR_BINDINGS + 1];
  infos[0] = {params.buffer, params.offset, desc.params_bytes};
  for (uint32_t i = 0; i < VT_TENSOR_BINDINGS; ++i) {
    const Binding& t = desc.tensors[i];
    infos[i + 1] = t.mem ? VkDescriptorBufferInfo{t.mem->buffer, t.base, t.range}
                         : VkDescriptorBufferInfo{d.dummy->buffer, 0, VK_WHOLE_SIZE};
  }
  auto w = vk_struct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
  w.dstSet = set;
  w.dstBinding = 0;
  w.descriptorCount = VT_TENSOR_BINDINGS + 1;  // consecutive bindings in one write
  w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  w.pBufferInfo = infos;
  vk.vkUpdateDescriptorSets(d.device, 1, &w, 0, nullptr);

  vk.vkCmdBindPipeline(b->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, desc.pipeline);
  vk.vkCmdBindDescriptorSets(b->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, d.pipeline_layout, 0, 1, &set, 0, nullptr);
  for (uint64_t y = 0; y < desc.groups_y;) {
    const uint32_t rows = static_cast<uint32_t>(std::min<uint64_t>(desc.groups_y - y, d.max_groups[1]));
    const uint32_t base = static_cast<uint32_t>(y);
    vk.vkCmdPushConstants(b->cmd, d.pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof base, &base);
    vk.vkCmdDispatch(b->cmd, desc.groups_x, rows, 1);
    y += rows;
  }
  return close_command(q);
}

}  // namespace vt::vulkan
