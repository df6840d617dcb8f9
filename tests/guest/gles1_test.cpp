// OpenGL ES 1.1 through the guest ICD against a real host: fixed-point
// client arrays, the point size array, glDrawTex and fixed-point queries.
#include <string>

#include "gl_state_fixture.h"

namespace icd::egl {
namespace {

constexpr GLenum kVertexArray = 0x8074, kColorArray = 0x8076, kPointSizeArray = 0x8B9C;
constexpr GLenum kFixed = 0x140C, kPoints = 0x0000, kVersion = 0x1F02, kExtensions = 0x1F03;
constexpr GLenum kModelviewMatrix = 0x0BA6, kTextureCropRect = 0x8B9D, kNearest = 0x2600;
constexpr GLenum kTextureMinFilter = 0x2801, kTextureMagFilter = 0x2800;
constexpr GLfixed kOne = 1 << 16;

void clear_black() {
  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearColor")(0, 0, 0, 1);
  gl<void (*)(GLbitfield)>("glClear")(kColorBufferBit);
}

void client_state(GLenum array, bool on) {
  gl<void (*)(GLenum)>(on ? "glEnableClientState" : "glDisableClientState")(array);
}

TEST_F(Gles1State, IsOpenGlEs1WithItsOwnExtensions) {
  auto get_string = gl<const GLubyte* (*)(GLenum)>("glGetString");
  const std::string version = reinterpret_cast<const char*>(get_string(kVersion));
  EXPECT_EQ(version.rfind("OpenGL ES-CM 1.", 0), 0u) << version;
  const std::string extensions = std::string(" ") + reinterpret_cast<const char*>(get_string(kExtensions)) + " ";
  EXPECT_NE(extensions.find(" GL_OES_fixed_point "), std::string::npos) << extensions;
  EXPECT_NE(extensions.find(" GL_OES_point_size_array "), std::string::npos) << extensions;
  EXPECT_NE(extensions.find(" GL_OES_draw_texture "), std::string::npos) << extensions;
}

// Fixed-point positions and byte colours from client memory, sent with the draw.
TEST_F(Gles1State, FixedPointClientArraysDraw) {
  clear_black();
  const GLfixed left_half[] = {-kOne, -kOne, 0, -kOne, 0, kOne, -kOne, -kOne, 0, kOne, -kOne, kOne};
  const uint8_t colours[6][4] = {{255, 0, 0, 255}, {255, 0, 0, 255}, {255, 0, 0, 255},
                                 {255, 0, 0, 255}, {255, 0, 0, 255}, {255, 0, 0, 255}};
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glVertexPointer")(2, kFixed, 0, left_half);
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glColorPointer")(4, kUbyte, 0, colours);
  client_state(kVertexArray, true);
  client_state(kColorArray, true);
  gl<void (*)(GLenum, GLint, GLsizei)>("glDrawArrays")(kTriangles, 0, 6);
  EXPECT_EQ(pixel(3, 8), (std::array<uint8_t, 4>{255, 0, 0, 255}));
  EXPECT_EQ(pixel(12, 8), (std::array<uint8_t, 4>{0, 0, 0, 255}));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// GL_OES_point_size_array: each point's size comes from the program's array.
TEST_F(Gles1State, PointSizeArraySizesEachPoint) {
  clear_black();
  const GLfloat points[] = {-0.5f, 0.0f, 0.5f, 0.0f};  // centres at x = 4 and x = 12
  const GLfloat sizes[] = {1.0f, 6.0f};
  gl<void (*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glColor4f")(0, 1, 0, 1);
  gl<void (*)(GLint, GLenum, GLsizei, const void*)>("glVertexPointer")(2, kFloat, 0, points);
  gl<void (*)(GLenum, GLsizei, const void*)>("glPointSizePointerOES")(kFloat, 0, sizes);
  client_state(kVertexArray, true);
  client_state(kPointSizeArray, true);
  gl<void (*)(GLenum, GLint, GLsizei)>("glDrawArrays")(kPoints, 0, 2);
  EXPECT_EQ(pixel(4, 8)[1], 255);   // the 1-pixel point
  EXPECT_EQ(pixel(5, 10)[1], 0);    // ... covers nothing around it
  EXPECT_EQ(pixel(12, 8)[1], 255);  // the 6-pixel point
  EXPECT_EQ(pixel(10, 10)[1], 255);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// GL_OES_draw_texture copies a texture's crop rectangle to the window.
TEST_F(Gles1State, DrawTexturePaintsTheRectangle) {
  clear_black();
  const uint8_t blue[4 * 4 * 4] = {0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255,
                                   0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255,
                                   0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255,
                                   0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255};
  GLuint tex = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(1, &tex);
  gl<void (*)(GLenum, GLuint)>("glBindTexture")(kTexture2D, tex);
  gl<void (*)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void*)>("glTexImage2D")(
      kTexture2D, 0, kRgba, 4, 4, 0, kRgba, kUbyte, blue);
  auto parameter = gl<void (*)(GLenum, GLenum, GLint)>("glTexParameteri");
  parameter(kTexture2D, kTextureMinFilter, kNearest);
  parameter(kTexture2D, kTextureMagFilter, kNearest);
  const GLint crop[] = {0, 0, 4, 4};
  gl<void (*)(GLenum, GLenum, const GLint*)>("glTexParameteriv")(kTexture2D, kTextureCropRect, crop);
  gl<void (*)(GLenum)>("glEnable")(kTexture2D);
  gl<void (*)(GLint, GLint, GLint, GLint, GLint)>("glDrawTexiOES")(2, 2, 0, 6, 6);
  EXPECT_EQ(pixel(4, 4), (std::array<uint8_t, 4>{0, 0, 255, 255}));
  EXPECT_EQ(pixel(12, 12), (std::array<uint8_t, 4>{0, 0, 0, 255}));
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
}

// Fixed-point state queries are sized by their pname like the float ones.
TEST_F(Gles1State, FixedQueriesReturnTheMatrix) {
  gl<void (*)()>("glLoadIdentity")();
  gl<void (*)(GLfixed, GLfixed, GLfixed)>("glTranslatex")(2 * kOne, 3 * kOne, 0);
  GLfixed m[17];
  m[16] = 0x5A5A5A5A;  // past the matrix: stays as it was
  gl<void (*)(GLenum, GLfixed*)>("glGetFixedv")(kModelviewMatrix, m);
  EXPECT_EQ(m[0], kOne);
  EXPECT_EQ(m[12], 2 * kOne);
  EXPECT_EQ(m[13], 3 * kOne);
  EXPECT_EQ(m[15], kOne);
  EXPECT_EQ(m[16], 0x5A5A5A5A);
}

}  // namespace
}  // namespace icd::egl
