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
//   glMultiDrawElements*    elements_draw.h
//   glDraw*Indirect         u32 mode, [u32 type,] u64 offset into the indirect buffer
//   glMultiDraw*Indirect    as glDraw*Indirect, then i32 drawcount, i32 stride
//   glMultiDraw*IndirectCount  as glDraw*Indirect, then u64 offset of the count in the
//                           parameter buffer, i32 maxdrawcount, i32 stride
#include <epoxy/gl.h>

#include <string>
#include <vector>

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
  upload_scratch(st, GL_ELEMENT_ARRAY_BUFFER, st.scratch_elements, 0, d.indices);
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

// Where GL should read each part's indices: offsets into the guest's element
// buffer, or every part's client bytes one after another in the scratch
// element buffer.
wire::Status bind_multi_indices(GlContextState::Impl& st, const MultiElementsDraw& d,
                                std::vector<const void*>& offsets, GLint* restore) {
  *restore = -1;
  offsets.assign(d.size(), nullptr);
  if (d.size() == 0) return {};
  const bool in_buffer = d.indices[0].kind == wire::DataKind::kBufferOffset;
  size_t packed = 0;  // client bytes of the parts before this one, each aligned for its type
  for (size_t i = 0; i < d.size(); ++i) {
    const wire::Data& data = d.indices[i];
    if ((data.kind == wire::DataKind::kBufferOffset) != in_buffer) {
      return wire::make_error(wire::Errc::kBadValue, "draws mix index offsets and client indices");
    }
    if (!in_buffer && data.bytes.size() < wire::size::index_bytes(d.counts[i], d.type)) {
      return wire::make_error(wire::Errc::kBadLength, "index data shorter than count");
    }
    const uint64_t at = in_buffer ? data.offset : packed;
    offsets[i] = reinterpret_cast<const void*>(static_cast<uintptr_t>(at));
    if (!in_buffer) packed += (data.bytes.size() + 3) & ~size_t{3};
  }
  if (in_buffer) {
    if (buffer_bound(GL_ELEMENT_ARRAY_BUFFER_BINDING)) return {};
    return wire::make_error(wire::Errc::kBadValue, "index offset without an element buffer");
  }
  // The parts go straight from the batch into the scratch element buffer.
  glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, restore);
  if (st.scratch_elements == 0) glGenBuffers(1, &st.scratch_elements);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, st.scratch_elements);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(packed), nullptr, scratch_usage(st));
  for (size_t i = 0; i < d.size(); ++i) {
    const auto& bytes = d.indices[i].bytes;
    glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, reinterpret_cast<GLintptr>(offsets[i]),
                    static_cast<GLsizeiptr>(bytes.size()), bytes.data());
  }
  return {};
}

wire::Status multi_draw_elements(DispatchEnv& env, wire::Reader& r, bool base_vertex) {
  MultiElementsDraw d;
  WIRE_TRY(read_multi_elements_draw(r, true, d));
  std::vector<const void*> offsets;
  GLint restore = -1;
  WIRE_TRY(bind_multi_indices(env.state.impl(), d, offsets, &restore));
  const auto n = static_cast<GLsizei>(d.size());
  if (base_vertex) {
    glMultiDrawElementsBaseVertex(d.mode, d.counts.data(), d.type, offsets.data(), n,
                                  d.base_vertices.data());
  } else {
    glMultiDrawElements(d.mode, d.counts.data(), d.type, offsets.data(), n);
  }
  if (restore >= 0) glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLuint>(restore));
  return {};
}

// An offset into the buffer bound at `binding`, which GL checks against
// the buffer. False when none is bound: GL would read the offset as a host
// address, so the call is refused with the error a core context gives.
wire::Result<bool> read_offset(DispatchEnv& env, wire::Reader& r, GLenum binding, const void** out) {
  uint64_t offset = 0;
  WIRE_TRY(read_args(r, offset));
  *out = reinterpret_cast<const void*>(static_cast<uintptr_t>(offset));
  if (buffer_bound(binding)) return true;
  refuse_call(env.state.impl(), GL_INVALID_OPERATION);
  return false;
}

// The offsets of an indirect draw: its commands, and for the Count forms
// where GL reads the draw count; the element buffer for indexed ones.
struct Indirect {
  const void* commands = nullptr;
  const void* count = nullptr;
};

wire::Result<bool> read_indirect(DispatchEnv& env, wire::Reader& r, bool elements, bool counted,
                                 Indirect* out) {
  auto ok = read_offset(env, r, GL_DRAW_INDIRECT_BUFFER_BINDING, &out->commands);
  if (!ok) return ok.error();
  bool usable = *ok;
  if (counted) {
    auto count_ok = read_offset(env, r, GL_PARAMETER_BUFFER_BINDING, &out->count);
    if (!count_ok) return count_ok.error();
    usable = usable && *count_ok;
  }
  if (elements && !buffer_bound(GL_ELEMENT_ARRAY_BUFFER_BINDING)) {
    refuse_call(env.state.impl(), GL_INVALID_OPERATION);
    usable = false;
  }
  return usable;
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

wire::Status handle_glMultiDrawElements(DispatchEnv& env, wire::Reader& r) {
  return multi_draw_elements(env, r, false);
}
wire::Status handle_glMultiDrawElementsBaseVertex(DispatchEnv& env, wire::Reader& r) {
  return multi_draw_elements(env, r, true);
}

wire::Status handle_glDrawArraysIndirect(DispatchEnv& env, wire::Reader& r) {
  GLenum mode = 0;
  Indirect at;
  WIRE_TRY(read_args(r, mode));
  auto ok = read_indirect(env, r, false, false, &at);
  if (!ok) return ok.error();
  if (*ok) glDrawArraysIndirect(mode, at.commands);
  return {};
}

wire::Status handle_glDrawElementsIndirect(DispatchEnv& env, wire::Reader& r) {
  GLenum mode = 0, type = 0;
  Indirect at;
  WIRE_TRY(read_args(r, mode, type));
  auto ok = read_indirect(env, r, true, false, &at);
  if (!ok) return ok.error();
  if (*ok) glDrawElementsIndirect(mode, type, at.commands);
  return {};
}

wire::Status handle_glMultiDrawArraysIndirect(DispatchEnv& env, wire::Reader& r) {
  GLenum mode = 0;
  Indirect at;
  GLsizei drawcount = 0, stride = 0;
  WIRE_TRY(read_args(r, mode));
  auto ok = read_indirect(env, r, false, false, &at);
  if (!ok) return ok.error();
  WIRE_TRY(read_args(r, drawcount, stride));
  if (*ok) glMultiDrawArraysIndirect(mode, at.commands, drawcount, stride);
  return {};
}

wire::Status handle_glMultiDrawElementsIndirect(DispatchEnv& env, wire::Reader& r) {
  GLenum mode = 0, type = 0;
  Indirect at;
  GLsizei drawcount = 0, stride = 0;
  WIRE_TRY(read_args(r, mode, type));
  auto ok = read_indirect(env, r, true, false, &at);
  if (!ok) return ok.error();
  WIRE_TRY(read_args(r, drawcount, stride));
  if (*ok) glMultiDrawElementsIndirect(mode, type, at.commands, drawcount, stride);
  return {};
}

wire::Status handle_glMultiDrawArraysIndirectCount(DispatchEnv& env, wire::Reader& r) {
  GLenum mode = 0;
  Indirect at;
  GLsizei max_count = 0, stride = 0;
  WIRE_TRY(read_args(r, mode));
  auto ok = read_indirect(env, r, false, true, &at);
  if (!ok) return ok.error();
  WIRE_TRY(read_args(r, max_count, stride));
  if (*ok) {
    glMultiDrawArraysIndirectCount(mode, at.commands, reinterpret_cast<GLintptr>(at.count), max_count,
                                   stride);
  }
  return {};
}

wire::Status handle_glMultiDrawElementsIndirectCount(DispatchEnv& env, wire::Reader& r) {
  GLenum mode = 0, type = 0;
  Indirect at;
  GLsizei max_count = 0, stride = 0;
  WIRE_TRY(read_args(r, mode, type));
  auto ok = read_indirect(env, r, true, true, &at);
  if (!ok) return ok.error();
  WIRE_TRY(read_args(r, max_count, stride));
  if (*ok) {
    glMultiDrawElementsIndirectCount(mode, type, at.commands, reinterpret_cast<GLintptr>(at.count),
                                     max_count, stride);
  }
  return {};
}

}  // namespace host
