// Fence syncs: the guest hands out its own handles, so creating and
// deleting one never waits. Wire layouts: host-renderer/gl/sync_handlers.cpp.
#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"

namespace icd {
namespace {

constexpr GLenum kWaitFailed = 0x911D;

uint64_t handle_of(GLsync sync) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(sync)); }

void put_handle_command(Stream& s, wire::GlOp op, GLsync sync) {
  size_t cmd = begin(s, op);
  s.writer().put(handle_of(sync));
  finish(s, cmd);
}

}  // namespace

GLsync GLAPIENTRY handle_glFenceSync(GLenum condition, GLbitfield flags) {
  Stream* s = current_stream();
  if (!s) return nullptr;
  const uint64_t handle = s->gl_state().names().allocate_sync();
  size_t cmd = begin(*s, wire::GlOp::glFenceSync);
  s->writer().put(static_cast<uint32_t>(condition));
  s->writer().put(static_cast<uint32_t>(flags));
  s->writer().put(handle);
  finish(*s, cmd);
  return reinterpret_cast<GLsync>(static_cast<uintptr_t>(handle));
}

GLenum GLAPIENTRY handle_glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
  Stream* s = current_stream();
  if (!s) return kWaitFailed;
  size_t cmd = begin(*s, wire::GlOp::glClientWaitSync);
  s->writer().put(handle_of(sync));
  s->writer().put(static_cast<uint32_t>(flags));
  s->writer().put(static_cast<uint64_t>(timeout));
  auto reply = finish_and_wait(*s, cmd);
  if (!reply) return kWaitFailed;
  wire::Reader r(*reply, 0);
  auto status = r.get<uint32_t>();
  return status ? *status : kWaitFailed;
}

void GLAPIENTRY handle_glWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin(*s, wire::GlOp::glWaitSync);
  s->writer().put(handle_of(sync));
  s->writer().put(static_cast<uint32_t>(flags));
  s->writer().put(static_cast<uint64_t>(timeout));
  finish(*s, cmd);
}

void GLAPIENTRY handle_glDeleteSync(GLsync sync) {
  Stream* s = current_stream();
  if (!s || !sync) return;
  put_handle_command(*s, wire::GlOp::glDeleteSync, sync);
}

GLboolean GLAPIENTRY handle_glIsSync(GLsync sync) {
  // Handles are handed out in order and never reused.
  return sync != nullptr ? 1 : 0;
}

void GLAPIENTRY handle_glGetSynciv(GLsync sync, GLenum pname, GLsizei count, GLsizei* length,
                                   GLint* values) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin(*s, wire::GlOp::glGetSynciv);
  s->writer().put(handle_of(sync));
  s->writer().put(static_cast<uint32_t>(pname));
  s->writer().put(static_cast<int32_t>(count));
  auto reply = finish_and_wait(*s, cmd);
  if (!reply) return;
  wire::Reader r(*reply, 0);
  auto n = r.get<int32_t>();
  copy_reply(r, values, static_cast<size_t>(std::max(count, 0)) * sizeof(GLint));
  if (length) *length = n ? *n : 0;
}

// A label names the sync by its handle; a null label removes it (KHR_debug).
void GLAPIENTRY handle_glObjectPtrLabel(const void* ptr, GLsizei length, const GLchar* label) {
  Stream* s = current_stream();
  if (!s) return;
  const size_t bytes = !label ? 0 : length < 0 ? std::strlen(label) : static_cast<size_t>(length);
  size_t cmd = begin(*s, wire::GlOp::glObjectPtrLabel);
  s->writer().put(handle_of(static_cast<GLsync>(const_cast<void*>(ptr))));
  s->writer().put(static_cast<uint32_t>(label != nullptr));
  s->writer().put_data(label, bytes);
  finish(*s, cmd);
}

void GLAPIENTRY handle_glGetObjectPtrLabel(const void* ptr, GLsizei buf_size, GLsizei* length,
                                           GLchar* label) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin(*s, wire::GlOp::glGetObjectPtrLabel);
  s->writer().put(handle_of(static_cast<GLsync>(const_cast<void*>(ptr))));
  s->writer().put(static_cast<int32_t>(buf_size));
  auto reply = finish_and_wait(*s, cmd);
  if (!reply) return;
  wire::Reader r(*reply, 0);
  auto n = r.get<int32_t>();
  copy_reply(r, label, static_cast<size_t>(std::max(buf_size, 0)));
  if (length) *length = n ? *n : 0;
}

}  // namespace icd
