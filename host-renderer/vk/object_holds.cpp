#include "vk/object_holds.h"

namespace host::vk {

void ObjectHolds::hold(const ObjectUse& holder, std::span<const ObjectUse> held) {
  if (!holder.serial) return;
  auto& list = held_[holder.serial];
  for (const ObjectUse& h : held)
    if (h.serial) list.push_back(h);
}

void ObjectHolds::hold_in_set(const ObjectUse& set, uint64_t slot, const std::array<ObjectUse, 2>& held) {
  if (set.serial) sets_[set.serial][slot] = held;
}

void ObjectHolds::copy_in_sets(const ObjectUse& from, uint64_t from_slot, const ObjectUse& to, uint64_t to_slot) {
  auto set = sets_.find(from.serial);
  if (set == sets_.end()) return;
  auto slot = set->second.find(from_slot);
  if (slot == set->second.end()) {
    auto dst = sets_.find(to.serial);
    if (dst != sets_.end()) dst->second.erase(to_slot);
    return;
  }
  hold_in_set(to, to_slot, slot->second);
}

bool ObjectHolds::reachable_live(const ObjectUse& use, const HandleTable& handles,
                                 std::unordered_set<uint64_t>& seen) const {
  if (!use.serial || !seen.insert(use.serial).second) return true;
  if (!handles.live(use)) return false;
  if (auto it = held_.find(use.serial); it != held_.end())
    for (const ObjectUse& h : it->second)
      if (!reachable_live(h, handles, seen)) return false;
  if (auto it = sets_.find(use.serial); it != sets_.end())
    for (const auto& [slot, held] : it->second)
      for (const ObjectUse& h : held)
        if (!reachable_live(h, handles, seen)) return false;
  return true;
}

void ObjectHolds::forget(std::span<const uint64_t> serials) {
  for (uint64_t s : serials) {
    held_.erase(s);
    sets_.erase(s);
  }
}

}  // namespace host::vk
