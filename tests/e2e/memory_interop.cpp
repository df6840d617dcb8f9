// memory-interop: device memory written through Vulkan, exported as an
// opaque fd and imported into GL (GL_EXT_memory_object_fd), as programs
// that decode or compute with Vulkan and draw with GL do. Prints one
// "key value" line a step:
//   import    GL's error after glImportMemoryFdEXT (0: imported)
//   fd_owned  1 when the import took the fd (closed for the program)
//   read      1 when a buffer placed in the memory reads back what Vulkan wrote
//   past_end  GL's error for a buffer placed past the memory's end
//   too_big   GL's error for a texture whose texels alone exceed the memory
//   not_ours  GL's error importing an fd that is no export (/dev/null)
//   again     GL's error importing the same export a second time
//   too_large GL's error importing a second export of the memory as larger
//   reimport  GL's error importing that export into the memory object
//             imported first
// Exits 0 when every step ran, 2 when the driver lacks a part.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <X11/Xlib.h>
#include <fcntl.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr VkDeviceSize kBytes = 64 << 10;
constexpr GLsizeiptr kRead = 4096;

uint8_t pattern(size_t i) { return static_cast<uint8_t>(i * 7 + 3); }

struct Exported {
  int fd = -1;
  int second = -1;  // another export of the same memory
  VkDeviceSize size = 0;
};

// Vulkan memory of kBytes, host-visible and coherent, filled with the
// pattern and exported as an opaque fd, twice.
bool vulkan_export(Exported* out) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance;
  if (vkCreateInstance(&ici, nullptr, &instance) != VK_SUCCESS) return false;
  uint32_t count = 1;
  VkPhysicalDevice gpu;
  if (vkEnumeratePhysicalDevices(instance, &count, &gpu) < 0 || count == 0) return false;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  const char* extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME};
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &queue;
  dci.enabledExtensionCount = 1;
  dci.ppEnabledExtensionNames = extensions;
  VkDevice device;
  if (vkCreateDevice(gpu, &dci, nullptr, &device) != VK_SUCCESS) return false;
  VkPhysicalDeviceMemoryProperties props;
  vkGetPhysicalDeviceMemoryProperties(gpu, &props);
  const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = 0;
  while (type < props.memoryTypeCount && (props.memoryTypes[type].propertyFlags & wanted) != wanted) ++type;
  if (type == props.memoryTypeCount) return false;
  VkExportMemoryAllocateInfo exportable{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  exportable.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &exportable, kBytes, type};
  VkDeviceMemory memory;
  if (vkAllocateMemory(device, &mai, nullptr, &memory) != VK_SUCCESS) return false;
  void* mapped = nullptr;
  if (vkMapMemory(device, memory, 0, kBytes, 0, &mapped) != VK_SUCCESS) return false;
  for (size_t i = 0; i < kBytes; ++i) static_cast<uint8_t*>(mapped)[i] = pattern(i);
  vkUnmapMemory(device, memory);
  auto get_fd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(device, "vkGetMemoryFdKHR"));
  VkMemoryGetFdInfoKHR gfi{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR, nullptr, memory,
                           VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  if (!get_fd || get_fd(device, &gfi, &out->fd) != VK_SUCCESS || get_fd(device, &gfi, &out->second) != VK_SUCCESS)
    return false;
  out->size = kBytes;
  return true;  // the device and its memory live until the program exits
}

// A desktop GL context on the X display's EGL, current.
bool gl_context() {
  Display* x = XOpenDisplay(nullptr);
  EGLDisplay dpy = eglGetDisplay(reinterpret_cast<EGLNativeDisplayType>(x));
  if (!x || !eglInitialize(dpy, nullptr, nullptr) || !eglBindAPI(EGL_OPENGL_API)) return false;
  const EGLint attrs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
  EGLConfig config;
  EGLint n = 0;
  if (!eglChooseConfig(dpy, attrs, &config, 1, &n) || n == 0) return false;
  const EGLint size[] = {EGL_WIDTH, 4, EGL_HEIGHT, 4, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(dpy, config, size);
  EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, nullptr);
  return ctx && eglMakeCurrent(dpy, surface, surface, ctx);
}

template <typename Fn>
Fn gl(const char* name) {
  return reinterpret_cast<Fn>(eglGetProcAddress(name));
}

bool offered(const char* name) {
  GLint n = 0;
  gl<void (*)(GLenum, GLint*)>("glGetIntegerv")(GL_NUM_EXTENSIONS, &n);
  auto stringi = gl<PFNGLGETSTRINGIPROC>("glGetStringi");
  for (GLint i = 0; i < n; ++i)
    if (std::strcmp(reinterpret_cast<const char*>(stringi(GL_EXTENSIONS, i)), name) == 0) return true;
  return false;
}

}  // namespace

int main() {
  Exported exported;
  if (!vulkan_export(&exported) || !gl_context()) return 2;
  if (!offered("GL_EXT_memory_object_fd")) return 2;
  auto error = gl<GLenum (*)()>("glGetError");
  auto create_memory = gl<PFNGLCREATEMEMORYOBJECTSEXTPROC>("glCreateMemoryObjectsEXT");
  auto import_fd = gl<PFNGLIMPORTMEMORYFDEXTPROC>("glImportMemoryFdEXT");
  auto create_buffers = gl<PFNGLCREATEBUFFERSPROC>("glCreateBuffers");
  auto buffer_in_memory = gl<PFNGLNAMEDBUFFERSTORAGEMEMEXTPROC>("glNamedBufferStorageMemEXT");
  auto read_buffer = gl<PFNGLGETNAMEDBUFFERSUBDATAPROC>("glGetNamedBufferSubData");
  auto create_textures = gl<PFNGLCREATETEXTURESPROC>("glCreateTextures");
  auto texture_in_memory = gl<PFNGLTEXTURESTORAGEMEM2DEXTPROC>("glTextureStorageMem2DEXT");

  const int kept = dup(exported.fd);  // to import the same export again
  GLuint memory[3] = {};
  create_memory(3, memory);
  import_fd(memory[0], exported.size, GL_HANDLE_TYPE_OPAQUE_FD_EXT, exported.fd);
  std::printf("import 0x%x\n", error());
  errno = 0;
  std::printf("fd_owned %d\n", fcntl(exported.fd, F_GETFD) == -1 && errno == EBADF);

  GLuint buffers[2] = {};
  create_buffers(2, buffers);
  buffer_in_memory(buffers[0], kRead, memory[0], 0);
  std::vector<uint8_t> back(kRead);
  read_buffer(buffers[0], 0, kRead, back.data());
  bool same = error() == GL_NO_ERROR;
  for (size_t i = 0; i < back.size(); ++i) same = same && back[i] == pattern(i);
  std::printf("read %d\n", same);
  buffer_in_memory(buffers[1], kRead, memory[0], exported.size - kRead / 2);
  std::printf("past_end 0x%x\n", error());

  GLuint texture = 0;
  create_textures(GL_TEXTURE_2D, 1, &texture);
  texture_in_memory(texture, 1, GL_RGBA8, 1024, 1024, memory[0], 0);
  std::printf("too_big 0x%x\n", error());

  const int null_fd = open("/dev/null", O_RDONLY);
  import_fd(memory[1], exported.size, GL_HANDLE_TYPE_OPAQUE_FD_EXT, null_fd);
  std::printf("not_ours 0x%x\n", error());
  import_fd(memory[2], exported.size, GL_HANDLE_TYPE_OPAQUE_FD_EXT, kept);
  std::printf("again 0x%x\n", error());
  import_fd(memory[1], exported.size * 2, GL_HANDLE_TYPE_OPAQUE_FD_EXT, exported.second);
  std::printf("too_large 0x%x\n", error());
  import_fd(memory[0], exported.size, GL_HANDLE_TYPE_OPAQUE_FD_EXT, exported.second);
  std::printf("reimport 0x%x\n", error());
  return 0;
}
