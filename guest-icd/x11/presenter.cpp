#include "x11/presenter.h"

#include <sys/ipc.h>
#include <sys/shm.h>
#include <X11/Xlibint.h>
#include <X11/Xutil.h>

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
  XWindowAttributes attrs{};
  const Status is_window = XGetWindowAttributes(display_, window_, &attrs);
  if (!sync_failed() && is_window) {
    visual_ = attrs.visual;
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

void Presenter::drop_image() {
  if (!image_) return;
  if (shm_.shmaddr) {
    XShmDetach(display_, &shm_);
    sync_failed();
    shmdt(shm_.shmaddr);
    shm_ = {};
  }
  image_->data = nullptr;  // not Xlib's to free
  XDestroyImage(image_);
  image_ = nullptr;
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
    if (image_) {
      image_->data = nullptr;
      XDestroyImage(image_);
      image_ = nullptr;
    }
    use_shm_ = false;  // for good: the next sizes would fail the same way
  }
  image_ = XCreateImage(display_, visual_, depth_, ZPixmap, 0, nullptr, width, height, 32, 0);
  if (!image_) return false;
  pixels_.assign(static_cast<size_t>(image_->bytes_per_line) * height, 0);
  image_->data = pixels_.data();
  return true;
}

bool Presenter::present(const wire::Frame& f, std::span<const std::byte> pixels) {
  const bool whole = f.stride / 4 >= f.width && pixels.size() >= uint64_t{f.stride} * f.height;
  return whole && present(pixels.data(), static_cast<int>(f.width), static_cast<int>(f.height),
                          static_cast<int>(f.stride));
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
  return !sync_failed();
}

}  // namespace icd
