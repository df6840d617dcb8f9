// Entry of the GL command path: opcode -> checks -> generated dispatch.
#include <string>

#include "gl/array_reads.h"
#include "gl/command_facts.h"
#include "gl/display_lists.h"
#include "gl/draw_limits.h"
#include "gl/driver_workarounds.h"
#include "gl/dispatch_support.h"
#include "host/gl_dispatch.h"
#include "wire/gl_opcodes.h"

namespace host {

namespace {

// The host's checks, then the command itself.
wire::Status run_checked(DispatchEnv& env, const wire::GlCommandInfo& info, DispatchFn fn,
                         uint32_t opcode, wire::Reader& payload) {
  GlContextState::Impl& st = env.state.impl();
  auto fits = array_reads_fit(st, opcode, payload);
  if (!fits) return fits.error();
  if (!*fits) {
    st.refused_error = GL_INVALID_OPERATION;  // GL would read past a buffer
    return {};
  }
  auto sized = draw_within_limit(st.account.limits.max_draw_vertices, opcode, payload);
  if (!sized) return sized.error();
  if (!*sized) {
    st.refused_error = GL_OUT_OF_MEMORY;  // more vertices than the guest's limit
    return {};
  }
  auto calls = list_calls_fit(st, opcode, payload);
  if (!calls) return calls.error();
  if (!*calls) return {};  // left out of the list being compiled (display_lists.h)
  if (!admit_list_command(st, opcode, sizeof(wire::CommandHeader) + payload.remaining())) return {};
  reset_scratch();
  wire::Status status = fn(env, payload);
  st.release_reply();  // a reply is charged only while its command runs
  if (status) track_list_bounds(st, opcode);
  if (!status) {
    wire::Error e = status.error();
    e.detail = std::string(info.name) + ": " + e.detail;
    if (e.offset == 0) e.offset = payload.offset();
    return e;
  }
  return status;
}

}  // namespace

wire::Status dispatch_gl(DispatchEnv& env, uint32_t opcode, wire::Reader& payload) {
  const wire::GlCommandInfo* info = wire::gl_command_info(opcode);
  DispatchFn fn = gl_dispatch_fn(opcode);
  if (info == nullptr || fn == nullptr) {
    return wire::make_error(wire::Errc::kUnknownOpcode, "opcode " + std::to_string(opcode),
                            payload.offset());
  }
  GlContextState::Impl& st = env.state.impl();
  if (!st.supports(*info)) {
    return wire::make_error(wire::Errc::kUnknownOpcode,
                            std::string(info->name) + " is not offered by the host context",
                            payload.offset());
  }
  before_draw(st, opcode);
  wire::Status status = run_checked(env, *info, fn, opcode, payload);
  after_draw(st);
  return status;
}

bool draws_again(GlContextState& state, uint32_t opcode) {
  GlContextState::Impl& st = state.impl();
  if (!has_fact(opcode, wire::kRepeatableDraw)) return false;
  if (st.compiling_list != 0 || st.in_begin) return false;
  GLint framebuffer = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
  if (framebuffer != 0) return false;
  GLint mode = GL_RENDER;
  if (!st.gles && st.has_fixed_function_arrays()) glGetIntegerv(GL_RENDER_MODE, &mode);
  return mode == GL_RENDER;
}

namespace {

// Whether transform feedback captures now: GL 4.0 answers it.
bool capturing(GlContextState::Impl& st) {
  if (st.gles || st.version() < 40) return false;
  GLint active = 0, paused = 0;
  glGetIntegerv(GL_TRANSFORM_FEEDBACK_ACTIVE, &active);
  glGetIntegerv(GL_TRANSFORM_FEEDBACK_PAUSED, &paused);
  return active && !paused;
}

}  // namespace

wire::Status dispatch_gl_again(DispatchEnv& env, uint32_t opcode, wire::Reader& payload) {
  const bool pause = capturing(env.state.impl());
  if (pause) glPauseTransformFeedback();
  wire::Status status = dispatch_gl(env, opcode, payload);
  if (pause) glResumeTransformFeedback();
  return status;
}

const char* gl_command_name(uint32_t opcode) {
  const wire::GlCommandInfo* info = wire::gl_command_info(opcode);
  return info ? info->name : nullptr;
}

}  // namespace host
