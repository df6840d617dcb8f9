#include "host/frame_reader.h"

#include <cstring>

#include "host/egl_context.h"
#include "wire/scoped_timer.h"

namespace host {

using wire::Errc;
using wire::make_error;

namespace {
constexpr GLuint64 kFinishTimeoutNs = 5'000'000'000;

using Timed = wire::ScopedTimer<std::chrono::nanoseconds>;
}  // namespace

wire::Result<std::unique_ptr<FrameReader>> FrameReader::create(const EglDisplay& display, uint32_t ring_size) {
  std::unique_ptr<FrameReader> r(new FrameReader(display, ring_size < 1 ? 1 : ring_size));
  WIRE_TRY(r->init());
  return r;
}

// Desktop GL reads BGRA natively; OpenGL ES 3.0 needs GL_EXT_read_format_bgra.
wire::Status FrameReader::init() {
  const ContextRequest tries[] = {{wire::Api::kGl, 3, 2, wire::Profile::kCore, 0},
                                  {wire::Api::kGles, 3, 0, wire::Profile::kNone, 0}};
  for (const auto& req : tries) {
    auto ctx = create_egl_context(display_, req, EGL_NO_CONTEXT);
    if (!ctx) continue;
    context_ = *ctx;
    api_ = req.api;
    break;
  }
  if (context_ == EGL_NO_CONTEXT) return make_error(Errc::kIo, "no context for frame readback");
  if (!display_.surfaceless_context()) {
    const EGLint size[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    scratch_ = eglCreatePbufferSurface(display_.handle(), display_.default_config(), size);
  }
  if (!bind(EGL_NO_SURFACE)) return make_error(Errc::kIo, "cannot make the readback context current");
  bgra_ = api_ == wire::Api::kGl || epoxy_has_gl_extension("GL_EXT_read_format_bgra");
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  return {};
}

FrameReader::~FrameReader() {
  if (context_ == EGL_NO_CONTEXT) return;
  if (bind(EGL_NO_SURFACE)) {
    for (auto& p : pending_) glDeleteSync(p.fence);
    for (auto& [id, ring] : rings_) glDeleteBuffers(static_cast<GLsizei>(ring.pbos.size()), ring.pbos.data());
  }
  make_current(display_.handle(), api_, EGL_NO_CONTEXT, EGL_NO_SURFACE, EGL_NO_SURFACE);
  eglDestroyContext(display_.handle(), context_);
  if (scratch_ != EGL_NO_SURFACE) eglDestroySurface(display_.handle(), scratch_);
}

bool FrameReader::bind(EGLSurface surface) {
  if (surface == EGL_NO_SURFACE) surface = scratch_;
  if (eglGetCurrentContext() == context_ && eglGetCurrentSurface(EGL_DRAW) == surface &&
      eglGetCurrentSurface(EGL_READ) == surface)
    return true;
  return make_current(display_.handle(), api_, context_, surface, surface);
}

// The guest context rendered into the surface; a fence in its stream that the
// readback context waits on orders the read after that work without a stall.
void FrameReader::order_after_current() {
  EGLContext current = eglGetCurrentContext();
  if (current == EGL_NO_CONTEXT || current == context_ || !display_.has_extension("EGL_KHR_fence_sync")) {
    return;
  }
  EGLSyncKHR sync = eglCreateSyncKHR(display_.handle(), EGL_SYNC_FENCE_KHR, nullptr);
  if (sync == EGL_NO_SYNC_KHR) return;
  pending_sync_ = sync;
}

// Makes the readback context's next commands wait for the fence that
// order_after_current() put in the guest context's stream.
void FrameReader::wait_for_ordered() {
  if (pending_sync_ == EGL_NO_SYNC_KHR) return;
  if (display_.has_extension("EGL_KHR_wait_sync")) {
    eglWaitSyncKHR(display_.handle(), pending_sync_, 0);
  } else {
    eglClientWaitSyncKHR(display_.handle(), pending_sync_, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, kFinishTimeoutNs);
  }
  eglDestroySyncKHR(display_.handle(), pending_sync_);
  pending_sync_ = EGL_NO_SYNC_KHR;
}

wire::Status FrameReader::copy_to_front(const Surface& surface) {
  if (surface.front() == EGL_NO_SURFACE) return {};
  order_after_current();
  if (!make_current(display_.handle(), api_, context_, surface.front(), surface.handle())) {
    return make_error(Errc::kIo, "cannot bind the surface's buffers for the swap");
  }
  wait_for_ordered();
  const auto w = static_cast<GLint>(surface.width()), h = static_cast<GLint>(surface.height());
  glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glFlush();
  return {};
}

wire::Status FrameReader::start(uint32_t surface_id, const Surface& surface, EGLSurface buffer,
                                uint32_t frame_id, const FramePlacement& out) {
  ++times_.frames;
  {
    Timed timed(times_.order);
    order_after_current();
  }
  {
    Timed timed(times_.bind);
    if (!bind(buffer)) return make_error(Errc::kIo, "cannot bind the surface for readback");
  }
  {
    Timed timed(times_.order);
    wait_for_ordered();
  }
  Ring& ring = rings_[surface_id];
  if (ring.pbos.empty()) {
    ring.pbos.resize(ring_size_);
    ring.sizes.assign(ring_size_, 0);
    glGenBuffers(static_cast<GLsizei>(ring_size_), ring.pbos.data());
  }
  GLuint pbo = ring.pbos[ring.next];
  size_t slot = ring.next;
  ring.next = (ring.next + 1) % ring_size_;
  // The slot's previous frame must be out before its buffer is reused.
  while (true) {
    bool busy = false;
    for (auto& p : pending_) busy = busy || p.pbo == pbo;
    if (!busy) break;
    finish(pending_.front(), true, out);
    pending_.pop_front();
  }
  Timed timed(times_.read);
  wire::Frame f{surface_id, frame_id, surface.width(), surface.height(), surface.width() * 4};
  size_t size = size_t{f.stride} * f.height;
  glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
  if (ring.sizes[slot] != size) {
    glBufferData(GL_PIXEL_PACK_BUFFER, static_cast<GLsizeiptr>(size), nullptr, GL_STREAM_READ);
    buffer_bytes_ += size - ring.sizes[slot];
    ring.sizes[slot] = size;
  }
  glReadPixels(0, 0, static_cast<GLsizei>(f.width), static_cast<GLsizei>(f.height),
               bgra_ ? GL_BGRA_EXT : GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glFlush();
  pending_.push_back({f, pbo, fence});
  return {};
}

void FrameReader::collect(Wait wait, const FramePlacement& out) {
  // Mapping and fences need the readback context, on whatever surface it
  // has: a swap leaves it current, and each switch costs a driver flush.
  const bool ours = eglGetCurrentContext() == context_;
  if (pending_.empty() || (!ours && !bind(EGL_NO_SURFACE))) return;
  bool wait_next = wait != Wait::kNone;
  while (!pending_.empty() && finish(pending_.front(), wait_next, out)) {
    pending_.pop_front();
    wait_next = wait == Wait::kAll;
  }
}

bool FrameReader::finish(Pending& p, bool wait, const FramePlacement& out) {
  GLenum r;
  {
    Timed timed(times_.wait);
    r = glClientWaitSync(p.fence, wait ? GL_SYNC_FLUSH_COMMANDS_BIT : 0, wait ? kFinishTimeoutNs : 0);
  }
  if (r == GL_TIMEOUT_EXPIRED && !wait) return false;
  Timed timed(times_.copy);
  glDeleteSync(p.fence);
  size_t size = size_t{p.frame.stride} * p.frame.height;
  glBindBuffer(GL_PIXEL_PACK_BUFFER, p.pbo);
  const void* src = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, static_cast<GLsizeiptr>(size), GL_MAP_READ_BIT);
  if (src) {
    const std::span<std::byte> room = out.place(p.frame);
    copy_rows(static_cast<const std::byte*>(src), p.frame, room.data());
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    out.sent(p.frame, room);
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  return true;
}

// GL rows start at the bottom; frames go out top row first, in BGRA.
void FrameReader::copy_rows(const std::byte* src, const wire::Frame& f, std::byte* dst) {
  const size_t stride = f.stride;
  row_workers_.run(f.height, [&](uint32_t begin, uint32_t end) {
    for (uint32_t y = begin; y < end; ++y) {
      const std::byte* in = src + stride * (f.height - 1 - y);
      std::byte* out = dst + stride * y;
      std::memcpy(out, in, stride);
      if (!bgra_) {
        for (size_t x = 0; x < stride; x += 4) std::swap(out[x], out[x + 2]);
      }
    }
  });
}

void FrameReader::forget_surface(uint32_t surface_id) {
  auto it = rings_.find(surface_id);
  if (it == rings_.end()) return;
  if (bind(EGL_NO_SURFACE)) {
    for (auto p = pending_.begin(); p != pending_.end();) {
      if (p->frame.surface_id == surface_id) {
        glDeleteSync(p->fence);
        p = pending_.erase(p);
      } else {
        ++p;
      }
    }
    glDeleteBuffers(static_cast<GLsizei>(it->second.pbos.size()), it->second.pbos.data());
  }
  for (size_t s : it->second.sizes) buffer_bytes_ -= s;
  rings_.erase(it);
}

}  // namespace host
