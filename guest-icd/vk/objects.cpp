#include "vk/objects.h"

namespace icd::vk {

GuestObjects& GuestObjects::instance() {
  static GuestObjects* objects = new GuestObjects;  // lives as long as the program's handles
  return *objects;
}

DispatchableObject* GuestObjects::make(uint64_t id) {
  auto* o = new DispatchableObject{};
  set_loader_magic_value(o);
  o->id = id;
  dispatchable_[id] = o;
  return o;
}

uint64_t GuestObjects::to_wire(VkObjectType, bool dispatchable, uint64_t handle) {
  if (!dispatchable || handle == 0) return handle;
  return reinterpret_cast<const DispatchableObject*>(handle)->id;
}

wire::Result<uint64_t> GuestObjects::from_wire(VkObjectType, bool dispatchable, uint64_t id) {
  if (!dispatchable || id == 0) return id;
  std::lock_guard lock(mu_);
  auto it = dispatchable_.find(id);
  // The host names physical devices itself: each gets one object here.
  DispatchableObject* o = it != dispatchable_.end() ? it->second : make(id);
  return reinterpret_cast<uint64_t>(o);
}

uint64_t GuestObjects::create(VkObjectType, bool dispatchable) {
  std::lock_guard lock(mu_);
  const uint64_t id = next_id_++;
  return dispatchable ? reinterpret_cast<uint64_t>(make(id)) : id;
}

void GuestObjects::discard(VkObjectType, bool dispatchable, uint64_t handle) {
  if (!dispatchable || handle == 0) return;
  std::lock_guard lock(mu_);
  auto* o = reinterpret_cast<DispatchableObject*>(handle);
  dispatchable_.erase(o->id);
  delete o;
}

}  // namespace icd::vk
