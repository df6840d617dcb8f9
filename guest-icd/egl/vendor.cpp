// The libglvnd EGL vendor interface: __egl_Main hands libEGL our entry
// points by name; EGL extension functions that libEGL does not dispatch
// itself get stubs here that find the vendor through the display.
#include <string_view>

#include "egl/api.h"
#include "egl/error.h"
#include "entry_table.h"
#include "icd/stream.h"

namespace icd::egl {
namespace {

const NamedEntry kCore[] = {
    {"eglBindAPI", proc(BindAPI)},
    {"eglBindTexImage", proc(BindTexImage)},
    {"eglChooseConfig", proc(ChooseConfig)},
    {"eglClientWaitSync", proc(ClientWaitSync)},
    {"eglCopyBuffers", proc(CopyBuffers)},
    {"eglCreateContext", proc(CreateContext)},
    {"eglCreateImage", proc(CreateImage)},
    {"eglCreatePbufferFromClientBuffer", proc(CreatePbufferFromClientBuffer)},
    {"eglCreatePbufferSurface", proc(CreatePbufferSurface)},
    {"eglCreatePixmapSurface", proc(CreatePixmapSurface)},
    {"eglCreatePlatformPixmapSurface", proc(CreatePlatformPixmapSurface)},
    {"eglCreatePlatformWindowSurface", proc(CreatePlatformWindowSurface)},
    {"eglCreateSync", proc(CreateSync)},
    {"eglCreateWindowSurface", proc(CreateWindowSurface)},
    {"eglDestroyContext", proc(DestroyContext)},
    {"eglDestroyImage", proc(DestroyImage)},
    {"eglDestroySurface", proc(DestroySurface)},
    {"eglDestroySync", proc(DestroySync)},
    {"eglGetConfigAttrib", proc(GetConfigAttrib)},
    {"eglGetConfigs", proc(GetConfigs)},
    {"eglGetError", proc(GetError)},
    {"eglGetSyncAttrib", proc(GetSyncAttrib)},
    {"eglInitialize", proc(Initialize)},
    {"eglMakeCurrent", proc(MakeCurrent)},
    {"eglQueryContext", proc(QueryContext)},
    // libEGL enumerates the devices of every vendor itself.
    {"eglQueryDevicesEXT", proc(QueryDevicesEXT)},
    {"eglQueryString", proc(QueryString)},
    {"eglQuerySurface", proc(QuerySurface)},
    {"eglReleaseTexImage", proc(ReleaseTexImage)},
    {"eglReleaseThread", proc(ReleaseThread)},
    {"eglSurfaceAttrib", proc(SurfaceAttrib)},
    {"eglSwapBuffers", proc(SwapBuffers)},
    {"eglSwapInterval", proc(SwapInterval)},
    {"eglTerminate", proc(Terminate)},
    {"eglWaitClient", proc(WaitClient)},
    {"eglWaitGL", proc(WaitGL)},
    {"eglWaitNative", proc(WaitNative)},
    {"eglWaitSync", proc(WaitSync)},
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

// What a stub routes by: its first argument, a display or (libEGL keeps
// no stubs of its own for them) a device.
enum class RouteBy { kDisplay, kDevice };

// Made once the stubs below exist; they dispatch by its indices.
extern VendorEntries g_entries;

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
    const int index = g_entries.dispatch_index(kSlot);
    Proc entry = vendor && index >= 0 ? reinterpret_cast<Proc>(ex->fetchDispatchEntry(vendor, index)) : nullptr;
    if (!entry) {
      ex->setEGLError(kBy == RouteBy::kDevice ? EGL_BAD_DEVICE_EXT : EGL_BAD_DISPLAY);
      return Ret{};
    }
    ex->setLastVendor(vendor);
    return reinterpret_cast<Ret (*)(void*, Args...)>(entry)(handle, args...);
  }
};

// Extension `kSlot`: ours, and its stub.
template <size_t kSlot, RouteBy kBy = RouteBy::kDisplay, typename Fn>
ExtensionEntry extension(const char* name, Fn fn) {
  return {name, proc(fn), proc(&Stub<kSlot, Fn, kBy>::call)};
}

const ExtensionEntry kExt[kExtCount] = {
    extension<kCreateSyncKHR>("eglCreateSyncKHR", CreateSyncKHR),
    extension<kDestroySyncKHR>("eglDestroySyncKHR", DestroySync),
    extension<kClientWaitSyncKHR>("eglClientWaitSyncKHR", ClientWaitSync),
    extension<kGetSyncAttribKHR>("eglGetSyncAttribKHR", GetSyncAttribKHR),
    extension<kWaitSyncKHR>("eglWaitSyncKHR", WaitSyncKHR),
    extension<kCreatePlatformWindowSurfaceEXT>("eglCreatePlatformWindowSurfaceEXT",
                                               CreatePlatformWindowSurfaceEXT),
    extension<kCreatePlatformPixmapSurfaceEXT>("eglCreatePlatformPixmapSurfaceEXT",
                                               CreatePlatformPixmapSurfaceEXT),
    extension<kCreateImageKHR>("eglCreateImageKHR", CreateImageKHR),
    extension<kDestroyImageKHR>("eglDestroyImageKHR", DestroyImage),
    extension<kGetDisplayDriverName>("eglGetDisplayDriverName", GetDisplayDriverName),
    extension<kGetDisplayDriverConfig>("eglGetDisplayDriverConfig", GetDisplayDriverConfig),
    extension<kQueryDisplayAttribEXT>("eglQueryDisplayAttribEXT", QueryDisplayAttribEXT),
    extension<kQueryDisplayAttribKHR>("eglQueryDisplayAttribKHR", QueryDisplayAttribEXT),
    extension<kQueryDeviceStringEXT, RouteBy::kDevice>("eglQueryDeviceStringEXT",
                                                       QueryDeviceStringEXT),
    extension<kQueryDeviceAttribEXT, RouteBy::kDevice>("eglQueryDeviceAttribEXT",
                                                       QueryDeviceAttribEXT),
};

VendorEntries g_entries{kCore, kExt};

void* get_proc_address(const char* name) {
  if (!name) return nullptr;
  if (void* f = g_entries.function(name)) return f;
  if (std::string_view(name).starts_with("gl")) return icd::gl_proc_address(name);
  return nullptr;
}

void* get_dispatch_address(const char* name) { return g_entries.stub(name); }

void set_dispatch_index(const char* name, int index) { g_entries.set_dispatch_index(name, index); }

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
