// Fence syncs: the guest hands out its own handles, so creating and
// deleting one never waits. Wire layouts and replies:
// wire-protocol/annotations.toml [layouts] and [replies].
#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "gl/persistent_mappings.h"
#include "wire/gl_encode.h"
#include "wire/gl_replies.h"

namespace icd {
namespace {

constexpr GLenum kWaitFailed = 0x911D;
constexpr GLenum kAlreadySignaled = 0x911A, kConditionSatisfied = 0x911C;
constexpr GLenum kSyncStatus = 0x9114, kSignaled = 0x9119;

constexpr GLenum kInvalidEnum = 0x0500, kInvalidValue = 0x0501;
constexpr GLenum kGpuCommandsComplete = 0x9117;  // GL_SYNC_GPU_COMMANDS_COMPLETE

uint64_t handle_of(GLsync sync) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(sync)); }

// False, with GL's error raised, when `sync` names no live sync object.
bool live(Stream& s, GLsync sync) {
  if (s.gl_state().names().sync_live(handle_of(sync))) return true;
  s.gl_state().raise_error(kInvalidValue);
  return false;
}

}  // namespace

GLsync GLAPIENTRY handle_glFenceSync(GLenum condition, GLbitfield flags) {
  Stream* s = current_stream();
  if (!s) return nullptr;
  // GL makes no sync for these; neither does the guest.
  if (condition != kGpuCommandsComplete || flags != 0) {
    s->gl_state().raise_error(condition != kGpuCommandsComplete ? kInvalidEnum : kInvalidValue);
    return nullptr;
  }
  const uint64_t handle = s->gl_state().names().allocate_sync();
  wire::encode_glFenceSync(s->writer(), condition, flags, handle);
  s->commit();
  return reinterpret_cast<GLsync>(static_cast<uintptr_t>(handle));
}

GLenum GLAPIENTRY handle_glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
  Stream* s = current_stream();
  if (!s || !live(*s, sync)) return kWaitFailed;
  wire::encode_glClientWaitSync(s->writer(), handle_of(sync), flags, timeout);
  wire::Reply_glClientWaitSync out;
  if (!await_reply(*s, out, wire::decode_reply_glClientWaitSync)) return kWaitFailed;
  if (out.status == kAlreadySignaled || out.status == kConditionSatisfied) fetch_mapped_reads(*s);
  return out.status;
}

void GLAPIENTRY handle_glWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
  Stream* s = current_stream();
  if (!s || !live(*s, sync)) return;
  wire::encode_glWaitSync(s->writer(), handle_of(sync), flags, timeout);
  s->commit();
}

void GLAPIENTRY handle_glDeleteSync(GLsync sync) {
  Stream* s = current_stream();
  if (!s || !sync) return;  // deleting zero is silently ignored
  if (!s->gl_state().names().delete_sync(handle_of(sync))) {
    s->gl_state().raise_error(kInvalidValue);
    return;
  }
  wire::encode_glDeleteSync(s->writer(), handle_of(sync));
  s->commit();
}

GLboolean GLAPIENTRY handle_glIsSync(GLsync sync) {
  Stream* s = current_stream();
  return s && s->gl_state().names().sync_live(handle_of(sync)) ? 1 : 0;
}

void GLAPIENTRY handle_glGetSynciv(GLsync sync, GLenum pname, GLsizei count, GLsizei* length,
                                   GLint* values) {
  Stream* s = current_stream();
  if (!s || !live(*s, sync)) return;
  wire::encode_glGetSynciv(s->writer(), handle_of(sync), pname, count);
  wire::Reply_glGetSynciv out;
  if (!await_reply(*s, out, wire::decode_reply_glGetSynciv)) return;
  copy_data(out.values, values, static_cast<size_t>(std::max(count, 0)) * sizeof(GLint));
  if (length) *length = out.length;
  if (pname == kSyncStatus && count > 0 && values && values[0] == kSignaled) {
    fetch_mapped_reads(*s);
  }
}

// A label names the sync by its handle; a null label removes it (KHR_debug).
void GLAPIENTRY handle_glObjectPtrLabel(const void* ptr, GLsizei length, const GLchar* label) {
  Stream* s = current_stream();
  if (!s) return;
  const size_t bytes = !label ? 0 : length < 0 ? std::strlen(label) : static_cast<size_t>(length);
  wire::encode_glObjectPtrLabel(s->writer(), handle_of(static_cast<GLsync>(const_cast<void*>(ptr))),
                                label != nullptr, label, bytes);
  s->commit();
}

void GLAPIENTRY handle_glGetObjectPtrLabel(const void* ptr, GLsizei buf_size, GLsizei* length,
                                           GLchar* label) {
  Stream* s = current_stream();
  if (!s) return;
  wire::encode_glGetObjectPtrLabel(s->writer(), handle_of(static_cast<GLsync>(const_cast<void*>(ptr))),
                                   buf_size);
  wire::Reply_glGetObjectPtrLabel out;
  if (!await_reply(*s, out, wire::decode_reply_glGetObjectPtrLabel)) return;
  copy_data(out.label, label, static_cast<size_t>(std::max(buf_size, 0)));
  if (length) *length = out.length;
}

}  // namespace icd
