#include "gl/buffer_binding.h"

#include "gl/gl_handlers.h"
#include "icd/stream.h"

namespace icd {
namespace {

// The glGet pname of the buffer binding `target`, 0 for none.
GLenum binding_query(GLenum target) {
  static constexpr GLenum kBindings[][2] = {
      {0x8892, 0x8894}, {0x8893, 0x8895}, {0x88EB, 0x88ED}, {0x88EC, 0x88EF},
      {0x8A11, 0x8A28}, {0x8C2A, 0x8C2A}, {0x8C8E, 0x8C8F}, {0x8F36, 0x8F36},
      {0x8F37, 0x8F37}, {0x8F3F, 0x8F43}, {0x90D2, 0x90D3}, {0x90EE, 0x90EF},
      {0x9192, 0x9193}, {0x92C0, 0x92C1}, {0x80EE, 0x80EF},
  };
  for (const auto& b : kBindings) {
    if (b[0] == target) return b[1];
  }
  return 0;
}

}  // namespace

bool buffer_target(GLenum target) { return binding_query(target) != 0; }

// The buffer bound to `target`, asked of the host (persistent mappings are
// kept by name, and the guest tracks only the bindings draws need).
GLuint buffer_at(GLenum target) {
  const GLenum pname = binding_query(target);
  GLint buffer = 0;
  if (pname) handle_glGetIntegerv(pname, &buffer);
  return static_cast<GLuint>(buffer);
}

bool read_bound_buffer(GLenum target, uint64_t offset, size_t bytes, void* out) {
  using GetBufferSubData = void (*)(GLenum, GLintptr, GLsizeiptr, void*);
  static const auto get = reinterpret_cast<GetBufferSubData>(gl_proc_address("glGetBufferSubData"));
  if (!get) return false;
  get(target, static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), out);
  return true;
}

}  // namespace icd
