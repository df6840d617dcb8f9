#include "vk/handle_table.h"

#include <algorithm>
#include <string>

namespace host::vk {

using wire::Errc;
using wire::make_error;

wire::Status HandleTable::reserve(std::span<const wire::vk::NewHandle> made) const {
  for (size_t i = 0; i < made.size(); ++i) {
    const uint64_t id = made[i].id;
    if (id & kHostChosen) return make_error(Errc::kBadName, "a new object named in the host's range");
    const bool twice = std::any_of(made.begin(), made.begin() + i, [id](const auto& m) { return m.id == id; });
    if (twice || by_id_.count(id)) return make_error(Errc::kBadName, "a new object named " + std::to_string(id) + ", in use");
  }
  return {};
}

void HandleTable::add(VkObjectType type, uint64_t id, uint64_t host, uint64_t device) {
  forget_recent(id);
  by_id_[id] = {type, host, device, next_serial_++};
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
  forget_recent(it->second);
  auto entry = by_id_.find(it->second);
  if (entry != by_id_.end()) {
    note_removed(entry->second);
    by_id_.erase(entry);
  }
  by_host_.erase(it);
}

void HandleTable::note_removed(const Entry& e) {
  ++removals_;
  removed_.push_back(e.serial);
}

template <typename Pred>
void HandleTable::remove_if(Pred pred) {
  for (auto it = by_id_.begin(); it != by_id_.end();) {
    if (!pred(it->second)) {
      ++it;
      continue;
    }
    auto back = by_host_.find({it->second.type, it->second.host});
    if (back != by_host_.end() && back->second == it->first) by_host_.erase(back);
    forget_recent(it->first);
    note_removed(it->second);
    it = by_id_.erase(it);
  }
}

void HandleTable::remove_all(VkObjectType type) {
  remove_if([type](const Entry& e) { return e.type == type; });
}

void HandleTable::remove_children(uint64_t device) {
  remove_if([device](const Entry& e) { return e.device == device; });
}

std::vector<uint64_t> HandleTable::children_of(uint64_t device, VkObjectType type) const {
  std::vector<uint64_t> out;
  for (const auto& [id, e] : by_id_)
    if (e.device == device && e.type == type) out.push_back(e.host);
  return out;
}

uint64_t HandleTable::device_of(uint64_t id) const {
  auto it = by_id_.find(id);
  return it != by_id_.end() ? it->second.device : 0;
}

ObjectUse HandleTable::use_of(VkObjectType type, uint64_t host) const {
  auto it = by_host_.find({type, host});
  if (it == by_host_.end()) return {type, host, 0};
  auto entry = by_id_.find(it->second);
  return {type, host, entry == by_id_.end() ? 0 : entry->second.serial};
}

bool HandleTable::live(const ObjectUse& use) const {
  return use.serial && use_of(use.type, use.host).serial == use.serial;
}

uint64_t HandleTable::to_wire(VkObjectType type, bool, uint64_t host) {
  if (host == 0) return 0;
  auto it = by_host_.find({type, host});
  return it != by_host_.end() ? it->second : add_host_chosen(type, host);
}

wire::Result<uint64_t> HandleTable::from_wire(VkObjectType type, bool dispatchable, uint64_t id) {
  if (id == 0) return uint64_t{0};
  Recent& last = recent(id);
  if (last.id != id || last.type != type) {
    auto it = by_id_.find(id);
    if (it == by_id_.end()) return make_error(Errc::kBadName, "no object " + std::to_string(id));
    if (it->second.type != type)
      return make_error(Errc::kBadName, "object " + std::to_string(id) + " is of another type");
    last = {id, type, it->second.host, it->second.serial};
  }
  if (!dispatchable) named_.push_back({type, last.host, last.serial});
  return last.host;
}

}  // namespace host::vk
