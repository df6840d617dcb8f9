// last-frame OUT.ppm: keeps what the next top-level window to appear on the
// X display last showed, and writes it as a PPM once the window goes.
// Programs such as vkcube --c N draw a known frame last and then exit,
// taking their window with it: with the Composite extension each window's
// contents live in a pixmap of their own, which outlasts the window once
// named. Prints "ready" when it watches; exits 0 when it wrote the picture.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xcomposite.h>

#include <cstdio>
#include <memory>

namespace {

struct Watched {
  Window window = 0;
  Pixmap contents = 0;  // named when mapped or resized, kept after the window goes
  int width = 0, height = 0;
};

void name_contents(Display* dpy, Watched& w, int width, int height) {
  if (w.contents) XFreePixmap(dpy, w.contents);
  w.contents = XCompositeNameWindowPixmap(dpy, w.window);
  w.width = width;
  w.height = height;
}

bool write_ppm(Display* dpy, const Watched& w, const char* path) {
  XImage* img = XGetImage(dpy, w.contents, 0, 0, w.width, w.height, AllPlanes, ZPixmap);
  if (!img) return false;
  std::unique_ptr<FILE, int (*)(FILE*)> out(std::fopen(path, "wb"), std::fclose);
  if (!out) return false;
  std::fprintf(out.get(), "P6\n%d %d\n255\n", w.width, w.height);
  for (int y = 0; y < w.height; ++y)
    for (int x = 0; x < w.width; ++x) {
      const unsigned long p = XGetPixel(img, x, y);
      // A pixmap's image has no visual, so no channel masks: depth 24 is xRGB.
      const unsigned char rgb[3] = {static_cast<unsigned char>(p >> 16), static_cast<unsigned char>(p >> 8),
                                    static_cast<unsigned char>(p)};
      std::fwrite(rgb, 1, 3, out.get());
    }
  XDestroyImage(img);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: last-frame OUT.ppm\n");
    return 2;
  }
  Display* dpy = XOpenDisplay(nullptr);
  int event_base = 0, error_base = 0;
  if (!dpy || !XCompositeQueryExtension(dpy, &event_base, &error_base)) {
    std::fprintf(stderr, "last-frame: no X display with the Composite extension\n");
    return 1;
  }
  const Window root = DefaultRootWindow(dpy);
  XCompositeRedirectSubwindows(dpy, root, CompositeRedirectAutomatic);
  XSelectInput(dpy, root, SubstructureNotifyMask);
  XSync(dpy, False);
  std::printf("ready\n");
  std::fflush(stdout);
  Watched w;
  for (;;) {
    XEvent ev;
    XNextEvent(dpy, &ev);
    if (ev.type == MapNotify && !w.window && !ev.xmap.override_redirect) {
      XWindowAttributes a;
      w.window = ev.xmap.window;
      if (XGetWindowAttributes(dpy, w.window, &a)) name_contents(dpy, w, a.width, a.height);
    } else if (ev.type == ConfigureNotify && ev.xconfigure.window == w.window &&
               (ev.xconfigure.width != w.width || ev.xconfigure.height != w.height)) {
      name_contents(dpy, w, ev.xconfigure.width, ev.xconfigure.height);
    } else if ((ev.type == UnmapNotify && ev.xunmap.window == w.window) ||
               (ev.type == DestroyNotify && ev.xdestroywindow.window == w.window)) {
      return w.contents && write_ppm(dpy, w, argv[1]) ? 0 : 1;
    }
  }
}
