// Pipelines: one descriptor-set layout for every shader (binding 0 the parameter block,
// 1..VT_TENSOR_BINDINGS the tensors), one push constant (the first work group row of a
// dispatch), a pipeline cache, and each pipeline created on first use.
#include "vk_backend.hpp"

namespace vt::vulkan {
namespace {

uint64_t key_of(Shader shader, ShaderBuild build, int32_t specialisation) {
  return (uint64_t{static_cast<uint32_t>(shader)} << 40) | (uint64_t{static_cast<uint32_t>(build)} << 32) |
         static_cast<uint32_t>(specialisation);
}

vt_status create_pipeline(Device& d, Shader shader, ShaderBuild build, int32_t specialisation, VkPipeline* out) {
  const Spirv code = shader_code(shader, build);
  auto mi = vk_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  mi.codeSize = code.bytes;
  mi.pCode = code.words;
  VkShaderModule module = VK_NULL_HANDLE;
  if (const vt_status s = check(vk.vkCreateShaderModule(d.device, &mi, nullptr, &module), "vkCreateShaderModule");
      s != VT_OK)
    return s;
  const VkSpecializationMapEntry entry{0, 0, sizeof specialisation};
  const VkSpecializationInfo spec{1, &entry, sizeof specialisation, &specialisation};
  auto ci = vk_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = module;
  ci.stage.pName = "main";
  ci.stage.pSpecializationInfo = specialisation > 0 ? &spec : nullptr;
  ci.layout = d.pipeline_layout;
  const vt_status s =
      check(vk.vkCreateComputePipelines(d.device, d.cache, 1, &ci, nullptr, out), "vkCreateComputePipelines");
  vk.vkDestroyShaderModule(d.device, module, nullptr);
  return s;
}

}  // namespace

vt_status create_layouts(Device& d) {
  VkDescriptorSetLayoutBinding bindings[VT_TENSOR_BINDINGS + 1] = {};
  for (uint32_t i = 0; i <= VT_TENSOR_BINDINGS; ++i)
    bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  auto li = vk_struct<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  li.bindingCount = VT_TENSOR_BINDINGS + 1;
  li.pBindings = bindings;
  if (const vt_status s =
          check(vk.vkCreateDescriptorSetLayout(d.device, &li, nullptr, &d.set_layout), "vkCreateDescriptorSetLayout");
      s != VT_OK)
    return s;
  const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(uint32_t)};
  auto pi = vk_struct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  pi.setLayoutCount = 1;
  pi.pSetLayouts = &d.set_layout;
  pi.pushConstantRangeCount = 1;
  pi.pPushConstantRanges = &push;
  if (const vt_status s =
          check(vk.vkCreatePipelineLayout(d.device, &pi, nullptr, &d.pipeline_layout), "vkCreatePipelineLayout");
      s != VT_OK)
    return s;
  auto ci = vk_struct<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
  return check(vk.vkCreatePipelineCache(d.device, &ci, nullptr, &d.cache), "vkCreatePipelineCache");
}

void release_pipelines(Device& d) {
  for (const auto& [key, p] : d.pipelines) vk.vkDestroyPipeline(d.device, p, nullptr);
  d.pipelines.clear();
  if (d.cache) vk.vkDestroyPipelineCache(d.device, d.cache, nullptr);
  if (d.pipeline_layout) vk.vkDestroyPipelineLayout(d.device, d.pipeline_layout, nullptr);
  if (d.set_layout) vk.vkDestroyDescriptorSetLayout(d.device, d.set_layout, nullptr);
  d.cache = VK_NULL_HANDLE;
  d.pipeline_layout = VK_NULL_HANDLE;
  d.set_layout = VK_NULL_HANDLE;
}

vt_status pipeline_for(Device& d, Shader shader, ShaderBuild build, int32_t specialisation, VkPipeline* out) {
  const uint64_t key = key_of(shader, build, specialisation);
  std::lock_guard<std::mutex> lock(d.pipeline_lock);
  for (const auto& [k, p] : d.pipelines)
    if (k == key) {
      *out = p;
      return VT_OK;
    }
  if (const vt_status s = create_pipeline(d, shader, build, specialisation, out); s != VT_OK) return s;
  d.pipelines.emplace_back(key, *out);
  return VT_OK;
}

ShaderBuild shader_build(Device& d) {
  std::call_once(d.build_once, [&d] { d.build = probe_build(d); });
  return d.build;
}

vt_status pipeline(Device& d, Shader shader, int32_t specialisation, VkPipeline* out) {
  return pipeline_for(d, shader, shader_build(d), specialisation, out);
}

}  // namespace vt::vulkan
