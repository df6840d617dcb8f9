// Pixel-store and client-attribute state: kept by the guest (it sizes
// transfers by it) and sent on for the host's GL.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "gl/entry_support.h"
#include "gl/debug_output.h"
#include "gl/gl_handlers.h"
#include "gl/legacy_arrays.h"
#include "gl/persistent_mappings.h"
#include "wire/gl_encode.h"

namespace icd {

void GLAPIENTRY handle_glPixelStorei(GLenum pname, GLint param) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().pixel_store(pname, param);
  wire::encode_glPixelStorei(s->writer(), pname, param);
  s->commit();
}

void GLAPIENTRY handle_glPixelStoref(GLenum pname, GLfloat param) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().pixel_store(pname, wire::size::pixel_store_value(param));
  wire::encode_glPixelStoref(s->writer(), pname, param);
  s->commit();
}

void GLAPIENTRY handle_glPushClientAttrib(GLbitfield mask) {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().push_client_attrib(mask);
  wire::encode_glPushClientAttrib(s->writer(), mask);
  s->commit();
}

void GLAPIENTRY handle_glPopClientAttrib() {
  Stream* s = current_stream();
  if (!s) return;
  s->gl_state().pop_client_attrib();
  wire::encode_glPopClientAttrib(s->writer());
  s->commit();
}

}  // namespace icd
