// Puts finished frames (BGRA8, top row first) into an X11 window: MIT-SHM
// when the server offers it and can attach our segment, XPutImage otherwise.
#pragma once

#include <X11/Xlib.h>
#include <X11/extensions/XShm.h>

#include <cstddef>
#include <vector>

namespace icd {

class Presenter {
 public:
  Presenter(::Display* display, Window window);
  ~Presenter();
  Presenter(const Presenter&) = delete;
  Presenter& operator=(const Presenter&) = delete;

  // Draws `width` x `height` pixels at the window's origin; false when the
  // window is gone or the server refused the image.
  bool present(const std::byte* pixels, int width, int height, int stride);

  bool using_shm() const { return use_shm_; }

  // Current window size; false when the window does not exist.
  static bool window_size(::Display* display, Window window, int* width, int* height);

 private:
  bool ensure_image(int width, int height);
  bool make_shm_image(int width, int height);
  void drop_image();

  ::Display* display_;
  Window window_;
  GC gc_ = nullptr;
  Visual* visual_ = nullptr;
  int depth_ = 0;
  bool use_shm_ = false;
  XShmSegmentInfo shm_{};
  XImage* image_ = nullptr;    // owned; its data is the shm segment or pixels_
  std::vector<char> pixels_;  // XPutImage path
};

}  // namespace icd
