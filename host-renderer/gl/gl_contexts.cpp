// A guest's GL and GLES contexts: made and destroyed at its request, made
// current on its surfaces, and asked how far a uniform call reaches and
// what strings they answer.
#include <string>

#include "control_args.h"
#include "gl/context_impl.h"
#include "gl/gl_handler.h"
#include "host/egl_context.h"
#include "host/log.h"

namespace host {

using wire::Errc;
using wire::make_error;

namespace {

// The status a guest waits for after kCreateContext: 0, or 1 + the Errc.
uint32_t status_code(const wire::Status& st) {
  return st ? 0 : 1 + static_cast<uint32_t>(st.error().code);
}

}  // namespace

wire::Status GlHandler::create_context(wire::Reader& r, wire::Writer& reply) {
  auto c = read_control<wire::CreateContext>(r);
  if (!c) return c.error();
  auto attempt = [&]() -> wire::Status {
    if (c->context_id == 0 || contexts_.count(c->context_id)) {
      return make_error(Errc::kBadName, "context id " + std::to_string(c->context_id));
    }
    if (contexts_.size() >= limits_.max_contexts) return make_error(Errc::kLimit, "too many contexts");
    ContextRequest req{static_cast<wire::Api>(c->api), c->major, c->minor,
                       static_cast<wire::Profile>(c->profile), c->flags};
    GuestContext* share = nullptr;
    if (c->share_id != 0) {
      auto it = contexts_.find(c->share_id);
      if (it == contexts_.end()) return unknown_id("share context", c->share_id, 0);
      share = it->second.get();
    }
    // Deleted objects GL has freed since may make room.
    if (!account_.try_charge(kContextBytes)) return make_error(Errc::kLimit, "guest memory limit");
    auto egl = create_egl_context(display_, req, share ? share->egl : EGL_NO_CONTEXT);
    bound_ = false;  // eglBindAPI may have changed what is current
    if (!egl) {
      account_.release(kContextBytes);
      return egl.error();
    }
    auto ctx = std::make_unique<GuestContext>();
    ctx->id = c->context_id;
    ctx->api = req.api;
    ctx->egl = *egl;
    auto group = share ? share->state->share_group() : GlContextState::new_share_group();
    ctx->state = std::make_unique<GlContextState>(group, account_, req.api == wire::Api::kGles);
    contexts_.emplace(ctx->id, std::move(ctx));
    return {};
  };
  wire::Status st = attempt();
  if (!st) {
    uint64_t dropped = 0;
    if (guest_log_limiter().allow(&dropped)) {
      log_line("session %u: context %u not created: %s", session_id_, c->context_id, st.error().describe().c_str());
    }
  }
  reply.put(status_code(st));
  return {};
}

wire::Status GlHandler::destroy_context(wire::Reader& r) {
  auto id = read_control<wire::ObjectId>(r);
  if (!id) return id.error();
  auto it = contexts_.find(id->id);
  if (it == contexts_.end()) return unknown_id("context", id->id, r.offset());
  destroy(*it->second);
  if (current_ == it->second.get()) {
    current_ = nullptr;
    draw_id_ = read_id_ = 0;
  }
  contexts_.erase(it);
  bound_ = false;
  return {};
}

wire::Status GlHandler::make_current(wire::Reader& r) {
  auto m = read_control<wire::MakeCurrent>(r);
  if (!m) return m.error();
  GuestContext* ctx = nullptr;
  if (m->context_id != 0) {
    auto it = contexts_.find(m->context_id);
    if (it == contexts_.end()) return unknown_id("context", m->context_id, r.offset());
    ctx = it->second.get();
  }
  for (uint32_t s : {m->draw_id, m->read_id}) {
    if (s != 0 && !surfaces_.count(s)) return unknown_id("surface", s, r.offset());
  }
  if (ctx && (m->draw_id == 0 || m->read_id == 0) && !display_.surfaceless_context()) {
    return make_error(Errc::kBadValue, "surfaceless contexts are not supported", r.offset());
  }
  current_ = ctx;
  draw_id_ = ctx ? m->draw_id : 0;
  read_id_ = ctx ? m->read_id : 0;
  if (ctx && (ctx->draw_front || ctx->draw_both)) WIRE_TRY(make_front(draw_id_));
  if (ctx && ctx->read_front) WIRE_TRY(make_front(read_id_));
  bound_ = false;
  if (!ensure_bound()) return make_error(Errc::kBadValue, "eglMakeCurrent failed", r.offset());
  if (ctx && draw_id_) select_initial_buffers(*ctx);
  if (ctx) {
    auto it = surfaces_.find(draw_id_);
    ctx->state->impl().draws_double_buffered = it != surfaces_.end() && it->second->double_buffered();
  }
  return {};
}

// Status 0 and the current context's strings; 1 and none without a
// context, or past wire::kMaxContextStringsBytes (the guest then asks for
// each string alone).
wire::Status GlHandler::context_strings(wire::Writer& reply) {
  if (!current_ || current_->lost || !ensure_bound()) {
    reply.put(uint32_t{1});
    return {};
  }
  auto bytes = wire::encode_context_strings(current_->state->context_strings());
  if (!bytes) {
    uint64_t dropped = 0;
    if (guest_log_limiter().allow(&dropped))
      log_line("session %u: context %u: %s", session_id_, current_->id, bytes.error().describe().c_str());
    reply.put(uint32_t{1});
    return {};
  }
  reply.put(uint32_t{0});
  reply.put_data(bytes->data(), bytes->size());
  return {};
}

// Answered on the current context; without one (or a lost one) no value
// would reach GL, so the guest sends none.
wire::Status GlHandler::uniform_reach(wire::Reader& r, wire::Writer& reply) {
  auto m = read_control<wire::UniformReach>(r);
  if (!m) return m.error();
  int32_t reach = 0;
  if (current_ && !current_->lost && ensure_bound())
    reach = current_->state->uniform_reach(m->program, m->location, m->count);
  reply.put(reach);
  return {};
}

}  // namespace host
