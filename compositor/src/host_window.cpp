#include "comp/host_window.h"

#include <SDL.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>

#include "comp/sdl_keys.h"
#include "comp/view_fit.h"

namespace comp {

namespace {

// Long enough not to spin, short enough that the window answers at once.
constexpr std::chrono::milliseconds kPictureWait{16};
// A wheel event larger than this is a flick; the guest needs no more.
constexpr int32_t kMaxWheelSteps = 10;

wire::Error sdl_error(const std::string& what) {
  return wire::make_error(wire::Errc::kIo, "host window: " + what + ": " + SDL_GetError());
}

// The part of `r` on a canvas of `width` x `height`.
SDL_Rect clip(Rect r, uint32_t width, uint32_t height) {
  const int64_t x0 = std::clamp<int64_t>(r.x, 0, width), y0 = std::clamp<int64_t>(r.y, 0, height);
  const int64_t x1 = std::clamp<int64_t>(int64_t{r.x} + r.width, x0, width);
  const int64_t y1 = std::clamp<int64_t>(int64_t{r.y} + r.height, y0, height);
  return SDL_Rect{static_cast<int>(x0), static_cast<int>(y0), static_cast<int>(x1 - x0),
                  static_cast<int>(y1 - y0)};
}

// Where a point of `window` falls on the canvas it shows.
PicturePoint place(SDL_Window* window, uint32_t canvas_width, uint32_t canvas_height, int32_t x,
                   int32_t y) {
  int width = 0, height = 0;
  SDL_GetWindowSize(window, &width, &height);
  return to_picture(letterbox(canvas_width, canvas_height, width, height), canvas_width,
                   canvas_height, x, y);
}

std::string title_for(const TileInfo& tile) {
  return "Conduit - " + tile.label.program + " (" + tile.label.guest + ", pid " +
         std::to_string(tile.label.pid) + ")";
}

}  // namespace

// Members are destroyed bottom-up: the texture before its renderer, the
// renderer before its window, the window before SDL video stops.
struct HostWindow::Sdl {
  struct Video {
    ~Video() {
      if (started) SDL_QuitSubSystem(SDL_INIT_VIDEO);
    }
    bool started = false;
  };
  Video video;
  std::unique_ptr<SDL_Window, decltype(&SDL_DestroyWindow)> window{nullptr, SDL_DestroyWindow};
  std::unique_ptr<SDL_Renderer, decltype(&SDL_DestroyRenderer)> renderer{nullptr,
                                                                         SDL_DestroyRenderer};
  std::unique_ptr<SDL_Texture, decltype(&SDL_DestroyTexture)> texture{nullptr, SDL_DestroyTexture};
};

wire::Result<std::unique_ptr<HostWindow>> HostWindow::create(Compositor& compositor) {
  // `conduit host` handles SIGINT and SIGTERM itself.
  SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
  // The click that raises the window also reaches the guest under it.
  SDL_SetHint(SDL_HINT_MOUSE_FOCUS_CLICKTHROUGH, "1");
  // Only a window system: SDL would otherwise fall back to drawing off
  // screen, or take over the console. SDL_VIDEODRIVER still overrides this.
  SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, "x11,wayland", SDL_HINT_DEFAULT);
  auto sdl = std::make_unique<Sdl>();
  if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
    return sdl_error("no window system to open the window on (DISPLAY or WAYLAND_DISPLAY unset?)");
  }
  sdl->video.started = true;
  sdl->window.reset(SDL_CreateWindow("Conduit", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                     640, 480, SDL_WINDOW_RESIZABLE));
  if (!sdl->window) return sdl_error("cannot open a window");
  // Without a GPU (Xvfb) no accelerated renderer exists: draw in software,
  // straight into the window; through a GL texture a resize can leave the
  // picture where the old size put it.
  SDL_SetHintWithPriority(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0", SDL_HINT_DEFAULT);
  sdl->renderer.reset(SDL_CreateRenderer(sdl->window.get(), -1, 0));
  if (!sdl->renderer)
    sdl->renderer.reset(SDL_CreateRenderer(sdl->window.get(), -1, SDL_RENDERER_SOFTWARE));
  if (!sdl->renderer) return sdl_error("cannot create a renderer");
  // Keys are sent as keys; an input method must not turn them into text.
  SDL_StopTextInput();
  return std::unique_ptr<HostWindow>(new HostWindow(compositor, std::move(sdl)));
}

HostWindow::HostWindow(Compositor& compositor, std::unique_ptr<Sdl> sdl)
    : compositor_(compositor), sdl_(std::move(sdl)), title_("Conduit") {}

HostWindow::~HostWindow() = default;

wire::Result<HostWindow::End> HostWindow::run(const std::atomic<bool>& stop) {
  while (!stop.load(std::memory_order_relaxed)) {
    if (!pump_events()) return End::kClosed;
    WIRE_TRY(take_picture());
    update_title();
    if (redraw_) present();
  }
  return End::kStopped;
}

bool HostWindow::pump_events() {
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    switch (e.type) {
      case SDL_QUIT:
        return false;
      case SDL_WINDOWEVENT:
        if (e.window.event == SDL_WINDOWEVENT_CLOSE) return false;
        redraw_ = true;  // exposed, resized, restored: draw again
        break;
      case SDL_KEYDOWN:
      case SDL_KEYUP:
        on_key(e.key.keysym.sym, e.type == SDL_KEYDOWN, e.key.repeat != 0);
        break;
      case SDL_MOUSEMOTION:
        on_pointer(e.motion.x, e.motion.y, false);
        break;
      case SDL_MOUSEBUTTONDOWN:
      case SDL_MOUSEBUTTONUP:
        on_button(e.button.button, e.type == SDL_MOUSEBUTTONDOWN, e.button.x, e.button.y);
        break;
      case SDL_MOUSEWHEEL:
        on_wheel(e.wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -e.wheel.y : e.wheel.y,
                 e.wheel.mouseX, e.wheel.mouseY);
        break;
      case SDL_RENDER_TARGETS_RESET:
      case SDL_RENDER_DEVICE_RESET:
        sdl_->texture.reset();  // take_picture() makes and fills it again
        break;
      default:
        break;
    }
  }
  return true;
}

void HostWindow::on_key(int32_t keycode, bool pressed, bool repeat) {
  if (keycode == SDLK_F11) {
    if (pressed && !repeat) toggle_alone();
    return;
  }
  // A held key repeats as presses, as an X server sends it.
  if (const uint32_t keysym = keysym_for_sdl_keycode(keycode)) compositor_.key(keysym, pressed);
}

void HostWindow::on_pointer(int32_t window_x, int32_t window_y, bool always) {
  const PicturePoint p =
      place(sdl_->window.get(), texture_width_, texture_height_, window_x, window_y);
  // Over the black bars nothing is under the pointer, unless a drag is on.
  if (texture_width_ == 0 || (!p.inside && !always && buttons_ == 0)) return;
  compositor_.pointer(p.x, p.y, buttons_);
}

void HostWindow::on_button(uint8_t sdl_button, bool pressed, int32_t window_x, int32_t window_y) {
  const uint32_t bit = rfb_button_bit(sdl_button);
  if (bit == 0) return;
  if (pressed) {
    if (!place(sdl_->window.get(), texture_width_, texture_height_, window_x, window_y).inside)
      return;
    buttons_ |= bit;
  } else {
    if ((buttons_ & bit) == 0) return;  // its press was not sent
    buttons_ &= ~bit;
  }
  on_pointer(window_x, window_y, true);
}

void HostWindow::on_wheel(int32_t steps_up, int32_t window_x, int32_t window_y) {
  const PicturePoint p =
      place(sdl_->window.get(), texture_width_, texture_height_, window_x, window_y);
  if (!p.inside) return;
  const uint32_t bit = steps_up > 0 ? kWheelUp : kWheelDown;
  const int32_t steps = std::min(std::abs(steps_up), kMaxWheelSteps);
  // RFB sends a wheel step as a press and a release of its button.
  for (int32_t i = 0; i < steps; ++i) {
    compositor_.pointer(p.x, p.y, buttons_ | bit);
    compositor_.pointer(p.x, p.y, buttons_);
  }
}

void HostWindow::toggle_alone() {
  if (compositor_.shown_alone()) return compositor_.show_all();
  std::optional<SurfaceKey> key = compositor_.focused();
  if (!key) {
    const std::vector<TileInfo> tiles = compositor_.tiles();
    if (tiles.empty()) return;
    key = tiles.front().key;
  }
  compositor_.show_only(*key);
}

wire::Status HostWindow::take_picture() {
  const bool fresh = compositor_.wait_picture(&version_, &canvas_, &damage_, kPictureWait);
  if (canvas_.pixels.size() != size_t{canvas_.width} * canvas_.height) {
    return wire::make_error(wire::Errc::kBadLength,
                            "host window: canvas pixels do not match its size");
  }
  // Lost with a render device reset, or never made yet.
  const bool lost = !sdl_->texture && !canvas_.pixels.empty();
  const bool resized = canvas_.width != texture_width_ || canvas_.height != texture_height_;
  if (lost || resized) {
    WIRE_TRY(make_texture());
    damage_.assign(
        1, Rect{0, 0, static_cast<int32_t>(canvas_.width), static_cast<int32_t>(canvas_.height)});
  } else if (!fresh) {
    return {};
  }
  upload(damage_);
  redraw_ = true;
  return {};
}

wire::Status HostWindow::make_texture() {
  const bool resized = canvas_.width != texture_width_ || canvas_.height != texture_height_;
  sdl_->texture.reset();
  texture_width_ = canvas_.width;
  texture_height_ = canvas_.height;
  if (canvas_.width == 0 || canvas_.height == 0) return {};
  // RGB888 is SDL's name for 32-bit 0x00RRGGBB words, the canvas's pixels.
  sdl_->texture.reset(
      SDL_CreateTexture(sdl_->renderer.get(), SDL_PIXELFORMAT_RGB888, SDL_TEXTUREACCESS_STREAMING,
                        static_cast<int>(canvas_.width), static_cast<int>(canvas_.height)));
  if (!sdl_->texture) {
    texture_width_ = texture_height_ = 0;
    return sdl_error("cannot make a " + std::to_string(canvas_.width) + "x" +
                     std::to_string(canvas_.height) + " texture");
  }
  if (resized) fit_window_to_canvas();
  return {};
}

void HostWindow::upload(const std::vector<Rect>& damage) {
  if (!sdl_->texture) return;
  const int pitch = static_cast<int>(canvas_.width * sizeof(uint32_t));
  for (const Rect& r : damage) {
    const SDL_Rect area = clip(r, canvas_.width, canvas_.height);
    if (area.w == 0 || area.h == 0) continue;
    const uint32_t* first = canvas_.pixels.data() +
                            size_t{static_cast<uint32_t>(area.y)} * canvas_.width +
                            static_cast<uint32_t>(area.x);
    SDL_UpdateTexture(sdl_->texture.get(), &area, first, pitch);
  }
}

// The window takes the canvas size, scaled down when the screen is smaller;
// a maximized or full-screen window keeps the size the user chose.
void HostWindow::fit_window_to_canvas() {
  SDL_Window* window = sdl_->window.get();
  if (SDL_GetWindowFlags(window) & (SDL_WINDOW_MAXIMIZED | SDL_WINDOW_FULLSCREEN)) return;
  int width = static_cast<int>(canvas_.width), height = static_cast<int>(canvas_.height);
  SDL_Rect usable{};
  if (SDL_GetDisplayUsableBounds(SDL_GetWindowDisplayIndex(window), &usable) == 0 && usable.w > 0 &&
      usable.h > 0 && (width > usable.w || height > usable.h)) {
    const Rect fit = letterbox(canvas_.width, canvas_.height, usable.w, usable.h);
    width = fit.width;
    height = fit.height;
  }
  SDL_SetWindowSize(window, width, height);
}

void HostWindow::update_title() {
  std::string title = "Conduit";
  if (const std::optional<SurfaceKey> key = compositor_.focused()) {
    for (const TileInfo& tile : compositor_.tiles()) {
      if (tile.key == *key) title = title_for(tile);
    }
  }
  if (title == title_) return;
  title_ = std::move(title);
  SDL_SetWindowTitle(sdl_->window.get(), title_.c_str());
}

void HostWindow::present() {
  SDL_Renderer* renderer = sdl_->renderer.get();
  SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255);
  SDL_RenderClear(renderer);
  if (sdl_->texture) {
    int width = 0, height = 0;
    SDL_GetRendererOutputSize(renderer, &width, &height);
    const Rect view = letterbox(texture_width_, texture_height_, width, height);
    // 1:1 pixels stay exact; only a scaled picture is smoothed.
    const bool exact = view.width == static_cast<int32_t>(texture_width_) &&
                       view.height == static_cast<int32_t>(texture_height_);
    SDL_SetTextureScaleMode(sdl_->texture.get(),
                            exact ? SDL_ScaleModeNearest : SDL_ScaleModeLinear);
    const SDL_Rect dest{view.x, view.y, view.width, view.height};
    SDL_RenderCopy(renderer, sdl_->texture.get(), nullptr, &dest);
  }
  SDL_RenderPresent(renderer);
  redraw_ = false;
}

}  // namespace comp
