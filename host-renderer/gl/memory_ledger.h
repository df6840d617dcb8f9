// The bytes each buffer, texture and renderbuffer of a share group holds,
// charged to the guest's ResourceAccount, the one place its total lives.
// Charges are per object part (a buffer's store, one face of one texture
// level, a texture's immutable storage), so a store specified again
// replaces its old charge.
//
// A deleted object is not given back at once: GL keeps its storage while a
// vertex array, a framebuffer, another context's binding, a texture view or
// a buffer texture still refers to it. It stays charged, retired, until
// reclaim() is told nothing refers to it any more.
#pragma once

#include <epoxy/gl.h>

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "host/gl_dispatch.h"
#include "wire/object_type.h"

namespace host {

// The part of an object an allocation fills.
constexpr uint32_t kWholeObject = UINT32_MAX;  // buffer store, renderbuffer, texture storage
constexpr uint32_t kMipChain = UINT32_MAX - 1; // levels glGenerateMipmap makes
constexpr uint32_t kMaxLevels = 32;            // GL needs fewer; higher levels are GL errors
constexpr uint32_t kCubeFaces = 6;
constexpr uint32_t level_part(uint32_t level, uint32_t face) { return level * kCubeFaces + face; }
// Multisampled storage a framebuffer keeps for one level of a texture it
// renders to (glFramebufferTexture2DMultisampleEXT).
constexpr uint32_t sample_part(uint32_t level) { return level_part(kMaxLevels, 0) + level; }

// Allocations are charged in whole units: the least a driver allocation costs,
// and a bound on how many parts a guest's limit lets it record.
constexpr uint64_t kChargeUnit = 256;

struct HostObject {
  wire::ObjectType kind;
  GLuint name;
};

class MemoryLedger {
 public:
  MemoryLedger() = default;
  // Gives every byte still charged back to the account.
  ~MemoryLedger();
  MemoryLedger(const MemoryLedger&) = delete;
  MemoryLedger& operator=(const MemoryLedger&) = delete;

  // The account charged; must outlive the ledger.
  void bind(ResourceAccount& account) { account_ = &account; }

  // Records `bytes` for one part of an object if the guest's total stays
  // within its limit; false (nothing recorded) otherwise. A part keeps the
  // largest size it was given until its object goes: GL may refuse a
  // smaller re-specification (an error the host does not wait for), and
  // then the larger store is still there.
  bool charge(wire::ObjectType kind, GLuint object, uint32_t part, uint64_t bytes);
  // `object` uses the storage of `used` (a buffer texture its buffer, a view
  // the texture it views), replacing what it used before.
  void link(HostObject object, HostObject used);
  // The guest deleted the object: charged until reclaim() frees it.
  void retire(wire::ObjectType kind, GLuint object);
  bool is_retired(wire::ObjectType kind, GLuint object) const;
  // GL handed out the name of a retired object again: the host keeps that
  // name unused, so a reference to it can only mean the retired object.
  void hold_name(wire::ObjectType kind, GLuint object);
  // A vertex array, framebuffer, transform feedback or context, which may
  // have referred to a retired object, was deleted.
  void referrer_deleted() { worth_a_look_ = worth_a_look_ || retired_ > 0; }
  // Whether something was retired, or a referrer deleted, since the last reclaim().
  bool worth_a_look() const { return worth_a_look_; }
  size_t retired_count() const { return retired_; }

  // Frees every retired object that neither GL (`in_use`) nor a live or
  // still-used object's link refers to. Returns the held names of the freed
  // objects, for the caller to delete.
  std::vector<HostObject> reclaim(const std::function<bool(HostObject)>& in_use);
  // Every name held now (the share group is going away).
  std::vector<HostObject> held_names() const;
  void clear();

  uint64_t bytes() const { return bytes_; }
  uint64_t bytes_of(wire::ObjectType kind, GLuint object) const;
  // What one level of an object holds, all faces together.
  uint64_t level_bytes(wire::ObjectType kind, GLuint object, uint32_t level) const;

 private:
  static constexpr uint64_t kNothing = UINT64_MAX;
  struct Part {
    uint32_t id;
    uint64_t bytes;
  };
  struct Object {
    uint64_t bytes = 0;
    std::vector<Part> parts;  // a few per texture, one otherwise
    uint64_t uses = kNothing; // key of the object whose storage it uses
    bool retired = false;
    bool held = false;        // its name is kept unused by the host
  };
  static uint64_t key(wire::ObjectType kind, GLuint object) {
    return uint64_t{static_cast<uint8_t>(kind)} << 32 | object;
  }
  static HostObject object_of(uint64_t key) {
    return {static_cast<wire::ObjectType>(key >> 32), static_cast<GLuint>(key)};
  }
  void give_back(uint64_t bytes);
  void revive(Object& o);

  ResourceAccount* account_ = nullptr;
  std::unordered_map<uint64_t, Object> objects_;
  uint64_t bytes_ = 0;
  size_t retired_ = 0;
  bool worth_a_look_ = false;
};

}  // namespace host
