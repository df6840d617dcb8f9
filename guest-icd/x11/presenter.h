// Puts finished frames (BGRA8, top row first) into an X11 window or pixmap: MIT-SHM
// when the server offers it and can attach our segment, XPutImage otherwise.
//
// Presenters draw through a connection of their own (one per process, see
// presenter_connection.h), so frames can be drawn from the thread that
// receives them while the application keeps using its own connection, and X
// errors about our requests (a window that is already gone) stay ours
// instead of reaching the application's handler.
#pragma once

#include <X11/Xlib.h>
#include <X11/extensions/XShm.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "wire/control.h"
#include "wire/mapped_file.h"
#include "x11/input_injector.h"
#include "x11/presenter_connection.h"

namespace icd {

class Presenter {
 public:
  // `display_name`: DisplayString() of the application's connection;
  // `window` may also be a pixmap.
  Presenter(const std::string& display_name, Window window);
  ~Presenter();
  Presenter(const Presenter&) = delete;
  Presenter& operator=(const Presenter&) = delete;

  // False when the server or the window could not be reached.
  bool ok() const { return display_ != nullptr && gc_ != nullptr; }

  // Current window size; false when the window does not exist.
  bool window_size(int* width, int* height);
  // The window's size as last heard from the server, without a round trip:
  // size changes already on the connection are read first, unless a frame
  // is being put (which reads them after). For swaps, which must not wait
  // on the presenting thread.
  void followed_size(int* width, int* height);

  // Draws `width` x `height` pixels at the window's origin; false when the
  // window is gone or the server refused the image.
  bool present(const std::byte* pixels, int width, int height, int stride);
  // A frame from the host; false also when its pixels do not fit its own
  // description (then nothing is shown). Pixels inside `file` are handed to
  // the server where they lie, when it can map the file; copied otherwise.
  bool present(const wire::Frame& frame, std::span<const std::byte> pixels, const wire::MappedFile& file = {});

  // A host viewer's event for this window; false when it could not be sent.
  bool send_input(const wire::Input& input);

  bool using_shm() const { return use_shm_; }
  // Whether the last frame was put from where it lay, without a copy.
  bool put_in_place() const { return put_in_place_; }
  // A presenter for `drawable`, which the program has just named on its own
  // connection `app`: the program's requests reach the server first, so the
  // drawable exists for ours.
  static std::unique_ptr<Presenter> open(::Display* app, Drawable drawable);
  // Whether the window or pixmap exists, even one this presenter cannot draw
  // into (a pixmap of a depth no TrueColor visual has), and its depth.
  bool found() const { return found_; }
  int depth() const { return depth_; }

 private:
  bool find_visual();
  // Takes this window's size changes off the connection; lock held.
  void take_size_changes();
  bool ensure_image(int width, int height);
  bool make_shm_image(int width, int height);
  void drop_image();
  // The in-place path: the server maps `file` once and reads frames from it.
  bool present_in_place(const wire::Frame& frame, const std::byte* pixels, const wire::MappedFile& file);
  bool attach_file(const wire::MappedFile& file);
  void detach_file();
  // Waits for the server to handle what was sent; true when it reported an error.
  bool sync_failed() { return connection_->sync_failed(); }
  std::unique_lock<std::mutex> lock() { return std::unique_lock(connection_->mutex()); }

  std::shared_ptr<PresenterConnection> connection_;
  ::Display* display_ = nullptr;  // connection_'s
  Window window_;
  GC gc_ = nullptr;
  Visual* visual_ = nullptr;
  int depth_ = 0;
  bool found_ = false;
  bool is_window_ = false;  // followed: its size changes reach followed_size()
  // Width and height as last heard, together: a swap never sees half a change.
  std::atomic<uint64_t> followed_size_{0};
  void follow_size(int width, int height) {
    followed_size_ = uint64_t{static_cast<uint32_t>(width)} << 32 | static_cast<uint32_t>(height);
  }
  // Frees an image whose pixels are not Xlib's.
  static void drop_image_struct(XImage*& image);
  bool use_shm_ = false;
  XShmSegmentInfo shm_{};
  XImage* image_ = nullptr;    // owned; its data is the shm segment or pixels_
  std::vector<char> pixels_;  // XPutImage path
  // The file the server has mapped for in-place frames, and an image that
  // points into it; in_place_ turns false for good once the server refuses.
  bool in_place_ = true;
  bool put_in_place_ = false;
  XShmSegmentInfo file_segment_{};
  XImage* file_image_ = nullptr;
  InputInjector input_;
};

}  // namespace icd
