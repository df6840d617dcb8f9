#include "gl/persistent_mappings.h"

#include <cstring>
#include <vector>

#include "conn/changed_ranges.h"
#include "gl/mapping_transfer.h"

namespace icd {
namespace {

constexpr GLbitfield kMapWrite = 0x0002;
constexpr GLbitfield kInvalidate = 0x0004 | 0x0008;
// The program orders its writes against GL's reads itself (fences), as it
// must natively; the host waits for nothing when it takes them.
constexpr GLbitfield kUnsynchronized = 0x0020;

void send_changes(Stream& s, Mapping& m) {
  if (!(m.access & kMapWrite)) return;
  const GLbitfield access = (m.access & ~kInvalidate) | kUnsynchronized;
  for (ByteRange r : changed_ranges(m.shadow.data(), m.host_copy.data(), m.shadow.size())) {
    send_range(s, m, static_cast<int64_t>(r.offset), static_cast<int64_t>(r.length), access);
    std::memcpy(m.host_copy.data() + r.offset, m.shadow.data() + r.offset, r.length);
  }
}

// Takes what GL changed since the host last sent it; blocks GL left alone
// keep what the program may have written there meanwhile. Mappings made for
// writing only are read too: programs do, and natively it works.
void fetch_changes(Stream& s, Mapping& m) {
  std::vector<std::byte> now(m.shadow.size());
  if (!read_range(s, m, 0, m.length, now.data())) return;
  for (ByteRange r : changed_ranges(now.data(), m.host_copy.data(), now.size())) {
    std::memcpy(m.shadow.data() + r.offset, now.data() + r.offset, r.length);
    std::memcpy(m.host_copy.data() + r.offset, now.data() + r.offset, r.length);
  }
}

}  // namespace

void send_changed_mapped_writes(Stream& s) {
  for (auto& [buffer, m] : s.gl_state().persistent_mappings()) send_changes(s, m);
}

void fetch_mapped_reads(Stream& s) {
  for (auto& [buffer, m] : s.gl_state().persistent_mappings()) fetch_changes(s, m);
}

void keep_persistent(Stream& s, Mapping m) {
  m.host_copy = m.shadow;
  GLuint buffer = m.buffer;
  s.gl_state().persistent_mappings()[buffer] = std::move(m);
}

bool end_persistent(Stream& s, GLuint buffer) {
  auto& maps = s.gl_state().persistent_mappings();
  auto it = maps.find(buffer);
  if (it == maps.end()) return false;
  send_changes(s, it->second);
  maps.erase(it);
  return true;
}

}  // namespace icd
