// GL_EXT_direct_state_access commands the guest spells with the commands it
// already keeps state for: a texture unit's client arrays (kept in the guest
// until a draw), the defaults of the client state, and named-buffer
// mappings (guest shadows, buffer_entry.cpp). The host runs the others as
// they come, except the vertex-array pointer queries below, whose answer is
// an offset only the host's GL knows.
#include "gl/direct_state.h"

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "gl/legacy_arrays.h"
#include "wire/gl_encode.h"
#include "wire/gl_replies.h"

namespace icd {
namespace {

constexpr GLenum kTexture0 = 0x84C0;
constexpr GLenum kTextureCoordArray = 0x8078;
constexpr GLenum kTextureCoordArrayPointer = 0x8092;
constexpr GLenum kInvalidEnum = 0x0500, kInvalidValue = 0x0501;
constexpr GLenum kFloat = 0x1406;

// Runs `command` with client texture unit `unit` (an index) active, as the
// program's own glClientActiveTexture calls would; false, with GL's error
// raised, for a unit past the guest's fixed-function units.
template <typename Command>
bool on_client_unit(GLuint unit, Command command) {
  Stream* s = current_stream();
  if (!s) return false;
  if (unit >= kLegacyTexUnits) {
    s->gl_state().raise_error(kInvalidValue);
    return false;
  }
  const GLuint active = s->gl_state().legacy_arrays().client_active_texture;
  if (unit != active) handle_glClientActiveTexture(kTexture0 + unit);
  command();
  if (unit != active) handle_glClientActiveTexture(kTexture0 + active);
  return true;
}

// glEnableClientStateIndexedEXT and its OpenGL 3.0 spelling: texture
// coordinates are the only indexed client array.
void switch_unit_array(GLenum array, GLuint index, bool enable) {
  Stream* s = current_stream();
  if (!s) return;
  if (array != kTextureCoordArray) return s->gl_state().raise_error(kInvalidEnum);
  on_client_unit(index, [&] {
    enable ? handle_glEnableClientState(array) : handle_glDisableClientState(array);
  });
}

void get_unit_pointer(GLenum pname, GLuint index, void** data) {
  Stream* s = current_stream();
  if (!s || !data) return;
  if (pname != kTextureCoordArrayPointer) return s->gl_state().raise_error(kInvalidEnum);
  on_client_unit(index, [&] { handle_glGetPointerv(pname, data); });
}

// The pixel-store defaults (OpenGL 4.6 compatibility, table 8.1), pack and
// unpack, and no pixel buffers.
void default_pixel_store() {
  struct Default {
    GLenum pname;
    GLint value;
  };
  static constexpr Default kDefaults[] = {
      {0x0CF0, 0}, {0x0CF1, 0}, {0x0CF2, 0}, {0x0CF3, 0}, {0x0CF4, 0}, {0x0CF5, 4},  // UNPACK_SWAP_BYTES..ALIGNMENT
      {0x806D, 0}, {0x806E, 0},                                                  // UNPACK_SKIP_IMAGES, IMAGE_HEIGHT
      {0x0D00, 0}, {0x0D01, 0}, {0x0D02, 0}, {0x0D03, 0}, {0x0D04, 0}, {0x0D05, 4},  // PACK_SWAP_BYTES..ALIGNMENT
      {0x806B, 0}, {0x806C, 0},                                                  // PACK_SKIP_IMAGES, IMAGE_HEIGHT
  };
  for (const Default& d : kDefaults) handle_glPixelStorei(d.pname, d.value);
  handle_glBindBuffer(0x88EB, 0);  // GL_PIXEL_PACK_BUFFER
  handle_glBindBuffer(0x88EC, 0);  // GL_PIXEL_UNPACK_BUFFER
}

// The default vertex array as a new context has it: every array off, at its
// initial format and no pointer, client unit 0, no primitive restart.
void default_vertex_arrays() {
  handle_glBindVertexArray(0);
  handle_glBindBuffer(0x8892, 0);  // GL_ARRAY_BUFFER
  for (GLenum array : {0x8074u, 0x8075u, 0x8076u, 0x8077u, 0x8079u, 0x8457u, 0x845Eu})
    handle_glDisableClientState(array);
  handle_glVertexPointer(4, kFloat, 0, nullptr);
  handle_glNormalPointer(kFloat, 0, nullptr);
  handle_glColorPointer(4, kFloat, 0, nullptr);
  handle_glIndexPointer(kFloat, 0, nullptr);
  handle_glEdgeFlagPointer(0, nullptr);
  handle_glFogCoordPointer(kFloat, 0, nullptr);
  handle_glSecondaryColorPointer(3, kFloat, 0, nullptr);
  for (GLuint unit = kLegacyTexUnits; unit-- > 0;) {
    handle_glClientActiveTexture(kTexture0 + unit);
    handle_glDisableClientState(kTextureCoordArray);
    handle_glTexCoordPointer(4, kFloat, 0, nullptr);
  }
  GLint attribs = 0;
  handle_glGetIntegerv(0x8869, &attribs);  // GL_MAX_VERTEX_ATTRIBS
  for (GLuint i = 0; i < static_cast<GLuint>(attribs); ++i) {
    handle_glDisableVertexAttribArray(i);
    handle_glVertexAttribPointer(i, 4, kFloat, 0, 0, nullptr);
  }
  handle_glDisable(0x8F9D);  // GL_PRIMITIVE_RESTART
  handle_glPrimitiveRestartIndex(0);
}

// A vertex array's pointer: the host's GL answers the buffer offset.
template <typename Encode>
void get_vertex_array_pointer(Stream& s, void** param, Encode encode) {
  encode(s.writer());
  wire::Reply_glGetVertexArrayPointervEXT out;  // also glGetVertexArrayPointeri_vEXT's
  if (await_reply(s, out, wire::decode_reply_glGetVertexArrayPointervEXT)) {
    *param = reinterpret_cast<void*>(static_cast<uintptr_t>(out.pointer));
  }
}

}  // namespace

bool bound_vertex_array_pointer(Stream& s, GLenum pname, GLuint index, void** out) {
  const GLuint vao = s.gl_state().vertex_array();
  if (vao == 0 || !offers_extension(s, "GL_EXT_direct_state_access")) return false;
  constexpr GLenum kAttribArrayPointer = 0x8645;
  if (pname == kTextureCoordArrayPointer || pname == kAttribArrayPointer) {
    get_vertex_array_pointer(s, out, [&](wire::Writer& w) {
      wire::encode_glGetVertexArrayPointeri_vEXT(w, vao, index, pname);
    });
  } else {
    get_vertex_array_pointer(s, out, [&](wire::Writer& w) { wire::encode_glGetVertexArrayPointervEXT(w, vao, pname); });
  }
  return true;
}

void GLAPIENTRY handle_glMultiTexCoordPointerEXT(GLenum texunit, GLint size, GLenum type, GLsizei stride,
                                                 const void* pointer) {
  if (texunit < kTexture0) {
    if (Stream* s = current_stream()) s->gl_state().raise_error(kInvalidEnum);
    return;
  }
  on_client_unit(texunit - kTexture0, [&] { handle_glTexCoordPointer(size, type, stride, pointer); });
}

void GLAPIENTRY handle_glEnableClientStateIndexedEXT(GLenum array, GLuint index) {
  switch_unit_array(array, index, true);
}
void GLAPIENTRY handle_glDisableClientStateIndexedEXT(GLenum array, GLuint index) {
  switch_unit_array(array, index, false);
}
void GLAPIENTRY handle_glEnableClientStateiEXT(GLenum array, GLuint index) { switch_unit_array(array, index, true); }
void GLAPIENTRY handle_glDisableClientStateiEXT(GLenum array, GLuint index) {
  switch_unit_array(array, index, false);
}

void GLAPIENTRY handle_glGetPointerIndexedvEXT(GLenum target, GLuint index, void** data) {
  get_unit_pointer(target, index, data);
}
void GLAPIENTRY handle_glGetPointeri_vEXT(GLenum pname, GLuint index, void** params) {
  get_unit_pointer(pname, index, params);
}

void GLAPIENTRY handle_glClientAttribDefaultEXT(GLbitfield mask) {
  constexpr GLbitfield kPixelStoreBit = 0x1, kVertexArrayBit = 0x2;
  if (mask & kPixelStoreBit) default_pixel_store();
  if (mask & kVertexArrayBit) default_vertex_arrays();
}

void GLAPIENTRY handle_glPushClientAttribDefaultEXT(GLbitfield mask) {
  handle_glPushClientAttrib(mask);
  handle_glClientAttribDefaultEXT(mask);
}

void GLAPIENTRY handle_glGetVertexArrayPointervEXT(GLuint vaobj, GLenum pname, void** param) {
  Stream* s = current_stream();
  if (!s || !param) return;
  get_vertex_array_pointer(*s, param, [&](wire::Writer& w) {
    wire::encode_glGetVertexArrayPointervEXT(w, vaobj, pname);
  });
}

void GLAPIENTRY handle_glGetVertexArrayPointeri_vEXT(GLuint vaobj, GLuint index, GLenum pname, void** param) {
  Stream* s = current_stream();
  if (!s || !param) return;
  get_vertex_array_pointer(*s, param, [&](wire::Writer& w) {
    wire::encode_glGetVertexArrayPointeri_vEXT(w, vaobj, index, pname);
  });
}

// Named buffers, as OpenGL 4.5 names them.
void* GLAPIENTRY handle_glMapNamedBufferEXT(GLuint buffer, GLenum access) {
  return handle_glMapNamedBuffer(buffer, access);
}
void* GLAPIENTRY handle_glMapNamedBufferRangeEXT(GLuint buffer, GLintptr offset, GLsizeiptr length,
                                                 GLbitfield access) {
  return handle_glMapNamedBufferRange(buffer, offset, length, access);
}
GLboolean GLAPIENTRY handle_glUnmapNamedBufferEXT(GLuint buffer) { return handle_glUnmapNamedBuffer(buffer); }
void GLAPIENTRY handle_glFlushMappedNamedBufferRangeEXT(GLuint buffer, GLintptr offset, GLsizeiptr length) {
  handle_glFlushMappedNamedBufferRange(buffer, offset, length);
}
void GLAPIENTRY handle_glGetNamedBufferPointervEXT(GLuint buffer, GLenum pname, void** params) {
  handle_glGetNamedBufferPointerv(buffer, pname, params);
}
void GLAPIENTRY handle_glGetNamedBufferParameterivEXT(GLuint buffer, GLenum pname, GLint* params) {
  handle_glGetNamedBufferParameteriv(buffer, pname, params);
}
void GLAPIENTRY handle_glClearNamedBufferDataEXT(GLuint buffer, GLenum internalformat, GLenum format, GLenum type,
                                                 const void* data) {
  handle_glClearNamedBufferData(buffer, internalformat, format, type, data);
}
void GLAPIENTRY handle_glClearNamedBufferSubDataEXT(GLuint buffer, GLenum internalformat, GLsizeiptr offset,
                                                    GLsizeiptr size, GLenum format, GLenum type,
                                                    const void* data) {
  handle_glClearNamedBufferSubData(buffer, internalformat, offset, size, format, type, data);
}
void GLAPIENTRY handle_glNamedCopyBufferSubDataEXT(GLuint read_buffer, GLuint write_buffer, GLintptr read_offset,
                                                   GLintptr write_offset, GLsizeiptr size) {
  handle_glCopyNamedBufferSubData(read_buffer, write_buffer, read_offset, write_offset, size);
}

}  // namespace icd
