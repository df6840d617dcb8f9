#include "gl/client_arrays.h"

#include <algorithm>

#include "gl/dispatch_support.h"

namespace host {
namespace {

constexpr uint64_t kMaxClientArrayBytes = 256u << 20;
constexpr size_t kMaxScratchArrays = 128;
// A scratch buffer no client array fills (the arrays use indices below 80).
constexpr size_t kEmptyArrayIndex = kMaxScratchArrays - 1;

GLuint scratch_array_buffer(GlContextState::Impl& st, size_t index) {
  if (st.scratch_arrays.size() <= index) st.scratch_arrays.resize(index + 1, 0);
  if (st.scratch_arrays[index] == 0) glGenBuffers(1, &st.scratch_arrays[index]);
  return st.scratch_arrays[index];
}

}  // namespace

GLuint empty_array_buffer(GlContextState::Impl& st) { return scratch_array_buffer(st, kEmptyArrayIndex); }

GLenum scratch_usage(GlContextState::Impl& st) {
  return st.gles1() ? GL_DYNAMIC_DRAW : GL_STREAM_DRAW;
}

void upload_scratch(GlContextState::Impl& st, GLenum target, GLuint buffer, uint64_t start,
                    const wire::Data& data) {
  glBindBuffer(target, buffer);
  glBufferData(target, static_cast<GLsizeiptr>(start + data.bytes.size()), nullptr, scratch_usage(st));
  glBufferSubData(target, static_cast<GLintptr>(start),
                  static_cast<GLsizeiptr>(data.bytes.size()), data.bytes.data());
}

wire::Status set_array_pointer(GlContextState::Impl& st, size_t scratch_index, uint64_t start,
                               const wire::Data& data,
                               const std::function<void(const void*)>& set) {
  if (scratch_index >= kMaxScratchArrays) {
    return wire::make_error(wire::Errc::kBadValue, "array index");
  }
  switch (data.kind) {
    case wire::DataKind::kBufferOffset:
      if (!buffer_bound(GL_ARRAY_BUFFER_BINDING)) {
        // A null pointer in a vertex array object of the program's is legal
        // GL (a later glVertexAttribBinding may give the attribute a
        // buffer); it gets the scratch buffer, never a host address.
        if (data.offset == 0 && st.version() >= 30 && buffer_bound(GL_VERTEX_ARRAY_BINDING)) {
          park_array(st, scratch_index, set);
          return {};
        }
        // A core context's error; GL would take the offset for a host address.
        refuse_call(st, GL_INVALID_OPERATION);
        return {};
      }
      set(reinterpret_cast<const void*>(static_cast<uintptr_t>(data.offset)));
      return {};
    case wire::DataKind::kNull:
      return wire::make_error(wire::Errc::kBadValue, "null client array");
    case wire::DataKind::kInline:
    case wire::DataKind::kHeap:
      break;
  }
  if (start > kMaxClientArrayBytes || data.bytes.size() > kMaxClientArrayBytes) {
    return wire::make_error(wire::Errc::kLimit, "client array too large");
  }
  GLint bound = 0;
  glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &bound);
  upload_scratch(st, GL_ARRAY_BUFFER, scratch_array_buffer(st, scratch_index), start, data);
  set(nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, static_cast<GLuint>(bound));
  return {};
}

void park_array(GlContextState::Impl& st, size_t scratch_index,
                const std::function<void(const void*)>& set) {
  GLint bound = 0;
  glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &bound);
  glBindBuffer(GL_ARRAY_BUFFER, scratch_array_buffer(st, scratch_index));
  set(nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, static_cast<GLuint>(bound));
}

void park_attribute(GlContextState::Impl& st, GLuint index) {
  park_array(st, index, [index](const void* at) {
    glVertexAttribPointer(index, 4, GL_FLOAT, GL_FALSE, 0, at);
  });
}

std::vector<GLuint> attribute_buffers(GlContextState::Impl& st) {
  if (st.gles1()) return {};  // no generic attributes
  GLint count = 0;
  glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &count);
  std::vector<GLuint> out(static_cast<size_t>(std::clamp(count, 0, 64)));
  for (GLuint i = 0; i < out.size(); ++i) {
    GLint bound = 0;
    glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &bound);
    out[i] = static_cast<GLuint>(bound);
  }
  return out;
}

}  // namespace host
