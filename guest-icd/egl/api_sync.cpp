// Fence syncs (EGL 1.5 section 3.8, EGL_KHR_fence_sync). The host runs a
// connection's commands in order, so a fence is signalled once a round trip
// sent after it returns, and a server-side wait is always satisfied.
#include "egl/objects.h"

#include "egl/api.h"
#include "egl/error.h"

namespace icd::egl {
namespace {

template <typename Attrib>
EGLSync create_sync(EGLDisplay dpy, EGLenum type, const Attrib* attribs) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_NO_SYNC;
  if (type != EGL_SYNC_FENCE) return fail(EGL_BAD_ATTRIBUTE, EGL_NO_SYNC);
  if (attribs && attribs[0] != EGL_NONE) return fail(EGL_BAD_ATTRIBUTE, EGL_NO_SYNC);
  auto& cur = current_state();
  if (!cur.context || cur.display != d) return fail(EGL_BAD_MATCH, EGL_NO_SYNC);
  // The fence covers what was sent so far: send it now.
  cur.context->stream().flush();
  auto sync = std::make_unique<Sync>();
  EGLSync handle = sync.get();
  d->syncs[handle] = std::move(sync);
  set_error(EGL_SUCCESS);
  return handle;
}

// Brings a fence to signalled with one round trip; false when the host is gone.
bool settle(Display& d, Sync& sync) {
  if (sync.signaled) return true;
  if (!d.connection()->sync()) return false;
  sync.signaled = true;
  return true;
}

}  // namespace

EGLSync CreateSync(EGLDisplay dpy, EGLenum type, const EGLAttrib* attribs) {
  return create_sync(dpy, type, attribs);
}

EGLSyncKHR CreateSyncKHR(EGLDisplay dpy, EGLenum type, const EGLint* attribs) {
  return create_sync(dpy, type, attribs);
}

EGLBoolean DestroySync(EGLDisplay dpy, EGLSync sync) {
  return destroy_handle(dpy, &Display::syncs, sync, EGL_BAD_PARAMETER);
}

EGLint ClientWaitSync(EGLDisplay dpy, EGLSync sync, EGLint flags, EGLTime) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  Sync* s = d->find_sync(sync);
  if (!s) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  if (flags & ~EGL_SYNC_FLUSH_COMMANDS_BIT) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  if (s->signaled) return fail(EGL_SUCCESS, EGL_CONDITION_SATISFIED);
  if (!settle(*d, *s)) return fail(EGL_CONTEXT_LOST, EGL_FALSE);
  return fail(EGL_SUCCESS, EGL_CONDITION_SATISFIED);
}

EGLBoolean WaitSync(EGLDisplay dpy, EGLSync sync, EGLint flags) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  if (!d->find_sync(sync)) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  if (flags != 0) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  if (!current_state().context) return fail(EGL_BAD_MATCH, EGL_FALSE);
  return ok();
}

// EGL_KHR_wait_sync's form of eglWaitSync.
EGLint WaitSyncKHR(EGLDisplay dpy, EGLSyncKHR sync, EGLint flags) { return WaitSync(dpy, sync, flags); }

EGLBoolean GetSyncAttrib(EGLDisplay dpy, EGLSync sync, EGLint attribute, EGLAttrib* value) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  Sync* s = d->find_sync(sync);
  if (!s) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  if (!value) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  switch (attribute) {
    case EGL_SYNC_TYPE: *value = static_cast<EGLAttrib>(s->type); break;
    case EGL_SYNC_CONDITION: *value = EGL_SYNC_PRIOR_COMMANDS_COMPLETE; break;
    case EGL_SYNC_STATUS:
      // Asking the host is the only way to learn it; the answer is final.
      if (!settle(*d, *s)) return fail(EGL_CONTEXT_LOST, EGL_FALSE);
      *value = EGL_SIGNALED;
      break;
    default: return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  }
  return ok();
}

EGLBoolean GetSyncAttribKHR(EGLDisplay dpy, EGLSync sync, EGLint attribute, EGLint* value) {
  if (!value) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  EGLAttrib v = 0;
  if (!GetSyncAttrib(dpy, sync, attribute, &v)) return EGL_FALSE;
  *value = static_cast<EGLint>(v);
  return EGL_TRUE;
}

}  // namespace icd::egl
