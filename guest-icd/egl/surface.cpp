#include "egl/objects.h"


namespace icd {
namespace {

wire::SurfaceConfig surface_config(const Config& c) {
  return wire::SurfaceConfig{static_cast<uint32_t>(c.red),   static_cast<uint32_t>(c.green),
                             static_cast<uint32_t>(c.blue),  static_cast<uint32_t>(c.alpha),
                             static_cast<uint32_t>(c.depth), static_cast<uint32_t>(c.stencil),
                             static_cast<uint32_t>(c.samples)};
}

template <typename T>
void encode(wire::Writer& w, wire::ControlOp op, const T& payload) {
  size_t at = w.begin(static_cast<uint32_t>(op));
  w.put(payload);
  w.end(at);
}

// How many frames may be on their way back before a swap waits.
constexpr uint32_t kFramesInFlight = 2;

}  // namespace

Surface::Surface(Display& display, std::shared_ptr<Connection> connection, const Config& config,
                 EGLint type, int width, int height)
    : display_(display),
      connection_(std::move(connection)),
      id_(connection_->new_id()),
      config_(config),
      type_(type),
      width_(width),
      height_(height) {
  (void)connection_->send_control(
      wire::ControlOp::kCreateSurface,
      wire::CreateSurface{id_, static_cast<uint32_t>(width_), static_cast<uint32_t>(height_),
                          surface_config(config_)});
}

Surface::~Surface() {
  if (window_) connection_->remove_sink(id_);
  if (connection_->lost()) return;
  connection_->forget(id_);
  (void)connection_->send_control(wire::ControlOp::kDestroySurface, wire::ObjectId{id_});
}

void Surface::attach_window(::Display* x_display, Window window) {
  x_display_ = x_display;
  window_ = window;
  presenter_ = std::make_unique<Presenter>(x_display, window);
  connection_->add_sink(id_, &frames_);
}

bool Surface::poll_window_size() {
  int w = width_, h = height_;
  if (!window_ || !Presenter::window_size(x_display_, window_, &w, &h)) return false;
  if (w == width_ && h == height_) return false;
  width_ = w;
  height_ = h;
  return true;
}

void Surface::present_ready(ContextStream& stream) {
  FrameQueue::Ready ready;
  if (!frames_.take(ready)) return;
  if (ready.frame.width > 0 && presenter_) {
    presenter_->present(ready.pixels.data(), static_cast<int>(ready.frame.width),
                        static_cast<int>(ready.frame.height), static_cast<int>(ready.frame.stride));
    connection_->stats().frames++;
    if (ready.done_ids.size() > 1) connection_->stats().frames_dropped += ready.done_ids.size() - 1;
  }
  for (uint32_t id : ready.done_ids) encode(stream.writer(), wire::ControlOp::kFrameDone, wire::FrameDone{id_, id});
}

bool Surface::swap(ContextStream& stream) {
  present_ready(stream);
  const uint32_t frame_id = next_frame_++;
  encode(stream.writer(), wire::ControlOp::kSwapBuffers, wire::SwapBuffers{id_, frame_id});
  // A resize takes effect for the next frame, like a window system's back
  // buffer that is reallocated after the swap.
  if (poll_window_size())
    encode(stream.writer(), wire::ControlOp::kResizeSurface,
           wire::ResizeSurface{id_, static_cast<uint32_t>(width_), static_cast<uint32_t>(height_)});
  stream.flush();
  if (stream.lost()) return false;

  connection_->poll();
  present_ready(stream);
  if (frame_id - frames_.last_received() >= kFramesInFlight) {
    const uint32_t oldest = frame_id - kFramesInFlight + 1;
    if (!connection_->wait_until([&] { return frames_.last_received() >= oldest; },
                                 connection_->timeout()))
      return false;
    present_ready(stream);
  }
  return !stream.lost();
}

}  // namespace icd
