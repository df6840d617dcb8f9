// Vulkan handles that are their own wire ids, for streams encoded without a
// guest's handle table: new objects take ids from `first_id` on.
#pragma once

#include <cstdint>

#include "wire/vk_codec.h"

namespace wiretest {

class IdentityHandles : public wire::vk::GuestHandles {
 public:
  explicit IdentityHandles(uint64_t first_id) : next_(first_id) {}

  uint64_t to_wire(VkObjectType, bool, uint64_t handle) override { return handle; }
  wire::Result<uint64_t> from_wire(VkObjectType, bool, uint64_t id) override { return id; }
  uint64_t create(VkObjectType, bool) override { return next_++; }
  void discard(VkObjectType, bool, uint64_t) override {}

 private:
  uint64_t next_;
};

}  // namespace wiretest
