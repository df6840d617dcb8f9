// Texture images read back into the program's memory or a pack buffer. The
// host sizes each image from GL; the program's buffer holds it (at most
// bufSize bytes where the command takes one).
// Wire layouts: host-renderer/gl/texture_read_back.cpp.
#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"

namespace icd {
namespace {

size_t room(GLsizei buf_size) { return static_cast<size_t>(std::max(buf_size, 0)); }

// Starts `op` with its leading 32-bit arguments.
size_t begin_read(Stream& s, wire::GlOp op, std::initializer_list<uint32_t> args) {
  size_t cmd = begin(s, op);
  for (uint32_t v : args) s.writer().put(v);
  return cmd;
}

uint32_t u32(GLint v) { return static_cast<uint32_t>(v); }

// glGetnTexImage and glGetnTexImageARB are separate commands on the wire:
// a driver may have one and not the other.
void get_n_tex_image(wire::GlOp op, GLenum target, GLint level, GLenum format, GLenum type,
                     GLsizei buf_size, void* pixels) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin_read(*s, op, {target, u32(level), format, type, u32(buf_size)});
  finish_read_back(*s, cmd, pixels, room(buf_size));
}

void get_n_compressed_tex_image(wire::GlOp op, GLenum target, GLint level, GLsizei buf_size,
                                void* pixels) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin_read(*s, op, {target, u32(level), u32(buf_size)});
  finish_read_back(*s, cmd, pixels, room(buf_size));
}

}  // namespace

void GLAPIENTRY handle_glGetTexImage(GLenum target, GLint level, GLenum format, GLenum type,
                                     void* pixels) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin_read(*s, wire::GlOp::glGetTexImage, {target, u32(level), format, type});
  finish_read_back(*s, cmd, pixels, SIZE_MAX);
}

void GLAPIENTRY handle_glGetnTexImage(GLenum target, GLint level, GLenum format, GLenum type,
                                      GLsizei buf_size, void* pixels) {
  get_n_tex_image(wire::GlOp::glGetnTexImage, target, level, format, type, buf_size, pixels);
}

void GLAPIENTRY handle_glGetnTexImageARB(GLenum target, GLint level, GLenum format, GLenum type,
                                         GLsizei buf_size, void* pixels) {
  get_n_tex_image(wire::GlOp::glGetnTexImageARB, target, level, format, type, buf_size, pixels);
}

void GLAPIENTRY handle_glGetTextureImage(GLuint texture, GLint level, GLenum format, GLenum type,
                                         GLsizei buf_size, void* pixels) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin_read(*s, wire::GlOp::glGetTextureImage,
                          {texture, u32(level), format, type, u32(buf_size)});
  finish_read_back(*s, cmd, pixels, room(buf_size));
}

void GLAPIENTRY handle_glGetTextureSubImage(GLuint texture, GLint level, GLint x, GLint y, GLint z,
                                            GLsizei width, GLsizei height, GLsizei depth,
                                            GLenum format, GLenum type, GLsizei buf_size,
                                            void* pixels) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin_read(*s, wire::GlOp::glGetTextureSubImage,
                          {texture, u32(level), u32(x), u32(y), u32(z), u32(width), u32(height),
                           u32(depth), format, type, u32(buf_size)});
  // The texture's target, and so the image's dimensions, are the host's.
  finish_image_read_back(*s, cmd, pixels, room(buf_size), 0, format, type, width, height, depth);
}

void GLAPIENTRY handle_glGetCompressedTexImage(GLenum target, GLint level, void* pixels) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin_read(*s, wire::GlOp::glGetCompressedTexImage, {target, u32(level)});
  finish_read_back(*s, cmd, pixels, SIZE_MAX);
}

void GLAPIENTRY handle_glGetnCompressedTexImage(GLenum target, GLint level, GLsizei buf_size,
                                                void* pixels) {
  get_n_compressed_tex_image(wire::GlOp::glGetnCompressedTexImage, target, level, buf_size, pixels);
}

void GLAPIENTRY handle_glGetnCompressedTexImageARB(GLenum target, GLint level, GLsizei buf_size,
                                                   void* pixels) {
  get_n_compressed_tex_image(wire::GlOp::glGetnCompressedTexImageARB, target, level, buf_size, pixels);
}

void GLAPIENTRY handle_glGetCompressedTextureImage(GLuint texture, GLint level, GLsizei buf_size,
                                                   void* pixels) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin_read(*s, wire::GlOp::glGetCompressedTextureImage,
                          {texture, u32(level), u32(buf_size)});
  finish_read_back(*s, cmd, pixels, room(buf_size));
}

void GLAPIENTRY handle_glGetCompressedTextureSubImage(GLuint texture, GLint level, GLint x, GLint y,
                                                      GLint z, GLsizei width, GLsizei height,
                                                      GLsizei depth, GLsizei buf_size,
                                                      void* pixels) {
  Stream* s = current_stream();
  if (!s) return;
  size_t cmd = begin_read(*s, wire::GlOp::glGetCompressedTextureSubImage,
                          {texture, u32(level), u32(x), u32(y), u32(z), u32(width), u32(height),
                           u32(depth), u32(buf_size)});
  finish_read_back(*s, cmd, pixels, room(buf_size));
}

}  // namespace icd
