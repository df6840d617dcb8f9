// Conduit's own commands, beside the generated GL ones: session handshake,
// contexts, surfaces, frames and replies. Payloads are fixed structs of
// 32-bit fields (plus a trailing Data where noted), written with Writer::put.
#pragma once

#include <cstdint>

namespace wire {

enum class ControlOp : uint32_t {
  // guest -> host
  kHello = 1,           // Hello; host replies HelloReply
  kCreateContext = 2,   // CreateContext; host replies u32 status (0 = ok)
  kDestroyContext = 3,  // ObjectId
  kMakeCurrent = 4,     // MakeCurrent
  kCreateSurface = 5,   // CreateSurface
  kDestroySurface = 6,  // ObjectId
  kResizeSurface = 7,   // ResizeSurface
  kSwapBuffers = 8,     // SwapBuffers; host later sends a kFrame
  kSync = 9,            // empty; host replies empty once all before it ran
  kGetStats = 10,       // empty; host replies JSON text
  kFrameDone = 11,      // FrameDone: the guest finished with a frame's blob
  kTestFault = 12,      // TestFault; only a host started with --test-faults
                        // honours it (tests of renderer isolation); replies u32 errno
  kCreateImage = 13,    // CreateImage; host replies u32 EGL error (EGL_SUCCESS = made)
  kDestroyImage = 14,   // ObjectId
  kUniformReach = 15,   // UniformReach, on the current GL context; host replies i32:
                        // the values to send, or -1: send no call (GL's error is recorded)
  kContextStrings = 16,  // empty, on the current GL context; host replies u32 status (0: a
                         // Data follows, wire/context_strings.h; 1: none, past its bound)
  kBindTexImage = 17,   // BindTexImage, on the current GL context (eglBindTexImage and
                        // eglReleaseTexImage, with kFeatureTexturePbuffers); no reply

  // host -> guest
  kReply = 32,          // Data: the reply to the batch that wanted one
  kFrame = 33,          // Frame + Data (pixels)
  kContextLost = 34,    // ContextLost
  kInput = 35,          // Input: a viewer's key or pointer event for a surface's window
  kFencesSignalled = 36,  // u32 count, then count u64 VkFence ids the host saw signalled
                          // (sent after a Vulkan present, for the fences submitted before it)
  kRefused = 37,        // Data: why the host will not serve this guest (a cap or its
                        // memory budget), in place of the reply to its Hello; then it closes
  kProgramReflection = 38,  // ProgramLinked + Data (wire/program_reflection.h): sent unasked
                            // after each link of a program, with kFeatureProgramReflection
};

constexpr uint32_t kLastControlOp = 63;

enum class Api : uint32_t { kGles = 1, kGl = 2 };
enum class Profile : uint32_t { kNone = 0, kCore = 1, kCompatibility = 2 };

enum Feature : uint32_t {
  kFeatureCompression = 1u << 0,
  kFeatureBlobHeap = 1u << 1,
  kFeatureGles1 = 1u << 2,  // OpenGL ES 1.x contexts (the host offers them)
  kFeatureGlImages = 1u << 3,  // EGL images of GL textures and renderbuffers
  kFeatureSrgbSurfaces = 1u << 4,  // surfaces GL writes sRGB-encoded colours into (EGL_KHR_gl_colorspace)
  kFeatureUniformReach = 1u << 5,  // kUniformReach
  kFeatureProgramReflection = 1u << 6,  // kProgramReflection
  kFeatureContextStrings = 1u << 7,  // kContextStrings
  kFeatureTexturePbuffers = 1u << 8,  // pbuffers bound to textures (kSurfaceTexture*, kBindTexImage)
};

// May be followed by a Data holding the program's name (for viewers' labels).
struct Hello {
  uint32_t protocol_version;
  uint32_t features;  // Feature bits the guest can use
  uint32_t pid;       // guest process id, for logs
};

// Followed by a Data holding "renderer\0vendor\0gl_version\0platform\0".
struct HelloReply {
  uint32_t protocol_version;
  uint32_t features;   // agreed subset
  uint32_t session_id;
  uint32_t max_gles_version;  // major * 10 + minor, 0 when unavailable
  uint32_t max_gl_core_version;
  uint32_t max_gl_compat_version;
  uint32_t max_batch_bytes;
};

struct ObjectId {
  uint32_t id;
};

struct CreateContext {
  uint32_t context_id;  // guest-chosen, nonzero
  uint32_t share_id;    // 0 = no sharing
  uint32_t api;         // Api
  uint32_t major;
  uint32_t minor;
  uint32_t profile;     // Profile
  uint32_t flags;       // ContextFlag bits
};

enum ContextFlag : uint32_t {
  kContextDebug = 1,
  kContextRobustAccess = 2,
  kContextForwardCompatible = 4,  // OpenGL 3.0 on: GL_CONTEXT_FLAGS says so
  kContextReleaseNone = 8,        // releasing the context does not flush it (KHR_context_flush_control)
};

// How many of a glUniform*v or glProgramUniform*v call's `count` values GL
// will read at `location` (of `program`, or with 0 the one in use): asked
// before sending a call whose count would have the guest copy more of the
// program's memory than any uniform can hold.
struct UniformReach {
  uint32_t program;
  int32_t location;
  int32_t count;
};

// Which link a kProgramReflection tells of: one is sent for every
// glLinkProgram, glProgramBinary and glCreateShaderProgramv the host ran,
// in the order it ran them.
struct ProgramLinked {
  uint32_t context_id;  // whose batch linked it: the guest's share group
  uint32_t program;     // the guest's name
};

// An EGL image of a context's texture level or renderbuffer
// (EGL_KHR_gl_texture_2D/cubemap/3D_image, EGL_KHR_gl_renderbuffer_image).
struct CreateImage {
  uint32_t image_id;    // guest-chosen, nonzero
  uint32_t context_id;  // whose share group names `buffer`
  uint32_t target;      // EGL_GL_TEXTURE_2D_KHR ... EGL_GL_RENDERBUFFER_KHR
  uint32_t buffer;      // the guest's texture or renderbuffer name
  uint32_t level;       // EGL_GL_TEXTURE_LEVEL_KHR
  uint32_t zoffset;     // EGL_GL_TEXTURE_ZOFFSET_KHR
  uint32_t preserved;   // EGL_IMAGE_PRESERVED_KHR
};

struct MakeCurrent {
  uint32_t context_id;  // 0 = release
  uint32_t draw_id;     // surface ids, 0 = surfaceless
  uint32_t read_id;
};

struct SurfaceConfig {
  uint32_t red, green, blue, alpha;
  uint32_t depth, stencil, samples;
};

// CreateSurface flags.
constexpr uint32_t kSurfaceDoubleBuffered = 1;  // GL_FRONT is a buffer of its own
constexpr uint32_t kSurfaceWindow = 2;          // shown: by swaps, and by flushes after drawing into its front
constexpr uint32_t kSurfaceSrgb = 4;            // EGL_GL_COLORSPACE_SRGB (with kFeatureSrgbSurfaces)
// A pbuffer that can be bound to a 2D texture (with kFeatureTexturePbuffers):
// its EGL_TEXTURE_FORMAT, and EGL_MIPMAP_TEXTURE.
constexpr uint32_t kSurfaceTextureRgb = 8;
constexpr uint32_t kSurfaceTextureRgba = 16;
constexpr uint32_t kSurfaceMipmapTexture = 32;

struct CreateSurface {
  uint32_t surface_id;  // guest-chosen, nonzero
  uint32_t width;
  uint32_t height;
  SurfaceConfig config;
  uint32_t flags;       // kSurface*
};

// Binds a texture pbuffer's colour buffer to the GL_TEXTURE_2D bound in the
// current context (bind 1), or releases it (bind 0).
struct BindTexImage {
  uint32_t surface_id;
  uint32_t bind;
};

struct ResizeSurface {
  uint32_t surface_id;
  uint32_t width;
  uint32_t height;
};

struct SwapBuffers {
  uint32_t surface_id;
  uint32_t frame_id;  // guest-chosen, increasing per surface
};

// What a renderer under test does to itself.
enum class Fault : uint32_t {
  kNullWrite = 1,   // crashes (SIGSEGV)
  kAbort = 2,       // abort()
  kCreateFile = 3,  // tries to create a file; replies its errno
  kSocket = 4,      // tries to create a socket; replies its errno
  kAllocate = 5,    // tries to allocate and touch `bytes`; replies 0 or ENOMEM
  kFork = 6,        // tries to start a process; replies its errno
  kWriteFile = 7,   // tries to open /tmp/conduit-fault-write-PID (its host) for writing; replies its errno
  kForbidden = 8,   // tries forbidden thing number `bytes` (the host's list); replies its errno
  kStall = 9,       // sleeps `bytes` milliseconds inside the command, as a driver call that hangs; replies 0
  kCreateIn = 10,   // tries to create a file in the folder the Data after it names (empty: its
                    // shader cache); replies its errno
};

struct TestFault {
  uint32_t fault;
  uint32_t reserved;
  uint64_t bytes;
};

struct FrameDone {
  uint32_t surface_id;
  uint32_t frame_id;
};

// Pixels are BGRA8 rows, top row first, `stride` bytes apart.
struct Frame {
  uint32_t surface_id;
  uint32_t frame_id;
  uint32_t width;
  uint32_t height;
  uint32_t stride;
};

// What a host viewer's user did over a surface's picture; x and y are
// in the surface's pixels.
enum class InputKind : uint32_t { kKey = 1, kButton = 2, kMotion = 3 };

struct Input {
  uint32_t surface_id;
  uint32_t kind;     // InputKind
  uint32_t pressed;  // keys and buttons: 1 down, 0 up
  uint32_t code;     // keys: X11 keysym; buttons: X11 button number
  int32_t x;
  int32_t y;
};

// The context id a lost Vulkan (every Vulkan object of the guest) is told by.
constexpr uint32_t kVulkanContextId = 0xFFFFFFFFu;

struct ContextLost {
  uint32_t context_id;
  uint32_t opcode;
  uint32_t offset;
};

}  // namespace wire
