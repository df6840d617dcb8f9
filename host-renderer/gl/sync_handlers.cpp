// Fence syncs: the guest names them with 64-bit handles of its own.
//
// Wire layouts and replies: wire-protocol/annotations.toml [layouts] and
// [replies]; a label comes back terminated, at most the buffer's size.

#include <epoxy/gl.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gl/dispatch_support.h"
#include "gl/read_args.h"
#include "gl/gl_host_handlers.h"
#include "wire/gl_replies.h"

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
  wire::Args_glFenceSync a{};
  WIRE_TRY(wire::decode_glFenceSync(r, a));
  auto& st = env.state.impl();
  if (a.sync == 0 || st.syncs.count(a.sync)) {
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
  GLsync sync = glFenceSync(a.condition, a.flags);
  if (sync) {
    st.syncs.emplace(a.sync, sync);
  } else {
    st.account.release(kSyncBytes);
  }
  return {};
}

wire::Status handle_glClientWaitSync(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glClientWaitSync a{};
  WIRE_TRY(wire::decode_glClientWaitSync(r, a));
  auto sync = find_sync(env.state.impl(), a.sync);
  if (!sync) return sync.error();
  GLenum status = glClientWaitSync(*sync, a.flags, std::min<uint64_t>(a.timeout, kMaxWaitNs));
  wire::encode_reply_glClientWaitSync(env.reply, status);
  return {};
}

wire::Status handle_glWaitSync(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glWaitSync a{};
  WIRE_TRY(wire::decode_glWaitSync(r, a));
  auto sync = find_sync(env.state.impl(), a.sync);
  if (!sync) return sync.error();
  glWaitSync(*sync, a.flags, GL_TIMEOUT_IGNORED);
  return {};
}

wire::Status handle_glDeleteSync(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glDeleteSync a{};
  WIRE_TRY(wire::decode_glDeleteSync(r, a));
  auto& st = env.state.impl();
  auto it = st.syncs.find(a.sync);
  if (it != st.syncs.end()) {
    glDeleteSync(it->second);
    st.syncs.erase(it);
    st.account.release(kSyncBytes);
  }
  return {};
}

wire::Status handle_glIsSync(DispatchEnv&, wire::Reader&) { return guest_only("glIsSync"); }

wire::Status handle_glGetSynciv(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetSynciv a{};
  WIRE_TRY(wire::decode_glGetSynciv(r, a));
  auto sync = find_sync(env.state.impl(), a.sync);
  if (!sync) return sync.error();
  GLint values[wire::size::kMaxEnumValues] = {};
  GLsizei length = 0;
  const GLsizei count = std::clamp<GLsizei>(a.count, 0, wire::size::kMaxEnumValues);
  glGetSynciv(*sync, a.pname, count, &length, values);
  length = std::clamp<GLsizei>(length, 0, count);
  wire::encode_reply_glGetSynciv(env.reply, length, values, static_cast<size_t>(length) * sizeof(GLint));
  return {};
}

wire::Status handle_glObjectPtrLabel(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glObjectPtrLabel a{};
  WIRE_TRY(wire::decode_glObjectPtrLabel(r, a));
  if (a.label.bytes.size() > kMaxLabelBytes) {
    return wire::make_error(wire::Errc::kLimit, "label longer than any GL allows");
  }
  auto sync = find_sync(env.state.impl(), a.sync);
  if (!sync) return not_a_sync(env.state.impl());
  // GL takes the length given; the copy only adds the terminator.
  const std::string text(reinterpret_cast<const char*>(a.label.bytes.data()), a.label.bytes.size());
  glObjectPtrLabel(*sync, static_cast<GLsizei>(text.size()), a.has_label ? text.c_str() : nullptr);
  return {};
}

wire::Status handle_glGetObjectPtrLabel(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetObjectPtrLabel a{};
  WIRE_TRY(wire::decode_glGetObjectPtrLabel(r, a));
  auto sync = find_sync(env.state.impl(), a.sync);
  if (!sync) {
    wire::encode_reply_glGetObjectPtrLabel(env.reply, 0, nullptr, 0);
    return not_a_sync(env.state.impl());
  }
  std::vector<GLchar> text(std::clamp<size_t>(static_cast<size_t>(std::max(a.bufSize, 0)), 0, kMaxLabelBytes));
  GLsizei length = 0;
  glGetObjectPtrLabel(*sync, static_cast<GLsizei>(text.size()), &length, text.empty() ? nullptr : text.data());
  // With no buffer GL answers the label's whole length; else what it wrote.
  const GLsizei most = text.empty() ? static_cast<GLsizei>(kMaxLabelBytes) : static_cast<GLsizei>(text.size()) - 1;
  length = std::clamp<GLsizei>(length, 0, most);
  wire::encode_reply_glGetObjectPtrLabel(env.reply, length, text.data(),
                                         text.empty() ? 0 : static_cast<size_t>(length) + 1);
  return {};
}

}  // namespace host
