// What the host keeps of a guest's buffers, images, memory, descriptor
// sets and query pools, so that every range, index and count a command
// names is checked against the object it names before the driver sees it.
// Vulkan drivers check none of these (valid usage is the program's duty):
// a copy past a buffer's end reads or writes the renderer's heap.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include <vulkan/vulkan.h>

#include "vk/host_calls.h"
#include "wire/result.h"

namespace host::vk {

struct BufferShape {
  uint64_t device;
  uint64_t size;
  uint32_t usage;
  // From vkGetBufferMemoryRequirements, for the memory bind.
  uint64_t need_bytes;
  uint64_t need_alignment;
  uint32_t memory_types;
  uint64_t memory = 0;  // bound to, while it lives
  uint64_t memory_offset = 0;  // where in it
};

struct ImageShape {
  uint64_t device;
  uint32_t type;    // VkImageType
  uint32_t format;  // VkFormat, as the guest's number
  uint32_t width, height, depth;
  uint32_t mips;
  uint32_t layers;
  uint32_t samples;
  uint32_t tiling;  // VkImageTiling
  uint64_t need_bytes;
  uint64_t need_alignment;
  uint32_t memory_types;
  uint64_t memory = 0;
  uint64_t memory_offset = 0;
};

struct MemoryShape {
  uint64_t device;
  uint64_t size;
  uint32_t type_index;
};

// One binding of a descriptor set layout.
struct BindingShape {
  uint32_t binding;
  uint32_t type;   // VkDescriptorType
  uint32_t count;  // descriptors (bytes for an inline uniform block)
  bool variable;   // VARIABLE_DESCRIPTOR_COUNT: the set's allocation says how many
  bool immutable_samplers = false;  // a write's samplers are ignored
  // PARTIALLY_BOUND or UPDATE_AFTER_BIND: its descriptors may name gone
  // objects while a command buffer binds the set (bindless heaps).
  bool may_go_stale = false;
};

struct SetLayoutShape {
  uint64_t device;
  std::vector<BindingShape> bindings;  // by binding number
  bool push = false;  // made for vkCmdPushDescriptorSetKHR, never allocated
};

// A dynamic buffer descriptor's room past its offset and its range, for
// the dynamic offset a bind adds.
struct DynamicRoom {
  uint64_t room = 0;   // the buffer's bytes past the written offset
  uint64_t range = 0;  // the written range (a whole-size range: the room)
};

struct SetShape {
  uint64_t device;
  uint64_t pool;
  std::shared_ptr<const SetLayoutShape> layout;
  uint32_t variable_count;              // of the last binding, when it is variable
  std::vector<DynamicRoom> dynamic;     // written dynamic descriptors, in binding order
};

struct PipelineLayoutShape {
  uint64_t device;
  std::vector<std::shared_ptr<const SetLayoutShape>> sets;
  std::vector<VkPushConstantRange> push_constants;
};

struct QueryPoolShape {
  uint64_t device;
  uint32_t count;
  uint32_t values;  // results of each query (pipeline statistics: one per counter)
};

struct SemaphoreShape {
  uint64_t device;
  bool timeline;
  bool pending;  // a binary semaphore's signal is on its way
};

// What a descriptor of a VkDescriptorType is written from (descriptor_ranges.cpp).
bool is_dynamic(uint32_t type);
bool is_buffer(uint32_t type);         // pBufferInfo
bool is_texel_buffer(uint32_t type);   // pTexelBufferView
bool is_image(uint32_t type);          // pImageInfo (samplers too)

class ResourceShapes {
 public:
  explicit ResourceShapes(const HostDispatch& dispatch) : dispatch_(dispatch) {}

  // Before the driver call: the command's ranges against what they name.
  wire::Status check(uint32_t opcode, const void* args) const;
  // The same with the command's check found once beforehand (check_of:
  // null for a command that names no range).
  using Check = wire::Status (ResourceShapes::*)(uint32_t opcode, const void* args) const;
  static Check check_of(uint32_t opcode);
  wire::Status check(Check found, uint32_t opcode, const void* args) const { return (this->*found)(opcode, args); }
  // Whether `opcode` is one whose ranges are checked.
  static bool checks(uint32_t opcode);
  // After the driver call made or ended objects.
  void note(uint32_t opcode, const void* args);
  void forget_device(uint64_t device);
  // A buffer's size; 0 for one the host does not know.
  uint64_t buffer_size(uint64_t buffer) const;
  // Calls each(slot, k, its binding) for the k-th descriptor of an update
  // of `count` from `element` of `binding` in `set`, as it runs on into the
  // next bindings; a slot is the binding's number << 32 | the element.
  // Nothing for an update the checks refused.
  void each_slot(uint64_t set, uint32_t binding, uint32_t element, uint32_t count,
                 const std::function<void(uint64_t slot, uint32_t k, const BindingShape& b)>& each) const;
  // The device's timeline semaphores, for its end (bounded_waits.cpp).
  std::vector<uint64_t> timelines_of(uint64_t device) const;
  // The most descriptors a pushed set may have on `device`
  // (maxPushDescriptors; 0 without VK_KHR_push_descriptor).
  void set_push_descriptor_limit(uint64_t device, uint32_t most) { push_limits_[device] = most; }

 private:

  // buffer_ranges.cpp
  wire::Status check_buffer_command(uint32_t opcode, const void* args) const;
  wire::Status check_indirect(uint32_t opcode, const void* args) const;
  wire::Status check_feedback_buffers(uint32_t opcode, const void* args) const;
  wire::Status check_counters(const char* command, const VkBuffer* buffers, const VkDeviceSize* offsets,
                              uint32_t count) const;
  // range_checks.cpp
  wire::Status check_memory_binds(uint32_t opcode, const void* args) const;
  wire::Status check_bind(const char* command, uint64_t memory, uint64_t offset, uint64_t need_bytes,
                          uint64_t need_alignment, uint32_t memory_types) const;
  wire::Status check_queries(uint32_t opcode, const void* args) const;
  wire::Status check_query_copy(const void* args) const;
  wire::Status check_dynamic_state(uint32_t opcode, const void* args) const;
  // multi_draw.cpp
  wire::Status check_multi_draw_records(uint32_t opcode, const void* args) const;
  // dynamic_state3.cpp
  wire::Status check_dynamic_state3_values(uint32_t opcode, const void* args) const;
  wire::Result<const BufferShape*> buffer(uint64_t handle, const char* command) const;
  // image_ranges.cpp
  wire::Status check_image_command(uint32_t opcode, const void* args) const;
  wire::Result<const ImageShape*> image(uint64_t handle, const char* command) const;
  wire::Status check_views(uint32_t opcode, const void* args) const;
  wire::Status check_subresource_layout(uint32_t opcode, const void* args) const;
  wire::Status check_clear(const char* command, uint64_t image, const VkImageSubresourceRange* ranges,
                           uint32_t count) const;
  template <typename Region>
  wire::Status check_buffer_image(const char* command, uint64_t buffer, uint64_t image, const Region* regions,
                                  uint32_t count) const;
  template <typename Region>
  wire::Status check_image_copy(const char* command, uint64_t src, uint64_t dst, const Region* regions,
                                uint32_t count) const;
  template <typename Region>
  wire::Status check_blit(const char* command, uint64_t src, uint64_t dst, const Region* regions,
                          uint32_t count) const;
  // descriptor_ranges.cpp
  wire::Status check_descriptor_updates(uint32_t opcode, const void* args) const;
  wire::Status check_write(const char* command, const SetShape& set, const VkWriteDescriptorSet& write,
                           uint32_t n) const;
  wire::Status check_copy(const VkCopyDescriptorSet& copy, uint32_t n) const;
  wire::Status check_views_named(const char* command, const SetShape& set, const VkWriteDescriptorSet& write,
                                 uint32_t type, uint32_t n) const;
  wire::Status check_pushed_descriptors(uint32_t opcode, const void* args) const;
  wire::Status check_set_allocation(uint32_t opcode, const void* args) const;
  wire::Status check_update_template(uint32_t opcode, const void* args) const;
  wire::Status check_descriptor_binds(uint32_t opcode, const void* args) const;
  wire::Status check_push_constants(uint32_t opcode, const void* args) const;
  const PipelineLayoutShape* pipeline_layout(uint64_t handle) const;
  void note_descriptor_writes(const void* args);
  void note_descriptor_sets(uint32_t opcode, const void* args);

  // semaphore_states.cpp
  void note_semaphore(const void* args);
  wire::Status check_semaphore_waits(uint32_t opcode, const void* args) const;
  wire::Status check_timelines(uint32_t opcode, const void* args) const;
  void note_semaphore_uses(uint32_t opcode, const void* args);

  // resource_shapes.cpp
  void note_buffer(const void* args);
  void note_image(const void* args);
  void note_set_layout(const void* args);
  void note_pipeline_layout(const void* args);
  void note_memory_binds(uint32_t opcode, const void* args);

  const HostDispatch& dispatch_;
  std::unordered_map<uint64_t, BufferShape> buffers_;
  std::unordered_map<uint64_t, ImageShape> images_;
  std::unordered_map<uint64_t, MemoryShape> memory_;
  std::unordered_map<uint64_t, std::shared_ptr<const SetLayoutShape>> set_layouts_;
  std::unordered_map<uint64_t, SetShape> sets_;
  std::unordered_map<uint64_t, PipelineLayoutShape> pipeline_layouts_;
  // The layout looked up last: a frame's binds and pushes name one layout
  // again and again. Cleared whenever a layout is forgotten.
  mutable uint64_t last_layout_handle_ = 0;
  mutable const PipelineLayoutShape* last_layout_ = nullptr;
  // The push constants accepted last: a frame pushes the same bytes of one
  // layout for the same stages again and again.
  struct AcceptedPush {
    const PipelineLayoutShape* layout = nullptr;
    uint32_t offset = 0, size = 0, stages = 0;
    bool operator==(const AcceptedPush&) const = default;
  };
  mutable AcceptedPush last_push_;
  void forget_last_layout() {
    last_layout_ = nullptr;
    last_push_ = {};
  }
  std::unordered_map<uint64_t, QueryPoolShape> query_pools_;
  std::unordered_map<uint64_t, SemaphoreShape> semaphores_;
  std::unordered_map<uint64_t, uint32_t> push_limits_;  // by device
};

}  // namespace host::vk
