#include "vk/handle_table.h"

#include <string>

namespace host::vk {

using wire::Errc;
using wire::make_error;

wire::Status HandleTable::reserve(std::span<const wire::vk::NewHandle> made) const {
  if (made.size() > limit_ - std::min(limit_, by_id_.size()))
    return make_error(Errc::kLimit, "more than " + std::to_string(limit_) + " Vulkan objects");
  for (const auto& m : made) {
    if (m.id & kHostChosen) return make_error(Errc::kBadName, "a new object named in the host's range");
    if (by_id_.count(m.id)) return make_error(Errc::kBadName, "a new object named " + std::to_string(m.id) + ", in use");
  }
  return {};
}

void HandleTable::add(VkObjectType type, uint64_t id, uint64_t host) {
  by_id_[id] = {type, host};
  by_host_[{type, host}] = id;
}

uint64_t HandleTable::add_host_chosen(VkObjectType type, uint64_t host) {
  auto it = by_host_.find({type, host});
  if (it != by_host_.end()) return it->second;
  const uint64_t id = next_host_chosen_++;
  add(type, id, host);
  return id;
}

void HandleTable::remove(VkObjectType type, uint64_t host) {
  auto it = by_host_.find({type, host});
  if (it == by_host_.end()) return;
  by_id_.erase(it->second);
  by_host_.erase(it);
}

void HandleTable::remove_all(VkObjectType type) {
  std::erase_if(by_id_, [type](const auto& e) { return e.second.type == type; });
  std::erase_if(by_host_, [type](const auto& e) { return e.first.first == type; });
}

uint64_t HandleTable::to_wire(VkObjectType type, bool, uint64_t host) {
  if (host == 0) return 0;
  auto it = by_host_.find({type, host});
  return it != by_host_.end() ? it->second : add_host_chosen(type, host);
}

wire::Result<uint64_t> HandleTable::from_wire(VkObjectType type, bool, uint64_t id) {
  if (id == 0) return uint64_t{0};
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return make_error(Errc::kBadName, "no object " + std::to_string(id));
  if (it->second.type != type)
    return make_error(Errc::kBadName, "object " + std::to_string(id) + " is of another type");
  return it->second.host;
}

}  // namespace host::vk
