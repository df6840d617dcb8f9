// GL_EXT_memory_object_fd: a program imports into GL device memory that
// its Vulkan exported, passing the fd Conduit's Vulkan ICD gave it. That
// fd is a file naming the host's export (conn/export_files.h); the host
// imports the export itself, and GL owns the program's fd once the import
// succeeded, so the guest closes it then, as a driver would.
#include <unistd.h>

#include "conn/export_files.h"
#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "wire/gl_encode.h"
#include "wire/gl_replies.h"

namespace icd {

void GLAPIENTRY handle_glImportMemoryFdEXT(GLuint memory, GLuint64 size, GLenum handle_type, GLint fd) {
  constexpr GLenum kInvalidEnum = 0x0500, kInvalidValue = 0x0501, kOpaqueFd = 0x9586;
  Stream* s = current_stream();
  if (!s) return;
  if (handle_type != kOpaqueFd) return s->gl_state().raise_error(kInvalidEnum);
  // Any other fd holds no memory the host has.
  const auto number = export_number(fd);
  if (!number) return s->gl_state().raise_error(kInvalidValue);
  wire::encode_glImportMemoryFdEXT(s->writer(), memory, size, handle_type, static_cast<GLint>(*number));
  wire::Reply_glImportMemoryFdEXT out;
  if (await_reply(*s, out, wire::decode_reply_glImportMemoryFdEXT) && out.imported) close(fd);
}

}  // namespace icd
