// Guest object names -> host object names, one map per object kind.
#pragma once

#include <epoxy/gl.h>

#include <array>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "gl/display_lists.h"
#include "gl/memory_ledger.h"
#include "wire/object_type.h"

namespace host {

using wire::ObjectType;

class NameMap {
 public:
  // 0 when the guest name is unknown.
  GLuint find(GLuint guest) const {
    auto it = map_.find(guest);
    return it == map_.end() ? 0 : it->second;
  }
  bool insert(GLuint guest, GLuint host) { return map_.emplace(guest, host).second; }
  void erase(GLuint guest) {
    map_.erase(guest);
    if (!deleted_in_use_.empty()) deleted_in_use_.erase(guest);
  }
  // Deleted by the guest while GL keeps the object (a program in use, a
  // shader attached): the name still names it until GL frees it.
  void mark_deleted_in_use(GLuint guest) { deleted_in_use_.insert(guest); }
  bool is_deleted_in_use(GLuint guest) const { return !deleted_in_use_.empty() && deleted_in_use_.count(guest); }
  const std::unordered_set<GLuint>& deleted_in_use() const { return deleted_in_use_; }
  // The guest name of a host name, 0 when none (rare: reverse queries only).
  GLuint reverse(GLuint host) const;
  size_t size() const { return map_.size(); }
  const std::unordered_map<GLuint, GLuint>& entries() const { return map_; }
  void clear() {
    map_.clear();
    deleted_in_use_.clear();
  }

 private:
  std::unordered_map<GLuint, GLuint> map_;
  std::unordered_set<GLuint> deleted_in_use_;
};

// Names shared by the contexts of one share group, and the memory their
// objects hold.
class ShareGroup {
 public:
  NameMap& names(ObjectType t) { return maps_[static_cast<size_t>(t)]; }
  MemoryLedger ledger;
  DisplayListCharges lists;
  // Counts commands of the group's contexts that may change a vertex array
  // or a buffer's size (gl/array_reads.h).
  uint64_t array_epoch = 0;
  // Memory objects with memory imported (GL_EXT_memory_object_fd), by the
  // guest's name: the bytes imported, which storage placed there must fit.
  std::unordered_map<GLuint, uint64_t> imported_memory;

 private:
  std::array<NameMap, static_cast<size_t>(ObjectType::kCount)> maps_;
};

}  // namespace host
