// three-apis: clears a GLX pbuffer and an EGL pbuffer and reads a pixel of
// each back, then names the Vulkan device: one program using the three
// front ends, as a toolkit with a GL canvas and a Vulkan video path does.
// Prints "glx R,G,B egl R,G,B vulkan NAME"; exits 0 when all three worked.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <vulkan/vulkan.h>

#include <cstdio>

namespace {

using ClearColor = void (*)(float, float, float, float);
using Clear = void (*)(unsigned);
using ReadPixels = void (*)(int, int, int, int, unsigned, unsigned, void*);

constexpr unsigned kColorBufferBit = 0x4000, kRgba = 0x1908, kUnsignedByte = 0x1401;

// Clears to (r, g, b) and reads one pixel back, through the entry points
// `lookup` gives.
template <typename Lookup>
bool clear_and_read(Lookup lookup, float r, float g, float b, unsigned char out[4]) {
  auto clear_color = reinterpret_cast<ClearColor>(lookup("glClearColor"));
  auto clear = reinterpret_cast<Clear>(lookup("glClear"));
  auto read_pixels = reinterpret_cast<ReadPixels>(lookup("glReadPixels"));
  if (!clear_color || !clear || !read_pixels) return false;
  clear_color(r, g, b, 1.0f);
  clear(kColorBufferBit);
  read_pixels(0, 0, 1, 1, kRgba, kUnsignedByte, out);
  return true;
}

bool glx_frame(unsigned char px[4]) {
  Display* dpy = XOpenDisplay(nullptr);
  if (!dpy) return false;
  const int attrs[] = {GLX_DRAWABLE_TYPE, GLX_PBUFFER_BIT, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None};
  int n = 0;
  GLXFBConfig* configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attrs, &n);
  if (!configs || n == 0) return false;
  const int size[] = {GLX_PBUFFER_WIDTH, 4, GLX_PBUFFER_HEIGHT, 4, None};
  GLXPbuffer pbuffer = glXCreatePbuffer(dpy, configs[0], size);
  GLXContext ctx = glXCreateNewContext(dpy, configs[0], GLX_RGBA_TYPE, nullptr, True);
  if (!ctx || !glXMakeContextCurrent(dpy, pbuffer, pbuffer, ctx)) return false;
  auto lookup = [](const char* name) { return glXGetProcAddress(reinterpret_cast<const GLubyte*>(name)); };
  const bool read = clear_and_read(lookup, 1.0f, 0.0f, 0.0f, px);
  // libglvnd makes an EGL context current only once no GLX one is.
  return glXMakeContextCurrent(dpy, None, None, nullptr) && read;
}

bool egl_frame(unsigned char px[4]) {
  auto platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!platform_display) return false;
  EGLDisplay dpy = platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(dpy, nullptr, nullptr) || !eglBindAPI(EGL_OPENGL_ES_API)) return false;
  const EGLint attrs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint n = 0;
  if (!eglChooseConfig(dpy, attrs, &config, 1, &n) || n == 0) return false;
  const EGLint size[] = {EGL_WIDTH, 4, EGL_HEIGHT, 4, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(dpy, config, size);
  const EGLint version[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, version);
  if (!ctx || !eglMakeCurrent(dpy, surface, surface, ctx)) return false;
  auto lookup = [](const char* name) { return eglGetProcAddress(name); };
  return clear_and_read(lookup, 0.0f, 0.0f, 1.0f, px);
}

bool vulkan_device(char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE]) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  if (vkCreateInstance(&info, nullptr, &instance) != VK_SUCCESS) return false;
  uint32_t count = 1;
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  const VkResult r = vkEnumeratePhysicalDevices(instance, &count, &gpu);
  if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) return false;
  VkPhysicalDeviceProperties props{};
  vkGetPhysicalDeviceProperties(gpu, &props);
  snprintf(name, VK_MAX_PHYSICAL_DEVICE_NAME_SIZE, "%s", props.deviceName);
  vkDestroyInstance(instance, nullptr);
  return true;
}

}  // namespace

int main() {
  unsigned char glx[4] = {}, egl[4] = {};
  char gpu[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE] = {};
  const bool ok = glx_frame(glx) && egl_frame(egl) && vulkan_device(gpu);
  std::printf("glx %d,%d,%d egl %d,%d,%d vulkan %s\n", glx[0], glx[1], glx[2], egl[0], egl[1], egl[2], gpu);
  return ok ? 0 : 1;
}
