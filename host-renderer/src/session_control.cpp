// Conduit's own commands: handshake, contexts, surfaces and frames.
#include <string>

#include "control_args.h"
#include "host/egl_context.h"
#include "host/log.h"
#include "host/session.h"

namespace host {

using wire::ControlOp;
using wire::Errc;
using wire::make_error;

namespace {

// The status a guest waits for after kCreateContext: 0, or 1 + the Errc.
uint32_t status_code(const wire::Status& st) {
  return st ? 0 : 1 + static_cast<uint32_t>(st.error().code);
}

// The program name a guest gave, as viewers' labels show it: printable
// ASCII, bounded; whatever else it sent is replaced or cut.
std::string program_name(wire::Reader& r) {
  constexpr size_t kMaxName = 64;
  auto data = r.get_data();
  if (!data) return {};
  std::string name;
  for (std::byte b : data->bytes.first(std::min(data->bytes.size(), kMaxName))) {
    const auto c = static_cast<unsigned char>(b);
    name += c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?';
  }
  return name;
}

}  // namespace

wire::Status Session::run_control(const wire::CommandIterator::Command& cmd) {
  wire::Reader r(cmd.payload, cmd.offset + sizeof(wire::CommandHeader), heap_copies_);
  auto op = static_cast<ControlOp>(cmd.opcode);
  if (!greeted_ && op != ControlOp::kHello) {
    return make_error(Errc::kBadValue, "command before kHello", cmd.offset);
  }
  switch (op) {
    case ControlOp::kHello: return hello(r);
    case ControlOp::kCreateContext: return create_context(r);
    case ControlOp::kDestroyContext: return destroy_context(r);
    case ControlOp::kMakeCurrent: return make_current(r);
    case ControlOp::kCreateSurface: return create_surface(r);
    case ControlOp::kDestroySurface: return destroy_surface(r);
    case ControlOp::kResizeSurface: return resize_surface(r);
    case ControlOp::kSwapBuffers: return swap_buffers(r);
    case ControlOp::kSync: return r.remaining() ? make_error(Errc::kBadLength, "kSync payload", cmd.offset)
                                                : wire::Status{};
    case ControlOp::kGetStats: return get_stats();
    case ControlOp::kFrameDone: return frame_done(r);
    case ControlOp::kCreateImage: return create_image(r);
    case ControlOp::kDestroyImage: return destroy_image(r);
    case ControlOp::kUniformReach: return uniform_reach(r);
    case ControlOp::kTestFault:
      if (limits_.test_faults) return test_fault(r);
      break;
    default: break;
  }
  return make_error(Errc::kUnknownOpcode, "control op " + std::to_string(cmd.opcode), cmd.offset);
}

wire::Status Session::hello(wire::Reader& r) {
  auto h = r.get<wire::Hello>();  // later versions may append fields
  if (!h) return h.error();
  uint32_t host_features = wire::kFeatureCompression;
  if (channel_->outgoing_heap() || !channel_->incoming_heap().empty()) host_features |= wire::kFeatureBlobHeap;
  const RendererInfo& info = display_.info();
  if (info.max_gles1 != 0) host_features |= wire::kFeatureGles1;
  if (offers_gl_images()) host_features |= wire::kFeatureGlImages;
  if (display_.has_extension("EGL_KHR_gl_colorspace")) host_features |= wire::kFeatureSrgbSurfaces;
  host_features |= wire::kFeatureUniformReach;
  wire::HelloReply reply{wire::kProtocolVersion, h->features & host_features, stats_->id, info.max_gles,
                         info.max_gl_core, info.max_gl_compat,
                         static_cast<uint32_t>(limits_.max_batch_bytes)};
  if (!(reply.features & wire::kFeatureCompression)) encoder_.set_mode(wire::Compression::kOff);
  std::string strings = info.renderer + '\0' + info.vendor + '\0' +
                        (info.gl_compat_version.empty() ? info.gles_version : info.gl_compat_version) +
                        '\0' + info.platform + '\0' + std::to_string(limits_.guest.max_total_bytes) + '\0';
  reply_.put(reply);
  reply_.put_data(strings.data(), strings.size());
  stats_->guest_pid = h->pid;
  if (r.remaining() > 0) program_ = program_name(r);
  greeted_ = true;
  return {};
}

wire::Status Session::create_context(wire::Reader& r) {
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
      log_line("session %u: context %u not created: %s", stats_->id, c->context_id, st.error().describe().c_str());
    }
  }
  reply_.put(status_code(st));
  return {};
}

wire::Status Session::destroy_context(wire::Reader& r) {
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

wire::Status Session::make_current(wire::Reader& r) {
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
  return {};
}

wire::Status Session::create_surface(wire::Reader& r) {
  auto c = read_control<wire::CreateSurface>(r);
  if (!c) return c.error();
  if (c->surface_id == 0 || surfaces_.count(c->surface_id)) {
    return make_error(Errc::kBadName, "surface id " + std::to_string(c->surface_id), r.offset());
  }
  if (surfaces_.size() >= limits_.max_surfaces) return make_error(Errc::kLimit, "too many surfaces", r.offset());
  uint32_t known = wire::kSurfaceDoubleBuffered | wire::kSurfaceWindow;
  if (display_.has_extension("EGL_KHR_gl_colorspace")) known |= wire::kSurfaceSrgb;
  if (c->flags & ~known) {
    return make_error(Errc::kBadValue, "surface flags", r.offset());
  }
  // Checked with the formula it is charged by, before anything is allocated.
  if (c->width > kMaxSurfaceSide || c->height > kMaxSurfaceSide ||
      !account_.fits(Surface::bytes_for(c->width, c->height, c->config))) {
    return make_error(Errc::kLimit, "surface " + std::to_string(c->width) + "x" + std::to_string(c->height),
                      r.offset());
  }
  auto s = Surface::create(display_, c->width, c->height, c->config, c->flags);
  if (!s) return make_error(s.error().code, s.error().detail, r.offset());
  account_.charge_allocated((*s)->bytes());
  surfaces_.emplace(c->surface_id, std::move(*s));
  return {};
}

wire::Status Session::destroy_surface(wire::Reader& r) {
  auto id = read_control<wire::ObjectId>(r);
  if (!id) return id.error();
  auto it = surfaces_.find(id->id);
  if (it == surfaces_.end()) return unknown_id("surface", id->id, r.offset());
  if (frames_) frames_->forget_surface(id->id);
  withdraw_from_viewers(id->id);
  if (draw_id_ == id->id) draw_id_ = 0;
  if (read_id_ == id->id) read_id_ = 0;
  bound_ = false;
  // Unbind before the pbuffer goes, so it is freed now rather than deferred.
  host::make_current(display_.handle(), wire::Api::kGles, EGL_NO_CONTEXT, EGL_NO_SURFACE, EGL_NO_SURFACE);
  account_.release(it->second->bytes());
  surfaces_.erase(it);
  frames_out_.erase(id->id);
  last_frame_.erase(id->id);
  return {};
}

wire::Status Session::resize_surface(wire::Reader& r) {
  auto m = read_control<wire::ResizeSurface>(r);
  if (!m) return m.error();
  auto it = surfaces_.find(m->surface_id);
  if (it == surfaces_.end()) return unknown_id("surface", m->surface_id, r.offset());
  Surface& s = *it->second;
  // The old storage goes with the resize: the new size need only fit without it.
  const size_t old_bytes = s.bytes();
  account_.release(old_bytes);
  if (m->width > kMaxSurfaceSide || m->height > kMaxSurfaceSide ||
      !account_.fits(s.bytes_at(m->width, m->height))) {
    account_.charge_allocated(old_bytes);
    return make_error(Errc::kLimit, "surface " + std::to_string(m->width) + "x" + std::to_string(m->height),
                      r.offset());
  }
  if (frames_) frames_->collect(true, [this](auto& f, auto px) { send_frame(f, px); });
  host::make_current(display_.handle(), wire::Api::kGles, EGL_NO_CONTEXT, EGL_NO_SURFACE, EGL_NO_SURFACE);
  bound_ = false;
  auto st = s.resize(m->width, m->height);
  account_.charge_allocated(st ? s.bytes() : old_bytes);
  if (!st) return make_error(st.error().code, st.error().detail, r.offset());
  return {};
}

wire::Status Session::swap_buffers(wire::Reader& r) {
  auto m = read_control<wire::SwapBuffers>(r);
  if (!m) return m.error();
  auto it = surfaces_.find(m->surface_id);
  if (it == surfaces_.end()) return unknown_id("surface", m->surface_id, r.offset());
  if (current_ && current_->lost) return {};
  if (auto st = start_frame_reader(); !st) return make_error(st.error().code, st.error().detail, r.offset());
  ensure_bound();  // the read is ordered after the guest's rendering
  bound_ = false;
  Surface& s = *it->second;
  last_frame_[m->surface_id] = m->frame_id;
  auto st = frames_->start(m->surface_id, s, s.handle(), m->frame_id,
                           [this](auto& f, auto px) { send_frame(f, px); });
  if (st) st = frames_->copy_to_front(s);  // what was presented is the front now
  if (!st) return make_error(st.error().code, st.error().detail, r.offset());
  return {};
}

wire::Status Session::frame_done(wire::Reader& r) {
  auto m = read_control<wire::FrameDone>(r);
  if (!m) return m.error();
  auto it = frames_out_.find(m->surface_id);
  if (it != frames_out_.end() && it->second > 0) --it->second;
  return {};
}

// Answered on the current context; without one (or a lost one) no value
// would reach GL, so the guest sends none.
wire::Status Session::uniform_reach(wire::Reader& r) {
  auto m = read_control<wire::UniformReach>(r);
  if (!m) return m.error();
  int32_t reach = 0;
  if (current_ && !current_->lost && ensure_bound())
    reach = current_->state->uniform_reach(m->program, m->location, m->count);
  reply_.put(reach);
  return {};
}

wire::Status Session::get_stats() {
  reclaim_memory(false);  // the guest's own figure is exact
  stats_->memory_bytes.store(account_.total_bytes, std::memory_order_relaxed);
  // A guest sees its own session only: other guests' peers, sizes and
  // activity are not its business.
  const uint64_t held = stats_->memory_bytes.load(std::memory_order_relaxed);
  const nlohmann::json counters = stats_->counters.to_json();
  nlohmann::json j = {{"total", counters},
                      {"memory_bytes", held},
                      {"sessions", {{{"id", stats_->id}, {"peer", stats_->peer}, {"pid", stats_->guest_pid},
                                     {"memory_bytes", held}, {"counters", counters}}}}};
  j["session"] = stats_->id;
  const RendererInfo& info = display_.info();
  j["host"] = {{"renderer", info.renderer},       {"vendor", info.vendor},
               {"platform", info.platform},       {"gles_version", info.gles_version},
               {"gl_core_version", info.gl_core_version},
               {"gl_compat_version", info.gl_compat_version},
               {"gles1_version", info.gles1_version},
               {"egl_version", info.egl_version}, {"gles1_extensions", info.gles1_extensions},
               {"gles_extensions", info.gles_extensions},
               {"gl_extensions", info.gl_extensions},
               {"gl_compat_extensions", info.gl_compat_extensions}};
  std::string text = j.dump();
  for (char ch : text) reply_.put(ch);
  return {};
}

}  // namespace host
