// Fence syncs: the guest names them with 64-bit handles of its own.
//
// Wire layouts (guest-icd/gl/sync_entry.cpp writes them):
//   glFenceSync       u32 condition, u32 flags, u64 guest handle
//   glClientWaitSync  u64 handle, u32 flags, u64 timeout -> u32 status
//   glWaitSync        u64 handle, u32 flags, u64 timeout
//   glDeleteSync      u64 handle
//   glGetSynciv       u64 handle, u32 pname, i32 count -> i32 length, Data values
//   glObjectPtrLabel  u64 handle, u32 has label, Data label (no terminator)
//   glGetObjectPtrLabel u64 handle, i32 buffer size -> i32 length, Data label
//                     (terminated, at most the buffer size)
#include <epoxy/gl.h>

#include <algorithm>
#include <string>
#include <vector>

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

// GL's answer to a pointer that names no sync.
wire::Status not_a_sync(GlContextState::Impl& st) {
  st.refused_error = GL_INVALID_VALUE;
  return {};
}

// Labels longer than GL's limit are GL's error; this only bounds the copy.
constexpr size_t kMaxLabelBytes = 64 * 1024;

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

wire::Status handle_glObjectPtrLabel(DispatchEnv& env, wire::Reader& r) {
  uint64_t handle = 0;
  uint32_t has_label = 0;
  WIRE_TRY(read_args(r, handle, has_label));
  auto label = r.get_data();
  if (!label) return label.error();
  if (label->bytes.size() > kMaxLabelBytes) {
    return wire::make_error(wire::Errc::kLimit, "label longer than any GL allows");
  }
  auto sync = find_sync(env.state.impl(), handle);
  if (!sync) return not_a_sync(env.state.impl());
  // GL takes the length given; the copy only adds the terminator.
  const std::string text(reinterpret_cast<const char*>(label->bytes.data()), label->bytes.size());
  glObjectPtrLabel(*sync, static_cast<GLsizei>(text.size()), has_label ? text.c_str() : nullptr);
  return {};
}

wire::Status handle_glGetObjectPtrLabel(DispatchEnv& env, wire::Reader& r) {
  uint64_t handle = 0;
  GLsizei buf_size = 0;
  WIRE_TRY(read_args(r, handle, buf_size));
  auto sync = find_sync(env.state.impl(), handle);
  if (!sync) {
    env.reply.put(int32_t{0});
    env.reply.put_data(nullptr, 0);
    return not_a_sync(env.state.impl());
  }
  std::vector<GLchar> text(std::clamp<size_t>(static_cast<size_t>(std::max(buf_size, 0)), 0, kMaxLabelBytes));
  GLsizei length = 0;
  glGetObjectPtrLabel(*sync, static_cast<GLsizei>(text.size()), &length, text.empty() ? nullptr : text.data());
  // With no buffer GL answers the label's whole length; else what it wrote.
  const GLsizei most = text.empty() ? static_cast<GLsizei>(kMaxLabelBytes) : static_cast<GLsizei>(text.size()) - 1;
  length = std::clamp<GLsizei>(length, 0, most);
  env.reply.put(static_cast<int32_t>(length));
  env.reply.put_data(text.data(), text.empty() ? 0 : static_cast<size_t>(length) + 1);
  return {};
}

}  // namespace host
