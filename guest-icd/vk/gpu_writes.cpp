// Which host-visible allocations the GPU may write: memory bound only to
// buffers it can merely read (uniform, vertex, index, indirect, transfer
// source) needs no copy back after a wait. vkcube's uniform buffer and a
// program's staging buffers are such memory, rewritten by the program each
// frame. Every way of binding memory passes through here.
#include <mutex>
#include <unordered_map>

#include "vk/entry.h"
#include "vk/memory.h"

namespace icd::vk {

using namespace wire::vk;

namespace {

// Buffer uses through which the GPU only reads.
constexpr VkBufferUsageFlags kReadOnlyUses =
    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
    VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
    VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT;

struct Buffers {
  std::mutex mu;
  std::unordered_map<uint64_t, VkBufferUsageFlags> usage;  // by VkBuffer id
};

Buffers& buffers() {
  static Buffers* b = new Buffers;
  return *b;
}

template <typename Handle>
uint64_t id_of(Handle h) {
  return reinterpret_cast<uint64_t>(h);
}

// Unknown buffers count as written: a wrong guess here may only cost a copy.
bool gpu_writes_buffer(VkBuffer buffer) {
  Buffers& b = buffers();
  std::lock_guard lock(b.mu);
  auto it = b.usage.find(id_of(buffer));
  return it == b.usage.end() || (it->second & ~kReadOnlyUses) != 0;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL create_buffer(VkDevice device, const VkBufferCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkBuffer* buffer) {
  VkArgs_vkCreateBuffer a{device, info, allocator, buffer};
  const VkResult r = as_result(run_generated(VkOp::vkCreateBuffer, a));
  if (r == VK_SUCCESS) {
    std::lock_guard lock(buffers().mu);
    buffers().usage[id_of(*buffer)] = info->usage;
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL destroy_buffer(VkDevice device, VkBuffer buffer, const VkAllocationCallbacks* allocator) {
  {
    std::lock_guard lock(buffers().mu);
    buffers().usage.erase(id_of(buffer));
  }
  VkArgs_vkDestroyBuffer a{device, buffer, allocator};
  run_generated(VkOp::vkDestroyBuffer, a);
}

VKAPI_ATTR VkResult VKAPI_CALL bind_buffer_memory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory,
                                                 VkDeviceSize offset) {
  if (gpu_writes_buffer(buffer)) note_gpu_writes(id_of(memory));
  VkArgs_vkBindBufferMemory a{device, buffer, memory, offset};
  return as_result(run_generated(VkOp::vkBindBufferMemory, a));
}

VKAPI_ATTR VkResult VKAPI_CALL bind_buffer_memory2(VkDevice device, uint32_t count,
                                                  const VkBindBufferMemoryInfo* infos) {
  for (uint32_t i = 0; i < count; ++i)
    if (gpu_writes_buffer(infos[i].buffer)) note_gpu_writes(id_of(infos[i].memory));
  VkArgs_vkBindBufferMemory2 a{device, count, infos};
  return as_result(run_generated(VkOp::vkBindBufferMemory2, a));
}

// Images: attachments, copies and storage all write; any image counts.
VKAPI_ATTR VkResult VKAPI_CALL bind_image_memory(VkDevice device, VkImage image, VkDeviceMemory memory,
                                                VkDeviceSize offset) {
  note_gpu_writes(id_of(memory));
  VkArgs_vkBindImageMemory a{device, image, memory, offset};
  return as_result(run_generated(VkOp::vkBindImageMemory, a));
}

VKAPI_ATTR VkResult VKAPI_CALL bind_image_memory2(VkDevice device, uint32_t count, const VkBindImageMemoryInfo* infos) {
  for (uint32_t i = 0; i < count; ++i) note_gpu_writes(id_of(infos[i].memory));
  VkArgs_vkBindImageMemory2 a{device, count, infos};
  return as_result(run_generated(VkOp::vkBindImageMemory2, a));
}

namespace {

template <typename Bind>
void note_sparse(const Bind* binds, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i)
    for (uint32_t j = 0; j < binds[i].bindCount; ++j) note_gpu_writes(id_of(binds[i].pBinds[j].memory));
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL queue_bind_sparse(VkQueue queue, uint32_t count, const VkBindSparseInfo* infos,
                                                VkFence fence) {
  for (uint32_t i = 0; i < count; ++i) {
    note_sparse(infos[i].pBufferBinds, infos[i].bufferBindCount);
    note_sparse(infos[i].pImageOpaqueBinds, infos[i].imageOpaqueBindCount);
    note_sparse(infos[i].pImageBinds, infos[i].imageBindCount);
  }
  VkArgs_vkQueueBindSparse a{queue, count, infos, fence};
  return as_result(run_generated(VkOp::vkQueueBindSparse, a));
}

}  // namespace icd::vk
