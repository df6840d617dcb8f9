// GLX protocol numbers Conduit reports errors with (glxproto.h values; that
// header needs the X server's protocol types, so the few numbers are here).
#pragma once

// GLX error codes, relative to the extension's first error.
constexpr int GLXBadContext = 0;
constexpr int GLXBadDrawable = 2;
constexpr int GLXBadPixmap = 3;
constexpr int GLXBadCurrentWindow = 5;
constexpr int GLXBadFBConfig = 9;
constexpr int GLXBadPbuffer = 10;
constexpr int GLXBadWindow = 12;
constexpr int GLXBadProfileARB = 13;

// GLX request minor opcodes.
constexpr int X_GLXCreateContext = 3;
constexpr int X_GLXDestroyContext = 4;
constexpr int X_GLXMakeCurrent = 5;
constexpr int X_GLXIsDirect = 6;
constexpr int X_GLXCopyContext = 10;
constexpr int X_GLXSwapBuffers = 11;
constexpr int X_GLXUseXFont = 12;
constexpr int X_GLXCreateGLXPixmap = 13;
constexpr int X_GLXGetVisualConfigs = 14;
constexpr int X_GLXDestroyGLXPixmap = 15;
constexpr int X_GLXGetFBConfigs = 21;
constexpr int X_GLXCreatePixmap = 22;
constexpr int X_GLXDestroyPixmap = 23;
constexpr int X_GLXCreateNewContext = 24;
constexpr int X_GLXMakeContextCurrent = 26;
constexpr int X_GLXCreatePbuffer = 27;
constexpr int X_GLXDestroyPbuffer = 28;
constexpr int X_GLXGetDrawableAttributes = 29;
constexpr int X_GLXChangeDrawableAttributes = 30;
constexpr int X_GLXCreateWindow = 31;
constexpr int X_GLXDestroyWindow = 32;
constexpr int X_GLXCreateContextAttribsARB = 34;
