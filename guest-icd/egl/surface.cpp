#include "egl/objects.h"
#include "gl/debug_output.h"

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

// How many frames may be on their way back before a swap waits: as many as
// the host reads back at once (--frame-buffers, 3). A frame is on its way
// until the guest has shown it, so the window spans the host's work, the
// read-back and the guest's presenter; with two, a GPU host waited on that
// chain every frame (docs/reports/benchmarks.md, "On-screen frames").
constexpr uint32_t kFramesInFlight = 3;

}  // namespace

Surface::Surface(std::shared_ptr<Connection> connection, const Config& config, EGLint type,
                 int width, int height, bool double_buffered, EGLint colorspace, uint32_t texture)
    : connection_(std::move(connection)),
      id_(connection_->new_id()),
      config_(config),
      type_(type),
      colorspace_(colorspace),
      texture_(texture),
      width_(width),
      height_(height) {
  (void)connection_->send_control(
      wire::ControlOp::kCreateSurface,
      wire::CreateSurface{id_, static_cast<uint32_t>(width_), static_cast<uint32_t>(height_),
                          surface_config(config_),
                          (type_ == EGL_PBUFFER_BIT ? texture_
                           // A pixmap is single-buffered: flushes after drawing show it.
                           : type_ == EGL_WINDOW_BIT && double_buffered
                               ? wire::kSurfaceWindow | wire::kSurfaceDoubleBuffered
                               : wire::kSurfaceWindow) |
                              (colorspace == EGL_GL_COLORSPACE_SRGB ? wire::kSurfaceSrgb : 0u)});
}

EGLint Surface::texture_format() const {
  if (texture_ & wire::kSurfaceTextureRgba) return EGL_TEXTURE_RGBA;
  return texture_ & wire::kSurfaceTextureRgb ? EGL_TEXTURE_RGB : EGL_NO_TEXTURE;
}

Surface::~Surface() {
  if (window_) connection_->remove_sink(id_);  // no frame reaches us after this
  if (connection_->lost()) return;
  connection_->forget(id_);
  (void)connection_->send_control(wire::ControlOp::kDestroySurface, wire::ObjectId{id_});
}

void Surface::attach_window(Window window, std::unique_ptr<Presenter> presenter) {
  window_ = window;
  presenter_ = std::move(presenter);
  connection_->add_sink(id_, this);
}

Presenter& Surface::copy_target(::Display* app, Pixmap pixmap) {
  if (!copy_presenter_ || copy_pixmap_ != pixmap || !copy_presenter_->found()) {
    copy_presenter_ = Presenter::open(app, pixmap);
    copy_pixmap_ = pixmap;
  }
  return *copy_presenter_;
}

bool Surface::poll_window_size() {
  int w = width_, h = height_;
  if (!presenter_ || !presenter_->ok()) return false;
  presenter_->followed_size(&w, &h);
  if (w <= 0 || h <= 0) return false;
  if (w == width_ && h == height_) return false;
  width_ = w;
  height_ = h;
  return true;
}

void Surface::follow_window_size(wire::Writer& w) {
  if (poll_window_size())
    encode(w, wire::ControlOp::kResizeSurface,
           wire::ResizeSurface{id_, static_cast<uint32_t>(width_), static_cast<uint32_t>(height_)});
}

void Surface::current_window_size(int* width, int* height) const {
  *width = width_;
  *height = height_;
  if (presenter_) presenter_->window_size(width, height);
}

bool Surface::window_exists() const {
  int w = 0, h = 0;
  return !presenter_ || !presenter_->ok() || presenter_->window_size(&w, &h);
}

void Surface::on_frame(const wire::Frame& frame, std::span<const std::byte> pixels) {
  TimedNs timed(connection_->stats().present_ns);
  if (frame.frame_id > last_received_) last_received_ = frame.frame_id;
  if (!presenter_ || !presenter_->present(frame, pixels, connection_->incoming_file())) return;
  connection_->stats().frames++;
  if (presenter_->put_in_place()) connection_->stats().frames_in_place++;
}

void Surface::on_input(const wire::Input& input) {
  if (presenter_) presenter_->send_input(input);
}

bool Surface::swap(ContextStream& stream) {
  deliver_debug_messages(stream);  // a round trip, only while a callback is set
  Stats& stats = connection_->stats();
  stats.swaps++;
  const uint64_t round_trips = stats.round_trips;
  if (next_frame_ > 1 && round_trips != round_trips_at_swap_) stats.swaps_with_round_trips++;
  round_trips_at_swap_ = round_trips;
  for (const auto& done : connection_->take_frames_done())
    encode(stream.writer(), wire::ControlOp::kFrameDone, done);
  const uint32_t frame_id = next_frame_++;
  encode(stream.writer(), wire::ControlOp::kSwapBuffers, wire::SwapBuffers{id_, frame_id});
  // A resize takes effect for the next frame, like a window system's back
  // buffer that is reallocated after the swap.
  {
    TimedNs timed(stats.size_poll_ns);
    follow_window_size(stream.writer());
  }
  stream.flush();
  if (stream.lost()) return false;
  // Run at most kFramesInFlight frames ahead of what came back.
  if (frame_id - last_received_ < kFramesInFlight) return true;
  const uint32_t oldest = frame_id - kFramesInFlight + 1;
  TimedNs timed(stats.swap_wait_ns);
  return connection_->wait_until([&] { return last_received_ >= oldest; }, connection_->timeout()) &&
         !stream.lost();
}

}  // namespace icd
