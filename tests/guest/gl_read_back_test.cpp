// Desktop GL read-backs through the guest against a real host: images,
// compressed and direct-state-access reads, bounded reads, stipples, pixel
// maps, selection and feedback, into client memory or a pack buffer.
#include <array>
#include <cstring>
#include <utility>
#include <vector>

#include "gl_state_fixture.h"

namespace icd::egl {
namespace {

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

// The robust forms write the map and nothing more of the program's buffer,
// and nothing at all when bufSize is smaller than it; the stipple likewise.
TEST_F(LegacyGlState, RobustReadBacksWriteWhatGlWrites) {
  constexpr GLenum kPixelMapRToR = 0x0C76, kInvalidOperation = 0x0502;
  const GLfloat map[3] = {0.0f, 0.5f, 1.0f};
  gl<void (*)(GLenum, GLsizei, const GLfloat*)>("glPixelMapfv")(kPixelMapRToR, 3, map);
  auto get_n_map = gl<void (*)(GLenum, GLsizei, GLfloat*)>("glGetnPixelMapfvARB");
  GLfloat floats[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  get_n_map(kPixelMapRToR, sizeof floats, floats);
  EXPECT_EQ(std::memcmp(floats, map, sizeof map), 0);
  EXPECT_EQ(floats[3], -1.0f);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
  GLfloat small[2] = {-1, -1};
  get_n_map(kPixelMapRToR, sizeof small, small);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), kInvalidOperation);
  EXPECT_EQ(small[0], -1.0f);
  GLubyte stipple[129];
  std::memset(stipple, 0xAB, sizeof stipple);
  auto get_n_stipple = gl<void (*)(GLsizei, GLubyte*)>("glGetnPolygonStippleARB");
  get_n_stipple(127, stipple);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), kInvalidOperation);
  EXPECT_EQ(stipple[0], 0xAB);
  get_n_stipple(sizeof stipple, stipple);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
  EXPECT_EQ(stipple[0], 0xFF);    // the default stipple is all ones
  EXPECT_EQ(stipple[128], 0xAB);  // 128 bytes written, not bufSize
}

}  // namespace
}  // namespace icd::egl
