// Window and pixmap surfaces end to end: frames rendered by a real host land
// in an X window of a private Xvfb, a resized window is followed, and
// drawing reaches a pixmap surface's pixmap, or another one by eglCopyBuffers.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "../guest/host_process.h"
#include "egl/api.h"
#include "egl/objects.h"
#include "x11/presenter.h"

#include <GLES2/gl2.h>
#include <X11/Xutil.h>

namespace icd::egl {
namespace {

class Xvfb {
 public:
  Xvfb() {
    for (int n = 140; n < 200; ++n) {
      if (access(("/tmp/.X11-unix/X" + std::to_string(n)).c_str(), F_OK) == 0) continue;
      if (access(("/tmp/.X" + std::to_string(n) + "-lock").c_str(), F_OK) == 0) continue;
      name_ = ":" + std::to_string(n);
      break;
    }
    pid_ = fork();
    if (pid_ == 0) {
      execlp("Xvfb", "Xvfb", name_.c_str(), "-screen", "0", "640x480x24", "-nolisten", "tcp",
             static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 100 && !display_; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      display_ = XOpenDisplay(name_.c_str());
    }
  }
  ~Xvfb() {
    if (display_) XCloseDisplay(display_);
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  ::Display* display() const { return display_; }

 private:
  std::string name_;
  pid_t pid_ = -1;
  ::Display* display_ = nullptr;
};

// One host and one X server for the whole binary: the guest library keeps
// one connection per process.
// Both stop when the binary exits.
struct World {
  World() { setenv("CONDUIT_HOST", host.address().c_str(), 1); }
  guesttest::HostProcess host;
  Xvfb x;
};

World& world() {
  static World w;
  return w;
}

template <typename F>
F gl(const char* name) {
  return reinterpret_cast<F>(icd::gl_proc_address(name));
}

// The window's pixel at (x, y) as 0xRRGGBB, read through our test connection.
unsigned long pixel_at(::Display* d, Window w, int x, int y) {
  XImage* img = XGetImage(d, w, x, y, 1, 1, AllPlanes, ZPixmap);
  if (!img) return 0xdeadbeef;
  unsigned long p = XGetPixel(img, 0, 0) & 0xffffff;
  XDestroyImage(img);
  return p;
}

// Swaps until the window shows `rgb` at (x, y); frames arrive asynchronously.
bool shows(::Display* d, Window w, EGLDisplay dpy, EGLSurface s, int x, int y, unsigned long rgb) {
  auto clear = gl<void (*)(GLbitfield)>("glClear");
  for (int i = 0; i < 50; ++i) {
    clear(GL_COLOR_BUFFER_BIT);
    if (!SwapBuffers(dpy, s)) return false;
    if (pixel_at(d, w, x, y) == rgb) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(WindowSurface, FramesReachTheWindowAndResizesAreFollowed) {
  ASSERT_TRUE(world().host.ok()) << world().host.error();
  Xvfb& x = world().x;
  ASSERT_NE(x.display(), nullptr) << "Xvfb did not start";

  EGLDisplay dpy = get_platform_display(EGL_PLATFORM_X11_KHR, x.display(), nullptr);
  ASSERT_TRUE(Initialize(dpy, nullptr, nullptr)) << std::hex << GetError();
  const EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_WINDOW_BIT,
                         EGL_RED_SIZE, 8, EGL_NONE};
  EGLConfig cfg = nullptr;
  EGLint n = 0;
  ASSERT_TRUE(ChooseConfig(dpy, want, &cfg, 1, &n));
  ASSERT_EQ(n, 1);
  EGLint visual_id = 0;
  ASSERT_TRUE(GetConfigAttrib(dpy, cfg, EGL_NATIVE_VISUAL_ID, &visual_id));
  XVisualInfo templ{};
  templ.visualid = static_cast<VisualID>(visual_id);
  int count = 0;
  XVisualInfo* vi = XGetVisualInfo(x.display(), VisualIDMask, &templ, &count);
  ASSERT_NE(vi, nullptr) << "the config's visual is not one of the screen's";
  XSetWindowAttributes attrs{};
  Window root = DefaultRootWindow(x.display());
  attrs.colormap = XCreateColormap(x.display(), root, vi->visual, AllocNone);
  Window win = XCreateWindow(x.display(), root, 0, 0, 120, 90, 0, vi->depth, InputOutput, vi->visual,
                             CWColormap, &attrs);
  XFree(vi);
  XMapWindow(x.display(), win);
  XSync(x.display(), False);

  EGLSurface surf = CreateWindowSurface(dpy, cfg, win, nullptr);
  ASSERT_NE(surf, EGL_NO_SURFACE) << std::hex << GetError();
  EXPECT_EQ(CreateWindowSurface(dpy, cfg, win, nullptr), EGL_NO_SURFACE);  // one surface per window
  EXPECT_EQ(GetError(), EGL_BAD_ALLOC);
  const EGLint es2[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext ctx = CreateContext(dpy, cfg, EGL_NO_CONTEXT, es2);
  ASSERT_NE(ctx, EGL_NO_CONTEXT);
  ASSERT_TRUE(MakeCurrent(dpy, surf, surf, ctx));

  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(1.0f, 0.0f, 0.0f, 1.0f);
  EXPECT_TRUE(shows(x.display(), win, dpy, surf, 60, 45, 0xff0000));

  // Grow the window: the surface follows after the next swap and frames
  // cover the new area.
  XResizeWindow(x.display(), win, 200, 150);
  XSync(x.display(), False);
  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0.0f, 0.0f, 1.0f, 1.0f);
  EXPECT_TRUE(SwapBuffers(dpy, surf));
  EGLint w = 0, h = 0;
  QuerySurface(dpy, surf, EGL_WIDTH, &w);
  QuerySurface(dpy, surf, EGL_HEIGHT, &h);
  EXPECT_EQ(w, 200);
  EXPECT_EQ(h, 150);
  gl<void (*)(GLint, GLint, GLsizei, GLsizei)>("glViewport")(0, 0, 200, 150);
  EXPECT_TRUE(shows(x.display(), win, dpy, surf, 190, 140, 0x0000ff));

  auto conn = Connection::shared();
  EXPECT_GT(conn->stats().frames, 0u);
  MakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  DestroyContext(dpy, ctx);
  DestroySurface(dpy, surf);
  Terminate(dpy);
}

// A pixmap surface is single-buffered: what the context drew is in the
// pixmap once it finishes. eglCopyBuffers copies a surface into a pixmap.
TEST(PixmapSurface, DrawingReachesThePixmapAndCopiesReachAnother) {
  ASSERT_TRUE(world().host.ok()) << world().host.error();
  ::Display* xd = world().x.display();
  ASSERT_NE(xd, nullptr) << "Xvfb did not start";
  EGLDisplay dpy = get_platform_display(EGL_PLATFORM_X11_KHR, xd, nullptr);
  ASSERT_TRUE(Initialize(dpy, nullptr, nullptr)) << std::hex << GetError();
  const EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PIXMAP_BIT,
                         EGL_RED_SIZE, 8, EGL_ALPHA_SIZE, 0, EGL_NONE};
  EGLConfig cfg = nullptr;
  EGLint n = 0;
  ASSERT_TRUE(ChooseConfig(dpy, want, &cfg, 1, &n));
  ASSERT_EQ(n, 1);
  const int depth = DefaultDepth(xd, DefaultScreen(xd));
  Window root = DefaultRootWindow(xd);
  Pixmap drawn = XCreatePixmap(xd, root, 40, 30, static_cast<unsigned>(depth));
  Pixmap copy = XCreatePixmap(xd, root, 40, 30, static_cast<unsigned>(depth));
  Pixmap shallow = XCreatePixmap(xd, root, 40, 30, 1);
  XSync(xd, False);

  // Configs chosen for a pixmap are those of its depth.
  auto matching = [&](Pixmap p) {
    const EGLint match[] = {EGL_MATCH_NATIVE_PIXMAP, static_cast<EGLint>(p), EGL_NONE};
    EGLint count = -1;
    EXPECT_TRUE(ChooseConfig(dpy, match, nullptr, 0, &count));
    return count;
  };
  EXPECT_GT(matching(drawn), 0);
  EXPECT_EQ(matching(shallow), 0);

  EGLSurface surf = CreatePixmapSurface(dpy, cfg, drawn, nullptr);
  ASSERT_NE(surf, EGL_NO_SURFACE) << std::hex << GetError();
  EGLint w = 0;
  QuerySurface(dpy, surf, EGL_WIDTH, &w);
  EXPECT_EQ(w, 40);
  EXPECT_EQ(CreatePixmapSurface(dpy, cfg, shallow, nullptr), EGL_NO_SURFACE);  // depth 1 is not the config's
  EXPECT_EQ(GetError(), EGL_BAD_MATCH);
  const EGLint es2[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext ctx = CreateContext(dpy, cfg, EGL_NO_CONTEXT, es2);
  ASSERT_TRUE(MakeCurrent(dpy, surf, surf, ctx));

  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0.0f, 1.0f, 0.0f, 1.0f);
  gl<void (*)(GLbitfield)>("glClear")(GL_COLOR_BUFFER_BIT);
  gl<void (*)()>("glFinish")();
  EXPECT_EQ(pixel_at(xd, drawn, 20, 15), 0x00ff00u);

  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0.0f, 0.0f, 1.0f, 1.0f);
  gl<void (*)(GLbitfield)>("glClear")(GL_COLOR_BUFFER_BIT);
  ASSERT_TRUE(CopyBuffers(dpy, surf, copy)) << std::hex << GetError();
  EXPECT_EQ(pixel_at(xd, copy, 5, 25), 0x0000ffu);
  EXPECT_FALSE(CopyBuffers(dpy, surf, shallow));
  EXPECT_EQ(GetError(), EGL_BAD_MATCH);

  MakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  DestroyContext(dpy, ctx);
  DestroySurface(dpy, surf);
  XFreePixmap(xd, drawn);
  XFreePixmap(xd, copy);
  XFreePixmap(xd, shallow);
  Terminate(dpy);
}

// A frame of `rgb` in a file mapping at `offset`, as the host's heap holds one.
struct SharedFrame {
  SharedFrame(int width, int height, size_t offset, uint32_t bgra) : size(offset + size_t(width) * height * 4) {
    fd = memfd_create("frame", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, static_cast<off_t>(size)) != 0) return;
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) return;
    base = static_cast<std::byte*>(p);
    auto* px = reinterpret_cast<uint32_t*>(base + offset);
    for (size_t i = 0; i < size_t(width) * height; ++i) px[i] = bgra;
    frame = wire::Frame{1, 1, uint32_t(width), uint32_t(height), uint32_t(width) * 4};
    pixels = {base + offset, size_t(width) * height * 4};
  }
  ~SharedFrame() {
    if (base) munmap(base, size);
    if (fd >= 0) close(fd);
  }
  wire::MappedFile file() const { return {fd, base, size}; }
  size_t size;
  int fd = -1;
  std::byte* base = nullptr;
  wire::Frame frame{};
  std::span<const std::byte> pixels;
};

Window plain_window(::Display* d, int width, int height) {
  Window w = XCreateSimpleWindow(d, DefaultRootWindow(d), 0, 0, width, height, 0, 0, 0);
  XMapWindow(d, w);
  XSync(d, False);
  return w;
}

// On the machine of the X server, frames in the host's heap are handed to
// the server where they lie; a file it cannot map is copied as before.
TEST(Presenter, FramesInASharedFileArePutWhereTheyLie) {
  ::Display* d = world().x.display();
  ASSERT_NE(d, nullptr) << "Xvfb did not start";
  Window win = plain_window(d, 64, 48);
  auto presenter = Presenter::open(d, win);
  ASSERT_TRUE(presenter->ok());
  ASSERT_TRUE(presenter->using_shm());

  SharedFrame green(64, 48, 4096 + 64, 0xff00ff00);
  ASSERT_NE(green.base, nullptr);
  ASSERT_TRUE(presenter->present(green.frame, green.pixels, green.file()));
  EXPECT_TRUE(presenter->put_in_place());
  EXPECT_EQ(pixel_at(d, win, 63, 47), 0x00ff00u);

  // A pipe cannot be mapped: the server refuses it and the frame is copied.
  SharedFrame blue(64, 48, 0, 0xff0000ff);
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  auto unmappable = Presenter::open(d, win);
  ASSERT_TRUE(unmappable->present(blue.frame, blue.pixels, {pipe_fds[0], blue.base, blue.size}));
  EXPECT_FALSE(unmappable->put_in_place());
  EXPECT_EQ(pixel_at(d, win, 10, 10), 0x0000ffu);
  close(pipe_fds[0]);
  close(pipe_fds[1]);

  // Pixels outside the file are never named to the server by offset.
  std::vector<std::byte> elsewhere(64 * 48 * 4, std::byte{0xff});
  ASSERT_TRUE(presenter->present(green.frame, elsewhere, green.file()));
  EXPECT_FALSE(presenter->put_in_place());
  EXPECT_EQ(pixel_at(d, win, 5, 5), 0xffffffu);
  unmappable.reset();
  presenter.reset();
  XDestroyWindow(d, win);
  XSync(d, False);
}

// Swaps learn of a resize from the server's events, without a round trip
// of their own.
TEST(Presenter, SizeChangesAreHeardWithoutAskingTheServer) {
  ::Display* d = world().x.display();
  ASSERT_NE(d, nullptr) << "Xvfb did not start";
  Window win = plain_window(d, 64, 48);
  auto presenter = Presenter::open(d, win);
  ASSERT_TRUE(presenter->ok());
  int w = 0, h = 0;
  presenter->followed_size(&w, &h);
  EXPECT_EQ(w, 64);
  EXPECT_EQ(h, 48);
  XResizeWindow(d, win, 100, 70);
  XSync(d, False);
  for (int i = 0; i < 100 && (w != 100 || h != 70); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    presenter->followed_size(&w, &h);
  }
  EXPECT_EQ(w, 100);
  EXPECT_EQ(h, 70);
  // Heard after a frame is put too, which reads the events it finds.
  XResizeWindow(d, win, 80, 60);
  XSync(d, False);
  SharedFrame red(80, 60, 0, 0xffff0000);
  for (int i = 0; i < 100 && (w != 80 || h != 60); ++i) {
    ASSERT_TRUE(presenter->present(red.frame, red.pixels, red.file()));
    presenter->followed_size(&w, &h);
  }
  EXPECT_EQ(w, 80);
  EXPECT_EQ(h, 60);
  presenter.reset();
  XDestroyWindow(d, win);
  XSync(d, False);
}

}  // namespace
}  // namespace icd::egl
