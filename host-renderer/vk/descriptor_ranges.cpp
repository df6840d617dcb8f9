// Descriptor writes, copies and binds, checked against the set layouts
// (Vulkan 1.3, section 14.2.4 "Descriptor Set Updates" and 14.2.8
// "Descriptor Set Binding"): a binding the set has, array elements inside
// it (and inside the consecutive bindings an update runs on into), the
// binding's own type, buffer ranges inside their buffers, and dynamic
// offsets that keep each dynamic descriptor inside its buffer. Drivers
// index their descriptor arrays by these numbers without looking.
#include <algorithm>
#include <string>
#include <vector>

#include "vk/chain.h"
#include "vk/handle_table.h"
#include "vk/refusal.h"
#include "vk/resource_shapes.h"
#include "wire/vk_commands.h"

namespace host::vk {

using namespace wire::vk;

bool is_dynamic(uint32_t type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

bool is_buffer(uint32_t type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || is_dynamic(type);
}

bool is_texel_buffer(uint32_t type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

bool is_image(uint32_t type) {
  return type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
         type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
         type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
}

namespace {

// The descriptors binding `i` of `set` holds.
uint32_t capacity(const SetShape& set, size_t i) {
  const auto& bindings = set.layout->bindings;
  const BindingShape& b = bindings[i];
  return b.variable && i + 1 == bindings.size() ? std::min(b.count, set.variable_count) : b.count;
}

// Calls visit(binding index, first element, descriptors) for each part of
// an update of `count` descriptors from `element` of `binding`, which runs
// on into the next bindings of the same type (section 14.2.4); false when
// it leaves the set.
template <typename Visit>
bool walk(const SetShape& set, uint32_t binding, uint32_t element, uint32_t count, Visit visit) {
  const auto& bindings = set.layout->bindings;
  auto it = std::lower_bound(bindings.begin(), bindings.end(), binding,
                             [](const BindingShape& b, uint32_t n) { return b.binding < n; });
  if (it == bindings.end() || it->binding != binding || count == 0) return false;
  size_t i = static_cast<size_t>(it - bindings.begin());
  const uint32_t type = it->type;
  if (element >= capacity(set, i)) return false;
  uint32_t done = 0;
  while (done < count) {
    if (i >= bindings.size() || bindings[i].type != type) return false;
    if (type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK && done) return false;  // bytes of one block only
    const uint32_t have = capacity(set, i);
    const uint32_t take = std::min(have - std::min(have, element), count - done);
    if (take) visit(i, element, take, done);
    done += take;
    element = 0;
    ++i;
  }
  return true;
}

// The type of `binding` in `set`'s layout; ~0 for a binding it lacks.
uint32_t binding_type(const SetShape& set, uint32_t binding) {
  for (const BindingShape& b : set.layout->bindings)
    if (b.binding == binding) return b.type;
  return ~0u;
}

// A dynamic descriptor's index among its set's dynamic descriptors.
uint32_t dynamic_index(const SetShape& set, size_t binding_index, uint32_t element) {
  uint32_t index = 0;
  for (size_t i = 0; i < binding_index; ++i)
    if (is_dynamic(set.layout->bindings[i].type)) index += capacity(set, i);
  return index + element;
}

bool same_layout(const SetLayoutShape& x, const SetLayoutShape& y) {
  auto same = [](const BindingShape& a, const BindingShape& b) {
    return a.binding == b.binding && a.type == b.type && a.count == b.count && a.variable == b.variable;
  };
  return &x == &y || std::equal(x.bindings.begin(), x.bindings.end(), y.bindings.begin(), y.bindings.end(), same);
}

}  // namespace

// One write into `set` (a set of the guest's, or the one a push makes of
// its layout): the same checks for vkUpdateDescriptorSets and
// vkCmdPushDescriptorSetKHR.
wire::Status ResourceShapes::check_write(const char* command, const SetShape& set, const VkWriteDescriptorSet& w,
                                         uint32_t n) const {
  const uint32_t type = static_cast<uint32_t>(as_number(w.descriptorType));
  if (!walk(set, w.dstBinding, w.dstArrayElement, w.descriptorCount, [](size_t, uint32_t, uint32_t, uint32_t) {}))
    return refused(command, "past its set's bindings or their array elements: write " + std::to_string(n));
  if (binding_type(set, w.dstBinding) != type)
    return refused(command, "of a type its binding does not have: write " + std::to_string(n));
  if ((is_image(type) && !w.pImageInfo) || (is_buffer(type) && !w.pBufferInfo) ||
      (is_texel_buffer(type) && !w.pTexelBufferView))
    return refused(command, "without the descriptors of its type: write " + std::to_string(n));
  if (type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
    auto* block = reinterpret_cast<const VkWriteDescriptorSetInlineUniformBlock*>(
        find_in_chain(w.pNext, VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK));
    if (!block || block->dataSize != w.descriptorCount || w.dstArrayElement % 4 || w.descriptorCount % 4)
      return refused(command, "of inline uniform bytes it does not carry: write " + std::to_string(n));
  }
  if (is_image(type) || is_texel_buffer(type)) return check_views_named(command, set, w, type, n);
  if (!is_buffer(type)) return {};
  for (uint32_t k = 0; k < w.descriptorCount; ++k) {
    const VkDescriptorBufferInfo& info = w.pBufferInfo[k];
    auto b = buffers_.find(raw_handle(info.buffer));
    const uint64_t size = b == buffers_.end() || !b->second.memory ? 0 : b->second.size;
    if (info.offset >= size || (info.range != VK_WHOLE_SIZE && (!info.range || !fits(info.offset, info.range, size))))
      return refused(command, "of a buffer range past its buffer's end: write " + std::to_string(n));
  }
  return {};
}

// Image and texel buffer descriptors name a view (and a sampler, unless
// the binding's are immutable): the driver follows a null one when the
// pipeline reads it.
wire::Status ResourceShapes::check_views_named(const char* command, const SetShape& set, const VkWriteDescriptorSet& w,
                                               uint32_t type, uint32_t n) const {
  const bool needs_view = type != VK_DESCRIPTOR_TYPE_SAMPLER;
  bool needs_sampler = type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  for (const BindingShape& b : set.layout->bindings)
    if (b.binding == w.dstBinding && b.immutable_samplers) needs_sampler = false;
  for (uint32_t k = 0; k < w.descriptorCount; ++k) {
    const bool null_view = is_texel_buffer(type) ? !w.pTexelBufferView[k] : needs_view && !w.pImageInfo[k].imageView;
    const bool null_sampler = is_image(type) && needs_sampler && !w.pImageInfo[k].sampler;
    if (null_view || null_sampler) return refused(command, "of a null view or sampler: write " + std::to_string(n));
  }
  return {};
}

wire::Status ResourceShapes::check_copy(const VkCopyDescriptorSet& c, uint32_t n) const {
  auto src = sets_.find(raw_handle(c.srcSet));
  auto dst = sets_.find(raw_handle(c.dstSet));
  auto none = [](size_t, uint32_t, uint32_t, uint32_t) {};
  if (src == sets_.end() || dst == sets_.end() ||
      !walk(src->second, c.srcBinding, c.srcArrayElement, c.descriptorCount, none) ||
      !walk(dst->second, c.dstBinding, c.dstArrayElement, c.descriptorCount, none))
    return refused("vkUpdateDescriptorSets", "copying past its sets' bindings: copy " + std::to_string(n));
  if (binding_type(src->second, c.srcBinding) != binding_type(dst->second, c.dstBinding))
    return refused("vkUpdateDescriptorSets", "copying between bindings of different types: copy " + std::to_string(n));
  return {};
}

wire::Status ResourceShapes::check_descriptor_updates(uint32_t, const void* args) const {
  const auto& a = *static_cast<const VkArgs_vkUpdateDescriptorSets*>(args);
  for (uint32_t i = 0; i < a.descriptorWriteCount; ++i) {
    const VkWriteDescriptorSet& w = a.pDescriptorWrites[i];
    auto set = sets_.find(raw_handle(w.dstSet));
    if (set == sets_.end())
      return refused("vkUpdateDescriptorSets", "past its set's bindings or their array elements: write " +
                                                   std::to_string(i));
    WIRE_TRY(check_write("vkUpdateDescriptorSets", set->second, w, i));
  }
  for (uint32_t i = 0; i < a.descriptorCopyCount; ++i) WIRE_TRY(check_copy(a.pDescriptorCopies[i], i));
  return {};
}

// The sets bound are the guest's, compatible with the pipeline layout at
// their numbers, and each dynamic offset keeps its descriptor's range
// inside its buffer.
wire::Status ResourceShapes::check_descriptor_binds(uint32_t, const void* args) const {
  const auto& a = *static_cast<const VkArgs_vkCmdBindDescriptorSets*>(args);
  // Drivers keep bound sets per bind point, indexed by it.
  if (as_number(a.pipelineBindPoint) > VK_PIPELINE_BIND_POINT_COMPUTE)
    return refused("vkCmdBindDescriptorSets", "at a bind point not carried");
  const PipelineLayoutShape* layout = pipeline_layout(raw_handle(a.layout));
  if (!layout || !fits(a.firstSet, a.descriptorSetCount, layout->sets.size()))
    return refused("vkCmdBindDescriptorSets", "of set numbers its pipeline layout does not have");
  uint32_t offsets_used = 0;
  for (uint32_t i = 0; i < a.descriptorSetCount; ++i) {
    auto set = sets_.find(raw_handle(a.pDescriptorSets[i]));
    if (set == sets_.end()) continue;  // null with graphicsPipelineLibrary; the handle table refused others
    if (!same_layout(*set->second.layout, *layout->sets[a.firstSet + i]))
      return refused("vkCmdBindDescriptorSets", "of a set whose layout is not the pipeline layout's");
    const std::vector<DynamicRoom>& rooms = set->second.dynamic;
    for (size_t k = 0; k < rooms.size(); ++k, ++offsets_used) {
      if (offsets_used >= a.dynamicOffsetCount)
        return refused("vkCmdBindDescriptorSets", "with fewer dynamic offsets than its sets' dynamic descriptors");
      if (!fits(a.pDynamicOffsets[offsets_used], rooms[k].range, rooms[k].room))
        return refused("vkCmdBindDescriptorSets", "with a dynamic offset past its descriptor's buffer");
    }
  }
  if (offsets_used != a.dynamicOffsetCount)
    return refused("vkCmdBindDescriptorSets", "with more dynamic offsets than its sets' dynamic descriptors");
  return {};
}

// VK_KHR_push_descriptor (Vulkan 1.3, 14.2.10 "Push Descriptor Updates"):
// the set number is one of the pipeline layout's, made with the push flag,
// of no dynamic buffers or inline blocks and at most maxPushDescriptors
// descriptors (lavapipe writes pushed descriptors into per-stage arrays of
// its own, sized by that limit); each write is then checked as
// vkUpdateDescriptorSets's are, against a set of that layout (dstSet is
// ignored).
wire::Status ResourceShapes::check_pushed_descriptors(uint32_t, const void* args) const {
  const auto& a = *static_cast<const VkArgs_vkCmdPushDescriptorSetKHR*>(args);
  constexpr const char* kCommand = "vkCmdPushDescriptorSetKHR";
  if (as_number(a.pipelineBindPoint) > VK_PIPELINE_BIND_POINT_COMPUTE)
    return refused(kCommand, "at a bind point not carried");
  const PipelineLayoutShape* layout = pipeline_layout(raw_handle(a.layout));
  if (!layout || a.set >= layout->sets.size())
    return refused(kCommand, "of a set number its pipeline layout does not have");
  const std::shared_ptr<const SetLayoutShape>& pushed = layout->sets[a.set];
  if (!pushed->push) return refused(kCommand, "of a set whose layout was not made for pushing");
  uint64_t descriptors = 0;
  for (const BindingShape& b : pushed->bindings) {
    if (is_dynamic(b.type) || b.type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
      return refused(kCommand, "of a layout with dynamic buffers or inline uniform blocks");
    descriptors += b.count;
  }
  auto most = push_limits_.find(layout->device);
  if (most == push_limits_.end() || descriptors > most->second)
    return refused(kCommand, "of a layout of more descriptors than maxPushDescriptors");
  const SetShape set{layout->device, 0, pushed, 0, {}};
  for (uint32_t i = 0; i < a.descriptorWriteCount; ++i) WIRE_TRY(check_write(kCommand, set, a.pDescriptorWrites[i], i));
  return {};
}

// A set layout made for pushing has no sets of its own
// (VUID-VkDescriptorSetAllocateInfo-pSetLayouts-00308): drivers size its
// pushed descriptors by maxPushDescriptors alone and give a set allocated
// from it no pool storage to write into.
wire::Status ResourceShapes::check_set_allocation(uint32_t, const void* args) const {
  const VkDescriptorSetAllocateInfo& info = *static_cast<const VkArgs_vkAllocateDescriptorSets*>(args)->pAllocateInfo;
  for (uint32_t i = 0; i < info.descriptorSetCount; ++i) {
    auto layout = set_layouts_.find(raw_handle(info.pSetLayouts[i]));
    if (layout != set_layouts_.end() && layout->second->push)
      return refused("vkAllocateDescriptorSets", "of a set layout made for pushing");
  }
  return {};
}

// A template for pushed descriptors names a set of its pipeline layout
// made for pushing (drivers keep the layout and set with the template).
// The guest sends pushes with a template as vkCmdPushDescriptorSetKHR.
wire::Status ResourceShapes::check_update_template(uint32_t, const void* args) const {
  const VkDescriptorUpdateTemplateCreateInfo& info =
      *static_cast<const VkArgs_vkCreateDescriptorUpdateTemplate*>(args)->pCreateInfo;
  if (as_number(info.templateType) != VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR) return {};
  const PipelineLayoutShape* layout = pipeline_layout(raw_handle(info.pipelineLayout));
  if (as_number(info.pipelineBindPoint) > VK_PIPELINE_BIND_POINT_COMPUTE || !layout ||
      info.set >= layout->sets.size() || !layout->sets[info.set]->push)
    return refused("vkCreateDescriptorUpdateTemplate", "for pushing into a set its pipeline layout does not push");
  return {};
}

// Vulkan 1.3, 14.9 "Push Constant Updates": every byte pushed lies in a
// range of the layout for each stage named, and every range holding a
// pushed byte names only stages named. Drivers keep push constants per
// stage and index them by the stage bits given.
const PipelineLayoutShape* ResourceShapes::pipeline_layout(uint64_t handle) const {
  if (handle == last_layout_handle_ && last_layout_) return last_layout_;
  auto it = pipeline_layouts_.find(handle);
  if (it == pipeline_layouts_.end()) return nullptr;
  last_layout_handle_ = handle;
  last_layout_ = &it->second;
  return last_layout_;
}

wire::Status ResourceShapes::check_push_constants(uint32_t, const void* args) const {
  const auto& a = *static_cast<const VkArgs_vkCmdPushConstants*>(args);
  const PipelineLayoutShape* layout = pipeline_layout(raw_handle(a.layout));
  const uint32_t stages = as_number(a.stageFlags);
  if (!layout || !stages)
    return refused("vkCmdPushConstants", "without a pipeline layout or stages");
  const AcceptedPush push{layout, a.offset, a.size, stages};
  if (push == last_push_) return {};
  // The stages covering a byte change only where a range starts or ends:
  // one look at the first byte pushed and at each such point inside what
  // is pushed (a draw's push costs no allocation).
  const std::vector<VkPushConstantRange>& ranges = layout->push_constants;
  const uint64_t end = uint64_t{a.offset} + a.size;
  auto covered_as_named = [&](uint64_t byte) {
    uint32_t covering = 0;  // stages of the ranges holding this byte
    for (const VkPushConstantRange& r : ranges)
      if (byte >= r.offset && byte < uint64_t{r.offset} + r.size) covering |= r.stageFlags;
    return covering == stages;
  };
  bool ok = covered_as_named(a.offset);
  for (const VkPushConstantRange& r : ranges)
    for (uint64_t p : {uint64_t{r.offset}, uint64_t{r.offset} + r.size})
      if (p > a.offset && p < end) ok = ok && covered_as_named(p);
  if (!ok) return refused("vkCmdPushConstants", "for stages its pipeline layout's ranges do not give those bytes");
  last_push_ = push;
  return {};
}

void ResourceShapes::note_descriptor_sets(uint32_t opcode, const void* args) {
  switch (static_cast<VkOp>(opcode)) {
    case VkOp::vkAllocateDescriptorSets: {
      const auto& a = *static_cast<const VkArgs_vkAllocateDescriptorSets*>(args);
      const VkDescriptorSetAllocateInfo& info = *a.pAllocateInfo;
      auto* variable = reinterpret_cast<const VkDescriptorSetVariableDescriptorCountAllocateInfo*>(
          find_in_chain(info.pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO));
      for (uint32_t i = 0; i < info.descriptorSetCount; ++i) {
        auto layout = set_layouts_.find(raw_handle(info.pSetLayouts[i]));
        if (layout == set_layouts_.end()) continue;
        SetShape set{raw_handle(a.device), raw_handle(info.descriptorPool), layout->second, 0, {}};
        if (variable && i < variable->descriptorSetCount) set.variable_count = variable->pDescriptorCounts[i];
        uint32_t dynamic = 0;
        for (size_t b = 0; b < set.layout->bindings.size(); ++b)
          if (is_dynamic(set.layout->bindings[b].type)) dynamic += capacity(set, b);
        set.dynamic.resize(dynamic);
        sets_[raw_handle(a.pDescriptorSets[i])] = std::move(set);
      }
      return;
    }
    case VkOp::vkFreeDescriptorSets: {
      const auto& a = *static_cast<const VkArgs_vkFreeDescriptorSets*>(args);
      for (uint32_t i = 0; a.pDescriptorSets && i < a.descriptorSetCount; ++i)
        sets_.erase(raw_handle(a.pDescriptorSets[i]));
      return;
    }
    case VkOp::vkResetDescriptorPool: {
      const uint64_t pool = raw_handle(static_cast<const VkArgs_vkResetDescriptorPool*>(args)->descriptorPool);
      std::erase_if(sets_, [pool](const auto& entry) { return entry.second.pool == pool; });
      return;
    }
    default: {
      const uint64_t pool = raw_handle(static_cast<const VkArgs_vkDestroyDescriptorPool*>(args)->descriptorPool);
      std::erase_if(sets_, [pool](const auto& entry) { return entry.second.pool == pool; });
      return;
    }
  }
}

// What dynamic descriptors now hold, for the binds' dynamic offsets.
void ResourceShapes::note_descriptor_writes(const void* args) {
  const auto& a = *static_cast<const VkArgs_vkUpdateDescriptorSets*>(args);
  for (uint32_t i = 0; i < a.descriptorWriteCount; ++i) {
    const VkWriteDescriptorSet& w = a.pDescriptorWrites[i];
    if (!is_dynamic(static_cast<uint32_t>(as_number(w.descriptorType)))) continue;
    SetShape& set = sets_.at(raw_handle(w.dstSet));
    walk(set, w.dstBinding, w.dstArrayElement, w.descriptorCount, [&](size_t b, uint32_t element, uint32_t n, uint32_t done) {
      for (uint32_t k = 0; k < n; ++k) {
        const VkDescriptorBufferInfo& info = w.pBufferInfo[done + k];
        const uint64_t room = buffers_.at(raw_handle(info.buffer)).size - info.offset;
        set.dynamic[dynamic_index(set, b, element + k)] = {room, info.range == VK_WHOLE_SIZE ? room : info.range};
      }
    });
  }
  for (uint32_t i = 0; i < a.descriptorCopyCount; ++i) {
    const VkCopyDescriptorSet& c = a.pDescriptorCopies[i];
    const SetShape& src = sets_.at(raw_handle(c.srcSet));
    SetShape& dst = sets_.at(raw_handle(c.dstSet));
    if (!is_dynamic(binding_type(src, c.srcBinding))) continue;
    std::vector<uint32_t> from;
    walk(src, c.srcBinding, c.srcArrayElement, c.descriptorCount, [&](size_t b, uint32_t element, uint32_t n, uint32_t) {
      for (uint32_t k = 0; k < n; ++k) from.push_back(dynamic_index(src, b, element + k));
    });
    size_t next = 0;
    walk(dst, c.dstBinding, c.dstArrayElement, c.descriptorCount, [&](size_t b, uint32_t element, uint32_t n, uint32_t) {
      for (uint32_t k = 0; k < n && next < from.size(); ++k) dst.dynamic[dynamic_index(dst, b, element + k)] = src.dynamic[from[next++]];
    });
  }
}

void ResourceShapes::each_slot(uint64_t set, uint32_t binding, uint32_t element, uint32_t count,
                               const std::function<void(uint64_t slot, uint32_t k, const BindingShape& b)>& each) const {
  auto it = sets_.find(set);
  if (it == sets_.end()) return;
  const auto& bindings = it->second.layout->bindings;
  walk(it->second, binding, element, count, [&](size_t i, uint32_t first, uint32_t n, uint32_t done) {
    for (uint32_t j = 0; j < n; ++j)
      each(uint64_t{bindings[i].binding} << 32 | (first + j), done + j, bindings[i]);
  });
}

}  // namespace host::vk
