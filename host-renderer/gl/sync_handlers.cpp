// Fence syncs: the guest names them with 64-bit handles of its own.
//
// Wire layouts (guest-icd/gl/sync_entry.cpp writes them):
//   glFenceSync       u32 condition, u32 flags, u64 guest handle
//   glClientWaitSync  u64 handle, u32 flags, u64 timeout -> u32 status
//   glWaitSync        u64 handle, u32 flags, u64 timeout
//   glDeleteSync      u64 handle
//   glGetSynciv       u64 handle, u32 pname, i32 count -> i32 length, Data values
#include <epoxy/gl.h>

#include <algorithm>

#include "gl/dispatch_support.h"
#include "gl/read_args.h"
#include "gl/gl_host_handlers.h"

namespace host {
namespace {

// A guest waiting longer than this is answered GL_TIMEOUT_EXPIRED and may
// wait again: its session thread must stay responsive.
constexpr uint64_t kMaxWaitNs = 1'000'000'000;

wire::Result<GLsync> find_sync(GlContextState::Impl& st, uint64_t handle) {
  auto it = st.syncs.find(handle);
  if (it == st.syncs.end()) return wire::make_error(wire::Errc::kBadName, "unknown sync");
  return it->second;
}

}  // namespace

wire::Status handle_glFenceSync(DispatchEnv& env, wire::Reader& r) {
  GLenum condition = 0;
  GLbitfield flags = 0;
  uint64_t handle = 0;
  WIRE_TRY(read_args(r, condition, flags, handle));
  auto& st = env.state.impl();
  if (handle == 0 || st.syncs.count(handle)) {
    return wire::make_error(wire::Errc::kBadName, "sync handle reused");
  }
  if (st.syncs.size() >= st.account.limits.max_objects) {
    return wire::make_error(wire::Errc::kLimit, "sync object limit");
  }
  // Deleted objects GL has freed since may make room.
  if (!st.account.try_charge(kSyncBytes)) {
    st.refused_error = GL_OUT_OF_MEMORY;
    return {};
  }
  GLsync sync = glFenceSync(condition, flags);
  if (sync) {
    st.syncs.emplace(handle, sync);
  } else {
    st.account.release(kSyncBytes);
  }
  return {};
}

wire::Status handle_glClientWaitSync(DispatchEnv& env, wire::Reader& r) {
  uint64_t handle = 0, timeout = 0;
  GLbitfield flags = 0;
  WIRE_TRY(read_args(r, handle, flags, timeout));
  auto sync = find_sync(env.state.impl(), handle);
  if (!sync) return sync.error();
  GLenum status = glClientWaitSync(*sync, flags, std::min(timeout, kMaxWaitNs));
  env.reply.put(static_cast<uint32_t>(status));
  return {};
}

wire::Status handle_glWaitSync(DispatchEnv& env, wire::Reader& r) {
  uint64_t handle = 0, timeout = 0;
  GLbitfield flags = 0;
  WIRE_TRY(read_args(r, handle, flags, timeout));
  auto sync = find_sync(env.state.impl(), handle);
  if (!sync) return sync.error();
  glWaitSync(*sync, flags, GL_TIMEOUT_IGNORED);
  return {};
}

wire::Status handle_glDeleteSync(DispatchEnv& env, wire::Reader& r) {
  uint64_t handle = 0;
  WIRE_TRY(read_args(r, handle));
  auto& st = env.state.impl();
  auto it = st.syncs.find(handle);
  if (it != st.syncs.end()) {
    glDeleteSync(it->second);
    st.syncs.erase(it);
    st.account.release(kSyncBytes);
  }
  return {};
}

wire::Status handle_glIsSync(DispatchEnv&, wire::Reader&) { return guest_only("glIsSync"); }

wire::Status handle_glGetSynciv(DispatchEnv& env, wire::Reader& r) {
  uint64_t handle = 0;
  GLenum pname = 0;
  GLsizei count = 0;
  WIRE_TRY(read_args(r, handle, pname, count));
  auto sync = find_sync(env.state.impl(), handle);
  if (!sync) return sync.error();
  GLint values[wire::size::kMaxEnumValues] = {};
  GLsizei length = 0;
  count = std::clamp<GLsizei>(count, 0, wire::size::kMaxEnumValues);
  glGetSynciv(*sync, pname, count, &length, values);
  length = std::clamp<GLsizei>(length, 0, count);
  env.reply.put(static_cast<int32_t>(length));
  env.reply.put_data(values, static_cast<size_t>(length) * sizeof(GLint));
  return {};
}

}  // namespace host
