#include "gl/persistent_mappings.h"

#include <cstdlib>
#include <cstring>
#include <vector>

#include "conn/changed_ranges.h"
#include "gl/mapping_transfer.h"

namespace icd {
namespace {

constexpr GLbitfield kMapRead = 0x0001, kMapWrite = 0x0002;
constexpr GLbitfield kInvalidate = 0x0004 | 0x0008;
// The program orders its writes against GL's reads itself (fences), as it
// must natively; the host waits for nothing when it takes them.
constexpr GLbitfield kUnsynchronized = 0x0020;

void encode_changes(wire::Writer& w, Mapping& m) {
  if (!(m.access & kMapWrite)) return;
  const GLbitfield access = (m.access & ~kInvalidate) | kUnsynchronized;
  for (ByteRange r : changed_ranges(m.shadow.data(), m.host_copy.data(), m.shadow.size())) {
    encode_range(w, m, static_cast<int64_t>(r.offset), static_cast<int64_t>(r.length), access);
    std::memcpy(m.host_copy.data() + r.offset, m.shadow.data() + r.offset, r.length);
  }
}

void send_ahead_of_batch(Stream& s, wire::Writer& w) {
  for (auto& [buffer, m] : s.gl_state().persistent_mappings()) encode_changes(w, m);
}

// Whether GL's writes come back into m. Reading a mapping made without
// GL_MAP_READ_BIT is undefined, yet works natively and small programs do it;
// a large write-only mapping (a program's vertex ring) is not read back,
// which would cost its whole size at every fence.
bool read_back(const Mapping& m) {
  constexpr int64_t kLargestReadWithoutReadBit = 256 << 10;
  static const bool all = std::getenv("CONDUIT_READ_BACK_ALL_MAPPINGS") != nullptr;
  return all || (m.access & kMapRead) || m.length <= kLargestReadWithoutReadBit;
}

// Takes what GL changed since the host last sent it; blocks GL left alone
// keep what the program may have written there meanwhile.
void fetch_changes(Stream& s, Mapping& m) {
  if (!read_back(m)) return;
  std::vector<std::byte> now(m.shadow.size());
  if (!read_range(s, m, 0, m.length, now.data())) return;
  for (ByteRange r : changed_ranges(now.data(), m.host_copy.data(), now.size())) {
    std::memcpy(m.shadow.data() + r.offset, now.data() + r.offset, r.length);
    std::memcpy(m.host_copy.data() + r.offset, now.data() + r.offset, r.length);
  }
}

}  // namespace

void fetch_mapped_reads(Stream& s) {
  for (auto& [buffer, m] : s.gl_state().persistent_mappings()) fetch_changes(s, m);
}

void keep_persistent(Stream& s, Mapping m) {
  m.host_copy.assign(m.shadow.data(), m.shadow.data() + m.shadow.size());
  const GLuint buffer = m.buffer;
  s.gl_state().persistent_mappings()[buffer] = std::move(m);
  s.set_before_send(send_ahead_of_batch);
}

bool end_persistent(Stream& s, GLuint buffer) {
  auto& maps = s.gl_state().persistent_mappings();
  auto it = maps.find(buffer);
  if (it == maps.end()) return false;
  encode_changes(s.writer(), it->second);
  s.commit();
  forget_persistent(s, buffer);
  return true;
}

void forget_persistent(Stream& s, GLuint buffer) {
  auto& maps = s.gl_state().persistent_mappings();
  maps.erase(buffer);
  if (maps.empty()) s.set_before_send(nullptr);
}

}  // namespace icd
