// The guest's GL state tracking against a real host (OpenGL ES 3): client
// arrays and indices, pixel-store state, mapped buffers, extensions made of
// aliases, cached queries and names.
#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "gl_state_fixture.h"

namespace icd::egl {
namespace {

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
  expect_halves({0, 255, 0, 255}, {0, 0, 255, 255});

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
  expect_halves({0, 255, 0, 255}, {0, 0, 255, 255});
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
  expect_halves({255, 0, 0, 255}, {0, 0, 255, 255});
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
  vertex_arrays(pos, col);
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

// Two buffers mapped through one target, one after another, are two
// mappings: each is written, unmapped and read back on its own; mapping
// the first again through another target is GL's error while it is mapped.
TEST_F(GlState, TwoBuffersMappedThroughOneTarget) {
  constexpr GLenum kCopyWriteBuffer = 0x8F37, kInvalidOperation = 0x0502;
  GLuint buffers[2] = {};
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(2, buffers);
  auto bind = gl<void (*)(GLenum, GLuint)>("glBindBuffer");
  auto data = gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData");
  auto map = gl<void* (*)(GLenum, GLintptr, GLsizeiptr, GLbitfield)>("glMapBufferRange");
  auto unmap = gl<GLboolean (*)(GLenum)>("glUnmapBuffer");
  std::array<uint8_t*, 2> mapped{};
  for (int i = 0; i < 2; ++i) {
    bind(kCopyWriteBuffer, buffers[i]);
    data(kCopyWriteBuffer, 16, nullptr, kStaticDraw);
    mapped[i] = static_cast<uint8_t*>(map(kCopyWriteBuffer, 0, 16, kMapWrite));
    ASSERT_NE(mapped[i], nullptr) << i;
  }
  EXPECT_NE(mapped[0], mapped[1]);
  std::memset(mapped[0], 1, 16);
  std::memset(mapped[1], 2, 16);
  bind(kArrayBuffer, buffers[0]);
  EXPECT_EQ(map(kArrayBuffer, 0, 16, kMapWrite), nullptr);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), kInvalidOperation);
  for (int i = 0; i < 2; ++i) {
    bind(kCopyWriteBuffer, buffers[i]);
    EXPECT_TRUE(unmap(kCopyWriteBuffer)) << i;
  }
  for (int i = 0; i < 2; ++i) {
    bind(kCopyWriteBuffer, buffers[i]);
    auto* r = static_cast<const uint8_t*>(map(kCopyWriteBuffer, 0, 16, kMapRead));
    ASSERT_NE(r, nullptr) << i;
    EXPECT_EQ(r[0], i + 1);
    EXPECT_EQ(r[15], i + 1);
    EXPECT_TRUE(unmap(kCopyWriteBuffer));
  }
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// A write map that does not invalidate keeps what the program leaves alone,
// also in storage that cannot be mapped for reading (GL_EXT_buffer_storage
// with GL_MAP_WRITE_BIT only), without raising an error.
TEST_F(GlState, WriteMapsKeepWhatTheyDoNotOverwrite) {
  constexpr GLenum kCopyReadBuffer = 0x8F36, kCopyWriteBuffer = 0x8F37;
  constexpr GLbitfield kInvalidateRange = 0x0004;
  std::array<uint8_t, 256> contents{};
  for (size_t i = 0; i < contents.size(); ++i) contents[i] = static_cast<uint8_t>(i);
  GLuint buffers[2] = {};
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(2, buffers);
  auto bind = gl<void (*)(GLenum, GLuint)>("glBindBuffer");
  bind(kCopyReadBuffer, buffers[0]);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLbitfield)>("glBufferStorageEXT")(
      kCopyReadBuffer, contents.size(), contents.data(), kMapWrite);
  auto map = gl<void* (*)(GLenum, GLintptr, GLsizeiptr, GLbitfield)>("glMapBufferRange");
  auto unmap = gl<GLboolean (*)(GLenum)>("glUnmapBuffer");
  auto* w = static_cast<uint8_t*>(map(kCopyReadBuffer, 64, 64, kMapWrite));
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w[0], 64);  // the shadow holds the buffer's bytes
  w[1] = 200;
  EXPECT_TRUE(unmap(kCopyReadBuffer));
  w = static_cast<uint8_t*>(map(kCopyReadBuffer, 128, 16, kMapWrite | kInvalidateRange));
  ASSERT_NE(w, nullptr);
  std::memset(w, 7, 16);
  EXPECT_TRUE(unmap(kCopyReadBuffer));
  bind(kCopyWriteBuffer, buffers[1]);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kCopyWriteBuffer, 256,
                                                                       nullptr, kStaticDraw);
  gl<void (*)(GLenum, GLenum, GLintptr, GLintptr, GLsizeiptr)>("glCopyBufferSubData")(
      kCopyReadBuffer, kCopyWriteBuffer, 0, 0, 256);
  auto* r = static_cast<const uint8_t*>(map(kCopyWriteBuffer, 0, 256, kMapRead));
  ASSERT_NE(r, nullptr);
  std::array<uint8_t, 256> expected = contents;
  expected[65] = 200;
  std::fill(expected.begin() + 128, expected.begin() + 144, 7);
  EXPECT_EQ(std::memcmp(r, expected.data(), expected.size()), 0);
  EXPECT_TRUE(unmap(kCopyWriteBuffer));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// A client array reaches the host only with a draw, so the guest raises
// GL's errors for a bad pointer when it is set, and keeps nothing of it.
TEST_F(GlState, BadClientArrayPointersRaiseGlsErrors) {
  constexpr GLenum kInvalidEnum = 0x0500, kInvalidValue = 0x0501, kInvalidOperation = 0x0502;
  constexpr GLenum kMaxVertexAttribs = 0x8869, kInt2101010 = 0x8D9F, kPointer = 0x8645;
  auto get_error = gl<GLenum (*)()>("glGetError");
  auto pointer = gl<void (*)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void*)>(
      "glVertexAttribPointer");
  auto ipointer = gl<void (*)(GLuint, GLint, GLenum, GLsizei, const void*)>("glVertexAttribIPointer");
  auto get_pointer = gl<void (*)(GLuint, GLenum, void**)>("glGetVertexAttribPointerv");
  GLint max = 0;
  gl<void (*)(GLenum, GLint*)>("glGetIntegerv")(kMaxVertexAttribs, &max);
  ASSERT_GT(max, 1);
  const float data[8] = {};
  pointer(max - 1, 2, kFloat, 0, 0, data);
  EXPECT_EQ(get_error(), 0u);
  pointer(max, 2, kFloat, 0, 0, data + 1);
  EXPECT_EQ(get_error(), kInvalidValue);
  void* kept = nullptr;
  get_pointer(max - 1, kPointer, &kept);
  EXPECT_EQ(kept, data);  // the last attribute keeps its own pointer
  get_pointer(max, kPointer, &kept);
  EXPECT_EQ(get_error(), kInvalidValue);
  ipointer(0, 2, kFloat, 0, data);
  EXPECT_EQ(get_error(), kInvalidEnum);
  pointer(0, 5, kFloat, 0, 0, data);
  EXPECT_EQ(get_error(), kInvalidValue);
  pointer(0, 3, kInt2101010, 0, 0, data);
  EXPECT_EQ(get_error(), kInvalidOperation);
  pointer(0, 2, kFloat, 0, -4, data);
  EXPECT_EQ(get_error(), kInvalidValue);
  constexpr GLint kBgra = 0x80E1;
  pointer(0, kBgra, kUbyte, 1, 0, data);  // a size of desktop GL's only
  EXPECT_EQ(get_error(), kInvalidValue);
  ipointer(0, 2, kUbyte, 0, data);
  EXPECT_EQ(get_error(), 0u);
}

// GL writes nothing for a query it refuses, and neither does the guest:
// the program's memory keeps what it held, and the error is GL's.
TEST_F(GlState, RefusedQueriesLeaveTheProgramsMemory) {
  constexpr GLenum kInvalidEnum = 0x0500, kTextureMinFilter = 0x2801;
  GLuint texture = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(1, &texture);
  gl<void (*)(GLenum, GLuint)>("glBindTexture")(kTexture2D, texture);
  auto get = gl<void (*)(GLenum, GLenum, GLint*)>("glGetTexParameteriv");
  GLint values[4] = {7, 7, 7, 7};
  get(kTexture2D, 0xBEEF, values);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), kInvalidEnum);
  EXPECT_EQ(values[0], 7);
  get(kTexture2D, kTextureMinFilter, values);
  EXPECT_EQ(values[0], 0x2702);  // GL_NEAREST_MIPMAP_LINEAR
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// GL writes a name and its NUL, nothing more of the program's buffer
// (programs pass a bufSize larger than what they allocated).
TEST_F(GlState, StringAnswersWriteTheStringOnly) {
  const GLuint program = colour_program();
  char name[32];
  std::memset(name, '#', sizeof name);
  GLsizei length = -1;
  GLint size = 0;
  GLenum type = 0;
  gl<void (*)(GLuint, GLuint, GLsizei, GLsizei*, GLint*, GLenum*, GLchar*)>("glGetActiveAttrib")(
      program, 0, sizeof name, &length, &size, &type, name);
  ASSERT_EQ(length, 3);  // "col" or "pos"
  EXPECT_EQ(name[3], '\0');
  EXPECT_EQ(name[4], '#');
  EXPECT_EQ(name[31], '#');
}

// The host's buffer is not mapped while the program's mapping lasts, so the
// guest answers the mapping's state; unmapped, the host answers. The
// mapping is aligned as GL_MIN_MAP_BUFFER_ALIGNMENT says.
TEST_F(GlState, MappingStateQueries) {
  constexpr GLenum kBufferMapped = 0x88BC, kAccessFlags = 0x911F, kMapLength = 0x9120;
  constexpr GLenum kMapOffset = 0x9121, kBufferSize = 0x8764;
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, buffer);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kArrayBuffer, 100,
                                                                       nullptr, kStaticDraw);
  auto get = [](GLenum pname) {
    GLint64 value = -1;
    gl<void (*)(GLenum, GLenum, GLint64*)>("glGetBufferParameteri64v")(kArrayBuffer, pname, &value);
    return value;
  };
  void* p = gl<void* (*)(GLenum, GLintptr, GLsizeiptr, GLbitfield)>("glMapBufferRange")(
      kArrayBuffer, 8, 40, kMapWrite);
  ASSERT_NE(p, nullptr);
  // Placed as GL places it: the pointer minus the offset is 64-byte aligned.
  EXPECT_EQ((reinterpret_cast<uintptr_t>(p) - 8) % 64, 0u);
  EXPECT_EQ(get(kBufferMapped), 1);
  EXPECT_EQ(get(kMapOffset), 8);
  EXPECT_EQ(get(kMapLength), 40);
  EXPECT_EQ(get(kAccessFlags), kMapWrite);
  EXPECT_EQ(get(kBufferSize), 100);
  EXPECT_TRUE(gl<GLboolean (*)(GLenum)>("glUnmapBuffer")(kArrayBuffer));
  EXPECT_EQ(get(kBufferMapped), 0);
  EXPECT_EQ(get(kMapLength), 0);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// A write-only map reaches the host only at unmap, so the guest raises GL's
// errors for a bad map itself, at the map, and the map returns null.
TEST_F(GlState, BadMapsRaiseGlsErrorsAtTheMap) {
  constexpr GLenum kInvalidEnum = 0x0500, kInvalidValue = 0x0501, kInvalidOperation = 0x0502;
  constexpr GLbitfield kFlushExplicit = 0x0010;
  auto get_error = gl<GLenum (*)()>("glGetError");
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, buffer);
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kArrayBuffer, 100,
                                                                       nullptr, kStaticDraw);
  auto map = gl<void* (*)(GLenum, GLintptr, GLsizeiptr, GLbitfield)>("glMapBufferRange");
  auto unmap = gl<GLboolean (*)(GLenum)>("glUnmapBuffer");
  ASSERT_EQ(get_error(), 0u);
  const struct {
    GLintptr offset;
    GLsizeiptr length;
    GLbitfield access;
    GLenum error;
  } bad[] = {
      {-1, 1, kMapWrite, kInvalidValue},      {0, -1, kMapWrite, kInvalidValue},
      {1, 100, kMapWrite, kInvalidValue},     {0, 10, kMapWrite | 0x100, kInvalidValue},
      {0, 0, kMapWrite, kInvalidOperation},   {0, 10, 0, kInvalidOperation},
      {0, 10, kMapRead | kFlushExplicit, kInvalidOperation},
  };
  for (const auto& b : bad) {
    EXPECT_EQ(map(kArrayBuffer, b.offset, b.length, b.access), nullptr) << b.offset << " " << b.length;
    EXPECT_EQ(get_error(), b.error) << b.offset << " " << b.length << " " << b.access;
    EXPECT_EQ(get_error(), 0u);
  }
  ASSERT_NE(map(kArrayBuffer, 0, 100, kMapWrite), nullptr);
  EXPECT_EQ(map(kArrayBuffer, 0, 10, kMapWrite), nullptr);
  EXPECT_EQ(get_error(), kInvalidOperation);
  EXPECT_TRUE(unmap(kArrayBuffer));
  EXPECT_FALSE(unmap(kArrayBuffer));
  EXPECT_EQ(get_error(), kInvalidOperation);
  EXPECT_EQ(gl<void* (*)(GLenum, GLenum)>("glMapBufferOES")(kArrayBuffer, 0x1234), nullptr);
  EXPECT_EQ(get_error(), kInvalidEnum);
  EXPECT_EQ(get_error(), 0u);
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
  GLuint program = linked_program(kComputeShader, source);
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

// A null pointer with no buffer bound, in a vertex array object of the
// program's, is legal; a later glVertexAttribBinding may give the attribute
// a buffer (piglit arb_draw_indirect-draw-arrays-shared-binding). A draw
// that reads it as it is must not reach a host address.
TEST_F(GlState, NullAttributePointerInAVertexArrayObjectOfTheProgram) {
  auto get_error = gl<GLenum (*)()>("glGetError");
  colour_program();
  GLuint vao = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenVertexArrays")(1, &vao);
  gl<void (*)(GLuint)>("glBindVertexArray")(vao);
  gl<void (*)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void*)>("glVertexAttribPointer")(
      0, 2, kFloat, 0, 0, nullptr);
  EXPECT_EQ(get_error(), 0u);
  gl<void (*)(GLuint)>("glEnableVertexAttribArray")(0);
  gl<void (*)(GLenum, GLint, GLsizei)>("glDrawArrays")(kTriangles, 0, 3000);
  gl<void (*)()>("glFinish")();
  EXPECT_NE(gl<const GLubyte* (*)(GLenum)>("glGetString")(kRenderer), nullptr);
  get_error();  // what GL answers the draw is GL's
  // A pointer that is not null is still refused without a buffer.
  gl<void (*)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void*)>("glVertexAttribPointer")(
      0, 2, kFloat, 0, 0, reinterpret_cast<const void*>(uintptr_t{64}));
  EXPECT_EQ(get_error(), 0x0502u);
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

// GL_AMD_gpu_shader_int64, where the host offers it (Mesa: core profiles):
// a 64-bit uniform set and read back through the NV commands, each value
// whole and nothing past the uniform's components.
TEST_F(Core4GlState, Int64UniformsOfAmdGpuShaderInt64) {
  if (!offers("GL_AMD_gpu_shader_int64")) GTEST_SKIP() << "not offered";
  const char* vs = "#version 400\n#extension GL_AMD_gpu_shader_int64 : require\n"
                   "uniform i64vec2 big; in vec2 pos;"
                   "void main() { gl_Position = vec4(pos + vec2(big), 0.0, 1.0); }";
  const char* fs = "#version 400\nout vec4 o; void main() { o = vec4(1.0); }";
  const GLuint program = use_program(vs, fs);
  const GLint location = gl<GLint (*)(GLuint, const GLchar*)>("glGetUniformLocation")(program, "big");
  ASSERT_GE(location, 0);
  const int64_t set[2] = {-(int64_t{1} << 40), (int64_t{1} << 50) + 3};
  gl<void (*)(GLint, GLsizei, const int64_t*)>("glUniform2i64vNV")(location, 1, set);
  int64_t got[4] = {7, 7, 7, 7};
  gl<void (*)(GLuint, GLint, int64_t*)>("glGetUniformi64vNV")(program, location, got);
  EXPECT_EQ(got[0], set[0]);
  EXPECT_EQ(got[1], set[1]);
  EXPECT_EQ(got[2], 7);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

}  // namespace
}  // namespace icd::egl
