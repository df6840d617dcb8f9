// EGL devices (EGL_EXT_device_base, _enumeration, _query, EGL_EXT_platform_device):
// the program sees one device, the host's GPU as Conduit forwards to it.
// It has no DRM node in the guest, so it offers no device extensions of its
// own; a display on it is headless (pbuffers and surfaceless contexts).
#include <mutex>

#include "egl/api.h"
#include "egl/error.h"
#include "egl/objects.h"

namespace icd::egl {
namespace {

// An address that no other vendor's device can have.
char g_device_tag;

bool is_ours(EGLDeviceEXT device) { return device == guest_device(); }

}  // namespace

EGLDeviceEXT guest_device() { return static_cast<EGLDeviceEXT>(&g_device_tag); }

EGLBoolean QueryDevicesEXT(EGLint max_devices, EGLDeviceEXT* devices, EGLint* num_devices) {
  if (!num_devices || (devices && max_devices <= 0)) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  if (devices) devices[0] = guest_device();
  *num_devices = 1;
  return ok();
}

const char* QueryDeviceStringEXT(EGLDeviceEXT device, EGLint name) {
  if (!is_ours(device)) return fail<const char*>(EGL_BAD_DEVICE_EXT, nullptr);
  if (name != EGL_EXTENSIONS) return fail<const char*>(EGL_BAD_PARAMETER, nullptr);
  set_error(EGL_SUCCESS);
  return "";
}

EGLBoolean QueryDeviceAttribEXT(EGLDeviceEXT device, EGLint, EGLAttrib*) {
  if (!is_ours(device)) return fail(EGL_BAD_DEVICE_EXT, EGL_FALSE);
  // No extension of the device's defines an attribute.
  return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
}

EGLBoolean QueryDisplayAttribEXT(EGLDisplay dpy, EGLint attribute, EGLAttrib* value) {
  std::lock_guard lock(api_mutex());
  if (!initialized_display(dpy)) return EGL_FALSE;
  if (!value) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  if (attribute != EGL_DEVICE_EXT) return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  *value = reinterpret_cast<EGLAttrib>(guest_device());
  return ok();
}

}  // namespace icd::egl
