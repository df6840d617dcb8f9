// Vertex attribute pointers and indexed draws (client arrays: client_arrays.h).
//
// Wire layouts (guest-icd/gl/draw_entry.cpp writes them):
//   glVertexAttribPointer   u32 index, i32 size, u32 type, u8 normalized, i32 stride,
//                           u64 start, Data (buffer offset, or bytes from `start`)
//   glVertexAttribIPointer  u32 index, i32 size, u32 type, i32 stride, u64 start, Data
//   glVertexAttribLPointer  the same as glVertexAttribIPointer
//   glDrawElements*         u32 mode, i32 count, u32 type, i32 instances, i32 base vertex,
//                           u32 start, u32 end, Data indices (buffer offset or bytes)
//                           [u32 base instance: the BaseInstance forms]
//   glDraw*Indirect         u32 mode, [u32 type,] u64 offset into the indirect buffer
#include <epoxy/gl.h>

#include <string>

#include "gl/client_arrays.h"
#include "gl/dispatch_support.h"
#include "gl/elements_draw.h"
#include "gl/read_args.h"
#include "gl/gl_host_handlers.h"

namespace host {
namespace {

constexpr GLuint kMaxAttribs = 64;
template <typename SetPointer>
wire::Status attrib_pointer(DispatchEnv& env, GLuint index, uint64_t start,
                            const wire::Data& data, SetPointer set) {
  if (index >= kMaxAttribs) return wire::make_error(wire::Errc::kBadValue, "attribute index");
  return set_array_pointer(env.state.impl(), index, start, data, set);
}

}  // namespace

wire::Status handle_glVertexAttribPointer(DispatchEnv& env, wire::Reader& r) {
  GLuint index = 0;
  GLint size = 0;
  GLenum type = 0;
  uint8_t normalized = 0;
  GLsizei stride = 0;
  uint64_t start = 0;
  wire::Data data;
  WIRE_TRY(read_args(r, index, size, type, normalized, stride, start));
  WIRE_TRY(read_data(r, data));
  return attrib_pointer(env, index, start, data, [&](const void* p) {
    glVertexAttribPointer(index, size, type, normalized ? GL_TRUE : GL_FALSE, stride, p);
  });
}

namespace {

// The integer and double variants share a layout and differ in the GL call.
template <typename Call>
wire::Status attrib_pointer_without_normalized(DispatchEnv& env, wire::Reader& r, Call call) {
  GLuint index = 0;
  GLint size = 0;
  GLenum type = 0;
  GLsizei stride = 0;
  uint64_t start = 0;
  wire::Data data;
  WIRE_TRY(read_args(r, index, size, type, stride, start));
  WIRE_TRY(read_data(r, data));
  return attrib_pointer(env, index, start, data,
                        [&](const void* p) { call(index, size, type, stride, p); });
}

}  // namespace

wire::Status handle_glVertexAttribIPointer(DispatchEnv& env, wire::Reader& r) {
  return attrib_pointer_without_normalized(env, r, glVertexAttribIPointer);
}

wire::Status handle_glVertexAttribLPointer(DispatchEnv& env, wire::Reader& r) {
  return attrib_pointer_without_normalized(env, r, glVertexAttribLPointer);
}

namespace {

// Where GL should read the indices: an offset into the guest's element
// buffer, or the client bytes copied into a scratch element buffer.
wire::Result<const void*> bind_indices(GlContextState::Impl& st, const ElementsDraw& d,
                                       GLint* restore) {
  *restore = -1;
  const size_t needed = wire::size::index_bytes(d.count, d.type);
  if (d.indices.kind == wire::DataKind::kBufferOffset) {
    if (!buffer_bound(GL_ELEMENT_ARRAY_BUFFER_BINDING)) {
      return wire::make_error(wire::Errc::kBadValue, "index offset without an element buffer");
    }
    return reinterpret_cast<const void*>(static_cast<uintptr_t>(d.indices.offset));
  }
  if (d.indices.kind == wire::DataKind::kNull || d.indices.bytes.size() < needed) {
    return wire::make_error(wire::Errc::kBadLength, "index data shorter than count");
  }
  glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, restore);
  if (st.scratch_elements == 0) glGenBuffers(1, &st.scratch_elements);
  upload_scratch(GL_ELEMENT_ARRAY_BUFFER, st.scratch_elements, 0, d.indices);
  return static_cast<const void*>(nullptr);
}

wire::Status draw_elements(DispatchEnv& env, wire::Reader& r, uint32_t opcode_kind) {
  ElementsDraw d;
  WIRE_TRY(opcode_kind >= 6 ? read_base_instance_draw(r, d) : read_elements_draw(r, d));
  GLint restore = -1;
  auto indices = bind_indices(env.state.impl(), d, &restore);
  if (!indices) return indices.error();
  switch (opcode_kind) {
    case 0: glDrawElements(d.mode, d.count, d.type, *indices); break;
    case 1: glDrawElementsInstanced(d.mode, d.count, d.type, *indices, d.instances); break;
    case 2: glDrawRangeElements(d.mode, d.start, d.end, d.count, d.type, *indices); break;
    case 3: glDrawElementsBaseVertex(d.mode, d.count, d.type, *indices, d.base_vertex); break;
    case 4:
      glDrawRangeElementsBaseVertex(d.mode, d.start, d.end, d.count, d.type, *indices,
                                    d.base_vertex);
      break;
    case 5:
      glDrawElementsInstancedBaseVertex(d.mode, d.count, d.type, *indices, d.instances,
                                        d.base_vertex);
      break;
    case 6:
      glDrawElementsInstancedBaseInstance(d.mode, d.count, d.type, *indices, d.instances,
                                          d.base_instance);
      break;
    default:
      glDrawElementsInstancedBaseVertexBaseInstance(d.mode, d.count, d.type, *indices,
                                                    d.instances, d.base_vertex, d.base_instance);
      break;
  }
  if (restore >= 0) glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLuint>(restore));
  return {};
}

wire::Status indirect_offset(wire::Reader& r, const void** out) {
  uint64_t offset = 0;
  WIRE_TRY(read_args(r, offset));
  if (!buffer_bound(GL_DRAW_INDIRECT_BUFFER_BINDING)) {
    return wire::make_error(wire::Errc::kBadValue, "indirect draw without an indirect buffer");
  }
  *out = reinterpret_cast<const void*>(static_cast<uintptr_t>(offset));
  return {};
}

}  // namespace

wire::Status handle_glDrawElements(DispatchEnv& env, wire::Reader& r) {
  return draw_elements(env, r, 0);
}
wire::Status handle_glDrawElementsInstanced(DispatchEnv& env, wire::Reader& r) {
  return draw_elements(env, r, 1);
}
wire::Status handle_glDrawRangeElements(DispatchEnv& env, wire::Reader& r) {
  return draw_elements(env, r, 2);
}
wire::Status handle_glDrawElementsBaseVertex(DispatchEnv& env, wire::Reader& r) {
  return draw_elements(env, r, 3);
}
wire::Status handle_glDrawRangeElementsBaseVertex(DispatchEnv& env, wire::Reader& r) {
  return draw_elements(env, r, 4);
}
wire::Status handle_glDrawElementsInstancedBaseVertex(DispatchEnv& env, wire::Reader& r) {
  return draw_elements(env, r, 5);
}
wire::Status handle_glDrawElementsInstancedBaseInstance(DispatchEnv& env, wire::Reader& r) {
  return draw_elements(env, r, 6);
}
wire::Status handle_glDrawElementsInstancedBaseVertexBaseInstance(DispatchEnv& env,
                                                                  wire::Reader& r) {
  return draw_elements(env, r, 7);
}

wire::Status handle_glDrawArraysIndirect(DispatchEnv&, wire::Reader& r) {
  GLenum mode = 0;
  const void* offset = nullptr;
  WIRE_TRY(read_args(r, mode));
  WIRE_TRY(indirect_offset(r, &offset));
  glDrawArraysIndirect(mode, offset);
  return {};
}

wire::Status handle_glDrawElementsIndirect(DispatchEnv&, wire::Reader& r) {
  GLenum mode = 0, type = 0;
  const void* offset = nullptr;
  WIRE_TRY(read_args(r, mode, type));
  WIRE_TRY(indirect_offset(r, &offset));
  if (!buffer_bound(GL_ELEMENT_ARRAY_BUFFER_BINDING)) {
    return wire::make_error(wire::Errc::kBadValue, "indirect indices without an element buffer");
  }
  glDrawElementsIndirect(mode, type, offset);
  return {};
}

}  // namespace host
