// Indirect draws. Commands in a draw-indirect buffer run on the host as
// they are. Where the host could not run them so, the guest reads the
// commands and makes the draws they stand for: commands in client memory
// (no draw-indirect buffer bound, compatibility contexts), and client-memory
// vertex arrays, whose vertices only the commands' numbers tell (then the
// commands are read back from the buffer, one round trip a draw).
// Wire layouts: wire-protocol/annotations.toml [layouts].
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>
#include <vector>

#include "gl/buffer_binding.h"
#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "wire/gl_encode.h"
#include "wire/sizes.h"

namespace icd {
namespace {

constexpr GLenum kDrawIndirectBuffer = 0x8F3F;
constexpr GLenum kElementArrayBuffer = 0x8893;

struct ArraysCommand {
  GLuint count, instance_count, first, base_instance;
};
struct ElementsCommand {
  GLuint count, instance_count, first_index;
  GLint base_vertex;
  GLuint base_instance;
};

// The `drawcount` commands `stride` bytes apart (0: packed) an indirect
// draw reads, when the guest must make the draws itself; nothing when the
// host runs the draw as it is, or GL refuses the arguments: commands in
// client memory in OpenGL ES, or past the end of the buffer they are in.
template <typename Command>
std::optional<std::vector<Command>> guest_commands(GlState& st, const void* indirect, GLsizei drawcount,
                                                   GLsizei stride) {
  const bool stride_ok = stride == 0 || (stride > 0 && stride % 4 == 0 && static_cast<size_t>(stride) >= sizeof(Command));
  if (drawcount <= 0 || !stride_ok) return std::nullopt;
  const size_t step = stride ? static_cast<size_t>(stride) : sizeof(Command);
  const size_t bytes = (static_cast<size_t>(drawcount) - 1) * step + sizeof(Command);
  const GLuint buffer = st.bound_buffer(kDrawIndirectBuffer);
  std::vector<std::byte> raw(bytes);
  if (buffer == 0) {
    if (!indirect || st.gles()) return std::nullopt;
    std::memcpy(raw.data(), indirect, bytes);
  } else {
    if (!st.legacy_arrays().any_client() && !st.has_client_arrays()) return std::nullopt;
    const int64_t size = st.buffer_size(buffer);
    if (size >= 0 && offset_of(indirect) + bytes > static_cast<uint64_t>(size)) return std::nullopt;
    if (!read_bound_buffer(kDrawIndirectBuffer, offset_of(indirect), bytes, raw.data())) return std::nullopt;
  }
  std::vector<Command> commands(static_cast<size_t>(drawcount));
  for (size_t i = 0; i < commands.size(); ++i) std::memcpy(&commands[i], raw.data() + i * step, sizeof(Command));
  return commands;
}

// Whether the commands make one multi-draw: one instance or none (a count
// of 0 then), base instance 0. Then gl_DrawID counts the commands as GL
// would; draws made one by one see 0.
template <typename Command>
bool one_multi_draw(const std::vector<Command>& commands) {
  return commands.size() > 1 && std::all_of(commands.begin(), commands.end(), [](const Command& c) {
           return c.instance_count <= 1 && c.base_instance == 0;
         });
}

void draw_arrays(GLenum mode, const std::vector<ArraysCommand>& commands) {
  if (!one_multi_draw(commands)) {
    for (const ArraysCommand& c : commands) {
      handle_glDrawArraysInstancedBaseInstance(mode, static_cast<GLint>(c.first), static_cast<GLsizei>(c.count),
                                               static_cast<GLsizei>(c.instance_count), c.base_instance);
    }
    return;
  }
  std::vector<GLint> firsts;
  std::vector<GLsizei> counts;
  for (const ArraysCommand& c : commands) {
    firsts.push_back(static_cast<GLint>(c.first));
    counts.push_back(c.instance_count ? static_cast<GLsizei>(c.count) : 0);
  }
  handle_glMultiDrawArrays(mode, firsts.data(), counts.data(), static_cast<GLsizei>(commands.size()));
}

// Indices always come from the element array buffer (ARB_draw_indirect).
void draw_elements(GLenum mode, GLenum type, const std::vector<ElementsCommand>& commands) {
  const size_t index_bytes = wire::size::index_bytes(1, type);
  auto offset = [&](const ElementsCommand& c) {
    return reinterpret_cast<const void*>(uintptr_t{c.first_index} * index_bytes);
  };
  if (!one_multi_draw(commands)) {
    for (const ElementsCommand& c : commands) {
      handle_glDrawElementsInstancedBaseVertexBaseInstance(mode, static_cast<GLsizei>(c.count), type, offset(c),
                                                           static_cast<GLsizei>(c.instance_count), c.base_vertex,
                                                           c.base_instance);
    }
    return;
  }
  std::vector<GLsizei> counts;
  std::vector<const void*> offsets;
  std::vector<GLint> base_vertices;
  for (const ElementsCommand& c : commands) {
    counts.push_back(c.instance_count ? static_cast<GLsizei>(c.count) : 0);
    offsets.push_back(offset(c));
    base_vertices.push_back(c.base_vertex);
  }
  handle_glMultiDrawElementsBaseVertex(mode, counts.data(), type, offsets.data(),
                                       static_cast<GLsizei>(commands.size()), base_vertices.data());
}

std::optional<std::vector<ElementsCommand>> guest_elements_commands(GlState& st, GLenum type, const void* indirect,
                                                                    GLsizei drawcount, GLsizei stride) {
  if (st.bound_buffer(kElementArrayBuffer) == 0 || wire::size::index_bytes(1, type) == 0) return std::nullopt;
  return guest_commands<ElementsCommand>(st, indirect, drawcount, stride);
}

}  // namespace

void GLAPIENTRY handle_glDrawArraysIndirect(GLenum mode, const void* indirect) {
  handle_glMultiDrawArraysIndirect(mode, indirect, 1, 0);
}

void GLAPIENTRY handle_glDrawElementsIndirect(GLenum mode, GLenum type, const void* indirect) {
  handle_glMultiDrawElementsIndirect(mode, type, indirect, 1, 0);
}

void GLAPIENTRY handle_glMultiDrawArraysIndirect(GLenum mode, const void* indirect, GLsizei drawcount,
                                                 GLsizei stride) {
  Stream* s = current_stream();
  if (!s) return;
  if (auto commands = guest_commands<ArraysCommand>(s->gl_state(), indirect, drawcount, stride)) {
    return draw_arrays(mode, *commands);
  }
  wire::encode_glMultiDrawArraysIndirect(s->writer(), mode, offset_of(indirect), drawcount, stride);
  s->commit();
}

void GLAPIENTRY handle_glMultiDrawElementsIndirect(GLenum mode, GLenum type, const void* indirect,
                                                   GLsizei drawcount, GLsizei stride) {
  Stream* s = current_stream();
  if (!s) return;
  if (auto commands = guest_elements_commands(s->gl_state(), type, indirect, drawcount, stride)) {
    return draw_elements(mode, type, *commands);
  }
  wire::encode_glMultiDrawElementsIndirect(s->writer(), mode, type, offset_of(indirect), drawcount, stride);
  s->commit();
}

void GLAPIENTRY handle_glMultiDrawArraysIndirectCount(GLenum mode, const void* indirect,
                                                      GLintptr drawcount, GLsizei max_count,
                                                      GLsizei stride) {
  Stream* s = current_stream();
  if (!s) return;
  wire::encode_glMultiDrawArraysIndirectCount(s->writer(), mode, offset_of(indirect),
                                              static_cast<uint64_t>(drawcount), max_count, stride);
  s->commit();
}

void GLAPIENTRY handle_glMultiDrawElementsIndirectCount(GLenum mode, GLenum type,
                                                        const void* indirect, GLintptr drawcount,
                                                        GLsizei max_count, GLsizei stride) {
  Stream* s = current_stream();
  if (!s) return;
  wire::encode_glMultiDrawElementsIndirectCount(s->writer(), mode, type, offset_of(indirect),
                                                static_cast<uint64_t>(drawcount), max_count, stride);
  s->commit();
}

}  // namespace icd
