#include "comp/host_window.h"

#include <SDL.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>

namespace comp {

namespace {

// Long enough not to spin, short enough that the window answers at once.
constexpr std::chrono::milliseconds kPictureWait{16};
// RFB pointer button mask bits.
constexpr uint32_t kButtonLeft = 1u << 0, kButtonMiddle = 1u << 1, kButtonRight = 1u << 2;
constexpr uint32_t kWheelUp = 1u << 3, kWheelDown = 1u << 4;
// A wheel event larger than this is a flick; the guest needs no more.
constexpr int32_t kMaxWheelSteps = 10;

struct KeyName {
  SDL_Keycode sdl;
  uint32_t keysym;
};

// Keys whose SDL keycode is no character, with their X11 keysyms (keysymdef.h).
constexpr KeyName kKeyNames[] = {
    {SDLK_RETURN, 0xff0d},      {SDLK_ESCAPE, 0xff1b},    {SDLK_BACKSPACE, 0xff08},
    {SDLK_TAB, 0xff09},         {SDLK_DELETE, 0xffff},    {SDLK_INSERT, 0xff63},
    {SDLK_HOME, 0xff50},        {SDLK_LEFT, 0xff51},      {SDLK_UP, 0xff52},
    {SDLK_RIGHT, 0xff53},       {SDLK_DOWN, 0xff54},      {SDLK_PAGEUP, 0xff55},
    {SDLK_PAGEDOWN, 0xff56},    {SDLK_END, 0xff57},       {SDLK_LSHIFT, 0xffe1},
    {SDLK_RSHIFT, 0xffe2},      {SDLK_LCTRL, 0xffe3},     {SDLK_RCTRL, 0xffe4},
    {SDLK_CAPSLOCK, 0xffe5},    {SDLK_LALT, 0xffe9},      {SDLK_RALT, 0xffea},
    {SDLK_LGUI, 0xffeb},        {SDLK_RGUI, 0xffec},      {SDLK_MODE, 0xff7e},
    {SDLK_APPLICATION, 0xff67}, {SDLK_MENU, 0xff67},      {SDLK_PRINTSCREEN, 0xff61},
    {SDLK_SCROLLLOCK, 0xff14},  {SDLK_PAUSE, 0xff13},     {SDLK_NUMLOCKCLEAR, 0xff7f},
    {SDLK_KP_ENTER, 0xff8d},    {SDLK_KP_DIVIDE, 0xffaf}, {SDLK_KP_MULTIPLY, 0xffaa},
    {SDLK_KP_MINUS, 0xffad},    {SDLK_KP_PLUS, 0xffab},   {SDLK_KP_PERIOD, 0xffae},
    {SDLK_KP_EQUALS, 0xffbd},   {SDLK_KP_0, 0xffb0},
};

// SDL numbers these keys in a row, as X11 does.
struct KeyRun {
  SDL_Keycode first, last;
  uint32_t keysym;
};
constexpr KeyRun kKeyRuns[] = {
    {SDLK_F1, SDLK_F12, 0xffbe},
    {SDLK_F13, SDLK_F24, 0xffca},
    {SDLK_KP_1, SDLK_KP_9, 0xffb1},
};

wire::Error sdl_error(const std::string& what) {
  return wire::make_error(wire::Errc::kIo, "host window: " + what + ": " + SDL_GetError());
}

uint32_t button_bit(uint8_t sdl_button) {
  switch (sdl_button) {
    case SDL_BUTTON_LEFT:
      return kButtonLeft;
    case SDL_BUTTON_MIDDLE:
      return kButtonMiddle;
    case SDL_BUTTON_RIGHT:
      return kButtonRight;
    default:
      return 0;
  }
}

// A window point on the canvas: clamped to it, and whether it was on it.
struct CanvasPoint {
  int32_t x = 0, y = 0;
  bool inside = false;
};

CanvasPoint to_canvas(Rect view, uint32_t canvas_width, uint32_t canvas_height, int32_t x,
                      int32_t y) {
  if (view.width <= 0 || view.height <= 0) return {};
  CanvasPoint p;
  p.inside = x >= view.x && y >= view.y && x < view.x + view.width && y < view.y + view.height;
  const int64_t cx = int64_t{x - view.x} * canvas_width / view.width;
  const int64_t cy = int64_t{y - view.y} * canvas_height / view.height;
  p.x = static_cast<int32_t>(std::clamp<int64_t>(cx, 0, int64_t{canvas_width} - 1));
  p.y = static_cast<int32_t>(std::clamp<int64_t>(cy, 0, int64_t{canvas_height} - 1));
  return p;
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
CanvasPoint place(SDL_Window* window, uint32_t canvas_width, uint32_t canvas_height, int32_t x,
                  int32_t y) {
  int width = 0, height = 0;
  SDL_GetWindowSize(window, &width, &height);
  return to_canvas(letterbox(canvas_width, canvas_height, width, height), canvas_width,
                   canvas_height, x, y);
}

std::string title_for(const TileInfo& tile) {
  return "Conduit - " + tile.label.program + " (" + tile.label.guest + ", pid " +
         std::to_string(tile.label.pid) + ")";
}

}  // namespace

Rect letterbox(uint32_t canvas_width, uint32_t canvas_height, int32_t area_width,
               int32_t area_height) {
  if (canvas_width == 0 || canvas_height == 0 || area_width <= 0 || area_height <= 0) return {};
  int64_t width = area_width, height = area_height;
  // Integer arithmetic, so an area of the canvas's own size maps 1:1 exactly.
  if (int64_t{area_width} * canvas_height <= int64_t{area_height} * canvas_width) {
    height = std::max<int64_t>(
        1, (int64_t{area_width} * canvas_height + canvas_width / 2) / canvas_width);
  } else {
    width = std::max<int64_t>(
        1, (int64_t{area_height} * canvas_width + canvas_height / 2) / canvas_height);
  }
  return Rect{static_cast<int32_t>((area_width - width) / 2),
              static_cast<int32_t>((area_height - height) / 2), static_cast<int32_t>(width),
              static_cast<int32_t>(height)};
}

uint32_t keysym_for_sdl_keycode(int32_t keycode) {
  for (const KeyName& k : kKeyNames) {
    if (k.sdl == keycode) return k.keysym;
  }
  for (const KeyRun& run : kKeyRuns) {
    if (keycode >= run.first && keycode <= run.last)
      return run.keysym + static_cast<uint32_t>(keycode - run.first);
  }
  if (keycode & SDLK_SCANCODE_MASK) return 0;  // a key with no character and no name above
  const auto code = static_cast<uint32_t>(keycode);
  // Latin-1 keysyms are their code points; other characters are Unicode keysyms.
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  if (code > 0xff && code <= 0x10ffff) return 0x01000000 | code;
  return 0;
}

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
  // Without a GPU (Xvfb) no accelerated renderer exists: draw in software.
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
        sdl_->texture.reset();
        break;  // made and filled again with the next picture
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
  const CanvasPoint p =
      place(sdl_->window.get(), texture_width_, texture_height_, window_x, window_y);
  // Over the black bars nothing is under the pointer, unless a drag is on.
  if (!sdl_->texture || (!p.inside && !always && buttons_ == 0)) return;
  compositor_.pointer(p.x, p.y, buttons_);
}

void HostWindow::on_button(uint8_t sdl_button, bool pressed, int32_t window_x, int32_t window_y) {
  const uint32_t bit = button_bit(sdl_button);
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
  const CanvasPoint p =
      place(sdl_->window.get(), texture_width_, texture_height_, window_x, window_y);
  if (!sdl_->texture || !p.inside) return;
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
  if (!compositor_.wait_picture(&version_, &canvas_, &damage_, kPictureWait)) return {};
  if (canvas_.pixels.size() != size_t{canvas_.width} * canvas_.height) {
    return wire::make_error(wire::Errc::kBadLength,
                            "host window: canvas pixels do not match its size");
  }
  if (!sdl_->texture || canvas_.width != texture_width_ || canvas_.height != texture_height_) {
    WIRE_TRY(make_texture());
    damage_.assign(
        1, Rect{0, 0, static_cast<int32_t>(canvas_.width), static_cast<int32_t>(canvas_.height)});
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
