// The GLX entry points of the Conduit vendor, reached through libglvnd's
// libGLX (by name, see vendor.cpp), never exported directly.
#pragma once

#include <GL/glx.h>

namespace icd::glx {

XVisualInfo* ChooseVisual(::Display* dpy, int screen, int* attribs);
int GetConfig(::Display* dpy, XVisualInfo* visual, int attribute, int* value);
GLXFBConfig* ChooseFBConfig(::Display* dpy, int screen, const int* attribs, int* count);
GLXFBConfig* GetFBConfigs(::Display* dpy, int screen, int* count);
int GetFBConfigAttrib(::Display* dpy, GLXFBConfig config, int attribute, int* value);
XVisualInfo* GetVisualFromFBConfig(::Display* dpy, GLXFBConfig config);

GLXContext CreateContext(::Display* dpy, XVisualInfo* visual, GLXContext share, Bool direct);
GLXContext CreateNewContext(::Display* dpy, GLXFBConfig config, int render_type, GLXContext share,
                            Bool direct);
GLXContext CreateContextAttribsARB(::Display* dpy, GLXFBConfig config, GLXContext share, Bool direct,
                                   const int* attribs);
void DestroyContext(::Display* dpy, GLXContext ctx);
Bool MakeCurrent(::Display* dpy, GLXDrawable drawable, GLXContext ctx);
Bool MakeContextCurrent(::Display* dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx);
void CopyContext(::Display* dpy, GLXContext src, GLXContext dst, unsigned long mask);
int QueryContext(::Display* dpy, GLXContext ctx, int attribute, int* value);
Bool IsDirect(::Display* dpy, GLXContext ctx);
void WaitGL();
void WaitX();

GLXWindow CreateWindow(::Display* dpy, GLXFBConfig config, Window window, const int* attribs);
void DestroyWindow(::Display* dpy, GLXWindow window);
GLXPbuffer CreatePbuffer(::Display* dpy, GLXFBConfig config, const int* attribs);
void DestroyPbuffer(::Display* dpy, GLXPbuffer pbuffer);
GLXPixmap CreatePixmap(::Display* dpy, GLXFBConfig config, Pixmap pixmap, const int* attribs);
void DestroyPixmap(::Display* dpy, GLXPixmap pixmap);
GLXPixmap CreateGLXPixmap(::Display* dpy, XVisualInfo* visual, Pixmap pixmap);
void DestroyGLXPixmap(::Display* dpy, GLXPixmap pixmap);
void QueryDrawable(::Display* dpy, GLXDrawable drawable, int attribute, unsigned int* value);
void SelectEvent(::Display* dpy, GLXDrawable drawable, unsigned long mask);
void GetSelectedEvent(::Display* dpy, GLXDrawable drawable, unsigned long* mask);
void SwapBuffers(::Display* dpy, GLXDrawable drawable);
void SwapIntervalEXT(::Display* dpy, GLXDrawable drawable, int interval);
int SwapIntervalMESA(unsigned int interval);
int GetSwapIntervalMESA();
int SwapIntervalSGI(int interval);
void UseXFont(Font font, int first, int count, int list_base);
Bool QueryRendererIntegerMESA(::Display* dpy, int screen, int renderer, int attribute, unsigned int* value);
Bool QueryCurrentRendererIntegerMESA(int attribute, unsigned int* value);
const char* QueryRendererStringMESA(::Display* dpy, int screen, int renderer, int attribute);
const char* QueryCurrentRendererStringMESA(int attribute);

const char* QueryExtensionsString(::Display* dpy, int screen);
const char* QueryServerString(::Display* dpy, int screen, int name);
const char* GetClientString(::Display* dpy, int name);
Bool IsScreenSupported(::Display* dpy, int screen);

}  // namespace icd::glx
