// Finishing frames: asynchronous readback of a surface through a small ring
// of pixel buffer objects per surface, so the GPU is never waited on at the
// swap itself. A private readback context reads the surface, leaving every
// guest context's GL state untouched.
#pragma once

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "host/egl_display.h"
#include "host/row_workers.h"
#include "host/surface.h"
#include "wire/control.h"
#include "wire/result.h"

namespace host {

// Receives a finished frame: BGRA8 rows, top row first.
using FrameSink = std::function<void(const wire::Frame&, std::span<const std::byte> pixels)>;

// Where the reader's frames go: place() gives room for a frame's pixels
// (in the message to the guest, its shared heap where the channel has one),
// the reader writes them there top row first, and sent() delivers them: the
// pixels are copied once, out of the read-back buffer.
struct FramePlacement {
  std::function<std::span<std::byte>(const wire::Frame&)> place;
  FrameSink sent;
};

// Where a session's frame time goes on the host, summed over its frames:
// ordering reads after the guest's drawing, switching to the readback
// context, starting reads, waiting for reads the guest is owed, and copying
// rows out to the guest.
struct FrameTimes {
  uint64_t frames = 0;
  std::chrono::nanoseconds order{0};
  std::chrono::nanoseconds bind{0};
  std::chrono::nanoseconds read{0};
  std::chrono::nanoseconds wait{0};
  std::chrono::nanoseconds copy{0};
  std::chrono::nanoseconds rebind{0};  // the guest's context made current again, by the session
};

class FrameReader {
 public:
  static wire::Result<std::unique_ptr<FrameReader>> create(const EglDisplay& display, uint32_t ring_size);
  ~FrameReader();
  FrameReader(const FrameReader&) = delete;
  FrameReader& operator=(const FrameReader&) = delete;

  // Starts reading `buffer` (the surface's back or front) as frame
  // `frame_id`. Work queued by the context current on entry is ordered
  // before the read. Leaves the readback context current: the caller
  // re-binds its own before issuing more GL.
  wire::Status start(uint32_t surface_id, const Surface& surface, EGLSurface buffer, uint32_t frame_id,
                     const FramePlacement& out);

  // Copies the surface's back buffer into its front (a swap), ordered like
  // start(), leaving the readback context current.
  wire::Status copy_to_front(const Surface& surface);

  // Delivers the frames whose reads are done, in order, after waiting for
  // those `wait` says. May leave the readback context current.
  enum class Wait { kNone, kOldest, kAll };
  void collect(Wait wait, const FramePlacement& out);

  // The surface is going away: its pending frames are dropped, buffers freed.
  void forget_surface(uint32_t surface_id);

  size_t pending() const { return pending_.size(); }
  const FrameTimes& times() const { return times_; }
  // Bytes held in pixel buffer objects, for the guest's account.
  size_t buffer_bytes() const { return buffer_bytes_; }

 private:
  struct Ring {
    std::vector<GLuint> pbos;
    std::vector<size_t> sizes;
    uint32_t next = 0;
  };
  struct Pending {
    wire::Frame frame;
    GLuint pbo;
    GLsync fence;
  };

  FrameReader(const EglDisplay& display, uint32_t ring_size) : display_(display), ring_size_(ring_size) {}
  wire::Status init();
  bool bind(EGLSurface surface);
  void order_after_current();
  void wait_for_ordered();
  bool finish(Pending& p, bool wait, const FramePlacement& out);
  void copy_rows(const std::byte* src, const wire::Frame& f, std::byte* dst);

  const EglDisplay& display_;
  uint32_t ring_size_;
  wire::Api api_ = wire::Api::kGl;
  EGLContext context_ = EGL_NO_CONTEXT;
  EGLSurface scratch_ = EGL_NO_SURFACE;  // 1x1, without EGL_KHR_surfaceless_context
  bool bgra_ = true;                     // reads BGRA directly; else RGBA, swizzled here
  EGLSyncKHR pending_sync_ = EGL_NO_SYNC_KHR;
  std::map<uint32_t, Ring> rings_;
  std::deque<Pending> pending_;
  size_t buffer_bytes_ = 0;
  FrameTimes times_;
  RowWorkers row_workers_{RowWorkers::spare_threads()};
};

}  // namespace host
