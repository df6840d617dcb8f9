// The fixture of the guest GL tests: a real host in the test, an EGL context
// of the guest ICD on a 16x16 pbuffer (OpenGL ES 3, desktop GL for
// LegacyGlState, OpenGL ES 1.1 for Gles1State), and helpers that call GL through the ICD's entry points.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "egl/api.h"
#include "host_process.h"
#include "icd/stream.h"
#include "wire/gl_types.h"

namespace icd::egl {


inline constexpr GLenum kTriangles = 0x0004, kFloat = 0x1406, kUbyte = 0x1401, kUshort = 0x1403;
inline constexpr GLenum kRgba = 0x1908, kRgb = 0x1907, kTexture2D = 0x0DE1, kArrayBuffer = 0x8892;
inline constexpr GLenum kFramebuffer = 0x8D40, kColorAttachment0 = 0x8CE0;
inline constexpr GLenum kVertexShader = 0x8B31, kFragmentShader = 0x8B30, kColorBufferBit = 0x4000;
inline constexpr GLenum kStaticDraw = 0x88E4, kMapRead = 0x0001, kMapWrite = 0x0002;
inline constexpr GLenum kRenderer = 0x1F01, kMaxTextureSize = 0x0D33;
inline constexpr GLenum kUnpackAlignment = 0x0CF5;

// One host for every test of the binary (gl_state_fixture.cpp).
guesttest::HostProcess& host();

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
    const EGLint type = desktop_ ? EGL_OPENGL_BIT : gles_major_ == 1 ? EGL_OPENGL_ES_BIT : EGL_OPENGL_ES3_BIT;
    const EGLint want[] = {EGL_RENDERABLE_TYPE, type,
                           EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint n = 0;
    ASSERT_TRUE(ChooseConfig(dpy_, want, &config, 1, &n));
    const EGLint size[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    surface_ = CreatePbufferSurface(dpy_, config, size);
    const EGLint version[] = {EGL_CONTEXT_CLIENT_VERSION, gles_major_, EGL_NONE};
    const EGLint desktop_version[] = {EGL_CONTEXT_MAJOR_VERSION, desktop_major_, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    const EGLint* attribs = !desktop_ ? version : desktop_major_ ? desktop_version : nullptr;
    context_ = CreateContext(dpy_, config, EGL_NO_CONTEXT, attribs);
    ASSERT_TRUE(MakeCurrent(dpy_, surface_, surface_, context_));
  }
  void TearDown() override {
    MakeCurrent(dpy_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    DestroyContext(dpy_, context_);
    DestroySurface(dpy_, surface_);
  }

  // Compiles a shader of `type` from `text` and attaches it to `program`.
  static void attach_shader(GLuint program, GLenum type, const char* text) {
    GLuint shader = gl<GLuint (*)(GLenum)>("glCreateShader")(type);
    gl<void (*)(GLuint, GLsizei, const GLchar* const*, const GLint*)>("glShaderSource")(
        shader, 1, &text, nullptr);
    gl<void (*)(GLuint)>("glCompileShader")(shader);
    gl<void (*)(GLuint, GLuint)>("glAttachShader")(program, shader);
  }

  // A program of one shader of `type` from `text`, linked.
  static GLuint linked_program(GLenum type, const char* text) {
    GLuint program = gl<GLuint (*)()>("glCreateProgram")();
    attach_shader(program, type, text);
    gl<void (*)(GLuint)>("glLinkProgram")(program);
    return program;
  }

  // A program of `vs` and `fs`, attributes 0 "pos" and 1 "col", in use.
  GLuint use_program(const char* vs, const char* fs) {
    GLuint program = gl<GLuint (*)()>("glCreateProgram")();
    attach_shader(program, kVertexShader, vs);
    attach_shader(program, kFragmentShader, fs);
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

  // The left and right halves of the surface show `left` and `right`.
  void expect_halves(std::array<uint8_t, 4> left, std::array<uint8_t, 4> right) {
    EXPECT_EQ(pixel(4, 8), left);
    EXPECT_EQ(pixel(12, 8), right);
  }

  // Client arrays 0 (positions) and 1 (colours) of eight vertices: the
  // first four `left`, the last four `right`.
  void eight_vertex_arrays(const float* pos, std::array<uint8_t, 4> left, std::array<uint8_t, 4> right) {
    for (int v = 0; v < 8; ++v) std::memcpy(colours_[v], (v < 4 ? left : right).data(), 4);
    vertex_arrays(pos, colours_);
  }
  uint8_t colours_[8][4] = {};

  // Client arrays 0 (two floats a vertex) and 1 (four normalized bytes a vertex), enabled.
  static void vertex_arrays(const float* pos, const void* colours) {
    auto pointer = gl<void (*)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void*)>(
        "glVertexAttribPointer");
    pointer(0, 2, kFloat, 0, 0, pos);
    pointer(1, 4, kUbyte, 1, 0, colours);
    gl<void (*)(GLuint)>("glEnableVertexAttribArray")(0);
    gl<void (*)(GLuint)>("glEnableVertexAttribArray")(1);
  }

  // GlState's SetUp for tests of `feature`: false where the test cannot
  // go on (set-up failed, or skipped as the host lacks `extension`).
  bool set_up_offering(const char* extension, const char* feature) {
    GlState::SetUp();
    if (HasFatalFailure()) return false;
    if (offers(extension)) return true;
    skip_without(feature);
    return false;
  }
  void skip_without(const char* feature) { GTEST_SKIP() << "the host offers no " << feature; }

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
  EGLint gles_major_ = 3;
  EGLDisplay dpy_ = EGL_NO_DISPLAY;
  EGLSurface surface_ = EGL_NO_SURFACE;
  EGLContext context_ = EGL_NO_CONTEXT;
  int desktop_major_ = 0;  // a core profile context of this major version; 0: EGL's default
};

class LegacyGlState : public GlState {
 protected:
  void SetUp() override {
    desktop_ = true;
    GlState::SetUp();
  }
};

// A core profile context of OpenGL 4.x, for features of GLSL 4.
class Core4GlState : public GlState {
 protected:
  void SetUp() override {
    desktop_ = true;
    desktop_major_ = 4;
    GlState::SetUp();
  }
};

class Gles1State : public GlState {
 protected:
  void SetUp() override {
    gles_major_ = 1;
    GlState::SetUp();
  }
};

}  // namespace icd::egl
