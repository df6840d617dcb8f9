// Selection and feedback (OpenGL 4.6 compatibility profile, 20.2 and 20.3).
// GL keeps the buffer glSelectBuffer / glFeedbackBuffer give it and writes
// it until glRenderMode leaves the mode; the host gives GL buffers the
// context owns (kept_buffer.h) and glRenderMode's reply carries what GL
// wrote, which the guest copies into the program's buffer.
//
// Wire layouts: glSelectBuffer i32 size; glFeedbackBuffer i32 size, u32 type;
// glRenderMode u32 mode; its reply: wire-protocol/annotations.toml [replies].
#include <epoxy/gl.h>

#include <algorithm>

#include "gl/dispatch_support.h"
#include "gl/gl_host_handlers.h"
#include "gl/kept_buffer.h"
#include "wire/gl_replies.h"

namespace host {
namespace {

// GL writes a kept buffer only in contexts with selection and feedback.
bool has_render_modes(GlContextState::Impl& st) { return !st.gles && st.has_fixed_function_arrays(); }

// What GL writes comes back in glRenderMode's reply, as large as any other.
constexpr size_t kMaxKeptWords = kMaxReplyArrayBytes / sizeof(uint32_t);

// Gives GL a fresh buffer of `size` words through `set`; the context keeps
// it in `kept` if GL took it. GL refuses a new buffer while in the mode the
// buffer serves (and between glBegin and glEnd), and then goes on writing
// the old one, so GL is asked which one it holds.
void keep_buffer(GlContextState::Impl& st, KeptBuffer& kept, GLsizei size, GLenum pointer_query,
                 void (*set)(GLsizei, void*, GLenum), GLenum type) {
  if (size < 0 || !has_render_modes(st)) {
    set(size, nullptr, type);  // GL's own error; it keeps nothing
    return;
  }
  const auto words = static_cast<size_t>(size);
  KeptBuffer fresh = words <= kMaxKeptWords ? KeptBuffer::make(st.account, words) : KeptBuffer{};
  if (fresh.empty()) {
    st.refused_error = GL_OUT_OF_MEMORY;
    return;
  }
  set(size, fresh.data(), type);
  void* held = nullptr;
  glGetPointerv(pointer_query, &held);
  if (held == fresh.data()) kept = std::move(fresh);
}

// Words of `hits` selection hit records: a name count, two depths, the names.
size_t hit_words(const KeptBuffer& b, GLint hits) {
  if (hits < 0) return b.words();  // it overflowed: GL filled all of it
  size_t at = 0;
  for (GLint i = 0; i < hits && at < b.words(); ++i) at += 3 + size_t{b.word(at)};
  return std::min(at, b.words());
}

GLenum render_mode() {
  GLint mode = GL_RENDER;
  glGetIntegerv(GL_RENDER_MODE, &mode);
  return static_cast<GLenum>(mode);
}

}  // namespace

wire::Status handle_glSelectBuffer(DispatchEnv& env, wire::Args_glSelectBuffer& a) {
  auto& st = env.state.impl();
  keep_buffer(st, st.kept.select, a.size, GL_SELECTION_BUFFER_POINTER,
              [](GLsizei size, void* at, GLenum) { glSelectBuffer(size, static_cast<GLuint*>(at)); }, 0);
  return {};
}

wire::Status handle_glFeedbackBuffer(DispatchEnv& env, wire::Args_glFeedbackBuffer& a) {
  auto& st = env.state.impl();
  keep_buffer(st, st.kept.feedback, a.size, GL_FEEDBACK_BUFFER_POINTER,
              [](GLsizei size, void* at, GLenum type) {
                glFeedbackBuffer(size, type, static_cast<GLfloat*>(at));
              },
              a.type);
  return {};
}

wire::Status handle_glRenderMode(DispatchEnv& env, wire::Args_glRenderMode& a) {
  auto& st = env.state.impl();
  const GLenum left = has_render_modes(st) ? render_mode() : GL_RENDER;
  const GLint answer = glRenderMode(a.mode);
  size_t words = 0;
  KeptBuffer* kept = nullptr;
  if (left == GL_SELECT) {
    kept = &st.kept.select;
    words = kept->empty() ? 0 : hit_words(*kept, answer);
  } else if (left == GL_FEEDBACK) {
    kept = &st.kept.feedback;
    words = answer < 0 ? kept->words() : std::min(static_cast<size_t>(answer), kept->words());
  }
  wire::encode_reply_glRenderMode(env.reply, answer, left, kept && words ? kept->data() : nullptr,
                                  words * sizeof(uint32_t));
  return {};
}

}  // namespace host
