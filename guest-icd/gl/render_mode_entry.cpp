// Selection and feedback: GL writes the program's buffer while in
// GL_SELECT or GL_FEEDBACK, and the program reads it once glRenderMode
// leaves the mode. The host's GL writes a buffer of its own; glRenderMode's
// reply carries what it wrote, copied here into the program's buffer.
// Reply: wire-protocol/annotations.toml [replies].
#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "wire/gl_encode.h"
#include "wire/gl_replies.h"

namespace icd {
namespace {

constexpr GLenum kFeedback = 0x1C01;
constexpr GLenum kSelect = 0x1C02;

// GL refuses a negative size and keeps the buffer it had.
void remember(GlState::KeptBuffer& kept, GLsizei size, void* buffer) {
  if (size >= 0) kept = {buffer, static_cast<size_t>(size) * 4};
}

}  // namespace

void GLAPIENTRY handle_glSelectBuffer(GLsizei size, GLuint* buffer) {
  Stream* s = current_stream();
  if (!s) return;
  remember(s->gl_state().select_buffer, size, buffer);
  wire::encode_glSelectBuffer(s->writer(), size);
  s->commit();
}

void GLAPIENTRY handle_glFeedbackBuffer(GLsizei size, GLenum type, GLfloat* buffer) {
  Stream* s = current_stream();
  if (!s) return;
  remember(s->gl_state().feedback_buffer, size, buffer);
  wire::encode_glFeedbackBuffer(s->writer(), size, type);
  s->commit();
}

GLint GLAPIENTRY handle_glRenderMode(GLenum mode) {
  Stream* s = current_stream();
  if (!s) return 0;
  wire::encode_glRenderMode(s->writer(), mode);
  wire::Reply_glRenderMode out;
  if (!await_reply(*s, out, wire::decode_reply_glRenderMode)) return 0;
  GlState& st = s->gl_state();
  GlState::KeptBuffer none;
  const GlState::KeptBuffer& kept =
      out.left == kSelect ? st.select_buffer : out.left == kFeedback ? st.feedback_buffer : none;
  copy_data(out.words, kept.data, kept.bytes);
  return out.answer;
}

}  // namespace icd
