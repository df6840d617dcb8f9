// The host window (`conduit host --window`): an SDL2 window that shows the
// compositor's picture and sends the user's keyboard and pointer back to the
// guest surfaces through it.
//
// The window takes the canvas size whenever that changes (scaled down to fit
// the screen); when the user resizes it, the picture is scaled keeping its
// shape, with black bars. At the canvas size pixels are shown 1:1, unfiltered.
//
// Keys the window keeps for itself (never forwarded to a guest):
//   F11  toggles between every surface as a tile and the focused surface
//        alone (the first tile when none has focus yet).
//
// SDL video belongs to one thread: create the window and call run() on the
// same thread, and destroy it there too.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comp/compositor.h"
#include "wire/result.h"

namespace comp {

class HostWindow {
 public:
  enum class End { kStopped, kClosed };

  // Opens the window; fails with a clear error when SDL has no display.
  static wire::Result<std::unique_ptr<HostWindow>> create(Compositor& compositor);
  ~HostWindow();
  HostWindow(const HostWindow&) = delete;
  HostWindow& operator=(const HostWindow&) = delete;

  // Shows pictures and forwards input until the user closes the window
  // (kClosed) or `stop` becomes true (kStopped, noticed within ~16 ms).
  // An error when SDL cannot hold the picture (a texture it refuses).
  wire::Result<End> run(const std::atomic<bool>& stop);

 private:
  struct Sdl;
  explicit HostWindow(Compositor& compositor, std::unique_ptr<Sdl> sdl);

  bool pump_events();  // false once the window was closed
  void on_key(int32_t keycode, bool pressed, bool repeat);
  // `always`: sent even off the picture (a button changed).
  void on_pointer(int32_t window_x, int32_t window_y, bool always);
  void on_button(uint8_t sdl_button, bool pressed, int32_t window_x, int32_t window_y);
  void on_wheel(int32_t steps_up, int32_t window_x, int32_t window_y);
  void toggle_alone();
  wire::Status take_picture();
  wire::Status make_texture();
  void upload(const std::vector<Rect>& damage);
  void fit_window_to_canvas();
  void update_title();
  void present();

  Compositor& compositor_;
  std::unique_ptr<Sdl> sdl_;
  uint64_t version_ = 0;
  Canvas canvas_;
  std::vector<Rect> damage_;
  uint32_t texture_width_ = 0, texture_height_ = 0;
  bool redraw_ = true;
  uint32_t buttons_ = 0;  // the RFB button mask the guest was last sent
  std::string title_;
};

}  // namespace comp
