// input_probe [--frames N] [--fps N] [--size WxH] [--log-frames] [--motion] [--moving]: an X11
// window drawn with OpenGL ES 2 through EGL that shows what it receives, for
// checking input and frame delivery through a viewer.
//
// The window (320x240 unless --size, "input-probe") is cleared to a colour that changes
// with every key or button press, shows the frame number as 24 cells of
// 8x8 pixels along its top-left edge (white 1, black 0, most significant bit
// first) and a small white square where the pointer last was. Every key and
// button event is one line on stdout:
//   key press keysym=0x61 x=10 y=20 state=0x0      (also "key release")
//   button press button=1 x=10 y=20 state=0x0      (also "button release")
//   motion x=10 y=20                                (with --motion)
//   frame N t=NS    (with --log-frames: frame N was handed to eglSwapBuffers
//                    at CLOCK_MONOTONIC time NS)
// The keysym is the key's unshifted one; state is the X modifier and button
// state. "ready window=0x... size=WxH" comes once the first frame is shown.
// --moving slides bars across the window under the counter, so that every
// part of it changes with every frame.
// It exits after N frames (--frames), on Escape, or when the window closes.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <poll.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace {

constexpr int kWidth = 320, kHeight = 240;
constexpr int kCellBits = 24, kCellSide = 8, kMarkerSide = 6;

// Background colours, none black or white so the frame cells stay readable.
constexpr float kPalette[][3] = {
    {0.125f, 0.25f, 0.5f},   {0.75f, 0.25f, 0.125f}, {0.25f, 0.625f, 0.25f},
    {0.75f, 0.625f, 0.125f}, {0.5f, 0.25f, 0.625f},  {0.125f, 0.625f, 0.625f},
};
constexpr unsigned kPaletteSize = sizeof kPalette / sizeof kPalette[0];

struct Options {
  long frames = 0;  // 0: until closed
  long fps = 60;    // 0: as fast as swaps go
  bool log_frames = false;
  bool motion = false;
  bool moving = false;
  int width = kWidth, height = kHeight;
};

struct Probe {
  Display* display = nullptr;
  Window window = 0;
  Atom delete_window = 0;
  EGLDisplay egl = EGL_NO_DISPLAY;
  EGLSurface surface = EGL_NO_SURFACE;
  int width = kWidth, height = kHeight;
  unsigned presses = 0;
  int pointer_x = -1, pointer_y = -1;
  bool done = false;
};

int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

bool parse_count(const char* text, long* out) {
  char* end = nullptr;
  const long value = text ? std::strtol(text, &end, 10) : -1;
  if (!text || *end != '\0' || value < 0) return false;
  *out = value;
  return true;
}

bool parse_size(const char* text, Options* options) {
  int w = 0, h = 0;
  char end = 0;
  if (!text || std::sscanf(text, "%dx%d%c", &w, &h, &end) != 2 || w < 200 || h < 16 || w > 8192 ||
      h > 8192) {
    return false;
  }
  options->width = w;
  options->height = h;
  return true;
}

bool parse_options(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
    if (std::strcmp(arg, "--log-frames") == 0) {
      options->log_frames = true;
    } else if (std::strcmp(arg, "--motion") == 0) {
      options->motion = true;
    } else if (std::strcmp(arg, "--moving") == 0) {
      options->moving = true;
    } else if (std::strcmp(arg, "--frames") == 0 && parse_count(next, &options->frames)) {
      ++i;
    } else if (std::strcmp(arg, "--fps") == 0 && parse_count(next, &options->fps)) {
      ++i;
    } else if (std::strcmp(arg, "--size") == 0 && parse_size(next, options)) {
      ++i;
    } else {
      return false;
    }
  }
  return true;
}

bool open_window(Probe* p, const Options& options) {
  p->width = options.width;
  p->height = options.height;
  p->display = XOpenDisplay(nullptr);
  if (!p->display) return false;
  const int screen = DefaultScreen(p->display);
  XSetWindowAttributes attributes{};
  attributes.background_pixel = BlackPixel(p->display, screen);
  attributes.event_mask = KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask |
                          PointerMotionMask | StructureNotifyMask | ExposureMask;
  p->window = XCreateWindow(p->display, RootWindow(p->display, screen), 0, 0, options.width,
                            options.height, 0,
                            CopyFromParent, InputOutput, CopyFromParent, CWBackPixel | CWEventMask,
                            &attributes);
  XStoreName(p->display, p->window, "input-probe");
  p->delete_window = XInternAtom(p->display, "WM_DELETE_WINDOW", False);
  XSetWMProtocols(p->display, p->window, &p->delete_window, 1);
  XMapWindow(p->display, p->window);
  // Input sent before the window is on screen would go nowhere.
  XEvent e;
  do {
    XWindowEvent(p->display, p->window, StructureNotifyMask, &e);
    if (e.type == ConfigureNotify) p->width = e.xconfigure.width, p->height = e.xconfigure.height;
  } while (e.type != MapNotify);
  return true;
}

bool make_context(Probe* p) {
  p->egl = eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, p->display, nullptr);
  if (p->egl == EGL_NO_DISPLAY || !eglInitialize(p->egl, nullptr, nullptr)) return false;
  const EGLint config_attribs[] = {EGL_SURFACE_TYPE,
                                   EGL_WINDOW_BIT,
                                   EGL_RENDERABLE_TYPE,
                                   EGL_OPENGL_ES2_BIT,
                                   EGL_RED_SIZE,
                                   8,
                                   EGL_GREEN_SIZE,
                                   8,
                                   EGL_BLUE_SIZE,
                                   8,
                                   EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  if (!eglChooseConfig(p->egl, config_attribs, &config, 1, &count) || count == 0) return false;
  p->surface = eglCreateWindowSurface(p->egl, config, p->window, nullptr);
  eglBindAPI(EGL_OPENGL_ES_API);
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext context = eglCreateContext(p->egl, config, EGL_NO_CONTEXT, context_attribs);
  if (p->surface == EGL_NO_SURFACE || context == EGL_NO_CONTEXT) return false;
  if (!eglMakeCurrent(p->egl, p->surface, p->surface, context)) return false;
  // Pacing is ours (--fps): a swap must not also wait for a vertical blank.
  eglSwapInterval(p->egl, 0);
  return true;
}

void print_key(const XKeyEvent& e) {
  XKeyEvent copy = e;
  const KeySym keysym = XLookupKeysym(&copy, 0);
  std::printf("key %s keysym=0x%lx x=%d y=%d state=0x%x\n",
              e.type == KeyPress ? "press" : "release", static_cast<unsigned long>(keysym), e.x,
              e.y, e.state);
  std::fflush(stdout);
}

void print_button(const XButtonEvent& e) {
  std::printf("button %s button=%u x=%d y=%d state=0x%x\n",
              e.type == ButtonPress ? "press" : "release", e.button, e.x, e.y, e.state);
  std::fflush(stdout);
}

void handle_event(Probe* p, const XEvent& e, const Options& options) {
  switch (e.type) {
    case KeyPress:
    case KeyRelease: {
      print_key(e.xkey);
      XKeyEvent copy = e.xkey;
      if (e.type == KeyPress && XLookupKeysym(&copy, 0) == XK_Escape) p->done = true;
      if (e.type == KeyPress) ++p->presses;
      break;
    }
    case ButtonPress:
    case ButtonRelease:
      print_button(e.xbutton);
      if (e.type == ButtonPress) ++p->presses;
      p->pointer_x = e.xbutton.x;
      p->pointer_y = e.xbutton.y;
      break;
    case MotionNotify:
      if (options.motion) {
        std::printf("motion x=%d y=%d\n", e.xmotion.x, e.xmotion.y);
        std::fflush(stdout);
      }
      p->pointer_x = e.xmotion.x;
      p->pointer_y = e.xmotion.y;
      break;
    case ConfigureNotify:
      p->width = e.xconfigure.width;
      p->height = e.xconfigure.height;
      break;
    case ClientMessage:
      if (static_cast<Atom>(e.xclient.data.l[0]) == p->delete_window) p->done = true;
      break;
    case DestroyNotify:
      p->done = true;
      break;
    default:
      break;
  }
}

// Handles events as they come until `deadline_ns` (CLOCK_MONOTONIC) passes.
void wait_for(Probe* p, int64_t deadline_ns, const Options& options) {
  for (;;) {
    while (!p->done && XPending(p->display) > 0) {
      XEvent e;
      XNextEvent(p->display, &e);
      handle_event(p, e, options);
    }
    const int64_t left_ns = deadline_ns - monotonic_ns();
    if (p->done || left_ns <= 0) return;
    pollfd fd{ConnectionNumber(p->display), POLLIN, 0};
    poll(&fd, 1, static_cast<int>((left_ns + 999'999) / 1'000'000));
  }
}

// A rectangle given from the window's top-left corner (GL counts from the bottom).
void fill(const Probe& p, int x, int y, int width, int height, float r, float g, float b) {
  glScissor(x, p.height - y - height, width, height);
  glClearColor(r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

// Bars sliding sideways under the frame counter: every part of the window
// changes with every frame, as in a 3D program's.
void draw_moving_bars(const Probe& p, uint32_t frame) {
  constexpr int kBar = 40, kStep = 4;
  const int shift = static_cast<int>((frame * kStep) % (2 * kBar));
  for (int x = shift - 2 * kBar; x < p.width; x += 2 * kBar) {
    const float* colour = kPalette[(p.presses + 1) % kPaletteSize];
    fill(p, x, kCellSide, kBar, p.height - kCellSide, colour[0], colour[1], colour[2]);
  }
}

void draw(const Probe& p, uint32_t frame, bool moving) {
  glViewport(0, 0, p.width, p.height);
  glDisable(GL_SCISSOR_TEST);
  const float* colour = kPalette[p.presses % kPaletteSize];
  glClearColor(colour[0], colour[1], colour[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  if (moving) draw_moving_bars(p, frame);
  for (int bit = 0; bit < kCellBits; ++bit) {
    const float level = (frame >> (kCellBits - 1 - bit)) & 1u ? 1.0f : 0.0f;
    fill(p, bit * kCellSide, 0, kCellSide, kCellSide, level, level, level);
  }
  if (p.pointer_x >= 0) {
    fill(p, p.pointer_x - kMarkerSide / 2, p.pointer_y - kMarkerSide / 2, kMarkerSide, kMarkerSide,
         1.0f, 1.0f, 1.0f);
  }
}

int run(Probe* p, const Options& options) {
  const int64_t period_ns = options.fps > 0 ? 1'000'000'000 / options.fps : 0;
  int64_t next_ns = monotonic_ns();
  for (uint32_t frame = 1; !p->done; ++frame) {
    draw(*p, frame, options.moving);
    const int64_t swap_ns = monotonic_ns();
    if (!eglSwapBuffers(p->egl, p->surface)) {
      std::fprintf(stderr, "input_probe: eglSwapBuffers failed (0x%x)\n", eglGetError());
      return 1;
    }
    if (options.log_frames)
      std::printf("frame %u t=%lld\n", frame, static_cast<long long>(swap_ns));
    if (frame == 1) std::printf("ready window=0x%lx size=%dx%d\n", p->window, p->width, p->height);
    std::fflush(stdout);
    if (options.frames > 0 && frame >= options.frames) break;
    // A late frame starts the schedule again rather than hurrying to catch up.
    next_ns = next_ns + period_ns > monotonic_ns() ? next_ns + period_ns : monotonic_ns();
    wait_for(p, next_ns, options);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, &options)) {
    std::fprintf(stderr, "usage: input_probe [--frames N] [--fps N] [--size WxH] [--log-frames] [--motion] [--moving]\n");
    return 2;
  }
  Probe probe;
  if (!open_window(&probe, options))
    return std::fprintf(stderr, "input_probe: cannot open the X display\n"), 1;
  if (!make_context(&probe)) {
    return std::fprintf(stderr, "input_probe: no OpenGL ES 2 window context (0x%x)\n",
                        eglGetError()),
           1;
  }
  return run(&probe, options);
}
