// The guest's GL state tracking against a real host: client-side arrays and
// indices, pixel-store state, mapped buffers, cached queries and names.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "egl/api.h"
#include "host_process.h"
#include "icd/stream.h"
#include "wire/gl_types.h"

namespace icd::egl {
namespace {

constexpr GLenum kTriangles = 0x0004, kFloat = 0x1406, kUbyte = 0x1401, kUshort = 0x1403;
constexpr GLenum kRgba = 0x1908, kRgb = 0x1907, kTexture2D = 0x0DE1, kArrayBuffer = 0x8892;
constexpr GLenum kFramebuffer = 0x8D40, kColorAttachment0 = 0x8CE0;
constexpr GLenum kVertexShader = 0x8B31, kFragmentShader = 0x8B30, kColorBufferBit = 0x4000;
constexpr GLenum kStaticDraw = 0x88E4, kMapRead = 0x0001, kMapWrite = 0x0002;
constexpr GLenum kRenderer = 0x1F01, kMaxTextureSize = 0x0D33;
constexpr GLenum kUnpackAlignment = 0x0CF5;

guesttest::HostProcess& host() {
  static guesttest::HostProcess h;
  return h;
}

template <typename Fn>
Fn gl(const char* name) {
  return reinterpret_cast<Fn>(icd::gl_proc_address(name));
}

class GlState : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(host().ok()) << host().error();
    setenv("CONDUIT_HOST", host().address().c_str(), 1);
    dpy_ = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
    ASSERT_TRUE(Initialize(dpy_, nullptr, nullptr));
    ASSERT_TRUE(BindAPI(desktop_ ? EGL_OPENGL_API : EGL_OPENGL_ES_API));
    const EGLint want[] = {EGL_RENDERABLE_TYPE, desktop_ ? EGL_OPENGL_BIT : EGL_OPENGL_ES3_BIT,
                           EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint n = 0;
    ASSERT_TRUE(ChooseConfig(dpy_, want, &config, 1, &n));
    const EGLint size[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    surface_ = CreatePbufferSurface(dpy_, config, size);
    const EGLint version[] = {EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE};
    context_ = CreateContext(dpy_, config, EGL_NO_CONTEXT, desktop_ ? nullptr : version);
    ASSERT_TRUE(MakeCurrent(dpy_, surface_, surface_, context_));
  }
  void TearDown() override {
    MakeCurrent(dpy_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    DestroyContext(dpy_, context_);
    DestroySurface(dpy_, surface_);
  }

  // A program of `vs` and `fs`, attributes 0 "pos" and 1 "col", in use.
  GLuint use_program(const char* vs, const char* fs) {
    auto create_shader = gl<GLuint (*)(GLenum)>("glCreateShader");
    auto source = gl<void (*)(GLuint, GLsizei, const GLchar* const*, const GLint*)>("glShaderSource");
    auto compile = gl<void (*)(GLuint)>("glCompileShader");
    auto attach = gl<void (*)(GLuint, GLuint)>("glAttachShader");
    GLuint program = gl<GLuint (*)()>("glCreateProgram")();
    for (auto [type, text] : {std::pair{kVertexShader, vs}, std::pair{kFragmentShader, fs}}) {
      GLuint s = create_shader(type);
      source(s, 1, &text, nullptr);
      compile(s);
      attach(program, s);
    }
    auto bind = gl<void (*)(GLuint, GLuint, const GLchar*)>("glBindAttribLocation");
    bind(program, 0, "pos");
    bind(program, 1, "col");
    gl<void (*)(GLuint)>("glLinkProgram")(program);
    gl<void (*)(GLuint)>("glUseProgram")(program);
    return program;
  }

  // A program that paints every fragment with the vertex colour.
  GLuint colour_program() {
    return use_program("attribute vec2 pos; attribute vec4 col; varying vec4 v;"
                       "void main() { v = col; gl_Position = vec4(pos, 0.0, 1.0); }",
                       "precision mediump float; varying vec4 v; void main() { gl_FragColor = v; }");
  }

  std::array<uint8_t, 4> pixel(int x, int y) {
    std::array<uint8_t, 4> rgba{};
    gl<void (*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void*)>("glReadPixels")(
        x, y, 1, 1, kRgba, kUbyte, rgba.data());
    return rgba;
  }

  // Client arrays 0 (positions) and 1 (colours) of eight vertices: the
  // first four `left`, the last four `right`.
  void eight_vertex_arrays(const float* pos, std::array<uint8_t, 4> left, std::array<uint8_t, 4> right) {
    for (int v = 0; v < 8; ++v) std::memcpy(colours_[v], (v < 4 ? left : right).data(), 4);
    auto pointer = gl<void (*)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void*)>(
        "glVertexAttribPointer");
    pointer(0, 2, kFloat, 0, 0, pos);
    pointer(1, 4, kUbyte, 1, 0, colours_);
    gl<void (*)(GLuint)>("glEnableVertexAttribArray")(0);
    gl<void (*)(GLuint)>("glEnableVertexAttribArray")(1);
  }
  uint8_t colours_[8][4] = {};

  // Whether the guest's GL offers an extension, as a program sees it.
  bool offers(const char* name) {
    constexpr GLenum kExtensions = 0x1F03, kNumExtensions = 0x821D;
    GLint n = 0;
    gl<void (*)(GLenum, GLint*)>("glGetIntegerv")(kNumExtensions, &n);
    auto stringi = gl<const GLubyte* (*)(GLenum, GLuint)>("glGetStringi");
    for (GLint i = 0; i < n; ++i) {
      if (std::strcmp(reinterpret_cast<const char*>(stringi(kExtensions, i)), name) == 0) return true;
    }
    return false;
  }

  bool desktop_ = false;  // a desktop GL compatibility context instead of GLES 3
  EGLDisplay dpy_ = EGL_NO_DISPLAY;
  EGLSurface surface_ = EGL_NO_SURFACE;
  EGLContext context_ = EGL_NO_CONTEXT;
};

TEST_F(GlState, ClientArraysAndClientIndicesDraw) {
  colour_program();
  // Two triangles covering the surface; positions and colours in client memory.
  const float pos[] = {-1, -1, 1, -1, 1, 1, -1, 1, 0, 0};
  const uint8_t col[] = {0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255,
                         255, 0, 0, 255};
  const uint16_t indices[] = {0, 1, 2, 0, 2, 3};
  auto pointer = gl<void (*)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void*)>(
      "glVertexAttribPointer");
  auto enable = gl<void (*)(GLuint)>("glEnableVertexAttribArray");
  pointer(0, 2, kFloat, 0, 0, pos);
  pointer(1, 4, kUbyte, 1, 0, col);
  enable(0);
  enable(1);
  gl<void (*)(GLenum, GLsizei, GLenum, const void*)>("glDrawElements")(kTriangles, 6, kUshort,
                                                                      indices);
  EXPECT_EQ(pixel(8, 8), (std::array<uint8_t, 4>{0, 255, 0, 255}));
  void* got = nullptr;
  gl<void (*)(GLuint, GLenum, void**)>("glGetVertexAttribPointerv")(0, 0x8645, &got);
  EXPECT_EQ(got, pos);  // answered by the guest: its own pointer
}

// One glMultiDrawElementsBaseVertex draws both halves: the left from
// vertices 0-3, the right from 4-7 through the base vertex. Client indices
// and arrays first (the guest sends the vertices of every part), then the
// same indices from an element buffer.
TEST_F(GlState, MultiDrawElementsBaseVertexDrawsEveryPart) {
  constexpr GLenum kElementArrayBuffer = 0x8893;
  ASSERT_TRUE(offers("GL_EXT_draw_elements_base_vertex"));
  colour_program();
  const float pos[] = {-1, -1, 0, -1, 0, 1, -1, 1, 0, -1, 1, -1, 1, 1, 0, 1};
  eight_vertex_arrays(pos, {0, 255, 0, 255}, {0, 0, 255, 255});
  const uint16_t quad[] = {0, 1, 2, 0, 2, 3};
  auto multi_draw = gl<void (*)(GLenum, const GLsizei*, GLenum, const void* const*, GLsizei,
                                const GLint*)>("glMultiDrawElementsBaseVertexEXT");
  const GLsizei counts[] = {6, 6};
  const GLint bases[] = {0, 4};
  const void* client_parts[] = {quad, quad};
  multi_draw(kTriangles, counts, kUshort, client_parts, 2, bases);
  EXPECT_EQ(pixel(4, 8), (std::array<uint8_t, 4>{0, 255, 0, 255}));
  EXPECT_EQ(pixel(12, 8), (std::array<uint8_t, 4>{0, 0, 255, 255}));

  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0, 0, 0, 1);
  gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kElementArrayBuffer, buffer);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kElementArrayBuffer,
                                                                       sizeof quad, quad, kStaticDraw);
  // Vertices from a buffer too: client arrays with an index buffer are not carried.
  GLuint vertices = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &vertices);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, vertices);
  std::vector<uint8_t> both(sizeof pos + sizeof colours_);
  std::memcpy(both.data(), pos, sizeof pos);
  std::memcpy(both.data() + sizeof pos, colours_, sizeof colours_);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kArrayBuffer, both.size(),
                                                                       both.data(), kStaticDraw);
  auto pointer = gl<void (*)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void*)>(
      "glVertexAttribPointer");
  pointer(0, 2, kFloat, 0, 0, nullptr);
  pointer(1, 4, kUbyte, 1, 0, reinterpret_cast<const void*>(sizeof pos));
  const void* offsets[] = {nullptr, nullptr};
  multi_draw(kTriangles, counts, kUshort, offsets, 2, bases);
  EXPECT_EQ(pixel(4, 8), (std::array<uint8_t, 4>{0, 255, 0, 255}));
  EXPECT_EQ(pixel(12, 8), (std::array<uint8_t, 4>{0, 0, 255, 255}));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// Client indices with primitive restart: the restart index names no vertex,
// so the guest sends the arrays' eight vertices, not 65536.
TEST_F(GlState, PrimitiveRestartDrawsFromClientArrays) {
  constexpr GLenum kTriangleStrip = 0x0005, kRestartFixedIndex = 0x8D69;
  colour_program();
  const float pos[] = {-1, -1, 0, -1, -1, 1, 0, 1, 0, -1, 1, -1, 0, 1, 1, 1};
  eight_vertex_arrays(pos, {255, 0, 0, 255}, {0, 0, 255, 255});
  const uint16_t strips[] = {0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7};
  gl<void (*)(GLenum)>("glEnable")(kRestartFixedIndex);
  gl<void (*)(GLenum, GLsizei, GLenum, const void*)>("glDrawElements")(kTriangleStrip, 9, kUshort,
                                                                      strips);
  EXPECT_EQ(pixel(4, 8), (std::array<uint8_t, 4>{255, 0, 0, 255}));
  EXPECT_EQ(pixel(12, 8), (std::array<uint8_t, 4>{0, 0, 255, 255}));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// A client array with a divisor advances per instance: eight instances of
// a four-vertex strip read eight colours, so the guest sends eight.
TEST_F(GlState, InstancedClientArraysSendEveryInstancesElements) {
  constexpr GLenum kTriangleStrip = 0x0005;
  const char* vs = "#version 300 es\nin vec2 pos; in vec4 col; out vec4 v;\n"
                   "void main() { v = col; gl_Position = vec4(pos.x + 0.25 * float(gl_InstanceID), pos.y, 0, 1); }";
  const char* fs = "#version 300 es\nprecision mediump float; in vec4 v; out vec4 o; void main() { o = v; }";
  use_program(vs, fs);
  const float pos[] = {-1, -1, -0.75f, -1, -1, 1, -0.75f, 1};
  uint8_t col[8][4];
  for (int i = 0; i < 8; ++i) {
    const uint8_t c[4] = {static_cast<uint8_t>(30 * i), static_cast<uint8_t>(255 - 30 * i), 128, 255};
    std::memcpy(col[i], c, 4);
  }
  auto pointer = gl<void (*)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void*)>(
      "glVertexAttribPointer");
  pointer(0, 2, kFloat, 0, 0, pos);
  pointer(1, 4, kUbyte, 1, 0, col);
  gl<void (*)(GLuint)>("glEnableVertexAttribArray")(0);
  gl<void (*)(GLuint)>("glEnableVertexAttribArray")(1);
  gl<void (*)(GLuint, GLuint)>("glVertexAttribDivisor")(1, 1);
  gl<void (*)(GLenum, GLint, GLsizei, GLsizei)>("glDrawArraysInstanced")(kTriangleStrip, 0, 4, 8);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(pixel(2 * i + 1, 8), (std::array<uint8_t, 4>{col[i][0], col[i][1], col[i][2], 255}))
        << "instance " << i;
  }
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

TEST_F(GlState, PixelStoreSizesOddRows) {
  // A 3x2 RGB texture with rows of 9 bytes: only right with UNPACK_ALIGNMENT 1.
  const uint8_t texels[] = {10, 20, 30, 40, 50, 60, 70, 80, 90,
                            11, 21, 31, 41, 51, 61, 71, 81, 91};
  auto pixel_store = gl<void (*)(GLenum, GLint)>("glPixelStorei");
  pixel_store(kUnpackAlignment, 1);
  GLuint tex = 0, fbo = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(1, &tex);
  gl<void (*)(GLenum, GLuint)>("glBindTexture")(kTexture2D, tex);
  gl<void (*)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void*)>(
      "glTexImage2D")(kTexture2D, 0, kRgb, 3, 2, 0, kRgb, kUbyte, texels);
  gl<void (*)(GLsizei, GLuint*)>("glGenFramebuffers")(1, &fbo);
  gl<void (*)(GLenum, GLuint)>("glBindFramebuffer")(kFramebuffer, fbo);
  gl<void (*)(GLenum, GLenum, GLenum, GLuint, GLint)>("glFramebufferTexture2D")(
      kFramebuffer, kColorAttachment0, kTexture2D, tex, 0);
  // OpenGL ES reads back RGBA: compare the colour channels texel by texel.
  std::vector<uint8_t> back(24, 0);
  gl<void (*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void*)>("glReadPixels")(
      0, 0, 3, 2, kRgba, kUbyte, back.data());
  for (int t = 0; t < 6; ++t) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(back[t * 4 + c], texels[t * 3 + c]) << t << "/" << c;
  }
}

TEST_F(GlState, MappedBufferWritesReachTheHostAndReadBack) {
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  EXPECT_NE(buffer, 0u);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, buffer);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kArrayBuffer, 256,
                                                                       nullptr, kStaticDraw);
  auto map = gl<void* (*)(GLenum, GLintptr, GLsizeiptr, GLbitfield)>("glMapBufferRange");
  auto unmap = gl<GLboolean (*)(GLenum)>("glUnmapBuffer");
  auto* w = static_cast<uint8_t*>(map(kArrayBuffer, 64, 128, kMapWrite));
  ASSERT_NE(w, nullptr);
  for (int i = 0; i < 128; ++i) w[i] = static_cast<uint8_t>(i * 3);
  EXPECT_TRUE(unmap(kArrayBuffer));
  auto* r = static_cast<const uint8_t*>(map(kArrayBuffer, 64, 128, kMapRead));
  ASSERT_NE(r, nullptr);
  for (int i = 0; i < 128; ++i) ASSERT_EQ(r[i], static_cast<uint8_t>(i * 3)) << i;
  EXPECT_TRUE(unmap(kArrayBuffer));
}

// Answers past the shared heap's threshold travel in the heap on `shm:`
// transports: a 64x64 texture read back whole, and a mapped 64 KiB buffer,
// arrive byte for byte.
TEST_F(GlState, LargeReadbacksArriveWhole) {
  auto get_error = gl<GLenum (*)()>("glGetError");
  constexpr int kSide = 64;
  std::vector<uint8_t> texels(kSide * kSide * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<uint8_t>(i * 7 + i / 251);
  GLuint tex = 0, fbo = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(1, &tex);
  gl<void (*)(GLenum, GLuint)>("glBindTexture")(kTexture2D, tex);
  gl<void (*)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void*)>(
      "glTexImage2D")(kTexture2D, 0, kRgba, kSide, kSide, 0, kRgba, kUbyte, texels.data());
  gl<void (*)(GLsizei, GLuint*)>("glGenFramebuffers")(1, &fbo);
  gl<void (*)(GLenum, GLuint)>("glBindFramebuffer")(kFramebuffer, fbo);
  gl<void (*)(GLenum, GLenum, GLenum, GLuint, GLint)>("glFramebufferTexture2D")(
      kFramebuffer, kColorAttachment0, kTexture2D, tex, 0);
  std::vector<uint8_t> back(texels.size(), 0);
  gl<void (*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void*)>("glReadPixels")(
      0, 0, kSide, kSide, kRgba, kUbyte, back.data());
  EXPECT_EQ(get_error(), 0u);
  EXPECT_TRUE(back == texels) << "first difference at byte "
                              << (std::mismatch(back.begin(), back.end(), texels.begin()).first -
                                  back.begin());

  constexpr GLsizeiptr kBytes = 64 * 1024;
  std::vector<uint8_t> contents(kBytes);
  for (size_t i = 0; i < contents.size(); ++i) contents[i] = static_cast<uint8_t>(i * 13 + i / 509);
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, buffer);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kArrayBuffer, kBytes,
                                                                       contents.data(), kStaticDraw);
  auto map = gl<void* (*)(GLenum, GLintptr, GLsizeiptr, GLbitfield)>("glMapBufferRange");
  auto* r = static_cast<const uint8_t*>(map(kArrayBuffer, 0, kBytes, kMapRead));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(std::memcmp(r, contents.data(), kBytes), 0);
  EXPECT_TRUE(gl<GLboolean (*)(GLenum)>("glUnmapBuffer")(kArrayBuffer));
}

// GL_EXT_buffer_storage is made of an alias of desktop GL's glBufferStorage,
// which OpenGL ES has no version of: offered, and carried to the host's
// extension entry point.
TEST_F(GlState, BufferStorageThroughItsExtension) {
  constexpr GLenum kMapReadBit = 0x0001;
  ASSERT_TRUE(offers("GL_EXT_buffer_storage"));
  std::array<uint8_t, 256> contents{};
  for (size_t i = 0; i < contents.size(); ++i) contents[i] = static_cast<uint8_t>(255 - i);
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, buffer);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLbitfield)>("glBufferStorageEXT")(
      kArrayBuffer, contents.size(), contents.data(), kMapReadBit);
  auto map = gl<void* (*)(GLenum, GLintptr, GLsizeiptr, GLbitfield)>("glMapBufferRange");
  auto* r = static_cast<const uint8_t*>(map(kArrayBuffer, 0, contents.size(), kMapRead));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(std::memcmp(r, contents.data(), contents.size()), 0);
  EXPECT_TRUE(gl<GLboolean (*)(GLenum)>("glUnmapBuffer")(kArrayBuffer));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// GL_KHR_debug labels a sync by its pointer: the guest's handle reaches the
// host's sync, and the label comes back.
TEST_F(GlState, SyncLabelsThroughKhrDebug) {
  constexpr GLenum kGpuCommandsComplete = 0x9117, kInvalidValue = 0x0501;
  ASSERT_TRUE(offers("GL_KHR_debug"));
  auto get_error = gl<GLenum (*)()>("glGetError");
  auto label = gl<void (*)(const void*, GLsizei, const GLchar*)>("glObjectPtrLabelKHR");
  auto get_label = gl<void (*)(const void*, GLsizei, GLsizei*, GLchar*)>("glGetObjectPtrLabelKHR");
  GLsync sync = gl<GLsync (*)(GLenum, GLbitfield)>("glFenceSync")(kGpuCommandsComplete, 0);
  ASSERT_NE(sync, nullptr);
  label(sync, -1, "frame fence");
  char text[64] = {};
  GLsizei length = -1;
  get_label(sync, sizeof text, &length, text);
  EXPECT_EQ(length, 11);
  EXPECT_STREQ(text, "frame fence");
  get_label(sync, 0, &length, nullptr);
  EXPECT_EQ(length, 11);
  label(sync, 5, "frame fence");
  get_label(sync, sizeof text, &length, text);
  EXPECT_STREQ(text, "frame");
  label(sync, 0, nullptr);
  get_label(sync, sizeof text, &length, text);
  EXPECT_EQ(length, 0);
  EXPECT_EQ(get_error(), 0u);
  label(reinterpret_cast<void*>(uintptr_t{0x5eed}), -1, "not a sync");
  EXPECT_EQ(get_error(), kInvalidValue);
  gl<void (*)(GLsync)>("glDeleteSync")(sync);
}

// Queries that answer several values answer all of them: a viewport's
// bounds range (two floats) and a compute program's work group size (three
// integers).
TEST_F(GlState, MultiValuedQueriesComeBackWhole) {
  constexpr GLenum kViewportBoundsRange = 0x825D, kComputeShader = 0x91B9;
  constexpr GLenum kComputeWorkGroupSize = 0x8267, kLinkStatus = 0x8B82;
  ASSERT_TRUE(offers("GL_OES_viewport_array"));
  std::array<GLfloat, 2> range{1, -1};
  gl<void (*)(GLenum, GLfloat*)>("glGetFloatv")(kViewportBoundsRange, range.data());
  EXPECT_LT(range[0], 0.0f);
  EXPECT_GT(range[1], 0.0f);

  const char* source = "#version 310 es\nlayout(local_size_x = 4, local_size_y = 2) in;\nvoid main() {}\n";
  GLuint shader = gl<GLuint (*)(GLenum)>("glCreateShader")(kComputeShader);
  gl<void (*)(GLuint, GLsizei, const GLchar* const*, const GLint*)>("glShaderSource")(shader, 1, &source,
                                                                                    nullptr);
  gl<void (*)(GLuint)>("glCompileShader")(shader);
  GLuint program = gl<GLuint (*)()>("glCreateProgram")();
  gl<void (*)(GLuint, GLuint)>("glAttachShader")(program, shader);
  gl<void (*)(GLuint)>("glLinkProgram")(program);
  auto program_iv = gl<void (*)(GLuint, GLenum, GLint*)>("glGetProgramiv");
  GLint linked = 0;
  program_iv(program, kLinkStatus, &linked);
  ASSERT_EQ(linked, 1);
  std::array<GLint, 3> size{-1, -1, -1};
  program_iv(program, kComputeWorkGroupSize, size.data());
  EXPECT_EQ(size, (std::array<GLint, 3>{4, 2, 1}));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// A name that was never made gets GL's own error, and a shader named where
// a program is wanted GL_INVALID_OPERATION, as natively; the context goes on.
TEST_F(GlState, UnknownNamesGetGlsErrors) {
  constexpr GLenum kLinkStatus = 0x8B82, kInvalidValue = 0x0501, kInvalidOperation = 0x0502;
  auto get_program = gl<void (*)(GLuint, GLenum, GLint*)>("glGetProgramiv");
  auto error = gl<GLenum (*)()>("glGetError");
  GLint status = -1;
  get_program(1337, kLinkStatus, &status);
  EXPECT_EQ(error(), kInvalidValue);
  const GLuint shader = gl<GLuint (*)(GLenum)>("glCreateShader")(kVertexShader);
  get_program(shader, kLinkStatus, &status);
  EXPECT_EQ(error(), kInvalidOperation);
  const GLuint program = colour_program();
  get_program(program, kLinkStatus, &status);
  EXPECT_EQ(status, 1);
  EXPECT_EQ(error(), 0u);
}

// GL_EXT_separate_shader_objects' glCreateShaderProgramvEXT makes a linked,
// separable program under a name the guest chose.
TEST_F(GlState, SeparateShaderProgramOfTheExtension) {
  constexpr GLenum kLinkStatus = 0x8B82, kProgramSeparable = 0x8258;
  ASSERT_TRUE(offers("GL_EXT_separate_shader_objects"));
  const GLchar* fs = "#version 300 es\nprecision mediump float; out vec4 c;"
                     "void main() { c = vec4(1.0); }";
  const GLuint program = gl<GLuint (*)(GLenum, GLsizei, const GLchar**)>(
      "glCreateShaderProgramvEXT")(kFragmentShader, 1, &fs);
  ASSERT_NE(program, 0u);
  GLint linked = 0, separable = 0;
  auto get = gl<void (*)(GLuint, GLenum, GLint*)>("glGetProgramiv");
  get(program, kLinkStatus, &linked);
  get(program, kProgramSeparable, &separable);
  EXPECT_EQ(linked, 1);
  EXPECT_EQ(separable, 1);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

TEST_F(GlState, QueriesAreCachedAndNamesAreTheGuests) {
  auto get_string = gl<const GLubyte* (*)(GLenum)>("glGetString");
  const GLubyte* first = get_string(kRenderer);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(get_string(kRenderer), first);  // the same cached answer
  GLint max = 0;
  gl<void (*)(GLenum, GLint*)>("glGetIntegerv")(kMaxTextureSize, &max);
  EXPECT_GE(max, 2048);
  GLuint names[3] = {};
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(3, names);
  EXPECT_LT(names[0], names[1]);
  EXPECT_LT(names[1], names[2]);
  EXPECT_EQ(gl<GLboolean (*)(GLuint)>("glIsBuffer")(names[0]), 0);  // not bound yet
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, names[0]);
  EXPECT_EQ(gl<GLboolean (*)(GLuint)>("glIsBuffer")(names[0]), 1);
  EXPECT_EQ(icd::gl_proc_address("glNoSuchFunction"), nullptr);
}

TEST_F(GlState, DeletedAttributeBufferNeverBecomesAHostPointer) {
  colour_program();
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, buffer);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kArrayBuffer, 64, nullptr,
                                                                       kStaticDraw);
  // An offset that, once the buffer is gone, GL would read as an address.
  gl<void (*)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void*)>("glVertexAttribPointer")(
      0, 4, kFloat, 0, 0, reinterpret_cast<const void*>(uintptr_t{0x7f0000100000}));
  gl<void (*)(GLsizei, const GLuint*)>("glDeleteBuffers")(1, &buffer);
  gl<void (*)(GLuint)>("glEnableVertexAttribArray")(0);
  gl<void (*)(GLenum, GLint, GLsizei)>("glDrawArrays")(kTriangles, 0, 3000);
  gl<void (*)()>("glFinish")();
  // The host is alive and the context still answers.
  EXPECT_NE(gl<const GLubyte* (*)(GLenum)>("glGetString")(kRenderer), nullptr);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

TEST_F(GlState, AllocationsBeyondTheGuestLimitAreOutOfMemory) {
  auto get_error = gl<GLenum (*)()>("glGetError");
  EXPECT_EQ(get_error(), 0u);
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, buffer);
  // The host's default per-object limit is 512 MiB.
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(
      kArrayBuffer, GLsizeiptr{1} << 33, nullptr, kStaticDraw);
  EXPECT_EQ(get_error(), 0x0505u);  // GL_OUT_OF_MEMORY
  EXPECT_EQ(get_error(), 0u);
  // The context carries on.
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kArrayBuffer, 64, nullptr,
                                                                       kStaticDraw);
  EXPECT_EQ(get_error(), 0u);
}

class LegacyGlState : public GlState {
 protected:
  void SetUp() override {
    desktop_ = true;
    GlState::SetUp();
  }
};

// The fixed-function arrays of desktop GL have the same hazard as generic
// attributes: without parking, the host reads the offset as an address.
TEST_F(LegacyGlState, DeletedFixedFunctionArrayBufferNeverBecomesAHostPointer) {
  constexpr GLenum kVertexArray = 0x8074, kColorArray = 0x8076, kTexCoordArray = 0x8078;
  constexpr GLenum kTexture1 = 0x84C1;
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, buffer);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kArrayBuffer, 64, nullptr,
                                                                       kStaticDraw);
  const void* far = reinterpret_cast<const void*>(uintptr_t{0x7f0000100000});
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glVertexPointer")(4, kFloat, 0, far);
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glColorPointer")(4, kFloat, 0, far);
  gl<void (*)(GLenum)>("glClientActiveTexture")(kTexture1);
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glTexCoordPointer")(4, kFloat, 0, far);
  gl<void (*)(GLsizei, const GLuint*)>("glDeleteBuffers")(1, &buffer);
  for (GLenum array : {kVertexArray, kColorArray, kTexCoordArray}) {
    gl<void (*)(GLenum)>("glEnableClientState")(array);
  }
  gl<void (*)(GLenum, GLint, GLsizei)>("glDrawArrays")(kTriangles, 0, 3000);
  gl<void (*)()>("glFinish")();
  EXPECT_NE(gl<const GLubyte* (*)(GLenum)>("glGetString")(kRenderer), nullptr);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// Compatibility contexts take GL_VERTEX_ARRAY in glEnable as in
// glEnableClientState: the client array must reach the host all the same.
TEST_F(LegacyGlState, ArraysEnabledThroughGlEnableDraw) {
  constexpr GLenum kVertexArray = 0x8074, kTriangleFan = 0x0006;
  const std::array<float, 8> square{-1, -1, 1, -1, 1, 1, -1, 1};
  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0, 0, 0, 1);
  gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
  gl<void (*)(GLfloat, GLfloat, GLfloat)>("glColor3f")(1, 0, 0);
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glVertexPointer")(2, kFloat, 0, square.data());
  gl<void (*)(GLenum)>("glEnable")(kVertexArray);
  gl<void (*)(GLenum, GLint, GLsizei)>("glDrawArrays")(kTriangleFan, 0, 4);
  EXPECT_EQ(pixel(8, 8), (std::array<uint8_t, 4>{255, 0, 0, 255}));
  gl<void (*)(GLenum)>("glDisable")(kVertexArray);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// glBitmap reads its bits from a bound unpack buffer like a pixel upload:
// the pointer is an offset there, not client memory.
TEST_F(LegacyGlState, BitmapFromAnUnpackBuffer) {
  constexpr GLenum kPixelUnpackBuffer = 0x88EC;
  const std::array<uint8_t, 8> ones{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  gl<void (*)(GLenum, GLint)>("glPixelStorei")(kUnpackAlignment, 1);
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kPixelUnpackBuffer, buffer);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(
      kPixelUnpackBuffer, 16, nullptr, kStaticDraw);
  gl<void (*)(GLenum, GLintptr, GLsizeiptr, const void*)>("glBufferSubData")(
      kPixelUnpackBuffer, 8, 8, ones.data());
  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0, 0, 0, 1);
  gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
  gl<void (*)(GLfloat, GLfloat, GLfloat)>("glColor3f")(0, 1, 0);
  gl<void (*)(GLint, GLint)>("glWindowPos2i")(0, 0);
  // An 8x8 bitmap, all ones, at offset 8 of the buffer.
  gl<void (*)(GLsizei, GLsizei, GLfloat, GLfloat, GLfloat, GLfloat, const GLubyte*)>("glBitmap")(
      8, 8, 0, 0, 0, 0, reinterpret_cast<const GLubyte*>(uintptr_t{8}));
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kPixelUnpackBuffer, 0);
  EXPECT_EQ(pixel(4, 4), (std::array<uint8_t, 4>{0, 255, 0, 255}));
  EXPECT_EQ(pixel(12, 4), (std::array<uint8_t, 4>{0, 0, 0, 255}));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// Selection: GL fills the program's buffer, read once glRenderMode leaves
// GL_SELECT. Two named squares, one outside the view volume: one hit, with
// the names on the stack and the depth range of the square at z = 0 (the
// middle of the depth range: 2^31 of 2^32).
TEST_F(LegacyGlState, SelectionHitsReachTheProgramsBuffer) {
  constexpr GLenum kRender = 0x1C00, kSelect = 0x1C02;
  std::array<GLuint, 16> hits{};
  hits.fill(0xDEADBEEF);
  gl<void (*)(GLsizei, GLuint*)>("glSelectBuffer")(hits.size(), hits.data());
  auto render_mode = gl<GLint (*)(GLenum)>("glRenderMode");
  EXPECT_EQ(render_mode(kSelect), 0);
  gl<void (*)()>("glInitNames")();
  gl<void (*)(GLuint)>("glPushName")(1);
  auto rect = gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glRectf");
  rect(-0.5f, -0.5f, 0.5f, 0.5f);
  gl<void (*)(GLuint)>("glLoadName")(2);
  rect(2.0f, 2.0f, 3.0f, 3.0f);
  EXPECT_EQ(render_mode(kRender), 1);
  EXPECT_EQ(hits[0], 1u) << "names on the stack";
  EXPECT_EQ(hits[1], 0x80000000u);
  EXPECT_EQ(hits[2], 0x80000000u);
  EXPECT_EQ(hits[3], 1u);
  EXPECT_EQ(hits[4], 0xDEADBEEFu) << "words GL did not write stay as they were";
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// Feedback: the program's buffer holds what GL would have drawn, in window
// coordinates of the 16x16 surface.
TEST_F(LegacyGlState, FeedbackReachesTheProgramsBuffer) {
  constexpr GLenum kRender = 0x1C00, kFeedback = 0x1C01, k2D = 0x0600, kPoints = 0x0000;
  constexpr GLfloat kPointToken = 0x0701;
  std::array<GLfloat, 8> values{};
  gl<void (*)(GLsizei, GLenum, GLfloat*)>("glFeedbackBuffer")(values.size(), k2D, values.data());
  auto render_mode = gl<GLint (*)(GLenum)>("glRenderMode");
  EXPECT_EQ(render_mode(kFeedback), 0);
  gl<void (*)(GLenum)>("glBegin")(kPoints);
  gl<void (*)(GLfloat, GLfloat)>("glVertex2f")(0.5f, -0.5f);
  gl<void (*)()>("glEnd")();
  EXPECT_EQ(render_mode(kRender), 3);
  EXPECT_EQ(values[0], kPointToken);
  EXPECT_EQ(values[1], 12.0f);
  EXPECT_EQ(values[2], 4.0f);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// glGetTexImage reads a level back whole: the host sizes it from GL, under
// the pack state (a row length wider than the image).
TEST_F(LegacyGlState, GetTexImageReadsTheLevelBack) {
  constexpr GLenum kPackRowLength = 0x0D02;
  const uint8_t texels[2][3][4] = {{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}},
                                   {{13, 14, 15, 16}, {17, 18, 19, 20}, {21, 22, 23, 24}}};
  GLuint tex = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(1, &tex);
  gl<void (*)(GLenum, GLuint)>("glBindTexture")(kTexture2D, tex);
  gl<void (*)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void*)>(
      "glTexImage2D")(kTexture2D, 0, kRgba, 3, 2, 0, kRgba, kUbyte, texels);
  auto get_tex_image = gl<void (*)(GLenum, GLint, GLenum, GLenum, void*)>("glGetTexImage");
  uint8_t back[2][3][4] = {};
  get_tex_image(kTexture2D, 0, kRgba, kUbyte, back);
  EXPECT_EQ(std::memcmp(back, texels, sizeof texels), 0);
  // Rows of 5 pixels: the second row starts at byte 20.
  std::array<uint8_t, 2 * 5 * 4> wide{};
  gl<void (*)(GLenum, GLint)>("glPixelStorei")(kPackRowLength, 5);
  get_tex_image(kTexture2D, 0, kRgba, kUbyte, wide.data());
  EXPECT_EQ(std::memcmp(wide.data(), texels[0], 12), 0);
  EXPECT_EQ(std::memcmp(wide.data() + 20, texels[1], 12), 0);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// An 8x8 RGTC1 image (2x2 blocks of 8 bytes) whose bytes come back as
// uploaded: whole, by name, one block, into a pack buffer and laid out by
// the pack state's compressed block (rows of 4 blocks).
TEST_F(LegacyGlState, CompressedImagesReadBackAsUploaded) {
  constexpr GLenum kRedRgtc1 = 0x8DBB, kPixelPackBuffer = 0x88EB, kStreamRead = 0x88E1;
  constexpr GLenum kBlockWidth = 0x912B, kBlockHeight = 0x912C, kBlockSize = 0x912E;
  constexpr GLenum kPackRowLength = 0x0D02, kInvalidOperation = 0x0502;
  std::array<uint8_t, 32> blocks{};
  for (size_t i = 0; i < blocks.size(); ++i) blocks[i] = static_cast<uint8_t>(7 * i + 3);
  GLuint tex = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(1, &tex);
  gl<void (*)(GLenum, GLuint)>("glBindTexture")(kTexture2D, tex);
  gl<void (*)(GLenum, GLint, GLenum, GLsizei, GLsizei, GLint, GLsizei, const void*)>(
      "glCompressedTexImage2D")(kTexture2D, 0, kRedRgtc1, 8, 8, 0, 32, blocks.data());
  ASSERT_TRUE(offers("GL_ARB_texture_compression"));
  std::array<uint8_t, 40> back{};
  back.fill(0xEE);
  gl<void (*)(GLenum, GLint, void*)>("glGetCompressedTexImage")(kTexture2D, 0, back.data());
  EXPECT_EQ(std::memcmp(back.data(), blocks.data(), 32), 0);
  EXPECT_EQ(back[32], 0xEE);  // nothing past the image
  auto by_name = gl<void (*)(GLuint, GLint, GLsizei, void*)>("glGetCompressedTextureImage");
  back.fill(0);
  by_name(tex, 0, 31, back.data());  // too small: GL's error, nothing written
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), kInvalidOperation);
  EXPECT_EQ(back[0], 0);
  by_name(tex, 0, 32, back.data());
  EXPECT_EQ(std::memcmp(back.data(), blocks.data(), 32), 0);
  std::array<uint8_t, 8> block{};
  gl<void (*)(GLuint, GLint, GLint, GLint, GLint, GLsizei, GLsizei, GLsizei, GLsizei, void*)>(
      "glGetCompressedTextureSubImage")(tex, 0, 4, 4, 0, 4, 4, 1, 8, block.data());
  EXPECT_EQ(std::memcmp(block.data(), blocks.data() + 24, 8), 0);
  // Rows of 4 blocks: the second block row starts at byte 32.
  std::array<uint8_t, 64> laid_out{};
  laid_out.fill(0xEE);
  auto store = gl<void (*)(GLenum, GLint)>("glPixelStorei");
  for (auto [pname, value] : {std::pair{kBlockWidth, 4}, {kBlockHeight, 4}, {kBlockSize, 8},
                              {kPackRowLength, 16}}) {
    store(pname, value);
  }
  gl<void (*)(GLenum, GLint, void*)>("glGetCompressedTexImage")(kTexture2D, 0, laid_out.data());
  EXPECT_EQ(std::memcmp(laid_out.data(), blocks.data(), 16), 0);
  EXPECT_EQ(std::memcmp(laid_out.data() + 32, blocks.data() + 16, 16), 0);
  EXPECT_EQ(laid_out[48], 0xEE);
  for (GLenum pname : {kBlockWidth, kBlockHeight, kBlockSize, kPackRowLength}) store(pname, 0);
  // Into a pack buffer at an offset.
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kPixelPackBuffer, buffer);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kPixelPackBuffer, 64, nullptr,
                                                                       kStreamRead);
  by_name(tex, 0, 32, reinterpret_cast<void*>(uintptr_t{16}));
  std::array<uint8_t, 32> packed{};
  gl<void (*)(GLenum, GLintptr, GLsizeiptr, void*)>("glGetBufferSubData")(kPixelPackBuffer, 16, 32,
                                                                          packed.data());
  EXPECT_EQ(packed, blocks);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kPixelPackBuffer, 0);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// Pixels read under skipped pixels land after the skipped ones, which keep
// what the program had there: tiles read one by one into one image.
TEST_F(LegacyGlState, ReadPixelsLeavesSkippedPixelsAlone) {
  constexpr GLenum kPackSkipPixels = 0x0D04;
  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0, 1, 0, 1);
  gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
  std::array<uint8_t, 16> row{};
  row.fill(0xEE);
  auto read = gl<void (*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void*)>("glReadPixels");
  gl<void (*)(GLenum, GLint)>("glPixelStorei")(kPackSkipPixels, 2);
  read(2, 0, 2, 1, kRgba, kUbyte, row.data());
  const std::array<uint8_t, 4> green{0, 255, 0, 255};
  EXPECT_EQ(row[0], 0xEE);
  EXPECT_EQ(row[7], 0xEE);
  EXPECT_EQ(std::memcmp(row.data() + 8, green.data(), 4), 0);
  EXPECT_EQ(std::memcmp(row.data() + 12, green.data(), 4), 0);
  gl<void (*)(GLenum, GLint)>("glPixelStorei")(kPackSkipPixels, 0);
  read(0, 0, 1, 1, kRgba, kUbyte, row.data());
  EXPECT_EQ(std::memcmp(row.data(), green.data(), 4), 0);
  EXPECT_EQ(row[4], 0xEE);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// Buffers mapped by name (OpenGL 4.5): a read-write map sees the contents
// and its writes land at unmap; an explicit flush sends only what it names.
TEST_F(LegacyGlState, NamedBufferMappings) {
  constexpr GLenum kReadWrite = 0x88BA, kBufferMapPointer = 0x88BD;
  constexpr GLbitfield kDynamicStorage = 0x0100, kFlushExplicit = 0x0010;
  ASSERT_TRUE(offers("GL_ARB_direct_state_access"));
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glCreateBuffers")(1, &buffer);
  const std::array<uint8_t, 16> start{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  gl<void (*)(GLuint, GLsizeiptr, const void*, GLbitfield)>("glNamedBufferStorage")(
      buffer, 16, start.data(), kMapRead | kMapWrite | kDynamicStorage);
  auto* p = static_cast<uint8_t*>(gl<void* (*)(GLuint, GLenum)>("glMapNamedBuffer")(buffer, kReadWrite));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(std::memcmp(p, start.data(), 16), 0);
  void* pointer = nullptr;
  gl<void (*)(GLuint, GLenum, void**)>("glGetNamedBufferPointerv")(buffer, kBufferMapPointer, &pointer);
  EXPECT_EQ(pointer, p);
  p[0] = 100;
  auto unmap = gl<GLboolean (*)(GLuint)>("glUnmapNamedBuffer");
  EXPECT_TRUE(unmap(buffer));
  EXPECT_FALSE(unmap(buffer));
  auto* q = static_cast<uint8_t*>(gl<void* (*)(GLuint, GLintptr, GLsizeiptr, GLbitfield)>(
      "glMapNamedBufferRange")(buffer, 8, 8, kMapWrite | kFlushExplicit));
  ASSERT_NE(q, nullptr);
  std::memset(q, 200, 8);
  gl<void (*)(GLuint, GLintptr, GLsizeiptr)>("glFlushMappedNamedBufferRange")(buffer, 2, 2);
  unmap(buffer);
  std::array<uint8_t, 16> back{};
  gl<void (*)(GLuint, GLintptr, GLsizeiptr, void*)>("glGetNamedBufferSubData")(buffer, 0, 16,
                                                                               back.data());
  const std::array<uint8_t, 16> expected{100, 2, 3, 4, 5, 6, 7, 8, 9, 10, 200, 200, 13, 14, 15, 16};
  EXPECT_EQ(back, expected);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// A client array of GL_BGRA colours (ARB_vertex_array_bgra) is four bytes a
// vertex: the guest sends those, in the order GL swizzles.
TEST_F(LegacyGlState, BgraClientArrayDraws) {
  constexpr GLenum kBgra = 0x80E1, kTriangleFan = 0x0006;
  const char* vs = "#version 130\nin vec2 pos; in vec4 col; out vec4 v;"
                   "void main() { v = col; gl_Position = vec4(pos, 0.0, 1.0); }";
  const char* fs = "#version 130\nin vec4 v; out vec4 o; void main() { o = v; }";
  use_program(vs, fs);
  const std::array<float, 8> square{-1, -1, 1, -1, 1, 1, -1, 1};
  const std::array<uint8_t, 16> blue_in_bgra{255, 0, 0, 255, 255, 0, 0, 255,
                                             255, 0, 0, 255, 255, 0, 0, 255};
  auto pointer = gl<void (*)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void*)>(
      "glVertexAttribPointer");
  pointer(0, 2, kFloat, 0, 0, square.data());
  pointer(1, static_cast<GLint>(kBgra), kUbyte, 1, 0, blue_in_bgra.data());
  gl<void (*)(GLuint)>("glEnableVertexAttribArray")(0);
  gl<void (*)(GLuint)>("glEnableVertexAttribArray")(1);
  gl<void (*)(GLenum, GLint, GLsizei)>("glDrawArrays")(kTriangleFan, 0, 4);
  EXPECT_EQ(pixel(8, 8), (std::array<uint8_t, 4>{0, 0, 255, 255}));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// Indirect multi-draws read their commands (and, for the Count forms, the
// draw count) from buffers: one command draws the left half of the surface,
// two draw both halves.
TEST_F(LegacyGlState, IndirectMultiDrawsReadTheirBuffers) {
  constexpr GLenum kDrawIndirectBuffer = 0x8F3F, kParameterBuffer = 0x80EE, kVertexArray = 0x8074;
  constexpr GLenum kTriangleFan = 0x0006;
  ASSERT_TRUE(offers("GL_ARB_multi_draw_indirect"));
  ASSERT_TRUE(offers("GL_ARB_indirect_parameters"));
  const std::array<float, 16> halves{-1, -1, 0, -1, 0, 1, -1, 1, 0, -1, 1, -1, 1, 1, 0, 1};
  struct Command { GLuint count, instances, first, base_instance; };
  const std::array<Command, 2> commands{{{4, 1, 0, 0}, {4, 1, 4, 0}}};
  const GLint two = 2;
  auto gen_buffer = [&](GLenum target, const void* data, GLsizeiptr bytes) {
    GLuint b = 0;
    gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &b);
    gl<void (*)(GLenum, GLuint)>("glBindBuffer")(target, b);
    gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(target, bytes, data, kStaticDraw);
  };
  gen_buffer(kArrayBuffer, halves.data(), sizeof halves);
  gen_buffer(kDrawIndirectBuffer, commands.data(), sizeof commands);
  gen_buffer(kParameterBuffer, &two, sizeof two);
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glVertexPointer")(2, kFloat, 0, nullptr);
  gl<void (*)(GLenum)>("glEnableClientState")(kVertexArray);
  gl<void (*)(GLfloat, GLfloat, GLfloat)>("glColor3f")(1, 0, 0);
  auto clear = [&] {
    gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0, 0, 0, 1);
    gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
  };
  const std::array<uint8_t, 4> red{255, 0, 0, 255}, black{0, 0, 0, 255};
  clear();
  gl<void (*)(GLenum, const void*, GLsizei, GLsizei)>("glMultiDrawArraysIndirect")(kTriangleFan, nullptr,
                                                                                   1, 0);
  EXPECT_EQ(pixel(4, 8), red);
  EXPECT_EQ(pixel(12, 8), black);
  clear();
  gl<void (*)(GLenum, const void*, GLintptr, GLsizei, GLsizei)>("glMultiDrawArraysIndirectCount")(
      kTriangleFan, nullptr, 0, 2, 0);
  EXPECT_EQ(pixel(4, 8), red);
  EXPECT_EQ(pixel(12, 8), red);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// glGetTextureSubImage reads a region of a level by the texture's name;
// glReadnPixels and glGetnTexImageARB refuse a buffer smaller than the image.
TEST_F(LegacyGlState, TextureRegionsAndBoundedReads) {
  constexpr GLenum kInvalidOperation = 0x0502;
  uint8_t texels[4][4][4];
  for (int i = 0; i < 64; ++i) (&texels[0][0][0])[i] = static_cast<uint8_t>(i);
  GLuint tex = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(1, &tex);
  gl<void (*)(GLenum, GLuint)>("glBindTexture")(kTexture2D, tex);
  gl<void (*)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void*)>(
      "glTexImage2D")(kTexture2D, 0, kRgba, 4, 4, 0, kRgba, kUbyte, texels);
  uint8_t region[2][2][4] = {};
  gl<void (*)(GLuint, GLint, GLint, GLint, GLint, GLsizei, GLsizei, GLsizei, GLenum, GLenum, GLsizei,
              void*)>("glGetTextureSubImage")(tex, 0, 1, 2, 0, 2, 2, 1, kRgba, kUbyte, 16, region);
  EXPECT_EQ(std::memcmp(region[0], texels[2][1], 8), 0);
  EXPECT_EQ(std::memcmp(region[1], texels[3][1], 8), 0);
  std::array<uint8_t, 64> whole{};
  // (Mesa 22.3 has only the ARB name; glGetnTexImage does nothing there.)
  auto get_n = gl<void (*)(GLenum, GLint, GLenum, GLenum, GLsizei, void*)>("glGetnTexImageARB");
  get_n(kTexture2D, 0, kRgba, kUbyte, 63, whole.data());
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), kInvalidOperation);
  get_n(kTexture2D, 0, kRgba, kUbyte, 64, whole.data());
  EXPECT_EQ(std::memcmp(whole.data(), texels, 64), 0);
  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0, 1, 0, 1);
  gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
  std::array<uint8_t, 8> pixels{};
  auto read_n = gl<void (*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, GLsizei, void*)>(
      "glReadnPixels");
  read_n(0, 0, 2, 1, kRgba, kUbyte, 7, pixels.data());
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), kInvalidOperation);
  read_n(0, 0, 2, 1, kRgba, kUbyte, 8, pixels.data());
  EXPECT_EQ(pixels, (std::array<uint8_t, 8>{0, 255, 0, 255, 0, 255, 0, 255}));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// glGetPolygonStipple into client memory and into a pack buffer (an offset):
// the bitmap arrives where the program asked.
TEST_F(LegacyGlState, GetPolygonStippleToMemoryAndPackBuffer) {
  constexpr GLenum kPixelPackBuffer = 0x88EB, kStreamRead = 0x88E1;
  uint8_t stipple[128];
  for (int i = 0; i < 128; ++i) stipple[i] = static_cast<uint8_t>(i * 37 + 11);
  gl<void (*)(const GLubyte*)>("glPolygonStipple")(stipple);
  auto get_stipple = gl<void (*)(GLubyte*)>("glGetPolygonStipple");
  uint8_t back[128] = {};
  get_stipple(back);
  EXPECT_EQ(std::memcmp(back, stipple, sizeof stipple), 0);
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kPixelPackBuffer, buffer);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kPixelPackBuffer, 256, nullptr,
                                                                       kStreamRead);
  get_stipple(reinterpret_cast<GLubyte*>(uintptr_t{64}));  // at offset 64
  auto* mapped = static_cast<const uint8_t*>(gl<void* (*)(GLenum, GLintptr, GLsizeiptr, GLbitfield)>(
      "glMapBufferRange")(kPixelPackBuffer, 64, 128, kMapRead));
  ASSERT_NE(mapped, nullptr);
  EXPECT_EQ(std::memcmp(mapped, stipple, sizeof stipple), 0);
  EXPECT_TRUE(gl<GLboolean (*)(GLenum)>("glUnmapBuffer")(kPixelPackBuffer));
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kPixelPackBuffer, 0);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// glGetPixelMap* read a map back whole, sized by the host from GL, in each
// element type.
TEST_F(LegacyGlState, GetPixelMapReadsTheMapBack) {
  constexpr GLenum kPixelMapRToR = 0x0C76;
  const GLfloat map[5] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
  gl<void (*)(GLenum, GLsizei, const GLfloat*)>("glPixelMapfv")(kPixelMapRToR, 5, map);
  GLfloat floats[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  gl<void (*)(GLenum, GLfloat*)>("glGetPixelMapfv")(kPixelMapRToR, floats);
  EXPECT_EQ(std::memcmp(floats, map, sizeof map), 0);
  EXPECT_EQ(floats[5], -1.0f);  // nothing past the map
  GLushort shorts[5] = {};
  gl<void (*)(GLenum, GLushort*)>("glGetPixelMapusv")(kPixelMapRToR, shorts);
  EXPECT_EQ(shorts[0], 0u);
  EXPECT_EQ(shorts[4], 0xFFFFu);
  GLuint ints[5] = {};
  gl<void (*)(GLenum, GLuint*)>("glGetPixelMapuiv")(kPixelMapRToR, ints);
  EXPECT_EQ(ints[4], 0xFFFFFFFFu);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// An extension whose commands are all aliases of carried ones is offered
// and reaches GL (GL_ARB_window_pos); one Conduit cannot forward
// (GL_EXT_memory_object: memory behind host handles) is hidden.
TEST_F(LegacyGlState, ExtensionsOfAliasesAreOfferedAndWork) {
  constexpr GLenum kCurrentRasterPosition = 0x0B07;
  ASSERT_TRUE(offers("GL_ARB_window_pos"));
  EXPECT_FALSE(offers("GL_EXT_memory_object"));
  gl<void (*)(GLint, GLint)>("glWindowPos2iARB")(3, 5);
  std::array<GLint, 4> position{};
  gl<void (*)(GLenum, GLint*)>("glGetIntegerv")(kCurrentRasterPosition, position.data());
  EXPECT_EQ(position[0], 3);
  EXPECT_EQ(position[1], 5);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// GL_ARB_vertex_program's programs have names of their own: a program made
// under a guest name takes its string, gives it back and is known by that
// name, while the same number names no GLSL program.
TEST_F(LegacyGlState, AssemblyProgramsKeepTheirStringAndName) {
  constexpr GLenum kVertexProgram = 0x8620, kFormatAscii = 0x8875;
  constexpr GLenum kProgramLength = 0x8627, kProgramString = 0x8628;
  ASSERT_TRUE(offers("GL_ARB_vertex_program"));
  const std::string text = "!!ARBvp1.0\nMOV result.position, vertex.position;\nEND\n";
  GLuint program = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenProgramsARB")(1, &program);
  gl<void (*)(GLenum, GLuint)>("glBindProgramARB")(kVertexProgram, program);
  gl<void (*)(GLenum, GLenum, GLsizei, const void*)>("glProgramStringARB")(
      kVertexProgram, kFormatAscii, static_cast<GLsizei>(text.size()), text.data());
  GLint length = 0;
  gl<void (*)(GLenum, GLenum, GLint*)>("glGetProgramivARB")(kVertexProgram, kProgramLength, &length);
  ASSERT_EQ(length, static_cast<GLint>(text.size()));
  std::string back(text.size() + 4, '?');
  gl<void (*)(GLenum, GLenum, void*)>("glGetProgramStringARB")(kVertexProgram, kProgramString,
                                                               back.data());
  EXPECT_EQ(back, text + "????");  // the string, and nothing past it
  auto is_program = gl<GLboolean (*)(GLuint)>("glIsProgramARB");
  EXPECT_TRUE(is_program(program));
  EXPECT_FALSE(gl<GLboolean (*)(GLuint)>("glIsProgram")(program));
  gl<void (*)(GLsizei, const GLuint*)>("glDeleteProgramsARB")(1, &program);
  EXPECT_FALSE(is_program(program));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// GL_EXT_vertex_array's pointers are OpenGL 1.1's client arrays, read at draw.
TEST_F(LegacyGlState, VertexArrayExtensionDrawsFromClientMemory) {
  constexpr GLenum kVertexArray = 0x8074, kColorArray = 0x8076, kTriangleFan = 0x0006;
  ASSERT_TRUE(offers("GL_EXT_vertex_array"));
  const std::array<float, 8> square{-1, -1, 1, -1, 1, 1, -1, 1};
  const std::array<uint8_t, 16> blue{0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255};
  gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
  gl<void (*)(GLint, GLenum, GLsizei, GLsizei, const void*)>("glVertexPointerEXT")(
      2, kFloat, 0, 4, square.data());
  gl<void (*)(GLint, GLenum, GLsizei, GLsizei, const void*)>("glColorPointerEXT")(
      4, kUbyte, 0, 4, blue.data());
  gl<void (*)(GLenum)>("glEnableClientState")(kVertexArray);
  gl<void (*)(GLenum)>("glEnableClientState")(kColorArray);
  gl<void (*)(GLenum, GLint, GLsizei)>("glDrawArraysEXT")(kTriangleFan, 0, 4);
  EXPECT_EQ(pixel(8, 8), (std::array<uint8_t, 4>{0, 0, 255, 255}));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// A double uniform's value count comes from its type, as for float ones.
TEST_F(LegacyGlState, DoubleUniformsReadBack) {
  ASSERT_TRUE(offers("GL_ARB_gpu_shader_fp64"));
  const char* vs = "#version 150\n#extension GL_ARB_gpu_shader_fp64 : require\n"
                   "uniform dvec3 d; in vec4 p;\n"
                   "void main() { gl_Position = p + vec4(vec3(d), 0.0); }";
  GLuint shader = gl<GLuint (*)(GLenum)>("glCreateShader")(kVertexShader);
  gl<void (*)(GLuint, GLsizei, const GLchar* const*, const GLint*)>("glShaderSource")(shader, 1, &vs,
                                                                                     nullptr);
  gl<void (*)(GLuint)>("glCompileShader")(shader);
  GLuint program = gl<GLuint (*)()>("glCreateProgram")();
  gl<void (*)(GLuint, GLuint)>("glAttachShader")(program, shader);
  gl<void (*)(GLuint)>("glLinkProgram")(program);
  gl<void (*)(GLuint)>("glUseProgram")(program);
  const GLint location = gl<GLint (*)(GLuint, const GLchar*)>("glGetUniformLocation")(program, "d");
  ASSERT_GE(location, 0);
  gl<void (*)(GLint, GLdouble, GLdouble, GLdouble)>("glUniform3d")(location, 0.5, -2.25, 1e100);
  std::array<GLdouble, 4> back{9, 9, 9, 9};
  gl<void (*)(GLuint, GLint, GLdouble*)>("glGetUniformdv")(program, location, back.data());
  EXPECT_EQ(back, (std::array<GLdouble, 4>{0.5, -2.25, 1e100, 9}));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

}  // namespace
}  // namespace icd::egl
