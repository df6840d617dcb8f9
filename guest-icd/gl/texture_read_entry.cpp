// Texture images read back into the program's memory or a pack buffer. The
// host sizes each image from GL; the program's buffer holds it (at most
// bufSize bytes where the command takes one). Wire layouts: annotations.toml
// [layouts]; replies: host-renderer/gl/texture_read_back.cpp.
#include <algorithm>
#include <cstdint>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "wire/gl_encode.h"

namespace icd {
namespace {

size_t room(GLsizei buf_size) { return static_cast<size_t>(std::max(buf_size, 0)); }

// Encodes a read-back with `encode(writer, pack target)` and ends it,
// keeping at most `capacity` bytes of the image.
template <typename Encode>
void read_back(void* pixels, size_t capacity, Encode encode) {
  Stream* s = current_stream();
  if (!s) return;
  const PackTarget to = pack_target(*s, pixels);
  encode(s->writer(), to);
  finish_read_back(*s, pixels, capacity);
}

using NTexImageEncoder = void (*)(wire::Writer&, GLenum, GLint, GLenum, GLenum, GLsizei, const void*,
                                  size_t, bool);
using NCompressedEncoder = void (*)(wire::Writer&, GLenum, GLint, GLsizei, const void*, size_t, bool);

// glGetnTexImage and glGetnTexImageARB are separate commands on the wire:
// a driver may have one and not the other.
void get_n_tex_image(NTexImageEncoder encode, GLenum target, GLint level, GLenum format,
                     GLenum type, GLsizei buf_size, void* pixels) {
  read_back(pixels, room(buf_size), [&](wire::Writer& w, PackTarget to) {
    encode(w, target, level, format, type, buf_size, to.data, 0, to.in_buffer);
  });
}

// Its compressed twin, the same way.
void get_n_compressed_tex_image(NCompressedEncoder encode, GLenum target, GLint level,
                                GLsizei buf_size, void* pixels) {
  read_back(pixels, room(buf_size), [&](wire::Writer& w, PackTarget to) {
    encode(w, target, level, buf_size, to.data, 0, to.in_buffer);
  });
}

}  // namespace

void GLAPIENTRY handle_glGetTexImage(GLenum target, GLint level, GLenum format, GLenum type,
                                     void* pixels) {
  read_back(pixels, SIZE_MAX, [&](wire::Writer& w, PackTarget to) {
    wire::encode_glGetTexImage(w, target, level, format, type, to.data, 0, to.in_buffer);
  });
}

void GLAPIENTRY handle_glGetnTexImage(GLenum target, GLint level, GLenum format, GLenum type,
                                      GLsizei buf_size, void* pixels) {
  get_n_tex_image(wire::encode_glGetnTexImage, target, level, format, type, buf_size, pixels);
}

void GLAPIENTRY handle_glGetnTexImageARB(GLenum target, GLint level, GLenum format, GLenum type,
                                         GLsizei buf_size, void* pixels) {
  get_n_tex_image(wire::encode_glGetnTexImageARB, target, level, format, type, buf_size, pixels);
}

void GLAPIENTRY handle_glGetTextureImage(GLuint texture, GLint level, GLenum format, GLenum type,
                                         GLsizei buf_size, void* pixels) {
  read_back(pixels, room(buf_size), [&](wire::Writer& w, PackTarget to) {
    wire::encode_glGetTextureImage(w, texture, level, format, type, buf_size, to.data, 0, to.in_buffer);
  });
}

void GLAPIENTRY handle_glGetTextureSubImage(GLuint texture, GLint level, GLint x, GLint y, GLint z,
                                            GLsizei width, GLsizei height, GLsizei depth,
                                            GLenum format, GLenum type, GLsizei buf_size,
                                            void* pixels) {
  Stream* s = current_stream();
  if (!s) return;
  const PackTarget to = pack_target(*s, pixels);
  wire::encode_glGetTextureSubImage(s->writer(), texture, level, x, y, z, width, height, depth, format,
                                    type, buf_size, to.data, 0, to.in_buffer);
  // The texture's target, and so the image's dimensions, are the host's.
  finish_image_read_back(*s, pixels, room(buf_size), 0, format, type, width, height, depth);
}

void GLAPIENTRY handle_glGetCompressedTexImage(GLenum target, GLint level, void* pixels) {
  read_back(pixels, SIZE_MAX, [&](wire::Writer& w, PackTarget to) {
    wire::encode_glGetCompressedTexImage(w, target, level, to.data, 0, to.in_buffer);
  });
}

void GLAPIENTRY handle_glGetnCompressedTexImage(GLenum target, GLint level, GLsizei buf_size,
                                                void* pixels) {
  get_n_compressed_tex_image(wire::encode_glGetnCompressedTexImage, target, level, buf_size, pixels);
}

void GLAPIENTRY handle_glGetnCompressedTexImageARB(GLenum target, GLint level, GLsizei buf_size,
                                                   void* pixels) {
  get_n_compressed_tex_image(wire::encode_glGetnCompressedTexImageARB, target, level, buf_size, pixels);
}

void GLAPIENTRY handle_glGetCompressedTextureImage(GLuint texture, GLint level, GLsizei buf_size,
                                                   void* pixels) {
  read_back(pixels, room(buf_size), [&](wire::Writer& w, PackTarget to) {
    wire::encode_glGetCompressedTextureImage(w, texture, level, buf_size, to.data, 0, to.in_buffer);
  });
}

void GLAPIENTRY handle_glGetCompressedTextureSubImage(GLuint texture, GLint level, GLint x, GLint y,
                                                      GLint z, GLsizei width, GLsizei height,
                                                      GLsizei depth, GLsizei buf_size,
                                                      void* pixels) {
  Stream* s = current_stream();
  if (!s) return;
  const PackTarget to = pack_target(*s, pixels);
  wire::encode_glGetCompressedTextureSubImage(s->writer(), texture, level, x, y, z, width, height, depth,
                                              buf_size, to.data, 0, to.in_buffer);
  finish_compressed_read_back(*s, pixels, room(buf_size), width, height, depth);
}

// GL_EXT_direct_state_access: a named texture's image at `target` (a cube
// face or the texture's target), or the one a texture unit has bound there.
void GLAPIENTRY handle_glGetTextureImageEXT(GLuint texture, GLenum target, GLint level, GLenum format, GLenum type,
                                            void* pixels) {
  read_back(pixels, SIZE_MAX, [&](wire::Writer& w, PackTarget to) {
    wire::encode_glGetTextureImageEXT(w, texture, target, level, format, type, to.data, 0, to.in_buffer);
  });
}

void GLAPIENTRY handle_glGetMultiTexImageEXT(GLenum texunit, GLenum target, GLint level, GLenum format,
                                             GLenum type, void* pixels) {
  read_back(pixels, SIZE_MAX, [&](wire::Writer& w, PackTarget to) {
    wire::encode_glGetMultiTexImageEXT(w, texunit, target, level, format, type, to.data, 0, to.in_buffer);
  });
}

void GLAPIENTRY handle_glGetCompressedTextureImageEXT(GLuint texture, GLenum target, GLint level, void* pixels) {
  read_back(pixels, SIZE_MAX, [&](wire::Writer& w, PackTarget to) {
    wire::encode_glGetCompressedTextureImageEXT(w, texture, target, level, to.data, 0, to.in_buffer);
  });
}

void GLAPIENTRY handle_glGetCompressedMultiTexImageEXT(GLenum texunit, GLenum target, GLint level, void* pixels) {
  read_back(pixels, SIZE_MAX, [&](wire::Writer& w, PackTarget to) {
    wire::encode_glGetCompressedMultiTexImageEXT(w, texunit, target, level, to.data, 0, to.in_buffer);
  });
}

}  // namespace icd
