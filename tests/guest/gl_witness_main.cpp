// A GL guest that keeps rendering while other guests attack its host:
// clears its 16x16 surface to a new colour, again and again, and reads each
// frame back. Runs until its standard input closes; exits 0 when every frame
// was right, 1 when it could not start, 2 at the first wrong frame.
//   usage: CONDUIT_HOST=ADDRESS guest-gl-witness <PIPE
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>

#include "egl/api.h"
#include "icd/stream.h"
#include "wire/gl_types.h"

namespace {

using namespace icd::egl;

template <typename Fn>
Fn gl(const char* name) {
  return reinterpret_cast<Fn>(icd::gl_proc_address(name));
}

bool told_to_stop() {
  pollfd in{STDIN_FILENO, POLLIN, 0};
  return poll(&in, 1, 0) > 0;  // data or end of file: either ends the run
}

bool make_current() {
  EGLDisplay dpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  if (!Initialize(dpy, nullptr, nullptr) || !BindAPI(EGL_OPENGL_ES_API)) return false;
  const EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint n = 0;
  if (!ChooseConfig(dpy, want, &config, 1, &n) || n != 1) return false;
  const EGLint size[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
  EGLSurface surface = CreatePbufferSurface(dpy, config, size);
  const EGLint version[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext context = CreateContext(dpy, config, EGL_NO_CONTEXT, version);
  return MakeCurrent(dpy, surface, surface, context);
}

}  // namespace

int main() {
  if (!make_current()) return 1;
  constexpr GLenum kColorBufferBit = 0x4000, kRgba = 0x1908, kUbyte = 0x1401;
  auto clear_color = gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor");
  auto clear = gl<void (*)(GLbitfield)>("glClear");
  auto read = gl<void (*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void*)>("glReadPixels");
  int frames = 0;
  for (uint32_t round = 0; !told_to_stop(); ++round, ++frames) {
    const uint8_t level = round % 2 ? 255 : 0;
    const uint8_t step = static_cast<uint8_t>(round * 17);
    clear_color(level / 255.0f, step / 255.0f, 0.0f, 1.0f);
    clear(kColorBufferBit);
    uint8_t pixels[16 * 16 * 4];
    read(0, 0, 16, 16, kRgba, kUbyte, pixels);
    for (int i = 0; i < 16 * 16; ++i) {
      const uint8_t* p = pixels + i * 4;
      if (p[0] != level || p[1] != step || p[2] != 0 || p[3] != 255) {
        std::fprintf(stderr, "gl witness: frame %d pixel %d is %u,%u,%u,%u\n", frames, i, p[0], p[1], p[2], p[3]);
        return 2;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::fprintf(stderr, "gl witness: %d frames right\n", frames);
  return frames > 0 ? 0 : 2;
}
