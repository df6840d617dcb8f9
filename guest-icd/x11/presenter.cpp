#include "x11/presenter.h"

#include <sys/ipc.h>
#include <sys/shm.h>
#include <X11/Xutil.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace icd {
namespace {

// Xlib reports protocol errors through one process-wide handler; while we
// probe (geometry of a window that may be gone, attaching a segment to a
// remote server) we catch them instead of letting the default one exit.
std::mutex g_probe_mu;
bool g_probe_failed = false;

int record_error(::Display*, XErrorEvent*) {
  g_probe_failed = true;
  return 0;
}

class ErrorTrap {
 public:
  explicit ErrorTrap(::Display* d) : display_(d), lock_(g_probe_mu) {
    XSync(display_, False);
    g_probe_failed = false;
    previous_ = XSetErrorHandler(record_error);
  }
  ~ErrorTrap() { XSetErrorHandler(previous_); }
  // Waits for the server to process what was sent; true when it failed.
  bool failed() {
    XSync(display_, False);
    return g_probe_failed;
  }

 private:
  ::Display* display_;
  std::lock_guard<std::mutex> lock_;
  int (*previous_)(::Display*, XErrorEvent*) = nullptr;
};

bool shm_disabled_by_env() {
  const char* v = std::getenv("CONDUIT_NO_SHM");
  return v && *v && std::strcmp(v, "0") != 0;
}

}  // namespace

bool Presenter::window_size(::Display* display, Window window, int* width, int* height) {
  ErrorTrap trap(display);
  Window root;
  int x, y;
  unsigned w = 0, h = 0, border, depth;
  Status got = XGetGeometry(display, window, &root, &x, &y, &w, &h, &border, &depth);
  if (trap.failed() || !got) return false;
  *width = static_cast<int>(w);
  *height = static_cast<int>(h);
  return true;
}

Presenter::Presenter(::Display* display, Window window) : display_(display), window_(window) {
  XWindowAttributes attrs{};
  {
    ErrorTrap trap(display_);
    XGetWindowAttributes(display_, window_, &attrs);
    if (trap.failed()) return;
  }
  visual_ = attrs.visual;
  depth_ = attrs.depth;
  gc_ = XCreateGC(display_, window_, 0, nullptr);
  use_shm_ = !shm_disabled_by_env() && XShmQueryExtension(display_);
}

Presenter::~Presenter() {
  drop_image();
  if (gc_) XFreeGC(display_, gc_);
}

void Presenter::drop_image() {
  if (!image_) return;
  if (use_shm_ && shm_.shmaddr) {
    XShmDetach(display_, &shm_);
    XSync(display_, False);
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
  shm_.shmaddr = static_cast<char*>(shmat(shm_.shmid, nullptr, 0));
  // Marked for removal now, so it goes away with the last detach even if
  // the process dies.
  shmctl(shm_.shmid, IPC_RMID, nullptr);
  if (shm_.shmaddr == reinterpret_cast<char*>(-1)) {
    shm_.shmaddr = nullptr;
    return false;
  }
  shm_.readOnly = True;
  image_->data = shm_.shmaddr;
  ErrorTrap trap(display_);
  XShmAttach(display_, &shm_);
  if (trap.failed()) {
    shmdt(shm_.shmaddr);
    shm_ = {};
    return false;
  }
  return true;
}

bool Presenter::ensure_image(int width, int height) {
  if (!gc_) return false;
  if (image_ && image_->width == width && image_->height == height) return true;
  drop_image();
  if (use_shm_) {
    if (make_shm_image(width, height)) return true;
    // Remote servers cannot see our segment: fall back for good.
    if (image_) {
      image_->data = nullptr;
      XDestroyImage(image_);
      image_ = nullptr;
    }
    use_shm_ = false;
  }
  image_ = XCreateImage(display_, visual_, depth_, ZPixmap, 0, nullptr, width, height, 32, 0);
  if (!image_) return false;
  pixels_.assign(static_cast<size_t>(image_->bytes_per_line) * height, 0);
  image_->data = pixels_.data();
  return true;
}

bool Presenter::present(const std::byte* pixels, int width, int height, int stride) {
  if (width <= 0 || height <= 0 || !ensure_image(width, height)) return false;
  if (image_->bits_per_pixel != 32) return false;  // TrueColor 24/32 visuals only
  const size_t row = static_cast<size_t>(width) * 4;
  for (int y = 0; y < height; ++y)
    std::memcpy(image_->data + static_cast<size_t>(y) * image_->bytes_per_line,
                pixels + static_cast<size_t>(y) * stride, row);
  if (use_shm_)
    XShmPutImage(display_, window_, gc_, image_, 0, 0, 0, 0, width, height, False);
  else
    XPutImage(display_, window_, gc_, image_, 0, 0, 0, 0, width, height);
  // The server reads the segment asynchronously; wait so the next frame
  // cannot overwrite pixels still being copied.
  XSync(display_, False);
  return true;
}

}  // namespace icd
