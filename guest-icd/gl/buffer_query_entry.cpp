// Buffer queries about a mapping. The mapping lives in the guest (the
// host's buffer is mapped only while one command runs), so GL_BUFFER_MAPPED
// and the map's access, offset and length come from it; other queries, and
// those of a buffer the program has not mapped, are the host's.
#include <map>
#include <optional>

#include "gl/buffer_binding.h"
#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "wire/gl_encode.h"
#include "wire/sizes.h"

namespace icd {
namespace {

constexpr GLenum kBufferAccess = 0x88BB, kBufferMapped = 0x88BC, kAccessFlags = 0x911F;
constexpr GLenum kMapLength = 0x9120, kMapOffset = 0x9121;
constexpr GLenum kReadOnly = 0x88B8, kWriteOnly = 0x88B9, kReadWrite = 0x88BA;
constexpr GLbitfield kMapRead = 0x0001, kMapWrite = 0x0002;

template <typename Key>
const Mapping* find_mapping(std::map<Key, Mapping>& maps, Key key) {
  auto it = maps.find(key);
  return it == maps.end() ? nullptr : &it->second;
}

// The program's mapping of the buffer bound to `target`, null when none.
const Mapping* mapping_at(GlState& st, GLenum target) {
  if (const Mapping* m = find_mapping(st.mappings(), st.binding_key(target))) return m;
  if (st.persistent_mappings().empty()) return nullptr;
  return find_mapping(st.persistent_mappings(), buffer_at(target));
}

// The program's mapping of `buffer` by name, null when none.
const Mapping* mapping_of(GlState& st, GLuint buffer) {
  const Mapping* m = find_mapping(st.named_mappings(), buffer);
  return m ? m : find_mapping(st.persistent_mappings(), buffer);
}

// A mapping's answer to `pname`, none when the host answers.
std::optional<int64_t> mapping_answer(const Mapping* m, GLenum pname) {
  if (!m) return std::nullopt;
  switch (pname) {
    case kBufferMapped: return 1;
    case kAccessFlags: return m->access;
    case kMapOffset: return m->offset;
    case kMapLength: return m->length;
    case kBufferAccess: {
      const GLbitfield rw = m->access & (kMapRead | kMapWrite);
      return rw == kMapRead ? kReadOnly : rw == kMapWrite ? kWriteOnly : kReadWrite;
    }
    default: return std::nullopt;
  }
}

// Answers `pname` from the mapping `find(state)` gives, or asks the host
// with the command `encode` writes.
template <typename T, typename Find, typename Encode>
void get_buffer_parameter(GLenum pname, T* params, Find find, Encode encode) {
  Stream* s = current_stream();
  if (!s) return;
  if (auto value = mapping_answer(find(s->gl_state()), pname)) {
    if (params) *params = static_cast<T>(*value);
    return;
  }
  encode(s->writer());
  auto reply = s->roundtrip();
  if (!reply) return;
  wire::Reader r(*reply, 0);
  copy_reply(r, params, wire::size::pname_values(pname) * sizeof(T));
}

}  // namespace

void GLAPIENTRY handle_glGetBufferParameteriv(GLenum target, GLenum pname, GLint* params) {
  get_buffer_parameter(
      pname, params, [&](GlState& st) { return mapping_at(st, target); },
      [&](wire::Writer& w) { wire::encode_glGetBufferParameteriv(w, target, pname); });
}

void GLAPIENTRY handle_glGetBufferParameteri64v(GLenum target, GLenum pname, GLint64* params) {
  get_buffer_parameter(
      pname, params, [&](GlState& st) { return mapping_at(st, target); },
      [&](wire::Writer& w) { wire::encode_glGetBufferParameteri64v(w, target, pname); });
}

void GLAPIENTRY handle_glGetNamedBufferParameteriv(GLuint buffer, GLenum pname, GLint* params) {
  get_buffer_parameter(
      pname, params, [&](GlState& st) { return mapping_of(st, buffer); },
      [&](wire::Writer& w) { wire::encode_glGetNamedBufferParameteriv(w, buffer, pname); });
}

void GLAPIENTRY handle_glGetNamedBufferParameteri64v(GLuint buffer, GLenum pname, GLint64* params) {
  get_buffer_parameter(
      pname, params, [&](GlState& st) { return mapping_of(st, buffer); },
      [&](wire::Writer& w) { wire::encode_glGetNamedBufferParameteri64v(w, buffer, pname); });
}

}  // namespace icd
