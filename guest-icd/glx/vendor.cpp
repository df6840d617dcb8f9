// The libglvnd GLX vendor interface: __glx_Main hands libGLX our entry
// points by name. GLX extension functions, which libGLX does not dispatch
// itself, get stubs here that find the vendor through the display, the
// drawable, the config or the current context.
#include <dlfcn.h>

#include <array>
#include <cstring>
#include <string_view>

#include "glx/objects.h"

#include "glx/protocol.h"
#include <glvnd/libglxabi.h>

#include "glx/api.h"
#include "icd/stream.h"

namespace icd::glx {
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

const __GLXapiExports* g_exports = nullptr;

// Every GLX 1.4 function libGLX requires of a vendor.
const std::array kCore = {
    Entry{"glXChooseFBConfig", proc(ChooseFBConfig)},
    Entry{"glXChooseVisual", proc(ChooseVisual)},
    Entry{"glXCopyContext", proc(CopyContext)},
    Entry{"glXCreateContext", proc(CreateContext)},
    Entry{"glXCreateGLXPixmap", proc(CreateGLXPixmap)},
    Entry{"glXCreateNewContext", proc(CreateNewContext)},
    Entry{"glXCreatePbuffer", proc(CreatePbuffer)},
    Entry{"glXCreatePixmap", proc(CreatePixmap)},
    Entry{"glXCreateWindow", proc(CreateWindow)},
    Entry{"glXDestroyContext", proc(DestroyContext)},
    Entry{"glXDestroyGLXPixmap", proc(DestroyGLXPixmap)},
    Entry{"glXDestroyPbuffer", proc(DestroyPbuffer)},
    Entry{"glXDestroyPixmap", proc(DestroyPixmap)},
    Entry{"glXDestroyWindow", proc(DestroyWindow)},
    Entry{"glXGetClientString", proc(GetClientString)},
    Entry{"glXGetConfig", proc(GetConfig)},
    Entry{"glXGetFBConfigAttrib", proc(GetFBConfigAttrib)},
    Entry{"glXGetFBConfigs", proc(GetFBConfigs)},
    Entry{"glXGetSelectedEvent", proc(GetSelectedEvent)},
    Entry{"glXGetVisualFromFBConfig", proc(GetVisualFromFBConfig)},
    Entry{"glXIsDirect", proc(IsDirect)},
    Entry{"glXMakeContextCurrent", proc(MakeContextCurrent)},
    Entry{"glXMakeCurrent", proc(MakeCurrent)},
    Entry{"glXQueryContext", proc(QueryContext)},
    Entry{"glXQueryDrawable", proc(QueryDrawable)},
    Entry{"glXQueryExtensionsString", proc(QueryExtensionsString)},
    Entry{"glXQueryServerString", proc(QueryServerString)},
    Entry{"glXSelectEvent", proc(SelectEvent)},
    Entry{"glXSwapBuffers", proc(SwapBuffers)},
    Entry{"glXUseXFont", proc(UseXFont)},
    Entry{"glXWaitGL", proc(WaitGL)},
    Entry{"glXWaitX", proc(WaitX)},
};

enum Ext : size_t {
  kCreateContextAttribsARB,
  kSwapIntervalEXT,
  kSwapIntervalMESA,
  kGetSwapIntervalMESA,
  kSwapIntervalSGI,
  kQueryRendererIntegerMESA,
  kQueryCurrentRendererIntegerMESA,
  kQueryRendererStringMESA,
  kQueryCurrentRendererStringMESA,
  kExtCount
};

const std::array<Entry, kExtCount> kExt = {
    Entry{"glXCreateContextAttribsARB", proc(CreateContextAttribsARB)},
    Entry{"glXSwapIntervalEXT", proc(SwapIntervalEXT)},
    Entry{"glXSwapIntervalMESA", proc(SwapIntervalMESA)},
    Entry{"glXGetSwapIntervalMESA", proc(GetSwapIntervalMESA)},
    Entry{"glXSwapIntervalSGI", proc(SwapIntervalSGI)},
    Entry{"glXQueryRendererIntegerMESA", proc(QueryRendererIntegerMESA)},
    Entry{"glXQueryCurrentRendererIntegerMESA", proc(QueryCurrentRendererIntegerMESA)},
    Entry{"glXQueryRendererStringMESA", proc(QueryRendererStringMESA)},
    Entry{"glXQueryCurrentRendererStringMESA", proc(QueryCurrentRendererStringMESA)},
};

std::array<int, kExtCount> g_ext_index = [] {
  std::array<int, kExtCount> a{};
  a.fill(-1);
  return a;
}();

// The vendor's entry for an extension slot, or null.
template <typename Fn>
Fn entry(__GLXvendorInfo* vendor, Ext slot) {
  if (!g_exports || !vendor || g_ext_index[slot] < 0) return nullptr;
  return reinterpret_cast<Fn>(g_exports->fetchDispatchEntry(vendor, g_ext_index[slot]));
}

GLXContext stub_CreateContextAttribsARB(::Display* dpy, GLXFBConfig config, GLXContext share, Bool direct,
                                        const int* attribs) {
  if (!g_exports) return nullptr;
  __GLXvendorInfo* vendor = config ? g_exports->vendorFromFBConfig(dpy, config)
                                   : g_exports->getDynDispatch(dpy, DefaultScreen(dpy));
  auto fn = entry<decltype(&CreateContextAttribsARB)>(vendor, kCreateContextAttribsARB);
  if (!fn) {
    send_error(dpy, GLXBadFBConfig, 0, X_GLXCreateContextAttribsARB, false);
    return nullptr;
  }
  GLXContext ctx = fn(dpy, config, share, direct, attribs);
  // libGLX routes later calls on the context (glXMakeCurrent...) by this.
  if (ctx && g_exports->addVendorContextMapping(dpy, ctx, vendor) != 0) {
    send_error(dpy, BadAlloc, 0, X_GLXCreateContextAttribsARB, true);
    return nullptr;
  }
  return ctx;
}

void stub_SwapIntervalEXT(::Display* dpy, GLXDrawable drawable, int interval) {
  __GLXvendorInfo* vendor = g_exports ? g_exports->vendorFromDrawable(dpy, drawable) : nullptr;
  if (auto fn = entry<decltype(&SwapIntervalEXT)>(vendor, kSwapIntervalEXT)) fn(dpy, drawable, interval);
  else send_error(dpy, GLXBadDrawable, drawable, X_GLXChangeDrawableAttributes, false);
}

// The functions without a display act on the current context's vendor.
__GLXvendorInfo* current_vendor() { return g_exports ? g_exports->getCurrentDynDispatch() : nullptr; }

int stub_SwapIntervalMESA(unsigned int interval) {
  auto fn = entry<decltype(&SwapIntervalMESA)>(current_vendor(), kSwapIntervalMESA);
  return fn ? fn(interval) : GLX_BAD_CONTEXT;
}

int stub_GetSwapIntervalMESA() {
  auto fn = entry<decltype(&GetSwapIntervalMESA)>(current_vendor(), kGetSwapIntervalMESA);
  return fn ? fn() : 0;
}

int stub_SwapIntervalSGI(int interval) {
  auto fn = entry<decltype(&SwapIntervalSGI)>(current_vendor(), kSwapIntervalSGI);
  return fn ? fn(interval) : GLX_BAD_CONTEXT;
}

// The renderer queries act on the screen's vendor, or the current context's.
Bool stub_QueryRendererIntegerMESA(::Display* dpy, int screen, int renderer, int attribute, unsigned int* value) {
  __GLXvendorInfo* vendor = g_exports ? g_exports->getDynDispatch(dpy, screen) : nullptr;
  auto fn = entry<decltype(&QueryRendererIntegerMESA)>(vendor, kQueryRendererIntegerMESA);
  return fn ? fn(dpy, screen, renderer, attribute, value) : False;
}

Bool stub_QueryCurrentRendererIntegerMESA(int attribute, unsigned int* value) {
  auto fn = entry<decltype(&QueryCurrentRendererIntegerMESA)>(current_vendor(), kQueryCurrentRendererIntegerMESA);
  return fn ? fn(attribute, value) : False;
}

const char* stub_QueryRendererStringMESA(::Display* dpy, int screen, int renderer, int attribute) {
  __GLXvendorInfo* vendor = g_exports ? g_exports->getDynDispatch(dpy, screen) : nullptr;
  auto fn = entry<decltype(&QueryRendererStringMESA)>(vendor, kQueryRendererStringMESA);
  return fn ? fn(dpy, screen, renderer, attribute) : nullptr;
}

const char* stub_QueryCurrentRendererStringMESA(int attribute) {
  auto fn = entry<decltype(&QueryCurrentRendererStringMESA)>(current_vendor(), kQueryCurrentRendererStringMESA);
  return fn ? fn(attribute) : nullptr;
}

const std::array<Proc, kExtCount> kExtStubs = {
    proc(stub_CreateContextAttribsARB),       proc(stub_SwapIntervalEXT),
    proc(stub_SwapIntervalMESA),              proc(stub_GetSwapIntervalMESA),
    proc(stub_SwapIntervalSGI),               proc(stub_QueryRendererIntegerMESA),
    proc(stub_QueryCurrentRendererIntegerMESA), proc(stub_QueryRendererStringMESA),
    proc(stub_QueryCurrentRendererStringMESA),
};

int ext_slot(const char* name) {
  for (size_t i = 0; i < kExt.size(); ++i)
    if (std::strcmp(kExt[i].name, name) == 0) return static_cast<int>(i);
  return -1;
}

// The GLX functions libglvnd answers itself (glXGetCurrentDisplay,
// glXGetCurrentDrawable, glXQueryVersion...). A program that looks one up
// through another library's GetProcAddress (apitrace's replayers ask
// eglGetProcAddress for every name) gets a GL dispatch stub, which calls what
// the current vendor gives for the name: libglvnd's own function then, as
// Mesa gives its own, instead of nothing (the stub then returned garbage).
void* glvnd_glx_function(const char* name) {
  static void* const libglx = dlopen("libGLX.so.0", RTLD_LAZY | RTLD_NOLOAD);
  return libglx ? dlsym(libglx, name) : nullptr;
}

void* get_proc_address(const GLubyte* procName) {
  const char* name = reinterpret_cast<const char*>(procName);
  if (!name) return nullptr;
  for (const auto& e : kCore)
    if (std::strcmp(e.name, name) == 0) return reinterpret_cast<void*>(e.impl);
  if (int slot = ext_slot(name); slot >= 0) return reinterpret_cast<void*>(kExt[static_cast<size_t>(slot)].impl);
  if (std::string_view(name).starts_with("glX")) return glvnd_glx_function(name);
  if (std::string_view(name).starts_with("gl")) return icd::gl_proc_address(name);
  return nullptr;
}

void* get_dispatch_address(const GLubyte* procName) {
  const char* name = reinterpret_cast<const char*>(procName);
  const int slot = name ? ext_slot(name) : -1;
  return slot >= 0 ? reinterpret_cast<void*>(kExtStubs[static_cast<size_t>(slot)]) : nullptr;
}

void set_dispatch_index(const GLubyte* procName, int index) {
  const char* name = reinterpret_cast<const char*>(procName);
  if (int slot = name ? ext_slot(name) : -1; slot >= 0) g_ext_index[static_cast<size_t>(slot)] = index;
}

}  // namespace
}  // namespace icd::glx

extern "C" __attribute__((visibility("default"))) Bool __glx_Main(uint32_t version,
                                                                  const __GLXapiExports* exports,
                                                                  __GLXvendorInfo*,
                                                                  __GLXapiImports* imports) {
  if (GLX_VENDOR_ABI_GET_MAJOR_VERSION(version) != GLX_VENDOR_ABI_MAJOR_VERSION) return False;
  icd::glx::g_exports = exports;
  *imports = __GLXapiImports{};
  imports->isScreenSupported = icd::glx::IsScreenSupported;
  imports->getProcAddress = icd::glx::get_proc_address;
  imports->getDispatchAddress = icd::glx::get_dispatch_address;
  imports->setDispatchIndex = icd::glx::set_dispatch_index;
  return True;
}
