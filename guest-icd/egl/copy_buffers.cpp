// eglCopyBuffers (EGL 1.5 section 3.9.3): the current context reads the
// surface's colour buffer back (one round trip, which also flushes it) and a
// presenter puts the pixels into the program's pixmap.
#include <vector>

#include "egl/api.h"
#include "egl/error.h"
#include "egl/objects.h"
#include "gl/gl_state.h"
#include "icd/stream.h"
#include "wire/sizes.h"

namespace icd::egl {
namespace {

constexpr GLenum kRgba = 0x1908, kUnsignedByte = 0x1401, kPixelPackBuffer = 0x88EB;

template <typename Fn>
Fn gl(const char* name) {
  return reinterpret_cast<Fn>(icd::gl_proc_address(name));
}

// The current context's colour buffer, `width` x `height`, as BGRA rows top
// first. GL reads it under the program's pack state, whose layout the guest
// knows (wire::size): the program's settings stay as they are. A bound pack
// buffer is set aside for the read, which goes to client memory.
std::vector<std::byte> read_bgra(const GlState& st, int width, int height) {
  const wire::size::PixelStore& store = st.pack();
  const auto rows = wire::size::image_runs(store, 2, kRgba, kUnsignedByte, width, height, 1);
  if (rows.size() != static_cast<size_t>(height)) return {};  // a layout past any memory
  std::vector<std::byte> rgba(rows.back().offset + rows.back().bytes);
  const GLuint pack_buffer = st.bound_buffer(kPixelPackBuffer);
  auto bind = gl<void (*)(GLenum, GLuint)>("glBindBuffer");
  if (pack_buffer) bind(kPixelPackBuffer, 0);
  gl<void (*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void*)>("glReadPixels")(
      0, 0, width, height, kRgba, kUnsignedByte, rgba.data());
  if (pack_buffer) bind(kPixelPackBuffer, pack_buffer);
  const size_t row = static_cast<size_t>(width) * 4;
  std::vector<std::byte> bgra(row * static_cast<size_t>(height));
  for (size_t y = 0; y < rows.size(); ++y) {
    const std::byte* from = rgba.data() + rows[y].offset;  // GL's rows go bottom up
    std::byte* to = bgra.data() + (static_cast<size_t>(height) - 1 - y) * row;
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
  std::shared_ptr<Context> ctx;
  ::Display* x = nullptr;
  {
    std::lock_guard lock(api_mutex());
    // Only a context can read the surface back: it must be the current one's.
    DrawnSurface drawn = current_draw_surface(dpy, surface);
    if (!drawn.surface) return EGL_FALSE;
    if (drawn.context->stream().lost()) return fail(EGL_CONTEXT_LOST, EGL_FALSE);
    s = std::move(drawn.surface);
    ctx = std::move(drawn.context);
    x = drawn.display->x_display();
  }
  const auto pixmap = static_cast<Pixmap>(target);
  if (!x || !pixmap) return fail(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
  Presenter& presenter = s->copy_target(x, pixmap);
  if (!presenter.found()) return fail(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
  if (presenter.depth() != s->config().visual_depth) return fail(EGL_BAD_MATCH, EGL_FALSE);
  int width = 0, height = 0;
  if (!presenter.ok() || !presenter.window_size(&width, &height)) return fail(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
  width = std::min(width, s->width());
  height = std::min(height, s->height());
  if (width <= 0 || height <= 0) return ok();  // nothing to copy
  const std::vector<std::byte> pixels = read_bgra(ctx->stream().gl_state(), width, height);
  if (pixels.empty()) return fail(EGL_BAD_ALLOC, EGL_FALSE);
  if (!presenter.present(pixels.data(), width, height, width * 4)) return fail(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
  return ok();
}

}  // namespace icd::egl
