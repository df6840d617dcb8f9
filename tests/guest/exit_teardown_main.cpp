// A program that tears its EGL context down from an exit handler, as piglit
// does: by then exit() has destroyed thread_local objects and the static
// objects made after the handler was registered. Exits 0 when every call
// succeeded; a crash or an EGL error is a failure.
#include <cstdlib>

#include "egl/api.h"

using namespace icd::egl;

namespace {

EGLDisplay g_display = EGL_NO_DISPLAY;
EGLContext g_context = EGL_NO_CONTEXT;

void tear_down() {
  if (g_context == EGL_NO_CONTEXT) return;  // set-up failed: its exit status stands
  const bool ok = MakeCurrent(g_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT) &&
                  DestroyContext(g_display, g_context) && Terminate(g_display);
  if (!ok) std::_Exit(3);
}

}  // namespace

int main() {
  std::atexit(tear_down);  // before the driver makes any state of its own
  g_display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  if (!Initialize(g_display, nullptr, nullptr) || !BindAPI(EGL_OPENGL_ES_API)) return 2;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE,
                                   EGL_PBUFFER_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint n = 0;
  if (!ChooseConfig(g_display, config_attribs, &config, 1, &n) || n != 1) return 2;
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext context = CreateContext(g_display, config, EGL_NO_CONTEXT, context_attribs);
  if (context == EGL_NO_CONTEXT) return 2;
  if (!MakeCurrent(g_display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) return 2;
  g_context = context;
  return 0;
}
