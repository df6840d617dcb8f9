#include "gl/memory_ledger.h"

#include <algorithm>

namespace host {

MemoryLedger::~MemoryLedger() { clear(); }

bool MemoryLedger::charge(wire::ObjectType kind, GLuint object, uint32_t part, uint64_t bytes) {
  if (account_ == nullptr) return false;
  const uint64_t units = bytes / kChargeUnit + (bytes % kChargeUnit != 0);
  const uint64_t rounded = units * kChargeUnit;  // bytes < 2^63: cannot overflow
  auto it = objects_.find(key(kind, object));
  Part* found = nullptr;
  if (it != objects_.end()) {
    auto& parts = it->second.parts;
    auto p = std::find_if(parts.begin(), parts.end(), [&](const Part& x) { return x.id == part; });
    if (p != parts.end()) found = &*p;
  }
  const uint64_t old = found ? found->bytes : 0;
  if (rounded <= old) return true;
  const uint64_t more = rounded - old;
  const uint64_t limit = account_->limits.max_total_bytes;
  if (more > limit - std::min<uint64_t>(account_->total_bytes, limit)) return false;
  if (it == objects_.end()) it = objects_.emplace(key(kind, object), Object{}).first;
  if (found) {
    found->bytes = rounded;
  } else {
    it->second.parts.push_back(Part{part, rounded});
  }
  it->second.bytes += more;
  bytes_ += more;
  account_->total_bytes += more;
  return true;
}

void MemoryLedger::release(wire::ObjectType kind, GLuint object) {
  auto it = objects_.find(key(kind, object));
  if (it == objects_.end()) return;
  give_back(it->second.bytes);
  objects_.erase(it);
}

void MemoryLedger::clear() {
  give_back(bytes_);
  objects_.clear();
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
  if (account_) account_->total_bytes -= std::min<uint64_t>(account_->total_bytes, bytes);
}

}  // namespace host
