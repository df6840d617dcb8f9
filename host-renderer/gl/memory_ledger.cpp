#include "gl/memory_ledger.h"

#include <algorithm>
#include <unordered_set>

namespace host {

MemoryLedger::~MemoryLedger() { clear(); }

bool MemoryLedger::charge(wire::ObjectType kind, GLuint object, uint32_t part, uint64_t bytes) {
  if (account_ == nullptr) return false;
  const uint64_t units = bytes / kChargeUnit + (bytes % kChargeUnit != 0);
  const uint64_t rounded = units * kChargeUnit;  // bytes < 2^63: cannot overflow
  auto it = objects_.find(key(kind, object));
  Part* found = nullptr;
  if (it != objects_.end()) {
    revive(it->second);
    auto& parts = it->second.parts;
    auto p = std::find_if(parts.begin(), parts.end(), [&](const Part& x) { return x.id == part; });
    if (p != parts.end()) found = &*p;
  }
  const uint64_t old = found ? found->bytes : 0;
  if (rounded <= old) return true;
  const uint64_t more = rounded - old;
  if (!account_->charge_if_fits(more)) return false;
  if (it == objects_.end()) it = objects_.emplace(key(kind, object), Object{}).first;
  if (found) {
    found->bytes = rounded;
  } else {
    it->second.parts.push_back(Part{part, rounded});
  }
  it->second.bytes += more;
  bytes_ += more;
  return true;
}

void MemoryLedger::link(HostObject object, HostObject used) {
  Object& o = objects_[key(object.kind, object.name)];
  revive(o);
  o.uses = used.name == 0 ? kNothing : key(used.kind, used.name);
}

// A live object under a retired one's name: GL gave the name out while the
// host did not hold it. Counted as live, old charge included, until deleted.
void MemoryLedger::revive(Object& o) {
  if (!o.retired) return;
  o.retired = false;
  --retired_;
}

void MemoryLedger::retire(wire::ObjectType kind, GLuint object) {
  auto it = objects_.find(key(kind, object));
  if (it == objects_.end() || it->second.retired) return;
  it->second.retired = true;
  ++retired_;
  worth_a_look_ = true;
}

bool MemoryLedger::is_retired(wire::ObjectType kind, GLuint object) const {
  auto it = objects_.find(key(kind, object));
  return it != objects_.end() && it->second.retired;
}

void MemoryLedger::hold_name(wire::ObjectType kind, GLuint object) {
  auto it = objects_.find(key(kind, object));
  if (it != objects_.end() && it->second.retired) it->second.held = true;
}

std::vector<HostObject> MemoryLedger::reclaim(const std::function<bool(HostObject)>& in_use) {
  worth_a_look_ = false;
  // Everything a live object or a referenced retired one uses is kept,
  // and what those use in turn.
  std::unordered_set<uint64_t> kept;
  std::vector<uint64_t> pending;
  for (const auto& [k, o] : objects_) {
    if (!o.retired || in_use(object_of(k))) pending.push_back(k);
  }
  while (!pending.empty()) {
    const uint64_t k = pending.back();
    pending.pop_back();
    if (!kept.insert(k).second) continue;
    auto it = objects_.find(k);
    if (it != objects_.end() && it->second.uses != kNothing) pending.push_back(it->second.uses);
  }
  std::vector<HostObject> held;
  for (auto it = objects_.begin(); it != objects_.end();) {
    if (!it->second.retired || kept.count(it->first)) {
      ++it;
      continue;
    }
    if (it->second.held) held.push_back(object_of(it->first));
    give_back(it->second.bytes);
    --retired_;
    it = objects_.erase(it);
  }
  return held;
}

std::vector<HostObject> MemoryLedger::held_names() const {
  std::vector<HostObject> held;
  for (const auto& [k, o] : objects_) {
    if (o.held) held.push_back(object_of(k));
  }
  return held;
}

void MemoryLedger::clear() {
  give_back(bytes_);
  objects_.clear();
  retired_ = 0;
  worth_a_look_ = false;
}

uint64_t MemoryLedger::bytes_of(wire::ObjectType kind, GLuint object) const {
  auto it = objects_.find(key(kind, object));
  return it == objects_.end() ? 0 : it->second.bytes;
}

uint64_t MemoryLedger::level_bytes(wire::ObjectType kind, GLuint object, uint32_t level) const {
  auto it = objects_.find(key(kind, object));
  if (it == objects_.end()) return 0;
  uint64_t sum = 0;
  for (const Part& p : it->second.parts) {
    if (p.id < level_part(kMaxLevels, 0) && p.id / kCubeFaces == level) sum += p.bytes;
  }
  return sum;
}

void MemoryLedger::give_back(uint64_t bytes) {
  bytes_ -= std::min(bytes_, bytes);
  if (account_) account_->release(bytes);
}

}  // namespace host
