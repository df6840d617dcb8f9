// glFlush, glFinish and GL's errors: what ends a batch or waits for the
// host, and the errors a lost context answers without asking.
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

void GLAPIENTRY handle_glFinish() {
  Stream* s = current_stream();
  if (!s) return;
  wire::encode_glFinish(s->writer());
  if (s->roundtrip()) fetch_mapped_reads(*s);
  deliver_debug_messages(*s);
  s->run_at_flush();
}

namespace {

// A one-value query whose answer a lost context (or a host gone) gives
// without asking.
GLenum lost_or_asked(void (*encode)(wire::Writer&), GLenum when_lost) {
  Stream* s = current_stream();
  if (!s) return 0;
  if (s->lost()) return when_lost;
  encode(s->writer());
  auto reply = s->roundtrip();
  if (!reply) return when_lost;
  wire::Reader r(*reply, 0);
  auto value = r.get<GLenum>();
  return value ? *value : when_lost;
}

}  // namespace

// A lost context generates GL_CONTEXT_LOST for every command (OpenGL 4.6,
// 2.3.1), so glGetError never says "no error" then.
// An error the guest raised itself comes first.
GLenum GLAPIENTRY handle_glGetError() {
  constexpr GLenum kContextLost = 0x0507;
  if (Stream* s = current_stream()) {
    deliver_debug_messages(*s);
    if (!s->lost()) {
      if (const GLenum local = s->gl_state().take_error()) return local;
    }
  }
  return lost_or_asked(wire::encode_glGetError, kContextLost);
}

GLenum GLAPIENTRY handle_glGetGraphicsResetStatus() {
  constexpr GLenum kUnknownContextReset = 0x8255;
  return lost_or_asked(wire::encode_glGetGraphicsResetStatus, kUnknownContextReset);
}

// Sent at once: drawing into a window's front buffer shows at a flush.
void GLAPIENTRY handle_glFlush() {
  Stream* s = current_stream();
  if (!s) return;
  wire::encode_glFlush(s->writer());
  s->run_at_flush();
  s->flush();
  deliver_debug_messages(*s);
}

}  // namespace icd
