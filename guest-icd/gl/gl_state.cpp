#include "gl/gl_state.h"

#include "gl/buffer_binding.h"

namespace icd {
namespace {

constexpr GLenum kArrayBuffer = 0x8892;
constexpr GLenum kElementArrayBuffer = 0x8893;
constexpr GLenum kPixelPackBuffer = 0x88EB;
constexpr GLenum kPixelUnpackBuffer = 0x88EC;
constexpr GLenum kDrawIndirectBuffer = 0x8F3F;
constexpr GLenum kQueryBuffer = 0x9192;
constexpr size_t kMaxAttribs = 64;
constexpr GLbitfield kClientPixelStoreBit = 0x1;
// GL_MAX_CLIENT_ATTRIB_STACK_DEPTH: the minimum GL allows, Mesa's value.
constexpr size_t kClientAttribStackDepth = 16;

}  // namespace

void GuestNames::allocate(wire::ObjectType type, size_t count, GLuint* out) {
  for (size_t i = 0; i < count; ++i) out[i] = allocate_one(type);
}

GLuint GuestNames::allocate_one(wire::ObjectType type) {
  if (type != wire::ObjectType::kShader) return ++next_[static_cast<size_t>(type)];
  const GLuint name = ++next_[static_cast<size_t>(wire::ObjectType::kProgram)];
  std::lock_guard lock(mu_);
  shader_names_.insert(name);
  return name;
}

bool GuestNames::shader_name(GLuint name) const {
  std::lock_guard lock(mu_);
  return shader_names_.count(name) != 0;
}

uint64_t GuestNames::allocate_sync() {
  std::lock_guard lock(mu_);
  live_syncs_.insert(++next_sync_);
  return next_sync_;
}

bool GuestNames::sync_live(uint64_t handle) const {
  std::lock_guard lock(mu_);
  return live_syncs_.contains(handle);
}

bool GuestNames::delete_sync(uint64_t handle) {
  std::lock_guard lock(mu_);
  return live_syncs_.erase(handle) != 0;
}

size_t ClientArray::element_bytes() const {
  // Packed 2_10_10_10 formats hold a whole vertex in 4 bytes.
  if (type == 0x8368 || type == 0x8D9F) return 4;
  // GL_BGRA (ARB_vertex_array_bgra) is four components; a size GL refuses
  // leaves no array to read, so four is never short.
  return static_cast<size_t>(size >= 1 && size <= 4 ? size : 4) * vertex_type_bytes(type);
}

size_t ClientArray::stride_bytes() const {
  return stride > 0 ? static_cast<size_t>(stride) : element_bytes();
}

GlState::GlState(bool gles, int major, int minor)
    : gles_(gles), major_(major), minor_(minor), names_(std::make_shared<GuestNames>()) {}

void GlState::pixel_store(GLenum pname, GLint value) {
  unpack_.set(pname, value, false);
  pack_.set(pname, value, true);
}

void GlState::push_client_attrib(GLbitfield mask) {
  if (client_attrib_stack_.size() >= kClientAttribStackDepth) return;  // GL_STACK_OVERFLOW
  client_attrib_stack_.push_back({(mask & kClientPixelStoreBit) != 0, unpack_, pack_});
}

void GlState::pop_client_attrib() {
  if (client_attrib_stack_.empty()) return;  // GL_STACK_UNDERFLOW
  const SavedClientAttrib& saved = client_attrib_stack_.back();
  if (saved.pixel_store) {
    unpack_ = saved.unpack;
    pack_ = saved.pack;
  }
  client_attrib_stack_.pop_back();
}

void GlState::bind_buffer(GLenum target, GLuint buffer) {
  switch (target) {
    case kArrayBuffer: array_buffer_ = buffer; break;
    case kElementArrayBuffer:
      element_buffer_ = buffer;
      vao_element_buffers_[vertex_array_] = buffer;
      break;
    case kPixelPackBuffer: pack_buffer_ = buffer; break;
    case kPixelUnpackBuffer: unpack_buffer_ = buffer; break;
    case kDrawIndirectBuffer: indirect_buffer_ = buffer; break;
    case kQueryBuffer: query_buffer_ = buffer; break;
    default:
      if (buffer_target(target)) other_buffers_[target] = buffer;  // GL refuses others
      break;
  }
}

GLuint GlState::bound_buffer(GLenum target) const {
  switch (target) {
    case kArrayBuffer: return array_buffer_;
    case kElementArrayBuffer: {
      auto it = vao_element_buffers_.find(vertex_array_);
      return it == vao_element_buffers_.end() ? 0 : it->second;
    }
    case kPixelPackBuffer: return pack_buffer_;
    case kPixelUnpackBuffer: return unpack_buffer_;
    case kDrawIndirectBuffer: return indirect_buffer_;
    case kQueryBuffer: return query_buffer_;
    default: {
      auto it = other_buffers_.find(target);
      return it == other_buffers_.end() ? 0 : it->second;
    }
  }
}

void GlState::forget_buffer(GLuint buffer) {
  // Deleting a bound buffer unbinds it (OpenGL ES 3.2, 5.1.2).
  for (GLuint* b : {&array_buffer_, &element_buffer_, &pack_buffer_, &unpack_buffer_,
                    &indirect_buffer_, &query_buffer_}) {
    if (*b == buffer) *b = 0;
  }
  for (auto& [vao, b] : vao_element_buffers_) {
    if (b == buffer) b = 0;
  }
  for (auto& [target, b] : other_buffers_) {
    if (b == buffer) b = 0;
  }
  if (buffer) std::erase_if(mappings_, [&](const auto& kept) { return kept.first.second == buffer; });  // deleting unmaps
  buffer_sizes_.erase(buffer);
}

int64_t GlState::buffer_size(GLuint buffer) const {
  auto it = buffer_sizes_.find(buffer);
  return it == buffer_sizes_.end() ? -1 : it->second;
}

ClientArray& GlState::attrib(GLuint index) {
  if (index >= kMaxAttribs) index = kMaxAttribs - 1;
  if (attribs_.size() <= index) attribs_.resize(index + 1);
  return attribs_[index];
}

bool GlState::has_client_arrays() const {
  if (vertex_array_ != 0) return false;
  for (const auto& a : attribs_) {
    if (a.enabled && a.client) return true;
  }
  return false;
}

}  // namespace icd
