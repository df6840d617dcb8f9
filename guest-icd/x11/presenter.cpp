#include "x11/presenter.h"

#include <sys/ipc.h>
#include <sys/shm.h>
#include <X11/Xlib-xcb.h>
#include <X11/Xlibint.h>
#include <X11/Xutil.h>
#include <fcntl.h>
#include <unistd.h>
#include <xcb/shm.h>

#include <cstdlib>
#include <cstring>

namespace icd {
namespace {
bool shm_disabled_by_env() {
  const char* v = std::getenv("CONDUIT_NO_SHM");
  return v && *v && std::strcmp(v, "0") != 0;
}

}  // namespace

Presenter::Presenter(const std::string& display_name, Window window) : window_(window) {
  connection_ = PresenterConnection::get(display_name);
  if (!connection_) return;
  display_ = connection_->display();
  auto held = lock();
  if (!find_visual()) return;
  gc_ = XCreateGC(display_, window_, 0, nullptr);
  use_shm_ = !shm_disabled_by_env() && XShmQueryExtension(display_);
}

// A window has a visual; a pixmap has only a depth, whose TrueColor visual
// of the screen describes its pixels.
bool Presenter::find_visual() {
  Window root;
  int x, y;
  unsigned w = 0, h = 0, border, depth = 0;
  connection_->clear_error();
  const Status got = XGetGeometry(display_, window_, &root, &x, &y, &w, &h, &border, &depth);
  if (sync_failed() || !got) return false;
  found_ = true;
  depth_ = static_cast<int>(depth);
  follow_size(static_cast<int>(w), static_cast<int>(h));
  XWindowAttributes attrs{};
  const Status is_window = XGetWindowAttributes(display_, window_, &attrs);
  if (!sync_failed() && is_window) {
    visual_ = attrs.visual;
    is_window_ = true;
    connection_->follow(window_);
    return true;
  }
  XWindowAttributes root_attrs{};
  if (!XGetWindowAttributes(display_, root, &root_attrs)) return false;
  XVisualInfo info{};
  if (!XMatchVisualInfo(display_, XScreenNumberOfScreen(root_attrs.screen), depth_, TrueColor, &info)) return false;
  visual_ = info.visual;
  return true;
}

std::unique_ptr<Presenter> Presenter::open(::Display* app, Drawable drawable) {
  XSync(app, False);
  return std::make_unique<Presenter>(DisplayString(app), static_cast<Window>(drawable));
}

Presenter::~Presenter() {
  if (!display_) return;
  auto held = lock();
  drop_image();
  detach_file();
  if (is_window_) connection_->unfollow(window_);
  if (gc_) XFreeGC(display_, gc_);
  sync_failed();  // the connection is shared: no error of ours may reach another presenter
}

bool Presenter::send_input(const wire::Input& input) {
  if (!ok()) return false;
  auto held = lock();
  connection_->clear_error();
  return input_.send(display_, window_, input) && !sync_failed();
}

bool Presenter::window_size(int* width, int* height) {
  if (!ok()) return false;
  auto held = lock();
  Window root;
  int x, y;
  unsigned w = 0, h = 0, border, depth;
  connection_->clear_error();
  const Status got = XGetGeometry(display_, window_, &root, &x, &y, &w, &h, &border, &depth);
  if (sync_failed() || !got) return false;
  *width = static_cast<int>(w);
  *height = static_cast<int>(h);
  return true;
}

void Presenter::take_size_changes() {
  XEvent event;  // maps, unmaps and the like are dropped: only the size is followed
  while (XCheckWindowEvent(display_, window_, StructureNotifyMask, &event)) {
    if (event.type != ConfigureNotify) continue;
    follow_size(event.xconfigure.width, event.xconfigure.height);
  }
}

void Presenter::followed_size(int* width, int* height) {
  if (ok() && is_window_) {
    std::unique_lock held(connection_->mutex(), std::try_to_lock);
    if (held) {
      XEventsQueued(display_, QueuedAfterReading);  // reads what arrived, never waits
      take_size_changes();
    }
  }
  const uint64_t size = followed_size_;
  *width = static_cast<int>(size >> 32);
  *height = static_cast<int>(size & 0xffffffffu);
}

void Presenter::drop_image_struct(XImage*& image) {
  if (!image) return;
  image->data = nullptr;  // not Xlib's to free
  XDestroyImage(image);
  image = nullptr;
}

void Presenter::drop_image() {
  if (!image_) return;
  if (shm_.shmaddr) {
    XShmDetach(display_, &shm_);
    sync_failed();
    shmdt(shm_.shmaddr);
    shm_ = {};
  }
  drop_image_struct(image_);
}

bool Presenter::make_shm_image(int width, int height) {
  image_ = XShmCreateImage(display_, visual_, depth_, ZPixmap, nullptr, &shm_, width, height);
  if (!image_) return false;
  const size_t bytes = static_cast<size_t>(image_->bytes_per_line) * height;
  shm_.shmid = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
  if (shm_.shmid < 0) return false;
  void* addr = shmat(shm_.shmid, nullptr, 0);
  // Marked for removal now, so it goes away with the last detach even if
  // the process dies.
  shmctl(shm_.shmid, IPC_RMID, nullptr);
  if (addr == reinterpret_cast<void*>(-1)) return false;
  shm_.shmaddr = static_cast<char*>(addr);
  shm_.readOnly = True;
  image_->data = shm_.shmaddr;
  XShmAttach(display_, &shm_);
  if (sync_failed()) {  // a server on another machine cannot see the segment
    shmdt(shm_.shmaddr);
    shm_ = {};
    return false;
  }
  return true;
}

bool Presenter::ensure_image(int width, int height) {
  if (image_ && image_->width == width && image_->height == height) return true;
  drop_image();
  if (use_shm_) {
    if (make_shm_image(width, height)) return true;
    drop_image_struct(image_);
    use_shm_ = false;  // for good: the next sizes would fail the same way
  }
  image_ = XCreateImage(display_, visual_, depth_, ZPixmap, 0, nullptr, width, height, 32, 0);
  if (!image_) return false;
  pixels_.assign(static_cast<size_t>(image_->bytes_per_line) * height, 0);
  image_->data = pixels_.data();
  return true;
}

bool Presenter::present(const wire::Frame& f, std::span<const std::byte> pixels, const wire::MappedFile& file) {
  const bool whole = f.stride / 4 >= f.width && pixels.size() >= uint64_t{f.stride} * f.height;
  if (!whole) return false;
  put_in_place_ = in_place_ && use_shm_ && file.holds(pixels) && present_in_place(f, pixels.data(), file);
  if (put_in_place_) return true;
  return present(pixels.data(), static_cast<int>(f.width), static_cast<int>(f.height), static_cast<int>(f.stride));
}

// The server maps the whole file read-only (MIT-SHM 1.2); frames are then
// put from their offset in it, with no copy on this side.
bool Presenter::attach_file(const wire::MappedFile& file) {
  if (file_segment_.shmaddr == reinterpret_cast<const char*>(file.base)) return true;
  detach_file();
  const int fd = ::fcntl(file.fd, F_DUPFD_CLOEXEC, 0);  // the request takes it
  if (fd < 0) return false;
  xcb_connection_t* xcb = XGetXCBConnection(display_);
  const uint32_t segment = xcb_generate_id(xcb);
  xcb_generic_error_t* error = xcb_request_check(xcb, xcb_shm_attach_fd_checked(xcb, segment, fd, 1));
  if (error) {
    std::free(error);
    return false;
  }
  file_segment_.shmseg = segment;
  file_segment_.shmaddr = const_cast<char*>(reinterpret_cast<const char*>(file.base));
  file_segment_.readOnly = True;
  return true;
}

void Presenter::detach_file() {
  drop_image_struct(file_image_);  // its pixels are the heap's
  if (!file_segment_.shmaddr) return;
  XShmDetach(display_, &file_segment_);
  sync_failed();
  file_segment_ = {};
}

bool Presenter::present_in_place(const wire::Frame& f, const std::byte* pixels, const wire::MappedFile& file) {
  if (!ok()) return false;
  const int width = static_cast<int>(f.width), height = static_cast<int>(f.height);
  auto held = lock();
  if (!attach_file(file)) {
    in_place_ = false;  // a server elsewhere, or one without MIT-SHM 1.2
    return false;
  }
  if (!file_image_ || file_image_->width != width || file_image_->height != height) {
    drop_image_struct(file_image_);
    file_image_ = XShmCreateImage(display_, visual_, depth_, ZPixmap, nullptr, &file_segment_, width, height);
  }
  if (!file_image_ || file_image_->bits_per_pixel != 32 || file_image_->bytes_per_line != static_cast<int>(f.stride))
    return false;
  file_image_->data = const_cast<char*>(reinterpret_cast<const char*>(pixels));
  connection_->clear_error();
  XShmPutImage(display_, window_, gc_, file_image_, 0, 0, 0, 0, width, height, False);
  // The heap's bytes are reused once this frame is released: wait for the
  // server to have read them.
  const bool failed = sync_failed();
  if (is_window_) take_size_changes();
  return !failed;
}

bool Presenter::present(const std::byte* pixels, int width, int height, int stride) {
  if (!ok() || width <= 0 || height <= 0) return false;
  auto held = lock();
  if (!ensure_image(width, height)) return false;
  if (image_->bits_per_pixel != 32) return false;  // TrueColor 24/32 visuals only
  const size_t row = static_cast<size_t>(width) * 4;
  for (int y = 0; y < height; ++y)
    std::memcpy(image_->data + static_cast<size_t>(y) * image_->bytes_per_line,
                pixels + static_cast<size_t>(y) * stride, row);
  if (use_shm_)
    XShmPutImage(display_, window_, gc_, image_, 0, 0, 0, 0, width, height, False);
  else
    XPutImage(display_, window_, gc_, image_, 0, 0, 0, 0, width, height);
  // The server reads the segment asynchronously: wait, so the next frame
  // cannot overwrite pixels still being copied.
  const bool failed = sync_failed();
  if (is_window_) take_size_changes();
  return !failed;
}

}  // namespace icd
