// One guest's Vulkan objects: the ids the guest named them by, each with
// its type, the driver's handle and the device it belongs to. Nothing
// reaches the driver through an id of another type, another guest's, one
// never made, or one whose device is gone.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "wire/vk_codec.h"

namespace host::vk {

// One object as a command named it: which driver handle, and which of the
// objects the driver has given that handle over time (handles are reused).
struct ObjectUse {
  VkObjectType type;
  uint64_t host;
  uint64_t serial;  // unique to one object for the host's life; 0: none
};

// A driver handle as the 64-bit number the tables keep it by.
template <typename T>
uint64_t raw_handle(T handle) {
  return reinterpret_cast<uint64_t>(handle);
}

class HandleTable : public wire::vk::Handles {
 public:
  // Ids the host chooses (physical devices) have the top bit; guests never do.
  static constexpr uint64_t kHostChosen = uint64_t{1} << 63;

  // New objects a command names: unused ids of the guest's range, each once.
  wire::Status reserve(std::span<const wire::vk::NewHandle> made) const;
  // `device`: the driver's device the object belongs to, 0 for none.
  void add(VkObjectType type, uint64_t id, uint64_t host, uint64_t device = 0);
  // The id of a driver object the guest did not name (found, or made now).
  uint64_t add_host_chosen(VkObjectType type, uint64_t host);
  void remove(VkObjectType type, uint64_t host);
  void remove_all(VkObjectType type);
  // Everything of a device that is going (what the program left behind).
  void remove_children(uint64_t device);
  // The driver's handles of a device's objects of `type`.
  std::vector<uint64_t> children_of(uint64_t device, VkObjectType type) const;
  size_t size() const { return by_id_.size(); }
  // The driver's device an object named by the guest belongs to; 0 for none.
  uint64_t device_of(uint64_t id) const;
  // The object the driver's `host` is now; serial 0 when there is none.
  ObjectUse use_of(VkObjectType type, uint64_t host) const;
  // Whether the object is still the guest's (neither destroyed nor freed).
  bool live(const ObjectUse& use) const;
  // Objects removed so far: what was live at an earlier count may have gone since.
  uint64_t removals() const { return removals_; }
  // The serials of the objects removed since the last call.
  std::vector<uint64_t> take_removed() { return std::exchange(removed_, {}); }
  // The non-dispatchable objects named since start_naming() (a command's decode).
  void start_naming() { named_.clear(); }
  std::span<const ObjectUse> named() const { return named_; }

  uint64_t to_wire(VkObjectType type, bool dispatchable, uint64_t host) override;
  wire::Result<uint64_t> from_wire(VkObjectType type, bool dispatchable, uint64_t id) override;
  bool from_guest() const override { return true; }

 private:
  struct Entry {
    VkObjectType type;
    uint64_t host;
    uint64_t device;
    uint64_t serial;
  };
  // The ids named last, by their low bits: a frame's commands name the
  // same few objects again and again. A slot holds what by_id_ holds, or
  // id 0; every change of by_id_ clears the slot of its id.
  struct Recent {
    uint64_t id = 0;
    VkObjectType type{};
    uint64_t host = 0;
    uint64_t serial = 0;
  };
  static constexpr size_t kRecent = 64;
  Recent& recent(uint64_t id) const { return recent_[id % kRecent]; }
  void forget_recent(uint64_t id) const { recent(id) = {}; }

  template <typename Pred>
  void remove_if(Pred pred);
  void note_removed(const Entry& e);
  mutable std::array<Recent, kRecent> recent_{};
  std::unordered_map<uint64_t, Entry> by_id_;
  std::map<std::pair<VkObjectType, uint64_t>, uint64_t> by_host_;
  uint64_t next_host_chosen_ = kHostChosen | 1;
  uint64_t next_serial_ = 1;
  uint64_t removals_ = 0;
  std::vector<uint64_t> removed_;
  std::vector<ObjectUse> named_;
};

}  // namespace host::vk
