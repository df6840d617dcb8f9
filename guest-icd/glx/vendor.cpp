// The libglvnd GLX vendor interface: __glx_Main hands libGLX our entry
// points by name. GLX extension functions, which libGLX does not dispatch
// itself, get stubs here that find the vendor through the display, the
// drawable, the config or the current context.
#include <dlfcn.h>

#include <string_view>

#include "glx/objects.h"

#include "glx/protocol.h"
#include <glvnd/libglxabi.h>

#include "entry_table.h"
#include "glx/api.h"
#include "icd/stream.h"

namespace icd::glx {
namespace {

const __GLXapiExports* g_exports = nullptr;

// Every GLX 1.4 function libGLX requires of a vendor.
const NamedEntry kCore[] = {
    {"glXChooseFBConfig", proc(ChooseFBConfig)},
    {"glXChooseVisual", proc(ChooseVisual)},
    {"glXCopyContext", proc(CopyContext)},
    {"glXCreateContext", proc(CreateContext)},
    {"glXCreateGLXPixmap", proc(CreateGLXPixmap)},
    {"glXCreateNewContext", proc(CreateNewContext)},
    {"glXCreatePbuffer", proc(CreatePbuffer)},
    {"glXCreatePixmap", proc(CreatePixmap)},
    {"glXCreateWindow", proc(CreateWindow)},
    {"glXDestroyContext", proc(DestroyContext)},
    {"glXDestroyGLXPixmap", proc(DestroyGLXPixmap)},
    {"glXDestroyPbuffer", proc(DestroyPbuffer)},
    {"glXDestroyPixmap", proc(DestroyPixmap)},
    {"glXDestroyWindow", proc(DestroyWindow)},
    {"glXGetClientString", proc(GetClientString)},
    {"glXGetConfig", proc(GetConfig)},
    {"glXGetFBConfigAttrib", proc(GetFBConfigAttrib)},
    {"glXGetFBConfigs", proc(GetFBConfigs)},
    {"glXGetSelectedEvent", proc(GetSelectedEvent)},
    {"glXGetVisualFromFBConfig", proc(GetVisualFromFBConfig)},
    {"glXIsDirect", proc(IsDirect)},
    {"glXMakeContextCurrent", proc(MakeContextCurrent)},
    {"glXMakeCurrent", proc(MakeCurrent)},
    {"glXQueryContext", proc(QueryContext)},
    {"glXQueryDrawable", proc(QueryDrawable)},
    {"glXQueryExtensionsString", proc(QueryExtensionsString)},
    {"glXQueryServerString", proc(QueryServerString)},
    {"glXSelectEvent", proc(SelectEvent)},
    {"glXSwapBuffers", proc(SwapBuffers)},
    {"glXUseXFont", proc(UseXFont)},
    {"glXWaitGL", proc(WaitGL)},
    {"glXWaitX", proc(WaitX)},
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

// Made once the stubs below exist; they dispatch by its indices.
extern VendorEntries g_entries;

// The vendor's entry for an extension slot, or null.
template <typename Fn>
Fn entry(__GLXvendorInfo* vendor, Ext slot) {
  const int index = g_entries.dispatch_index(slot);
  if (!g_exports || !vendor || index < 0) return nullptr;
  return reinterpret_cast<Fn>(g_exports->fetchDispatchEntry(vendor, index));
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

const ExtensionEntry kExt[kExtCount] = {
    {"glXCreateContextAttribsARB", proc(CreateContextAttribsARB),
     proc(stub_CreateContextAttribsARB)},
    {"glXSwapIntervalEXT", proc(SwapIntervalEXT), proc(stub_SwapIntervalEXT)},
    {"glXSwapIntervalMESA", proc(SwapIntervalMESA), proc(stub_SwapIntervalMESA)},
    {"glXGetSwapIntervalMESA", proc(GetSwapIntervalMESA), proc(stub_GetSwapIntervalMESA)},
    {"glXSwapIntervalSGI", proc(SwapIntervalSGI), proc(stub_SwapIntervalSGI)},
    {"glXQueryRendererIntegerMESA", proc(QueryRendererIntegerMESA),
     proc(stub_QueryRendererIntegerMESA)},
    {"glXQueryCurrentRendererIntegerMESA", proc(QueryCurrentRendererIntegerMESA),
     proc(stub_QueryCurrentRendererIntegerMESA)},
    {"glXQueryRendererStringMESA", proc(QueryRendererStringMESA),
     proc(stub_QueryRendererStringMESA)},
    {"glXQueryCurrentRendererStringMESA", proc(QueryCurrentRendererStringMESA),
     proc(stub_QueryCurrentRendererStringMESA)},
};

VendorEntries g_entries{kCore, kExt};

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
  if (void* f = g_entries.function(name)) return f;
  if (std::string_view(name).starts_with("glX")) return glvnd_glx_function(name);
  if (std::string_view(name).starts_with("gl")) return icd::gl_proc_address(name);
  return nullptr;
}

void* get_dispatch_address(const GLubyte* procName) {
  return g_entries.stub(reinterpret_cast<const char*>(procName));
}

void set_dispatch_index(const GLubyte* procName, int index) {
  g_entries.set_dispatch_index(reinterpret_cast<const char*>(procName), index);
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
