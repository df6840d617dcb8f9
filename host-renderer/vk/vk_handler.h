// A guest's Vulkan: decodes each command against the guest's own handle
// table, runs it on the host's driver through the loader, and answers the
// commands the guest waits for. The first error loses the guest's Vulkan
// (the session says so); its GL contexts and every other guest carry on.
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "vk/handle_table.h"
#include "vk/host_calls.h"
#include "wire/reader.h"
#include "wire/result.h"
#include "wire/vk_codec.h"
#include "wire/writer.h"

namespace host::vk {

class VkHandler {
 public:
  // `max_memory`: the guest's device memory, all allocations together.
  VkHandler(size_t max_objects, uint64_t max_memory);
  ~VkHandler();
  VkHandler(const VkHandler&) = delete;
  VkHandler& operator=(const VkHandler&) = delete;

  // One command; what the guest waits for goes to `reply`.
  wire::Status run(uint32_t opcode, wire::Reader& payload, wire::Writer& reply);

 private:
  // A command whose driver call needs the host's own care first.
  using Special = wire::Result<uint64_t> (VkHandler::*)(void* args);
  Special special(uint32_t opcode) const;
  void keep_drivers_loaded();

  wire::Result<uint64_t> create_instance(void* args);
  wire::Result<uint64_t> create_device(void* args);
  wire::Result<uint64_t> enumerate_instance_extensions(void* args);
  wire::Result<uint64_t> enumerate_device_extensions(void* args);
  void forget_destroyed(const wire::vk::MemberDesc& gone, const void* args);

  // pool_children.cpp: what a pool's end takes with it.
  void note_children(uint32_t opcode, const void* args);
  void drop_children(uint64_t pool);
  template <typename T>
  void forget_children(uint64_t pool, VkObjectType type, const T* items, uint32_t count);

  // memory_commands.cpp: device memory, mapped where the host can see it,
  // and the guest's copies of it written in and read out.
  struct HostMemory {
    VkDeviceMemory memory;
    VkDevice device;
    uint64_t size;
    void* mapped;  // host-visible memory stays mapped while it lives
    bool coherent;
  };
  wire::Result<uint64_t> allocate_memory(void* args);
  wire::Result<uint64_t> free_memory(void* args);
  wire::Status run_memory_op(uint32_t opcode, wire::Reader& payload, wire::Writer& reply);
  wire::Result<HostMemory*> mapped_range(wire::Reader& payload, uint64_t* offset, uint64_t* size);
  void free_all_memory();
  HandleTable handles_;
  HostDispatch dispatch_;
  bool loaded_ = false;
  wire::vk::Arena arena_;
  std::vector<wire::vk::NewHandle> created_;
  std::vector<VkInstance> instances_;
  std::vector<VkDevice> devices_;
  std::unordered_map<VkDevice, VkPhysicalDevice> device_gpus_;
  // By pool: the command buffers or descriptor sets allocated from it.
  std::unordered_map<uint64_t, std::vector<std::pair<VkObjectType, uint64_t>>> children_;
  std::unordered_map<VkDeviceMemory, HostMemory> memory_;
  uint64_t memory_limit_;
  uint64_t memory_total_ = 0;
};

}  // namespace host::vk
