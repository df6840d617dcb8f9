// The libglvnd EGL vendor interface: __egl_Main hands libEGL our entry
// points by name; EGL extension functions that libEGL does not dispatch
// itself get stubs here that find the vendor through the display.
#include <array>
#include <cstring>
#include <string_view>

#include "egl/api.h"
#include "egl/error.h"
#include "icd/stream.h"

namespace icd::egl {
namespace {

using Proc = void (*)();

template <typename F>
Proc proc(F f) {
  return reinterpret_cast<Proc>(f);
}

struct Entry {
  const char* name;
  Proc impl;
};

const std::array kCore = {
    Entry{"eglBindAPI", proc(BindAPI)},
    Entry{"eglBindTexImage", proc(BindTexImage)},
    Entry{"eglChooseConfig", proc(ChooseConfig)},
    Entry{"eglClientWaitSync", proc(ClientWaitSync)},
    Entry{"eglCopyBuffers", proc(CopyBuffers)},
    Entry{"eglCreateContext", proc(CreateContext)},
    Entry{"eglCreateImage", proc(CreateImage)},
    Entry{"eglCreatePbufferFromClientBuffer", proc(CreatePbufferFromClientBuffer)},
    Entry{"eglCreatePbufferSurface", proc(CreatePbufferSurface)},
    Entry{"eglCreatePixmapSurface", proc(CreatePixmapSurface)},
    Entry{"eglCreatePlatformPixmapSurface", proc(CreatePlatformPixmapSurface)},
    Entry{"eglCreatePlatformWindowSurface", proc(CreatePlatformWindowSurface)},
    Entry{"eglCreateSync", proc(CreateSync)},
    Entry{"eglCreateWindowSurface", proc(CreateWindowSurface)},
    Entry{"eglDestroyContext", proc(DestroyContext)},
    Entry{"eglDestroyImage", proc(DestroyImage)},
    Entry{"eglDestroySurface", proc(DestroySurface)},
    Entry{"eglDestroySync", proc(DestroySync)},
    Entry{"eglGetConfigAttrib", proc(GetConfigAttrib)},
    Entry{"eglGetConfigs", proc(GetConfigs)},
    Entry{"eglGetError", proc(GetError)},
    Entry{"eglGetSyncAttrib", proc(GetSyncAttrib)},
    Entry{"eglInitialize", proc(Initialize)},
    Entry{"eglMakeCurrent", proc(MakeCurrent)},
    Entry{"eglQueryContext", proc(QueryContext)},
    // libEGL enumerates the devices of every vendor itself.
    Entry{"eglQueryDevicesEXT", proc(QueryDevicesEXT)},
    Entry{"eglQueryString", proc(QueryString)},
    Entry{"eglQuerySurface", proc(QuerySurface)},
    Entry{"eglReleaseTexImage", proc(ReleaseTexImage)},
    Entry{"eglReleaseThread", proc(ReleaseThread)},
    Entry{"eglSurfaceAttrib", proc(SurfaceAttrib)},
    Entry{"eglSwapBuffers", proc(SwapBuffers)},
    Entry{"eglSwapInterval", proc(SwapInterval)},
    Entry{"eglTerminate", proc(Terminate)},
    Entry{"eglWaitClient", proc(WaitClient)},
    Entry{"eglWaitGL", proc(WaitGL)},
    Entry{"eglWaitNative", proc(WaitNative)},
    Entry{"eglWaitSync", proc(WaitSync)},
};

// Display and device extension functions: libEGL learns them through
// getDispatchAddress and calls our stub, which routes by display (or device)
// to the vendor's entry.
enum Ext : size_t {
  kCreateSyncKHR,
  kDestroySyncKHR,
  kClientWaitSyncKHR,
  kGetSyncAttribKHR,
  kWaitSyncKHR,
  kCreatePlatformWindowSurfaceEXT,
  kCreatePlatformPixmapSurfaceEXT,
  kCreateImageKHR,
  kDestroyImageKHR,
  kGetDisplayDriverName,
  kGetDisplayDriverConfig,
  kQueryDisplayAttribEXT,
  kQueryDisplayAttribKHR,
  kQueryDeviceStringEXT,
  kQueryDeviceAttribEXT,
  kExtCount
};

const std::array<Entry, kExtCount> kExt = {
    Entry{"eglCreateSyncKHR", proc(CreateSyncKHR)},
    Entry{"eglDestroySyncKHR", proc(DestroySync)},
    Entry{"eglClientWaitSyncKHR", proc(ClientWaitSync)},
    Entry{"eglGetSyncAttribKHR", proc(GetSyncAttribKHR)},
    Entry{"eglWaitSyncKHR", proc(WaitSyncKHR)},
    Entry{"eglCreatePlatformWindowSurfaceEXT", proc(CreatePlatformWindowSurfaceEXT)},
    Entry{"eglCreatePlatformPixmapSurfaceEXT", proc(CreatePlatformPixmapSurfaceEXT)},
    Entry{"eglCreateImageKHR", proc(CreateImageKHR)},
    Entry{"eglDestroyImageKHR", proc(DestroyImage)},
    Entry{"eglGetDisplayDriverName", proc(GetDisplayDriverName)},
    Entry{"eglGetDisplayDriverConfig", proc(GetDisplayDriverConfig)},
    Entry{"eglQueryDisplayAttribEXT", proc(QueryDisplayAttribEXT)},
    Entry{"eglQueryDisplayAttribKHR", proc(QueryDisplayAttribEXT)},
    Entry{"eglQueryDeviceStringEXT", proc(QueryDeviceStringEXT)},
    Entry{"eglQueryDeviceAttribEXT", proc(QueryDeviceAttribEXT)},
};

std::array<int, kExtCount> g_ext_index = [] {
  std::array<int, kExtCount> a{};
  a.fill(-1);
  return a;
}();

// What a stub routes by: its first argument, a display or (libEGL keeps
// no stubs of its own for them) a device.
enum class RouteBy { kDisplay, kDevice };

template <size_t kSlot, typename Fn, RouteBy kBy = RouteBy::kDisplay>
struct Stub;

template <size_t kSlot, typename Ret, typename... Args, RouteBy kBy>
struct Stub<kSlot, Ret (*)(void*, Args...), kBy> {
  static Ret call(void* handle, Args... args) {
    const __EGLapiExports* ex = glvnd_exports();
    if (!ex) return Ret{};
    ex->threadInit();
    __EGLvendorInfo* vendor =
        kBy == RouteBy::kDevice ? ex->getVendorFromDevice(handle) : ex->getVendorFromDisplay(handle);
    Proc entry = vendor && g_ext_index[kSlot] >= 0
                     ? reinterpret_cast<Proc>(ex->fetchDispatchEntry(vendor, g_ext_index[kSlot]))
                     : nullptr;
    if (!entry) {
      ex->setEGLError(kBy == RouteBy::kDevice ? EGL_BAD_DEVICE_EXT : EGL_BAD_DISPLAY);
      return Ret{};
    }
    ex->setLastVendor(vendor);
    return reinterpret_cast<Ret (*)(void*, Args...)>(entry)(handle, args...);
  }
};

const std::array<Proc, kExtCount> kExtStubs = {
    proc(&Stub<kCreateSyncKHR, decltype(&CreateSyncKHR)>::call),
    proc(&Stub<kDestroySyncKHR, decltype(&DestroySync)>::call),
    proc(&Stub<kClientWaitSyncKHR, decltype(&ClientWaitSync)>::call),
    proc(&Stub<kGetSyncAttribKHR, decltype(&GetSyncAttribKHR)>::call),
    proc(&Stub<kWaitSyncKHR, decltype(&WaitSyncKHR)>::call),
    proc(&Stub<kCreatePlatformWindowSurfaceEXT, decltype(&CreatePlatformWindowSurfaceEXT)>::call),
    proc(&Stub<kCreatePlatformPixmapSurfaceEXT, decltype(&CreatePlatformPixmapSurfaceEXT)>::call),
    proc(&Stub<kCreateImageKHR, decltype(&CreateImageKHR)>::call),
    proc(&Stub<kDestroyImageKHR, decltype(&DestroyImage)>::call),
    proc(&Stub<kGetDisplayDriverName, decltype(&GetDisplayDriverName)>::call),
    proc(&Stub<kGetDisplayDriverConfig, decltype(&GetDisplayDriverConfig)>::call),
    proc(&Stub<kQueryDisplayAttribEXT, decltype(&QueryDisplayAttribEXT)>::call),
    proc(&Stub<kQueryDisplayAttribKHR, decltype(&QueryDisplayAttribEXT)>::call),
    proc(&Stub<kQueryDeviceStringEXT, decltype(&QueryDeviceStringEXT), RouteBy::kDevice>::call),
    proc(&Stub<kQueryDeviceAttribEXT, decltype(&QueryDeviceAttribEXT), RouteBy::kDevice>::call),
};

int ext_slot(const char* name) {
  for (size_t i = 0; i < kExt.size(); ++i)
    if (std::strcmp(kExt[i].name, name) == 0) return static_cast<int>(i);
  return -1;
}

void* get_proc_address(const char* name) {
  if (!name) return nullptr;
  for (const auto& e : kCore)
    if (std::strcmp(e.name, name) == 0) return reinterpret_cast<void*>(e.impl);
  if (int slot = ext_slot(name); slot >= 0) return reinterpret_cast<void*>(kExt[static_cast<size_t>(slot)].impl);
  if (std::string_view(name).starts_with("gl")) return icd::gl_proc_address(name);
  return nullptr;
}

void* get_dispatch_address(const char* name) {
  const int slot = name ? ext_slot(name) : -1;
  return slot >= 0 ? reinterpret_cast<void*>(kExtStubs[static_cast<size_t>(slot)]) : nullptr;
}

void set_dispatch_index(const char* name, int index) {
  if (int slot = name ? ext_slot(name) : -1; slot >= 0) g_ext_index[static_cast<size_t>(slot)] = index;
}

EGLBoolean supports_api(EGLenum api) { return api == EGL_OPENGL_ES_API || api == EGL_OPENGL_API; }

const char* vendor_string(int name) {
  return name == __EGL_VENDOR_STRING_PLATFORM_EXTENSIONS ? platform_extensions() : nullptr;
}

}  // namespace
}  // namespace icd::egl

extern "C" __attribute__((visibility("default"))) EGLBoolean __egl_Main(
    uint32_t version, const __EGLapiExports* exports, __EGLvendorInfo*, __EGLapiImports* imports) {
  if (EGL_VENDOR_ABI_GET_MAJOR_VERSION(version) != EGL_VENDOR_ABI_MAJOR_VERSION) return EGL_FALSE;
  icd::set_glvnd_exports(exports);
  *imports = __EGLapiImports{};
  imports->getPlatformDisplay = icd::egl::get_platform_display;
  imports->getSupportsAPI = icd::egl::supports_api;
  imports->getVendorString = icd::egl::vendor_string;
  imports->getProcAddress = icd::egl::get_proc_address;
  imports->getDispatchAddress = icd::egl::get_dispatch_address;
  imports->setDispatchIndex = icd::egl::set_dispatch_index;
  return EGL_TRUE;
}
