// The guest's Vulkan handles. A dispatchable handle is an object the loader
// writes its dispatch table into, holding the id the host knows it by; any
// other handle is its id. Ids are chosen here (the host's own, for physical
// devices, have the top bit set).
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>

#include <vulkan/vk_icd.h>

#include "wire/vk_codec.h"

namespace icd::vk {

struct DispatchableObject {
  VK_LOADER_DATA loader_data;  // first: the loader's
  uint64_t id;
};

class GuestObjects : public wire::vk::GuestHandles {
 public:
  static GuestObjects& instance();

  uint64_t to_wire(VkObjectType type, bool dispatchable, uint64_t handle) override;
  wire::Result<uint64_t> from_wire(VkObjectType type, bool dispatchable, uint64_t id) override;
  uint64_t create(VkObjectType type, bool dispatchable) override;
  void discard(VkObjectType type, bool dispatchable, uint64_t handle) override;

 private:
  DispatchableObject* make(uint64_t id);

  std::mutex mu_;
  uint64_t next_id_ = 1;
  std::unordered_map<uint64_t, DispatchableObject*> dispatchable_;  // by id
};

}  // namespace icd::vk
