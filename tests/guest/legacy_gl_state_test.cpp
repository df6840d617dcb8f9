// Desktop GL through the guest against a real host: fixed-function and
// BGRA client arrays (multi-draws too), named buffer mappings and textures, indirect multi-draws, and the
// extensions carried with commands of their own (assembly programs,
// GL_EXT_vertex_array, double uniforms).
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <string>
#include <utility>

#include "gl_state_fixture.h"

namespace icd::egl {
namespace {

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

// Buffers mapped by name (OpenGL 4.5): a read-write map sees the contents
// and its writes land at unmap; so do writes to a range flushed explicitly,
// the flushed part at once and the rest at unmap, as where GL maps the
// buffer's own memory.
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
  EXPECT_FALSE(unmap(buffer));  // not mapped: GL_INVALID_OPERATION, as natively
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0x0502u);
  auto* q = static_cast<uint8_t*>(gl<void* (*)(GLuint, GLintptr, GLsizeiptr, GLbitfield)>(
      "glMapNamedBufferRange")(buffer, 8, 8, kMapWrite | kFlushExplicit));
  ASSERT_NE(q, nullptr);
  std::memset(q, 200, 8);
  gl<void (*)(GLuint, GLintptr, GLsizeiptr)>("glFlushMappedNamedBufferRange")(buffer, 2, 2);
  unmap(buffer);
  std::array<uint8_t, 16> back{};
  gl<void (*)(GLuint, GLintptr, GLsizeiptr, void*)>("glGetNamedBufferSubData")(buffer, 0, 16,
                                                                               back.data());
  const std::array<uint8_t, 16> expected{100, 2, 3, 4, 5, 6, 7, 8, 200, 200, 200, 200, 200, 200, 200, 200};
  EXPECT_EQ(back, expected);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// GL refuses to clear any part of a buffer mapped without persistence; the
// map is a guest shadow, so the guest must refuse it: by binding and by name,
// for the whole buffer and for ranges that meet the map, not for others.
TEST_F(LegacyGlState, ClearsOfMappedRangesAreRefused) {
  constexpr GLenum kR8ui = 0x8232, kRedInteger = 0x8D94, kUnsignedByte = 0x1401;
  constexpr GLenum kInvalidOperation = 0x0502;
  ASSERT_TRUE(offers("GL_ARB_clear_buffer_object"));
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kArrayBuffer, buffer);
  const std::array<uint8_t, 16> start{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kArrayBuffer, 16, start.data(),
                                                                       kStaticDraw);
  auto error = gl<GLenum (*)()>("glGetError");
  auto clear = gl<void (*)(GLenum, GLenum, GLenum, GLenum, const void*)>("glClearBufferData");
  auto clear_sub = gl<void (*)(GLenum, GLenum, GLintptr, GLsizeiptr, GLenum, GLenum, const void*)>(
      "glClearBufferSubData");
  auto clear_named_sub = gl<void (*)(GLuint, GLenum, GLintptr, GLsizeiptr, GLenum, GLenum, const void*)>(
      "glClearNamedBufferSubData");
  const uint8_t zero = 0, nine = 9;
  auto* p = static_cast<uint8_t*>(gl<void* (*)(GLenum, GLintptr, GLsizeiptr, GLbitfield)>(
      "glMapBufferRange")(kArrayBuffer, 4, 4, kMapWrite));
  ASSERT_NE(p, nullptr);
  clear(kArrayBuffer, kR8ui, kRedInteger, kUnsignedByte, &zero);
  EXPECT_EQ(error(), kInvalidOperation) << "the whole buffer";
  clear_sub(kArrayBuffer, kR8ui, 6, 4, kRedInteger, kUnsignedByte, &zero);
  EXPECT_EQ(error(), kInvalidOperation) << "a range that meets the map";
  clear_named_sub(buffer, kR8ui, 6, 4, kRedInteger, kUnsignedByte, &zero);
  EXPECT_EQ(error(), kInvalidOperation) << "by name";
  clear_sub(kArrayBuffer, kR8ui, 12, 4, kRedInteger, kUnsignedByte, &nine);
  EXPECT_EQ(error(), 0u) << "a range apart from the map";
  std::memset(p, 7, 4);
  EXPECT_TRUE(gl<GLboolean (*)(GLenum)>("glUnmapBuffer")(kArrayBuffer));
  clear_sub(kArrayBuffer, kR8ui, 0, 2, kRedInteger, kUnsignedByte, &zero);
  EXPECT_EQ(error(), 0u) << "unmapped";
  std::array<uint8_t, 16> back{};
  gl<void (*)(GLenum, GLintptr, GLsizeiptr, void*)>("glGetBufferSubData")(kArrayBuffer, 0, 16, back.data());
  const std::array<uint8_t, 16> expected{0, 0, 3, 4, 7, 7, 7, 7, 9, 10, 11, 12, 9, 9, 9, 9};
  EXPECT_EQ(back, expected);
}

// With a buffer bound to GL_QUERY_BUFFER, a query's result goes into that
// buffer at the offset the program passes as its pointer; unbound, it comes
// back into the program's memory.
TEST_F(LegacyGlState, QueryResultsIntoAQueryBuffer) {
  constexpr GLenum kQueryBuffer = 0x9192, kTimeElapsed = 0x88BF, kQueryResult = 0x8866;
  constexpr GLenum kQueryResultAvailable = 0x8867;
  ASSERT_TRUE(offers("GL_ARB_query_buffer_object"));
  GLuint query = 0, buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenQueries")(1, &query);
  gl<void (*)(GLenum, GLuint)>("glBeginQuery")(kTimeElapsed, query);
  gl<void (*)(GLbitfield)>("glClear")(0x4000);
  gl<void (*)(GLenum)>("glEndQuery")(kTimeElapsed);
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kQueryBuffer, buffer);
  const std::array<uint32_t, 4> marks{0xCCCCCCCCu, 0xCCCCCCCCu, 0xCCCCCCCCu, 0xCCCCCCCCu};
  gl<void (*)(GLenum, GLsizeiptr, const void*, GLenum)>("glBufferData")(kQueryBuffer, 16, marks.data(),
                                                                       kStaticDraw);
  auto get_uiv = gl<void (*)(GLuint, GLenum, GLuint*)>("glGetQueryObjectuiv");
  get_uiv(query, kQueryResult, nullptr);                                     // offset 0
  get_uiv(query, kQueryResultAvailable, reinterpret_cast<GLuint*>(uintptr_t{8}));  // offset 8
  std::array<uint32_t, 4> back{};
  gl<void (*)(GLenum, GLintptr, GLsizeiptr, void*)>("glGetBufferSubData")(kQueryBuffer, 0, 16, back.data());
  EXPECT_NE(back[0], 0xCCCCCCCCu) << "the result was written into the buffer";
  EXPECT_EQ(back[1], 0xCCCCCCCCu);
  EXPECT_EQ(back[2], 1u) << "available";
  EXPECT_EQ(back[3], 0xCCCCCCCCu);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kQueryBuffer, 0);
  GLuint available = 7;
  get_uiv(query, kQueryResultAvailable, &available);
  EXPECT_EQ(available, 1u) << "unbound: into the program's memory";
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// GL_BGRA is a size of normalized unsigned bytes only.
TEST_F(LegacyGlState, BgraClientArraysMustBeNormalizedBytes) {
  constexpr GLint kBgra = 0x80E1;
  constexpr GLenum kInvalidOperation = 0x0502;
  auto pointer = gl<void (*)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void*)>(
      "glVertexAttribPointer");
  auto get_error = gl<GLenum (*)()>("glGetError");
  const uint8_t colours[4] = {};
  pointer(1, kBgra, kUbyte, 0, 0, colours);
  EXPECT_EQ(get_error(), kInvalidOperation);
  pointer(1, kBgra, kFloat, 1, 0, colours);
  EXPECT_EQ(get_error(), kInvalidOperation);
  pointer(1, kBgra, kUbyte, 1, 0, colours);
  EXPECT_EQ(get_error(), 0u);
}

// The fixed-function colour arrays take GL_BGRA of unsigned bytes; other
// arrays do not take it, and no array takes a negative stride. Client
// arrays reach GL only with a draw, so the guest raises these.
TEST_F(LegacyGlState, FixedFunctionPointerErrors) {
  constexpr GLint kBgra = 0x80E1;
  constexpr GLenum kInvalidValue = 0x0501, kInvalidOperation = 0x0502, kShort = 0x1402;
  using Pointer = void (*)(GLint, GLenum, GLsizei, const void*);
  auto colour = gl<Pointer>("glColorPointer");
  auto secondary = gl<Pointer>("glSecondaryColorPointer");
  auto vertex = gl<Pointer>("glVertexPointer");
  auto get_error = gl<GLenum (*)()>("glGetError");
  const uint8_t colours[16] = {};
  colour(kBgra, kFloat, 0, colours);
  EXPECT_EQ(get_error(), kInvalidOperation);
  secondary(kBgra, kShort, 0, colours);
  EXPECT_EQ(get_error(), kInvalidOperation);
  vertex(kBgra, kFloat, 0, colours);
  EXPECT_EQ(get_error(), kInvalidValue);
  colour(4, kFloat, -4, colours);
  EXPECT_EQ(get_error(), kInvalidValue);
  colour(kBgra, kUbyte, 0, colours);
  secondary(kBgra, kUbyte, 0, colours);
  EXPECT_EQ(get_error(), 0u);
}

// Between glBegin and glEnd only vertex attributes, glArrayElement and
// display list calls may come; everything else raises
// GL_INVALID_OPERATION, also what the guest answers or keeps itself.
TEST_F(LegacyGlState, CommandsBetweenBeginAndEndRaiseInvalidOperation) {
  constexpr GLenum kPoints = 0x0000, kUint = 0x1405, kInvalidOperation = 0x0502, kVertexArrayPointer = 0x808E;
  constexpr GLenum kCompile = 0x1300;
  auto begin = gl<void (*)(GLenum)>("glBegin");
  auto end = gl<void (*)()>("glEnd");
  auto get_error = gl<GLenum (*)()>("glGetError");
  static uint32_t junk[64] = {};
  auto expect_refused = [&](const char* what, auto&& call) {
    begin(kPoints);
    call();
    end();
    EXPECT_EQ(get_error(), kInvalidOperation) << what;
    EXPECT_EQ(get_error(), 0u) << what;
  };
  using Pointer = void (*)(GLint, GLenum, GLsizei, const void*);
  expect_refused("glDrawArrays", [&] { gl<void (*)(GLenum, GLint, GLsizei)>("glDrawArrays")(kPoints, 0, 1); });
  expect_refused("glDrawElements", [&] {
    gl<void (*)(GLenum, GLsizei, GLenum, const void*)>("glDrawElements")(kPoints, 1, kUint, junk);
  });
  expect_refused("glVertexPointer", [&] { gl<Pointer>("glVertexPointer")(4, kFloat, 0, junk); });
  expect_refused("glColorPointer", [&] { gl<Pointer>("glColorPointer")(4, kFloat, 0, junk); });
  expect_refused("glNormalPointer",
                 [&] { gl<void (*)(GLenum, GLsizei, const void*)>("glNormalPointer")(kFloat, 0, junk); });
  expect_refused("glGenLists", [&] { EXPECT_EQ(gl<GLuint (*)(GLsizei)>("glGenLists")(1), 0u); });
  void* pointer = nullptr;
  expect_refused("glGetPointerv",
                 [&] { gl<void (*)(GLenum, void**)>("glGetPointerv")(kVertexArrayPointer, &pointer); });
  const GLuint list = gl<GLuint (*)(GLsizei)>("glGenLists")(1);
  // Compiled into a list, glBegin opens nothing: the pointer is set.
  gl<void (*)(GLuint, GLenum)>("glNewList")(list, kCompile);
  begin(kPoints);
  gl<void (*)()>("glEndList")();
  gl<Pointer>("glVertexPointer")(4, kFloat, 0, junk);
  EXPECT_EQ(get_error(), 0u);
  gl<void (*)(GLenum, void**)>("glGetPointerv")(kVertexArrayPointer, &pointer);
  EXPECT_EQ(pointer, static_cast<void*>(junk));
  // A glNewList while a list compiles is refused and changes nothing: the
  // first list still executes, so its glBegin opens a primitive.
  constexpr GLenum kCompileAndExecute = 0x1301;
  const GLuint lists = gl<GLuint (*)(GLsizei)>("glGenLists")(2);
  gl<void (*)(GLuint, GLenum)>("glNewList")(lists, kCompileAndExecute);
  gl<void (*)(GLuint, GLenum)>("glNewList")(lists + 1, kCompile);
  EXPECT_EQ(get_error(), kInvalidOperation);
  expect_refused("glGenLists while a list compiles and executes",
                 [&] { EXPECT_EQ(gl<GLuint (*)(GLsizei)>("glGenLists")(1), 0u); });
  gl<void (*)()>("glEndList")();
  EXPECT_EQ(get_error(), 0u);
}

// A called list opens or closes the primitive as its last glBegin or glEnd
// does: a list holding glEnd ends the glBegin the program made, and what
// the guest answers afterwards is no longer refused.
TEST_F(LegacyGlState, CalledListEndsThePrimitive) {
  constexpr GLenum kQuads = 0x0007, kCompile = 0x1300, kInvalidOperation = 0x0502;
  auto gen_lists = gl<GLuint (*)(GLsizei)>("glGenLists");
  auto new_list = gl<void (*)(GLuint, GLenum)>("glNewList");
  auto end_list = gl<void (*)()>("glEndList");
  auto call_list = gl<void (*)(GLuint)>("glCallList");
  auto get_error = gl<GLenum (*)()>("glGetError");
  const GLuint opening = gen_lists(2), closing = opening + 1;
  new_list(opening, kCompile);
  gl<void (*)(GLenum)>("glBegin")(kQuads);
  end_list();
  new_list(closing, kCompile);
  gl<void (*)()>("glEnd")();
  end_list();
  EXPECT_EQ(get_error(), 0u);

  call_list(opening);
  EXPECT_EQ(gen_lists(1), 0u);  // inside the primitive the list opened
  call_list(closing);
  EXPECT_EQ(get_error(), kInvalidOperation);
  EXPECT_NE(gen_lists(1), 0u);
  // A deleted list does nothing when called.
  gl<void (*)(GLuint, GLsizei)>("glDeleteLists")(opening, 1);
  call_list(opening);
  EXPECT_NE(gen_lists(1), 0u);
  EXPECT_EQ(get_error(), 0u);
}

// A client array's format is answered as it was set, before any draw sent
// it: GL_BGRA as its size, its stride and type, no buffer.
TEST_F(LegacyGlState, ClientAttribFormatQueries) {
  constexpr GLenum kBgra = 0x80E1, kSize = 0x8623, kStride = 0x8624, kType = 0x8625, kNormalized = 0x886A,
                   kBufferBinding = 0x889F;
  static const uint8_t colours[8] = {};
  gl<void (*)(GLuint, GLint, GLenum, GLboolean, GLsizei, const void*)>("glVertexAttribPointer")(
      1, static_cast<GLint>(kBgra), kUbyte, 1, 8, colours);
  auto get = [&](GLenum pname) {
    GLint v = -1;
    gl<void (*)(GLuint, GLenum, GLint*)>("glGetVertexAttribiv")(1, pname, &v);
    return v;
  };
  EXPECT_EQ(get(kSize), static_cast<GLint>(kBgra));
  EXPECT_EQ(get(kStride), 8);
  EXPECT_EQ(get(kType), static_cast<GLint>(kUbyte));
  EXPECT_EQ(get(kNormalized), 1);
  EXPECT_EQ(get(kBufferBinding), 0);
  GLfloat size = 0;
  gl<void (*)(GLuint, GLenum, GLfloat*)>("glGetVertexAttribfv")(1, kSize, &size);
  EXPECT_EQ(size, static_cast<GLfloat>(kBgra));
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

// glMultiDrawArrays sends the client arrays of all its parts first: the
// second part draws the right half from vertices the first does not read.
TEST_F(LegacyGlState, MultiDrawArraysFromClientMemory) {
  constexpr GLenum kVertexArray = 0x8074, kTriangleFan = 0x0006;
  const std::array<float, 16> halves{-1, -1, 0, -1, 0, 1, -1, 1, 0, -1, 1, -1, 1, 1, 0, 1};
  const std::array<GLint, 2> first{0, 4};
  const std::array<GLsizei, 2> count{4, 4};
  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0, 0, 0, 1);
  gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
  gl<void (*)(GLfloat, GLfloat, GLfloat)>("glColor3f")(1, 0, 0);
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glVertexPointer")(2, kFloat, 0, halves.data());
  gl<void (*)(GLenum)>("glEnableClientState")(kVertexArray);
  gl<void (*)(GLenum, const GLint*, const GLsizei*, GLsizei)>("glMultiDrawArrays")(
      kTriangleFan, first.data(), count.data(), 2);
  const std::array<uint8_t, 4> red{255, 0, 0, 255};
  expect_halves(red, red);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// GL_IBM_multimode_draw_arrays: each part draws with its own mode, modes
// `stride` bytes apart. The left half is a fan (filled), the right half
// lines along its edges only: its centre stays clear.
TEST_F(LegacyGlState, MultiModeDrawArraysDrawsEachPartInItsMode) {
  constexpr GLenum kVertexArray = 0x8074, kTriangleFan = 0x0006, kLineLoop = 0x0002;
  ASSERT_TRUE(offers("GL_IBM_multimode_draw_arrays"));
  const std::array<float, 16> halves{-1, -1, 0, -1, 0, 1, -1, 1, 0, -1, 1, -1, 1, 1, 0, 1};
  const std::array<GLint, 2> first{0, 4};
  const std::array<GLsizei, 2> count{4, 4};
  const std::array<GLenum, 4> modes{kTriangleFan, 0, kLineLoop, 0};  // every other one
  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0, 0, 0, 1);
  gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
  gl<void (*)(GLfloat, GLfloat, GLfloat)>("glColor3f")(1, 0, 0);
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glVertexPointer")(2, kFloat, 0, halves.data());
  gl<void (*)(GLenum)>("glEnableClientState")(kVertexArray);
  gl<void (*)(const GLenum*, const GLint*, const GLsizei*, GLsizei, GLint)>("glMultiModeDrawArraysIBM")(
      modes.data(), first.data(), count.data(), 2, 2 * sizeof(GLenum));
  expect_halves({255, 0, 0, 255}, {0, 0, 0, 255});
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// Client-memory vertices with the indices in a buffer: the guest reads the
// indices of both parts back (one round trip) to send the vertices they
// name; each part draws one half.
TEST_F(LegacyGlState, MultiDrawElementsOfClientVerticesWithIndicesInABuffer) {
  constexpr GLenum kVertexArray = 0x8074, kTriangleFan = 0x0006, kElementArrayBuffer = 0x8893, kStaticDraw = 0x88E4;
  constexpr GLenum kUshort = 0x1403;
  const std::array<float, 16> halves{-1, -1, 0, -1, 0, 1, -1, 1, 0, -1, 1, -1, 1, 1, 0, 1};
  const std::array<uint16_t, 8> indices{0, 1, 2, 3, 4, 5, 6, 7};
  GLuint buffer = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenBuffers")(1, &buffer);
  gl<void (*)(GLenum, GLuint)>("glBindBuffer")(kElementArrayBuffer, buffer);
  gl<void (*)(GLenum, intptr_t, const void*, GLenum)>("glBufferData")(kElementArrayBuffer, sizeof indices,
                                                                       indices.data(), kStaticDraw);
  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0, 0, 0, 1);
  gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
  gl<void (*)(GLfloat, GLfloat, GLfloat)>("glColor3f")(0, 0, 1);
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glVertexPointer")(2, kFloat, 0, halves.data());
  gl<void (*)(GLenum)>("glEnableClientState")(kVertexArray);
  const std::array<GLsizei, 2> count{4, 4};
  const std::array<const void*, 2> offsets{nullptr, reinterpret_cast<const void*>(uintptr_t{8})};
  gl<void (*)(GLenum, const GLsizei*, GLenum, const void* const*, GLsizei)>("glMultiDrawElements")(
      kTriangleFan, count.data(), kUshort, offsets.data(), 2);
  const std::array<uint8_t, 4> blue{0, 0, 255, 255};
  expect_halves(blue, blue);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// glArrayElement between glBegin and glEnd reads client memory the host
// never had: the guest sends the calls it stands for (colours as unsigned
// bytes, vertices as floats), and the left half is green, the right blue.
TEST_F(LegacyGlState, ArrayElementFromClientMemory) {
  constexpr GLenum kVertexArray = 0x8074, kColorArray = 0x8076, kQuads = 0x0007;
  const std::array<float, 16> halves{-1, -1, 0, -1, 0, 1, -1, 1, 0, -1, 1, -1, 1, 1, 0, 1};
  std::array<uint8_t, 24> colours{};
  for (size_t v = 0; v < 8; ++v) colours[v * 3 + (v < 4 ? 1 : 2)] = 255;
  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0, 0, 0, 1);
  gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glVertexPointer")(2, kFloat, 0, halves.data());
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glColorPointer")(3, kUbyte, 0, colours.data());
  gl<void (*)(GLenum)>("glEnableClientState")(kVertexArray);
  gl<void (*)(GLenum)>("glEnableClientState")(kColorArray);
  gl<void (*)(GLenum)>("glBegin")(kQuads);
  for (GLint i = 0; i < 8; ++i) gl<void (*)(GLint)>("glArrayElement")(i);
  gl<void (*)()>("glEnd")();
  expect_halves({0, 255, 0, 255}, {0, 0, 255, 255});
  // The pointers are the program's own, answered by the guest.
  constexpr GLenum kVertexArrayPointer = 0x808E, kColorArrayPointer = 0x8090;
  void* got = nullptr;
  gl<void (*)(GLenum, void**)>("glGetPointerv")(kVertexArrayPointer, &got);
  EXPECT_EQ(got, halves.data());
  gl<void (*)(GLenum, void**)>("glGetPointerv")(kColorArrayPointer, &got);
  EXPECT_EQ(got, colours.data());
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// A glDrawElements compiled into a display list with primitive restart on:
// the restart index names no vertex, so arrays that do not hold it suffice.
TEST_F(LegacyGlState, CompiledElementsSkipTheRestartIndex) {
  constexpr GLenum kVertexArray = 0x8074, kTriangleStrip = 0x0005, kUint = 0x1405;
  constexpr GLenum kCompile = 0x1300, kPrimitiveRestartNv = 0x8558;
  ASSERT_TRUE(offers("GL_NV_primitive_restart"));
  const std::array<float, 8> square{-1, -1, 1, -1, -1, 1, 1, 1};
  const std::array<GLuint, 7> indices{0, 1, 2, 9, 1, 2, 3};
  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0, 0, 0, 1);
  gl<void (*)(GLfloat, GLfloat, GLfloat)>("glColor3f")(1, 0, 0);
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glVertexPointer")(2, kFloat, 0, square.data());
  gl<void (*)(GLenum)>("glEnableClientState")(kVertexArray);
  gl<void (*)(GLenum)>("glEnableClientState")(kPrimitiveRestartNv);
  gl<void (*)(GLuint)>("glPrimitiveRestartIndexNV")(9);
  const GLuint list = gl<GLuint (*)(GLsizei)>("glGenLists")(1);
  gl<void (*)(GLuint, GLenum)>("glNewList")(list, kCompile);
  gl<void (*)(GLenum, GLsizei, GLenum, const void*)>("glDrawElements")(kTriangleStrip, 7, kUint,
                                                                        indices.data());
  gl<void (*)()>("glEndList")();
  gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
  gl<void (*)(GLuint)>("glCallList")(list);
  gl<void (*)(GLenum)>("glDisableClientState")(kPrimitiveRestartNv);
  EXPECT_EQ(pixel(4, 4), (std::array<uint8_t, 4>{255, 0, 0, 255}));
  EXPECT_EQ(pixel(12, 12), (std::array<uint8_t, 4>{255, 0, 0, 255}));
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
  expect_halves(red, black);
  clear();
  gl<void (*)(GLenum, const void*, GLintptr, GLsizei, GLsizei)>("glMultiDrawArraysIndirectCount")(
      kTriangleFan, nullptr, 0, 2, 0);
  expect_halves(red, red);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// An extension whose commands are all aliases of carried ones is offered
// and reaches GL (GL_ARB_window_pos); one Conduit cannot forward
// (GL_EXT_semaphore: semaphores behind host handles) is hidden.
TEST_F(LegacyGlState, ExtensionsOfAliasesAreOfferedAndWork) {
  constexpr GLenum kCurrentRasterPosition = 0x0B07;
  ASSERT_TRUE(offers("GL_ARB_window_pos"));
  EXPECT_FALSE(offers("GL_EXT_semaphore"));
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
  GLuint program = linked_program(kVertexShader, vs);
  gl<void (*)(GLuint)>("glUseProgram")(program);
  const GLint location = gl<GLint (*)(GLuint, const GLchar*)>("glGetUniformLocation")(program, "d");
  ASSERT_GE(location, 0);
  gl<void (*)(GLint, GLdouble, GLdouble, GLdouble)>("glUniform3d")(location, 0.5, -2.25, 1e100);
  std::array<GLdouble, 4> back{9, 9, 9, 9};
  gl<void (*)(GLuint, GLint, GLdouble*)>("glGetUniformdv")(program, location, back.data());
  EXPECT_EQ(back, (std::array<GLdouble, 4>{0.5, -2.25, 1e100, 9}));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// GL_ARB_shader_objects: a handle names a program or a shader, and each of
// the extension's own commands acts on the kind it names.
TEST_F(LegacyGlState, ShaderObjectHandles) {
  constexpr GLenum kObjectType = 0x8B4E, kProgramObject = 0x8B40, kShaderObject = 0x8B48;
  constexpr GLenum kCompileStatus = 0x8B81, kLinkStatus = 0x8B82, kAttachedObjects = 0x8B85;
  constexpr GLenum kInvalidValue = 0x0501;
  ASSERT_TRUE(offers("GL_ARB_shader_objects"));
  using Handle = GLuint;
  auto get = gl<void (*)(Handle, GLenum, GLint*)>("glGetObjectParameterivARB");
  auto value = [&](Handle object, GLenum pname) {
    GLint v = -1;
    get(object, pname, &v);
    return v;
  };
  const char* vs = "void main() { gl_Position = gl_Vertex; }";
  const Handle shader = gl<Handle (*)(GLenum)>("glCreateShaderObjectARB")(kVertexShader);
  gl<void (*)(Handle, GLsizei, const GLchar* const*, const GLint*)>("glShaderSourceARB")(
      shader, 1, &vs, nullptr);
  gl<void (*)(Handle)>("glCompileShaderARB")(shader);
  EXPECT_EQ(value(shader, kObjectType), static_cast<GLint>(kShaderObject));
  EXPECT_EQ(value(shader, kCompileStatus), 1);
  const Handle program = gl<Handle (*)()>("glCreateProgramObjectARB")();
  gl<void (*)(Handle, Handle)>("glAttachObjectARB")(program, shader);
  gl<void (*)(Handle)>("glLinkProgramARB")(program);
  EXPECT_EQ(value(program, kObjectType), static_cast<GLint>(kProgramObject));
  EXPECT_EQ(value(program, kLinkStatus), 1);
  EXPECT_EQ(value(program, kAttachedObjects), 1);
  Handle attached[2] = {};
  GLsizei count = 0;
  gl<void (*)(Handle, GLsizei, GLsizei*, Handle*)>("glGetAttachedObjectsARB")(program, 2, &count, attached);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(attached[0], shader);
  gl<void (*)(Handle)>("glUseProgramObjectARB")(program);
  EXPECT_EQ(gl<Handle (*)(GLenum)>("glGetHandleARB")(kProgramObject), program);
  char log[64] = "untouched";
  GLsizei length = -1;
  gl<void (*)(Handle, GLsizei, GLsizei*, GLchar*)>("glGetInfoLogARB")(shader, sizeof log, &length, log);
  EXPECT_GE(length, 0);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
  gl<void (*)(Handle)>("glUseProgramObjectARB")(0);
  gl<void (*)(Handle)>("glDeleteObjectARB")(program);
  EXPECT_EQ(value(program, kObjectType), -1);  // no such object any more
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), kInvalidValue);
}

// GL_ARB_shading_language_include: named strings by length or terminator,
// read back whole or cut to the program's buffer, and included by a shader
// compiled with a search path.
TEST_F(LegacyGlState, NamedStringsAreIncluded) {
  constexpr GLenum kShaderInclude = 0x8DAE, kNamedStringLength = 0x8DE9, kNamedStringType = 0x8DEA;
  constexpr GLenum kCompileStatus = 0x8B81, kInvalidOperation = 0x0502;
  ASSERT_TRUE(offers("GL_ARB_shading_language_include"));
  auto named_string = gl<void (*)(GLenum, GLint, const GLchar*, GLint, const GLchar*)>("glNamedStringARB");
  auto is_named = gl<GLboolean (*)(GLint, const GLchar*)>("glIsNamedStringARB");
  auto get_string = gl<void (*)(GLint, const GLchar*, GLsizei, GLint*, GLchar*)>("glGetNamedStringARB");
  auto get_iv = gl<void (*)(GLint, const GLchar*, GLenum, GLint*)>("glGetNamedStringivARB");
  auto get_error = gl<GLenum (*)()>("glGetError");
  const char body[] = "#define GREEN vec4(0.0, 1.0, 0.0, 1.0)\nTRAILING";
  named_string(kShaderInclude, -1, "/inc/colour.h", static_cast<GLint>(std::strlen(body) - 9), body);
  EXPECT_EQ(get_error(), 0u);
  EXPECT_TRUE(is_named(13, "/inc/colour.h.unused"));  // a counted name: its first 13 bytes
  EXPECT_FALSE(is_named(-1, "/inc/other.h"));
  GLint value = -1;
  get_iv(-1, "/inc/colour.h", kNamedStringLength, &value);
  EXPECT_EQ(value, static_cast<GLint>(std::strlen(body) - 9 + 1));  // with its terminator
  get_iv(-1, "/inc/colour.h", kNamedStringType, &value);
  EXPECT_EQ(value, static_cast<GLint>(kShaderInclude));
  char whole[64] = {};
  GLint length = -1;
  get_string(-1, "/inc/colour.h", sizeof whole, &length, whole);
  EXPECT_EQ(std::string(whole), std::string(body, std::strlen(body) - 9));
  EXPECT_EQ(length, static_cast<GLint>(std::strlen(body) - 9));
  char cut[9];
  std::memset(cut, 'x', sizeof cut);
  get_string(-1, "/inc/colour.h", 8, &length, cut);
  EXPECT_EQ(std::string(cut, 8), std::string(body, 7) + '\0');
  EXPECT_EQ(cut[8], 'x');  // nothing past the program's buffer
  value = 1234;
  get_iv(-1, "/inc/missing.h", kNamedStringLength, &value);
  EXPECT_EQ(get_error(), kInvalidOperation);
  EXPECT_EQ(value, 1234);  // GL wrote nothing
  const char* fs =
      "#version 130\n#extension GL_ARB_shading_language_include : require\n"
      "#include <colour.h>\nout vec4 o; void main() { o = GREEN; }";
  const GLuint shader = gl<GLuint (*)(GLenum)>("glCreateShader")(kFragmentShader);
  gl<void (*)(GLuint, GLsizei, const GLchar* const*, const GLint*)>("glShaderSource")(shader, 1, &fs, nullptr);
  const char* paths[] = {"/inc"};
  gl<void (*)(GLuint, GLsizei, const GLchar* const*, const GLint*)>("glCompileShaderIncludeARB")(shader, 1, paths,
                                                                                                nullptr);
  GLint compiled = 0;
  gl<void (*)(GLuint, GLenum, GLint*)>("glGetShaderiv")(shader, kCompileStatus, &compiled);
  EXPECT_EQ(compiled, 1);
  gl<void (*)(GLint, const GLchar*)>("glDeleteNamedStringARB")(-1, "/inc/colour.h");
  EXPECT_FALSE(is_named(-1, "/inc/colour.h"));
  EXPECT_EQ(get_error(), 0u);
}

// GL_EXT_direct_state_access's named texture commands with another target
// than their texture's: GL refuses them before it reads the pixels, so the
// guest must not read them either (the program may pass memory it has
// unmapped). A texture bound, one made by a named command and one made by
// glCreateTextures; a cube map takes its faces.
TEST_F(LegacyGlState, NamedTextureCommandsOfAnotherTargetReadNoPixels) {
  constexpr GLenum kTexture2d = 0x0DE1, kCubeMap = 0x8513, kPositiveX = 0x8515, kNegativeY = 0x8518;
  constexpr GLenum kInvalidOperation = 0x0502;
  ASSERT_TRUE(offers("GL_EXT_direct_state_access"));
  const long page = sysconf(_SC_PAGESIZE);
  void* unreadable = mmap(nullptr, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(unreadable, MAP_FAILED);
  auto image = gl<void (*)(GLuint, GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void*)>(
      "glTextureImage2DEXT");
  auto sub_image = gl<void (*)(GLuint, GLenum, GLint, GLint, GLint, GLsizei, GLsizei, GLenum, GLenum,
                               const void*)>("glTextureSubImage2DEXT");
  auto error = gl<GLenum (*)()>("glGetError");
  const std::array<uint8_t, 16> texels{};
  GLuint textures[3] = {};
  gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(2, textures);
  gl<void (*)(GLenum, GLuint)>("glBindTexture")(kTexture2d, textures[0]);
  image(textures[1], kTexture2d, 0, kRgba, 2, 2, 0, kRgba, kUbyte, texels.data());  // made here
  gl<void (*)(GLenum, GLsizei, GLuint*)>("glCreateTextures")(kTexture2d, 1, &textures[2]);
  EXPECT_EQ(error(), 0u);
  for (GLuint texture : textures) {
    image(texture, kPositiveX, 0, kRgba, 2, 2, 0, kRgba, kUbyte, unreadable);
    EXPECT_EQ(error(), kInvalidOperation) << "texture " << texture;
    sub_image(texture, kNegativeY, 0, 0, 0, 2, 2, kRgba, kUbyte, unreadable);
    EXPECT_EQ(error(), kInvalidOperation) << "texture " << texture;
  }
  GLuint cube = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(1, &cube);
  gl<void (*)(GLenum, GLuint)>("glBindTexture")(kCubeMap, cube);
  image(cube, kNegativeY, 0, kRgba, 2, 2, 0, kRgba, kUbyte, texels.data());
  EXPECT_EQ(error(), 0u);
  image(cube, kTexture2d, 0, kRgba, 2, 2, 0, kRgba, kUbyte, unreadable);
  EXPECT_EQ(error(), kInvalidOperation);
  // Deleted, a name is no texture: the host's GL decides again.
  gl<void (*)(GLsizei, const GLuint*)>("glDeleteTextures")(1, &textures[0]);
  image(textures[0], kPositiveX, 0, kRgba, 2, 2, 0, kRgba, kUbyte, texels.data());
  EXPECT_EQ(error(), 0u);
  munmap(unreadable, page);
}

}  // namespace
}  // namespace icd::egl
