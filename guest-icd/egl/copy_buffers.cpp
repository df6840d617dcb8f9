// eglCopyBuffers (EGL 1.5 section 3.9.3): the current context reads the
// surface's colour buffer back (one round trip, which also flushes it) and a
// presenter puts the pixels into the program's pixmap.
#include <vector>

#include "egl/api.h"
#include "egl/error.h"
#include "egl/objects.h"
#include "icd/stream.h"

namespace icd::egl {
namespace {

constexpr GLenum kPackAlignment = 0x0D05, kRgba = 0x1908, kUnsignedByte = 0x1401;

template <typename Fn>
Fn gl(const char* name) {
  return reinterpret_cast<Fn>(icd::gl_proc_address(name));
}

// The current context's colour buffer, `width` x `height`, as BGRA rows top first.
std::vector<std::byte> read_bgra(int width, int height) {
  std::vector<std::byte> rgba(static_cast<size_t>(width) * height * 4);
  GLint alignment = 4;
  gl<void (*)(GLenum, GLint*)>("glGetIntegerv")(kPackAlignment, &alignment);
  gl<void (*)(GLenum, GLint)>("glPixelStorei")(kPackAlignment, 4);  // rows of whole pixels
  gl<void (*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void*)>("glReadPixels")(
      0, 0, width, height, kRgba, kUnsignedByte, rgba.data());
  gl<void (*)(GLenum, GLint)>("glPixelStorei")(kPackAlignment, alignment);
  std::vector<std::byte> bgra(rgba.size());
  const size_t row = static_cast<size_t>(width) * 4;
  for (int y = 0; y < height; ++y) {
    const std::byte* from = rgba.data() + (static_cast<size_t>(height - 1 - y)) * row;
    std::byte* to = bgra.data() + static_cast<size_t>(y) * row;
    for (size_t x = 0; x < row; x += 4) {
      to[x] = from[x + 2];
      to[x + 1] = from[x + 1];
      to[x + 2] = from[x];
      to[x + 3] = from[x + 3];
    }
  }
  return bgra;
}

}  // namespace

EGLBoolean CopyBuffers(EGLDisplay dpy, EGLSurface surface, EGLNativePixmapType target) {
  std::shared_ptr<Surface> s;
  ::Display* x = nullptr;
  {
    std::lock_guard lock(api_mutex());
    // Only a context can read the surface back: it must be the current one's.
    DrawnSurface drawn = current_draw_surface(dpy, surface);
    if (!drawn.surface) return EGL_FALSE;
    if (drawn.context->stream().lost()) return fail(EGL_CONTEXT_LOST, EGL_FALSE);
    s = std::move(drawn.surface);
    x = drawn.display->x_display();
  }
  const auto pixmap = static_cast<Pixmap>(target);
  if (!x || !pixmap) return fail(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
  XSync(x, False);  // the program's pixmap exists for our own connection
  Presenter presenter(DisplayString(x), pixmap);
  if (!presenter.found()) return fail(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
  if (presenter.depth() != s->config().visual_depth) return fail(EGL_BAD_MATCH, EGL_FALSE);
  int width = 0, height = 0;
  if (!presenter.ok() || !presenter.window_size(&width, &height)) return fail(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
  width = std::min(width, s->width());
  height = std::min(height, s->height());
  const std::vector<std::byte> pixels = read_bgra(width, height);
  if (!presenter.present(pixels.data(), width, height, width * 4)) return fail(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
  return ok();
}

}  // namespace icd::egl
