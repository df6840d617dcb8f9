// The bytes each buffer, texture and renderbuffer of a share group holds,
// charged to the guest's ResourceAccount, the one place its total lives.
// Charges are per object part (a buffer's store, one face of one texture
// level, a texture's immutable storage), so a store specified again
// replaces its old charge and a deleted object gives its bytes back.
#pragma once

#include <epoxy/gl.h>

#include <cstdint>
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

// Allocations are charged in whole units: the least a driver allocation costs,
// and a bound on how many parts a guest's limit lets it record.
constexpr uint64_t kChargeUnit = 256;

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
  // The object was deleted: its bytes go back to the account.
  void release(wire::ObjectType kind, GLuint object);
  void clear();

  uint64_t bytes() const { return bytes_; }
  uint64_t bytes_of(wire::ObjectType kind, GLuint object) const;
  // What one level of an object holds, all faces together.
  uint64_t level_bytes(wire::ObjectType kind, GLuint object, uint32_t level) const;

 private:
  struct Part {
    uint32_t id;
    uint64_t bytes;
  };
  struct Object {
    uint64_t bytes = 0;
    std::vector<Part> parts;  // a few per texture, one otherwise
  };
  static uint64_t key(wire::ObjectType kind, GLuint object) {
    return uint64_t{static_cast<uint8_t>(kind)} << 32 | object;
  }
  void give_back(uint64_t bytes);

  ResourceAccount* account_ = nullptr;
  std::unordered_map<uint64_t, Object> objects_;
  uint64_t bytes_ = 0;
};

}  // namespace host
