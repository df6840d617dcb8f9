// Vertex attribute pointers and indexed draws (client arrays: client_arrays.h).
//
// Wire layouts: wire-protocol/annotations.toml [layouts].
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
  wire::Args_glVertexAttribPointer a{};
  WIRE_TRY(wire::decode_glVertexAttribPointer(r, a));
  return attrib_pointer(env, a.index, a.start, a.data, [&](const void* p) {
    glVertexAttribPointer(a.index, a.size, a.type, a.normalized ? GL_TRUE : GL_FALSE, a.stride, p);
  });
}

namespace {

// The integer and double variants share a layout and differ in the GL call.
template <typename Call>
wire::Status attrib_pointer_without_normalized(DispatchEnv& env, wire::Reader& r, Call call) {
  wire::Args_glVertexAttribIPointer a{};
  WIRE_TRY(wire::decode_glVertexAttribIPointer(r, a));
  return attrib_pointer(env, a.index, a.start, a.data,
                        [&](const void* p) { call(a.index, a.size, a.type, a.stride, p); });
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
  WIRE_TRY(read_elements_draw(r, d));
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
  WIRE_TRY(read_multi_elements_draw(r, d));
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

// Whether a buffer is bound at `binding`, for an offset GL reads there. When
// none is, GL would read the offset as a host address, so the call is
// refused with the error a core context gives.
bool offset_usable(DispatchEnv& env, GLenum binding) {
  if (buffer_bound(binding)) return true;
  refuse_call(env.state.impl(), GL_INVALID_OPERATION);
  return false;
}

// Whether an indirect draw may run: its commands' buffer, for the Count
// forms the parameter buffer, and the element buffer for indexed ones.
bool indirect_usable(DispatchEnv& env, bool elements, bool counted) {
  bool usable = offset_usable(env, GL_DRAW_INDIRECT_BUFFER_BINDING);
  if (counted) usable = offset_usable(env, GL_PARAMETER_BUFFER_BINDING) && usable;
  if (elements) usable = offset_usable(env, GL_ELEMENT_ARRAY_BUFFER_BINDING) && usable;
  return usable;
}

const void* at_offset(uint64_t offset) { return reinterpret_cast<const void*>(static_cast<uintptr_t>(offset)); }

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
  wire::Args_glDrawArraysIndirect a{};
  WIRE_TRY(wire::decode_glDrawArraysIndirect(r, a));
  if (indirect_usable(env, false, false)) glDrawArraysIndirect(a.mode, at_offset(a.indirect));
  return {};
}

wire::Status handle_glDrawElementsIndirect(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glDrawElementsIndirect a{};
  WIRE_TRY(wire::decode_glDrawElementsIndirect(r, a));
  if (indirect_usable(env, true, false)) glDrawElementsIndirect(a.mode, a.type, at_offset(a.indirect));
  return {};
}

wire::Status handle_glMultiDrawArraysIndirect(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glMultiDrawArraysIndirect a{};
  WIRE_TRY(wire::decode_glMultiDrawArraysIndirect(r, a));
  if (indirect_usable(env, false, false)) {
    glMultiDrawArraysIndirect(a.mode, at_offset(a.indirect), a.drawcount, a.stride);
  }
  return {};
}

wire::Status handle_glMultiDrawElementsIndirect(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glMultiDrawElementsIndirect a{};
  WIRE_TRY(wire::decode_glMultiDrawElementsIndirect(r, a));
  if (indirect_usable(env, true, false)) {
    glMultiDrawElementsIndirect(a.mode, a.type, at_offset(a.indirect), a.drawcount, a.stride);
  }
  return {};
}

wire::Status handle_glMultiDrawArraysIndirectCount(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glMultiDrawArraysIndirectCount a{};
  WIRE_TRY(wire::decode_glMultiDrawArraysIndirectCount(r, a));
  if (indirect_usable(env, false, true)) {
    glMultiDrawArraysIndirectCount(a.mode, at_offset(a.indirect), static_cast<GLintptr>(a.drawcount),
                                   a.maxdrawcount, a.stride);
  }
  return {};
}

wire::Status handle_glMultiDrawElementsIndirectCount(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glMultiDrawElementsIndirectCount a{};
  WIRE_TRY(wire::decode_glMultiDrawElementsIndirectCount(r, a));
  if (indirect_usable(env, true, true)) {
    glMultiDrawElementsIndirectCount(a.mode, a.type, at_offset(a.indirect), static_cast<GLintptr>(a.drawcount),
                                     a.maxdrawcount, a.stride);
  }
  return {};
}

}  // namespace host
