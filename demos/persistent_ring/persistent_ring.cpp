// persistent-ring [MIB] [DRAWS] [FRAMES]: OpenGL ES 3.2 on a pbuffer; a
// buffer of MIB MiB mapped persistent and coherent (EXT_buffer_storage)
// holds a vertex ring. Each draw writes its triangle into the ring and draws
// it; each frame ends with a fence the program waits for. Prints the time
// per frame and the colour drawn, so a broken path shows.
#include <EGL/egl.h>
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace {

bool make_context() {
  EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (!eglInitialize(display, nullptr, nullptr)) return false;
  const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                   EGL_OPENGL_ES3_BIT, EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count == 0) return false;
  const EGLint size[] = {EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, size);
  eglBindAPI(EGL_OPENGL_ES_API);
  const EGLint version[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, version);
  return context != EGL_NO_CONTEXT && eglMakeCurrent(display, surface, surface, context);
}

void use_white_program() {
  const char* vs = "#version 300 es\nin vec2 p; void main() { gl_Position = vec4(p, 0, 1); }";
  const char* fs = "#version 300 es\nprecision mediump float; out vec4 o; void main() { o = vec4(1); }";
  GLuint program = glCreateProgram();
  for (auto [type, text] : {std::pair{GL_VERTEX_SHADER, vs}, std::pair{GL_FRAGMENT_SHADER, fs}}) {
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    glAttachShader(program, shader);
  }
  glBindAttribLocation(program, 0, "p");
  glLinkProgram(program);
  glUseProgram(program);
}

// A persistent, coherent write mapping of the whole buffer bound to GL_ARRAY_BUFFER.
float* map_ring(size_t bytes) {
  auto storage = reinterpret_cast<PFNGLBUFFERSTORAGEEXTPROC>(eglGetProcAddress("glBufferStorageEXT"));
  if (!storage) return nullptr;
  GLuint vao = 0, buffer = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT_EXT | GL_MAP_COHERENT_BIT_EXT;
  storage(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, flags);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  return static_cast<float*>(glMapBufferRange(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), flags));
}

}  // namespace

int main(int argc, char** argv) {
  const size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 4;
  const int draws = argc > 2 ? std::atoi(argv[2]) : 500;
  const int frames = argc > 3 ? std::atoi(argv[3]) : 20;
  if (!make_context()) return std::fprintf(stderr, "persistent-ring: no OpenGL ES 3.2 context\n"), 1;
  use_white_program();
  float* ring = map_ring(mib << 20);
  if (!ring) return std::fprintf(stderr, "persistent-ring: no persistent mapping\n"), 1;
  const size_t vertices = (mib << 20) / (2 * sizeof(float));
  const float triangle[] = {-1, -1, 1, -1, 0, 1};
  size_t at = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int frame = 0; frame < frames; ++frame) {
    for (int d = 0; d < draws; ++d) {
      if (at + 3 > vertices) at = 0;
      std::memcpy(ring + at * 2, triangle, sizeof triangle);
      glDrawArrays(GL_TRIANGLES, static_cast<GLint>(at), 3);
      at += 3;
    }
    GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, ~GLuint64{0});
    glDeleteSync(fence);
  }
  const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
  unsigned char pixel[4] = {};
  glReadPixels(32, 20, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  const GLenum error = glGetError();
  std::printf("%zu MiB ring, %d draws a frame: %.2f ms a frame, pixel %d %d %d, GL error 0x%x\n", mib,
              draws, took.count() / frames, pixel[0], pixel[1], pixel[2], error);
  return pixel[0] == 255 && error == GL_NO_ERROR ? 0 : 1;
}
