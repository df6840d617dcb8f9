// The viewer runs on one thread: it waits a little for the server's next
// message, handles it (libvncclient decodes into our pixels), takes the
// window's events, and shows what changed.
#include "comp/vnc_viewer.h"

#include <SDL.h>
#include <rfb/rfbclient.h>

#include <algorithm>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include "comp/sdl_keys.h"
#include "comp/view_fit.h"
#include "comp/vnc_server.h"
#include "wire/log_line.h"

namespace comp {
namespace {

constexpr const char* kEncodings = "tight zrle ultra copyrect hextile zlib corre rre raw";
constexpr unsigned kWaitMicroseconds = 10'000;
constexpr unsigned kConnectSeconds = 10;
constexpr int64_t kMaxPixels = int64_t{1} << 26;  // 8192 x 8192
constexpr double kFirstWindowShare = 0.9;         // of the display, at most
char g_data_tag;  // the viewer's key for rfbClientSetClientData

// libvncclient says why something failed only in its log.
thread_local std::string t_last_message;

void keep_last_message(const char* format, ...) {
  va_list args;
  va_start(args, format);
  t_last_message = wire::format_text(format, args);
  va_end(args);
}

wire::Error failure(std::string text) { return wire::make_error(wire::Errc::kIo, std::move(text)); }

wire::Error sdl_failure(const char* what) {
  return failure(std::string(what) + ": " + SDL_GetError());
}

struct SdlDeleter {
  void operator()(SDL_Window* w) const { SDL_DestroyWindow(w); }
  void operator()(SDL_Renderer* r) const { SDL_DestroyRenderer(r); }
  void operator()(SDL_Texture* t) const { SDL_DestroyTexture(t); }
};
template <typename T>
using SdlPtr = std::unique_ptr<T, SdlDeleter>;

struct ClientDeleter {
  void operator()(rfbClient* c) const { rfbClientCleanup(c); }
};

class Viewer {
 public:
  explicit Viewer(const VncViewerOptions& options) : options_(options) {}

  wire::Status connect();
  wire::Status show();

 private:
  struct SdlVideo {
    bool on = false;
    ~SdlVideo() {
      if (on) SDL_Quit();
    }
  };

  static Viewer* of(rfbClient* client) {
    return static_cast<Viewer*>(rfbClientGetClientData(client, &g_data_tag));
  }
  static rfbBool on_size(rfbClient* client);
  static void on_update(rfbClient* client, int x, int y, int w, int h);
  static char* on_password(rfbClient* client);

  wire::Status open_window();
  wire::Status make_texture();
  bool handle(const SDL_Event& e);
  void pointer_at(int32_t window_x, int32_t window_y);
  void wheel(const SDL_MouseWheelEvent& e);
  void key(SDL_Keycode sym, bool down);
  void release_keys();
  void present();

  VncViewerOptions options_;
  std::string password_;
  bool asked_password_ = false;
  std::vector<uint32_t> pixels_;  // 0x00RRGGBB: libvncclient's framebuffer
  int width_ = 0, height_ = 0;
  bool resized_ = false;
  SDL_Rect dirty_{};
  bool redraw_ = true;
  uint32_t buttons_ = 0;
  int32_t pointer_x_ = 0, pointer_y_ = 0;
  std::set<uint32_t> held_;
  std::unique_ptr<rfbClient, ClientDeleter> client_;
  // Destroyed in reverse: the texture, renderer and window before SDL_Quit.
  SdlVideo video_;
  SdlPtr<SDL_Window> window_;
  SdlPtr<SDL_Renderer> renderer_;
  SdlPtr<SDL_Texture> texture_;
};

wire::Status Viewer::connect() {
  auto where = parse_host_port(options_.address);
  if (!where) return where.error();
  if (!options_.password_file.empty()) {
    auto read = read_vnc_password_file(options_.password_file);
    if (!read) return read.error();
    password_ = std::move(*read);
  }
  rfbClientLog = keep_last_message;
  rfbClientErr = keep_last_message;
  rfbClient* client = rfbGetClient(8, 3, 4);
  if (!client) return failure("libvncclient could not start");
  client->format.redShift = 16;  // 0x00RRGGBB words, as SDL_PIXELFORMAT_RGB888
  client->format.greenShift = 8;
  client->format.blueShift = 0;
  client->appData.encodingsString = kEncodings;
  client->MallocFrameBuffer = &Viewer::on_size;
  client->GotFrameBufferUpdate = &Viewer::on_update;
  client->GetPassword = &Viewer::on_password;
  client->connectTimeout = kConnectSeconds;
  std::free(client->serverHost);
  client->serverHost = strdup(where->host.c_str());
  client->serverPort = where->port;
  rfbClientSetClientData(client, &g_data_tag, this);
  if (!rfbInitClient(client, nullptr, nullptr)) {  // frees the client when it fails
    if (asked_password_ && password_.empty()) {
      return failure(options_.address + " asks for a password: give --password-file FILE");
    }
    return failure("cannot connect to " + options_.address + ": " + t_last_message);
  }
  client_.reset(client);
  return {};
}

wire::Status Viewer::show() {
  WIRE_TRY(open_window());
  for (;;) {
    // Bytes libvncclient has buffered already are not seen by select().
    const int ready = client_->buffered > 0 ? 1 : WaitForMessage(client_.get(), kWaitMicroseconds);
    if (ready < 0 || (ready > 0 && !HandleRFBServerMessage(client_.get()))) {
      return failure(options_.address + ": the connection ended (" + t_last_message + ")");
    }
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
      if (!handle(e)) return {};
    }
    if (resized_) WIRE_TRY(make_texture());
    present();
  }
}

rfbBool Viewer::on_size(rfbClient* client) {
  Viewer* self = of(client);
  const int64_t pixels = int64_t{client->width} * client->height;
  if (client->width <= 0 || client->height <= 0 || pixels > kMaxPixels) {
    t_last_message = "the server's picture is too large";
    return FALSE;
  }
  self->pixels_.assign(static_cast<size_t>(pixels), 0);
  client->frameBuffer = reinterpret_cast<uint8_t*>(self->pixels_.data());
  self->width_ = client->width;
  self->height_ = client->height;
  self->resized_ = true;
  return TRUE;
}

void Viewer::on_update(rfbClient* client, int x, int y, int w, int h) {
  Viewer* self = of(client);
  SDL_Rect changed{x, y, w, h};
  SDL_Rect& d = self->dirty_;
  if (d.w == 0 || d.h == 0) {
    d = changed;
  } else {
    SDL_UnionRect(&d, &changed, &d);
  }
  const SDL_Rect picture{0, 0, self->width_, self->height_};
  if (!SDL_IntersectRect(&d, &picture, &d)) d = SDL_Rect{};
}

char* Viewer::on_password(rfbClient* client) {
  Viewer* self = of(client);
  self->asked_password_ = true;
  // libvncclient frees it, unless it is empty: then there is none to give.
  return self->password_.empty() ? nullptr : strdup(self->password_.c_str());
}

wire::Status Viewer::open_window() {
  SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear");
  if (SDL_Init(SDL_INIT_VIDEO) != 0) return sdl_failure("SDL");
  video_.on = true;
  int w = width_, h = height_;
  SDL_Rect usable;
  if (SDL_GetDisplayUsableBounds(0, &usable) == 0) {
    const auto room_w = static_cast<int32_t>(usable.w * kFirstWindowShare);
    const auto room_h = static_cast<int32_t>(usable.h * kFirstWindowShare);
    if (w > room_w || h > room_h) {
      const Rect fit = letterbox(width_, height_, room_w, room_h);
      w = std::max(fit.width, 1);
      h = std::max(fit.height, 1);
    }
  }
  const std::string title = std::string(client_->desktopName ? client_->desktopName : "VNC") + " - " +
                            options_.address;
  window_.reset(SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
                                 SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI));
  if (!window_) return sdl_failure("window");
  renderer_.reset(SDL_CreateRenderer(window_.get(), -1, 0));
  if (!renderer_) return sdl_failure("renderer");
  return make_texture();
}

wire::Status Viewer::make_texture() {
  texture_.reset(SDL_CreateTexture(renderer_.get(), SDL_PIXELFORMAT_RGB888, SDL_TEXTUREACCESS_STREAMING,
                                   width_, height_));
  if (!texture_) return sdl_failure("texture");
  resized_ = false;
  dirty_ = SDL_Rect{0, 0, width_, height_};
  return {};
}

bool Viewer::handle(const SDL_Event& e) {
  switch (e.type) {
    case SDL_QUIT:
      return false;
    case SDL_WINDOWEVENT:
      if (e.window.event == SDL_WINDOWEVENT_CLOSE) return false;
      if (e.window.event == SDL_WINDOWEVENT_FOCUS_LOST) release_keys();
      redraw_ = true;
      break;
    case SDL_MOUSEMOTION:
      pointer_at(e.motion.x, e.motion.y);
      break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
      if (e.type == SDL_MOUSEBUTTONDOWN) {
        buttons_ |= rfb_button_bit(e.button.button);
      } else {
        buttons_ &= ~rfb_button_bit(e.button.button);
      }
      pointer_at(e.button.x, e.button.y);
      break;
    case SDL_MOUSEWHEEL:
      wheel(e.wheel);
      break;
    case SDL_KEYDOWN:
    case SDL_KEYUP:
      key(e.key.keysym.sym, e.type == SDL_KEYDOWN);
      break;
    default:
      break;
  }
  return true;
}

void Viewer::pointer_at(int32_t window_x, int32_t window_y) {
  int w = 0, h = 0;
  SDL_GetWindowSize(window_.get(), &w, &h);
  const PicturePoint p = to_picture(letterbox(width_, height_, w, h), width_, height_, window_x, window_y);
  pointer_x_ = p.x;
  pointer_y_ = p.y;
  SendPointerEvent(client_.get(), pointer_x_, pointer_y_, static_cast<int>(buttons_));
}

// RFB has no wheel: buttons 4 and 5 (up, down) and 6 and 7 (left, right)
// are pressed and released.
void Viewer::wheel(const SDL_MouseWheelEvent& e) {
  const int flip = e.direction == SDL_MOUSEWHEEL_FLIPPED ? -1 : 1;
  const int dx = e.x * flip, dy = e.y * flip;
  const auto click = [&](uint32_t bit) {
    SendPointerEvent(client_.get(), pointer_x_, pointer_y_, static_cast<int>(buttons_ | bit));
    SendPointerEvent(client_.get(), pointer_x_, pointer_y_, static_cast<int>(buttons_));
  };
  if (dy > 0) click(kWheelUp);
  if (dy < 0) click(kWheelDown);
  if (dx < 0) click(kWheelLeft);
  if (dx > 0) click(kWheelRight);
}

void Viewer::key(SDL_Keycode sym, bool down) {
  const uint32_t keysym = keysym_for_sdl_keycode(sym);
  if (keysym == 0) return;
  if (down) {
    held_.insert(keysym);
  } else {
    held_.erase(keysym);
  }
  SendKeyEvent(client_.get(), keysym, down ? TRUE : FALSE);
}

// Keys held while the window loses the keyboard would stay down remotely.
void Viewer::release_keys() {
  for (uint32_t keysym : held_) SendKeyEvent(client_.get(), keysym, FALSE);
  held_.clear();
}

void Viewer::present() {
  if (dirty_.w > 0 && dirty_.h > 0) {
    const uint32_t* first = pixels_.data() + size_t(dirty_.y) * width_ + dirty_.x;
    SDL_UpdateTexture(texture_.get(), &dirty_, first, width_ * 4);
    dirty_ = SDL_Rect{};
    redraw_ = true;
  }
  if (!redraw_) return;
  int w = 0, h = 0;
  SDL_GetRendererOutputSize(renderer_.get(), &w, &h);
  const Rect fit = letterbox(width_, height_, w, h);
  const SDL_Rect to{fit.x, fit.y, fit.width, fit.height};
  SDL_SetRenderDrawColor(renderer_.get(), 0, 0, 0, 255);
  SDL_RenderClear(renderer_.get());
  SDL_RenderCopy(renderer_.get(), texture_.get(), nullptr, &to);
  SDL_RenderPresent(renderer_.get());
  redraw_ = false;
}

}  // namespace

wire::Status run_vnc_viewer(const VncViewerOptions& options) {
  std::signal(SIGPIPE, SIG_IGN);  // a server that vanished is an error value, not a signal
  Viewer viewer(options);
  WIRE_TRY(viewer.connect());
  return viewer.show();
}

}  // namespace comp
