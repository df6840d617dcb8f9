// The GL handler's part in the session: its commands run on the guest's
// current context, the control commands EGL serves, and what it hands back
// after each batch.
#include "gl/gl_handler.h"

#include <string>

#include "control_args.h"
#include "gl/command_facts.h"
#include "host/egl_context.h"
#include "wire/scoped_timer.h"

namespace host {

using wire::ControlOp;
using wire::Errc;
using wire::make_error;

GlHandler::GlHandler(const EglDisplay& display, const Limits& limits, ResourceAccount& account,
                     ToGuest to_guest, uint32_t session_id)
    : display_(display),
      limits_(limits),
      account_(account),
      to_guest_(std::move(to_guest)),
      session_id_(session_id) {}

wire::Status GlHandler::run(const ApiCommand& cmd) {
  if (current_ == nullptr) {
    if (no_context_lost_) return {};
    return make_error(Errc::kBadValue, "GL command without a current context", cmd.offset);
  }
  if (current_->lost) return {};
  if (!ensure_bound()) return make_error(Errc::kIo, "cannot make the context current", cmd.offset);
  wire::Reader payload = cmd.reader();
  DispatchEnv env{*current_->state, cmd.reply, &images_, programs_, tell_linked_ ? &tell_linked_ : nullptr,
                  take_export_ ? &take_export_ : nullptr};
  WIRE_TRY(dispatch_gl(env, cmd.opcode, payload));
  if (current_->draw_both && draws_again(*current_->state, cmd.opcode)) {
    WIRE_TRY(draw_again_into_front(cmd));
  }
  if (has_fact(cmd.opcode, wire::kSelectsBuffers)) WIRE_TRY(follow_default_buffers());
  if (has_fact(cmd.opcode, wire::kShowsFront)) return present_front();
  if (draws_shown_) front_drawn_ = true;
  return {};
}

void GlHandler::end_batch() { reclaim_after_batch(); }

void GlHandler::reclaim() { reclaim_memory(false); }

// The current context, or the context-less stream while none is current.
std::optional<uint32_t> GlHandler::lose() {
  bool& lost = current_ ? current_->lost : no_context_lost_;
  if (lost) return std::nullopt;
  lost = true;
  return current_ ? current_->id : 0;
}

const char* GlHandler::command_name(uint32_t opcode) const { return gl_command_name(opcode); }

wire::Status GlHandler::run_control(const ApiCommand& cmd) {
  wire::Reader r = cmd.reader();
  switch (static_cast<ControlOp>(cmd.opcode)) {
    case ControlOp::kCreateContext: return create_context(r, cmd.reply);
    case ControlOp::kDestroyContext: return destroy_context(r);
    case ControlOp::kMakeCurrent: return make_current(r);
    case ControlOp::kCreateSurface: return create_surface(r);
    case ControlOp::kDestroySurface: return destroy_surface(r);
    case ControlOp::kResizeSurface: return resize_surface(r);
    case ControlOp::kSwapBuffers: return swap_buffers(r);
    case ControlOp::kCreateImage: return create_image(r, cmd.reply);
    case ControlOp::kDestroyImage: return destroy_image(r);
    case ControlOp::kBindTexImage: return bind_tex_image(r);
    case ControlOp::kUniformReach: return uniform_reach(r, cmd.reply);
    case ControlOp::kContextStrings: return context_strings(cmd.reply);
    default: return unknown_control_op(cmd.opcode, cmd.offset);
  }
}

void GlHandler::tell_links(bool on) {
  tell_linked_ = nullptr;
  if (!on || !to_guest_.program_linked) return;
  tell_linked_ = [this](uint32_t program, std::span<const std::byte> reflection) {
    to_guest_.program_linked(wire::ProgramLinked{current_->id, program}, reflection);
  };
}

uint32_t GlHandler::features() const {
  uint32_t features = wire::kFeatureUniformReach | wire::kFeatureProgramReflection | wire::kFeatureContextStrings;
  if (display_.info().max_gles1 != 0) features |= wire::kFeatureGles1;
  if (offers_gl_images()) features |= wire::kFeatureGlImages;
  if (display_.has_extension("EGL_KHR_gl_colorspace")) features |= wire::kFeatureSrgbSurfaces;
  if (offers_texture_pbuffers(display_)) features |= wire::kFeatureTexturePbuffers;
  return features;
}

// Reading back leaves the readback context current.
void GlHandler::collect_frames(FrameReader::Wait wait) {
  if (!frames_) return;
  frames_->collect(wait, to_guest_.frame);
  bound_ = false;
}

const Surface* GlHandler::surface(uint32_t surface_id) const {
  auto it = surfaces_.find(surface_id);
  return it != surfaces_.end() ? it->second.get() : nullptr;
}

bool GlHandler::ensure_bound() {
  if (bound_) return true;
  EGLSurface draw = EGL_NO_SURFACE, read = EGL_NO_SURFACE;
  if (draw_id_) draw = buffer_of(draw_id_, current_ && current_->draw_front);
  if (read_id_) read = buffer_of(read_id_, current_ && current_->read_front);
  EGLContext ctx = current_ ? current_->egl : EGL_NO_CONTEXT;
  wire::Api api = current_ ? current_->api : wire::Api::kGles;
  bool made;
  {
    wire::ScopedTimer timed(rebinds_);
    made = host::make_current(display_.handle(), api, ctx, draw, read);
  }
  if (!made) return false;
  bound_ = true;
  draws_shown_ = current_ && draws_shown_buffer();
  return true;
}

}  // namespace host
