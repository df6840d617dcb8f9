// The EGL entry points of the Conduit vendor, reached through libglvnd
// (eglGetProcAddress by name, see vendor.cpp), never exported directly.
#pragma once

#include <EGL/egl.h>
#include <EGL/eglext.h>

namespace icd::egl {

EGLDisplay get_platform_display(EGLenum platform, void* native, const EGLAttrib* attribs);
EGLBoolean Initialize(EGLDisplay dpy, EGLint* major, EGLint* minor);
EGLBoolean Terminate(EGLDisplay dpy);
const char* QueryString(EGLDisplay dpy, EGLint name);
const char* GetDisplayDriverName(EGLDisplay dpy);
// EGL devices (api_device.cpp).
EGLDeviceEXT guest_device();
EGLBoolean QueryDevicesEXT(EGLint max_devices, EGLDeviceEXT* devices, EGLint* num_devices);
const char* QueryDeviceStringEXT(EGLDeviceEXT device, EGLint name);
EGLBoolean QueryDeviceAttribEXT(EGLDeviceEXT device, EGLint attribute, EGLAttrib* value);
EGLBoolean QueryDisplayAttribEXT(EGLDisplay dpy, EGLint attribute, EGLAttrib* value);
char* GetDisplayDriverConfig(EGLDisplay dpy);
EGLBoolean GetConfigs(EGLDisplay dpy, EGLConfig* configs, EGLint size, EGLint* num);
EGLBoolean ChooseConfig(EGLDisplay dpy, const EGLint* attribs, EGLConfig* configs, EGLint size,
                        EGLint* num);
EGLBoolean GetConfigAttrib(EGLDisplay dpy, EGLConfig config, EGLint attribute, EGLint* value);
EGLint GetError();

EGLSurface CreateWindowSurface(EGLDisplay dpy, EGLConfig config, EGLNativeWindowType window,
                               const EGLint* attribs);
EGLSurface CreatePlatformWindowSurface(EGLDisplay dpy, EGLConfig config, void* window,
                                       const EGLAttrib* attribs);
EGLSurface CreatePlatformWindowSurfaceEXT(EGLDisplay dpy, EGLConfig config, void* window,
                                          const EGLint* attribs);
EGLSurface CreatePbufferSurface(EGLDisplay dpy, EGLConfig config, const EGLint* attribs);
EGLSurface CreatePixmapSurface(EGLDisplay dpy, EGLConfig config, EGLNativePixmapType pixmap,
                               const EGLint* attribs);
EGLSurface CreatePlatformPixmapSurface(EGLDisplay dpy, EGLConfig config, void* pixmap,
                                       const EGLAttrib* attribs);
EGLSurface CreatePlatformPixmapSurfaceEXT(EGLDisplay dpy, EGLConfig config, void* pixmap,
                                          const EGLint* attribs);
EGLSurface CreatePbufferFromClientBuffer(EGLDisplay dpy, EGLenum type, EGLClientBuffer buffer,
                                         EGLConfig config, const EGLint* attribs);
EGLBoolean DestroySurface(EGLDisplay dpy, EGLSurface surface);
EGLBoolean QuerySurface(EGLDisplay dpy, EGLSurface surface, EGLint attribute, EGLint* value);
EGLBoolean SurfaceAttrib(EGLDisplay dpy, EGLSurface surface, EGLint attribute, EGLint value);
EGLBoolean BindTexImage(EGLDisplay dpy, EGLSurface surface, EGLint buffer);
EGLBoolean ReleaseTexImage(EGLDisplay dpy, EGLSurface surface, EGLint buffer);
EGLBoolean SwapBuffers(EGLDisplay dpy, EGLSurface surface);
EGLBoolean SwapInterval(EGLDisplay dpy, EGLint interval);
EGLBoolean CopyBuffers(EGLDisplay dpy, EGLSurface surface, EGLNativePixmapType target);

EGLBoolean BindAPI(EGLenum api);
EGLContext CreateContext(EGLDisplay dpy, EGLConfig config, EGLContext share, const EGLint* attribs);
EGLBoolean DestroyContext(EGLDisplay dpy, EGLContext ctx);
EGLBoolean MakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext ctx);
EGLBoolean QueryContext(EGLDisplay dpy, EGLContext ctx, EGLint attribute, EGLint* value);
EGLBoolean WaitClient();
EGLBoolean WaitGL();
EGLBoolean WaitNative(EGLint engine);
EGLBoolean ReleaseThread();

EGLSync CreateSync(EGLDisplay dpy, EGLenum type, const EGLAttrib* attribs);
EGLSyncKHR CreateSyncKHR(EGLDisplay dpy, EGLenum type, const EGLint* attribs);
EGLBoolean DestroySync(EGLDisplay dpy, EGLSync sync);
EGLint ClientWaitSync(EGLDisplay dpy, EGLSync sync, EGLint flags, EGLTime timeout);
EGLBoolean WaitSync(EGLDisplay dpy, EGLSync sync, EGLint flags);
EGLint WaitSyncKHR(EGLDisplay dpy, EGLSyncKHR sync, EGLint flags);
EGLBoolean GetSyncAttrib(EGLDisplay dpy, EGLSync sync, EGLint attribute, EGLAttrib* value);
EGLBoolean GetSyncAttribKHR(EGLDisplay dpy, EGLSync sync, EGLint attribute, EGLint* value);

EGLImage CreateImage(EGLDisplay dpy, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                     const EGLAttrib* attribs);
EGLImageKHR CreateImageKHR(EGLDisplay dpy, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                           const EGLint* attribs);
EGLBoolean DestroyImage(EGLDisplay dpy, EGLImage image);

// The strings libglvnd asks for before any display exists.
const char* client_extensions();
const char* platform_extensions();

}  // namespace icd::egl
