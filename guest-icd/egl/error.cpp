#include "egl/error.h"

namespace icd {
namespace {

thread_local EGLint t_error = EGL_SUCCESS;
const __EGLapiExports* g_exports = nullptr;

}  // namespace

void set_error(EGLint error) { t_error = error; }

EGLint take_error() {
  EGLint e = t_error;
  t_error = EGL_SUCCESS;
  return e;
}

const __EGLapiExports* glvnd_exports() { return g_exports; }
void set_glvnd_exports(const __EGLapiExports* exports) { g_exports = exports; }

}  // namespace icd
