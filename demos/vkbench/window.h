// The on-screen run's X window, through xcb (what VK_KHR_xcb_surface takes).
#pragma once

#include <xcb/xcb.h>

#include <cstdint>

namespace vkbench {

class Window {
 public:
  Window(uint32_t width, uint32_t height);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  xcb_connection_t* connection() const { return connection_; }
  xcb_window_t id() const { return window_; }

  // Drains pending events so the server's queue to us stays short.
  void poll_events();

 private:
  xcb_connection_t* connection_ = nullptr;
  xcb_window_t window_ = 0;
};

}  // namespace vkbench
