// What objects reach through other objects when a command buffer runs: a
// buffer or image its memory, a view its image or buffer, a framebuffer
// its views, a descriptor set what each of its descriptors names. A
// command buffer recorded while they lived names only the first of the
// chain; if anything along it is destroyed or freed before a submission,
// the driver would run the commands against freed memory (lavapipe copied
// freed heap into the guest's buffer). So the host follows each chain
// before such a submission (recorded_uses.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "vk/handle_table.h"

namespace host::vk {

class ObjectHolds {
 public:
  // `holder` reaches `held` from now on (a bind, a view's creation).
  void hold(const ObjectUse& holder, std::span<const ObjectUse> held);
  // Descriptor `slot` of `set` names `held` (a view and a sampler, or one
  // of them, or a buffer), in place of what it named before.
  void hold_in_set(const ObjectUse& set, uint64_t slot, const std::array<ObjectUse, 2>& held);
  // Descriptor `from_slot` of `from` copied into `to_slot` of `to`.
  void copy_in_sets(const ObjectUse& from, uint64_t from_slot, const ObjectUse& to, uint64_t to_slot);
  // Whether `use` and all it reaches still live; `seen`: serials already
  // found live in this walk.
  bool reachable_live(const ObjectUse& use, const HandleTable& handles, std::unordered_set<uint64_t>& seen) const;
  // Objects that have gone (HandleTable::take_removed).
  void forget(std::span<const uint64_t> serials);

 private:
  std::unordered_map<uint64_t, std::vector<ObjectUse>> held_;  // by the holder's serial
  std::unordered_map<uint64_t, std::unordered_map<uint64_t, std::array<ObjectUse, 2>>> sets_;
};

}  // namespace host::vk
