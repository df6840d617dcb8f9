// window-churn glx|egl COUNT: makes COUNT windows in turn, each drawn once
// (GLX: bound with glXMakeCurrent; EGL: a window surface), then destroys it,
// as test runners and trace replayers do. Exits 0 when every window was
// drawn.
#include <EGL/egl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using ClearColor = void (*)(float, float, float, float);
using Clear = void (*)(unsigned);

Window make_window(Display* dpy, Visual* visual, int depth) {
  XSetWindowAttributes swa{};
  swa.colormap = XCreateColormap(dpy, DefaultRootWindow(dpy), visual, AllocNone);
  Window w = XCreateWindow(dpy, DefaultRootWindow(dpy), 0, 0, 64, 64, 0, depth, InputOutput, visual,
                           CWColormap, &swa);
  XMapWindow(dpy, w);
  return w;
}

void draw(float shade) {
  auto clear_color = reinterpret_cast<ClearColor>(eglGetProcAddress("glClearColor"));
  auto clear = reinterpret_cast<Clear>(eglGetProcAddress("glClear"));
  clear_color(shade, 0.5f, 0.25f, 1.0f);
  clear(0x4000);  // GL_COLOR_BUFFER_BIT
}

bool churn_glx(Display* dpy, int count) {
  int attrs[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None};
  XVisualInfo* vi = glXChooseVisual(dpy, DefaultScreen(dpy), attrs);
  if (!vi) return false;
  GLXContext ctx = glXCreateContext(dpy, vi, nullptr, True);
  if (!ctx) return false;
  for (int i = 0; i < count; ++i) {
    Window w = make_window(dpy, vi->visual, vi->depth);
    if (!glXMakeCurrent(dpy, w, ctx)) return false;
    draw(static_cast<float>(i % 10) / 10);
    glXSwapBuffers(dpy, w);
    glXMakeCurrent(dpy, None, nullptr);
    XDestroyWindow(dpy, w);
    XSync(dpy, False);
  }
  glXDestroyContext(dpy, ctx);
  XFree(vi);
  return true;
}

bool churn_egl(Display* dpy, int count) {
  EGLDisplay egl = eglGetDisplay(reinterpret_cast<EGLNativeDisplayType>(dpy));
  if (!eglInitialize(egl, nullptr, nullptr) || !eglBindAPI(EGL_OPENGL_ES_API)) return false;
  const EGLint want[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
                         EGL_RED_SIZE,     8,             EGL_NONE};
  EGLConfig config;
  EGLint n = 0;
  if (!eglChooseConfig(egl, want, &config, 1, &n) || n < 1) return false;
  const EGLint ctx_attrs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext ctx = eglCreateContext(egl, config, EGL_NO_CONTEXT, ctx_attrs);
  EGLint visual_id = 0;
  eglGetConfigAttrib(egl, config, EGL_NATIVE_VISUAL_ID, &visual_id);
  XVisualInfo templ{};
  templ.visualid = static_cast<VisualID>(visual_id);
  int found = 0;
  XVisualInfo* vi = XGetVisualInfo(dpy, VisualIDMask, &templ, &found);
  if (!ctx || !vi) return false;
  for (int i = 0; i < count; ++i) {
    Window w = make_window(dpy, vi->visual, vi->depth);
    EGLSurface s = eglCreateWindowSurface(egl, config, w, nullptr);
    if (s == EGL_NO_SURFACE || !eglMakeCurrent(egl, s, s, ctx)) return false;
    draw(static_cast<float>(i % 10) / 10);
    eglSwapBuffers(egl, s);
    eglMakeCurrent(egl, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroySurface(egl, s);
    XDestroyWindow(dpy, w);
    XSync(dpy, False);
  }
  eglDestroyContext(egl, ctx);
  eglTerminate(egl);
  XFree(vi);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[1], "glx") != 0 && std::strcmp(argv[1], "egl") != 0)) {
    std::fprintf(stderr, "usage: window-churn glx|egl COUNT\n");
    return 2;
  }
  Display* dpy = XOpenDisplay(nullptr);
  if (!dpy) {
    std::fprintf(stderr, "window-churn: cannot open the display\n");
    return 1;
  }
  const int count = std::atoi(argv[2]);
  const bool ok = std::strcmp(argv[1], "glx") == 0 ? churn_glx(dpy, count) : churn_egl(dpy, count);
  XCloseDisplay(dpy);
  if (!ok) std::fprintf(stderr, "window-churn: drawing a window failed\n");
  return ok ? 0 : 1;
}
