// The calling thread's EGL error and the libglvnd hooks the vendor got.
#pragma once

#include <EGL/egl.h>
#include <glvnd/libeglabi.h>

namespace icd {

// Records `error` for eglGetError on this thread and returns `result`, so an
// entry point can `return fail(EGL_BAD_DISPLAY, EGL_FALSE);`.
template <typename T>
T fail(EGLint error, T result);

void set_error(EGLint error);
EGLint take_error();

// The table libglvnd handed to __egl_Main, or null when loaded without it.
const __EGLapiExports* glvnd_exports();
void set_glvnd_exports(const __EGLapiExports* exports);

template <typename T>
T fail(EGLint error, T result) {
  set_error(error);
  return result;
}

inline EGLBoolean ok() {
  set_error(EGL_SUCCESS);
  return EGL_TRUE;
}

}  // namespace icd
