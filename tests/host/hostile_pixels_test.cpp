// Hostile pixel transfers: every size GL reads from or writes to client
// memory comes from the pixel-store state GL really has. Each attack either
// loses only the attacker's context or gets GL's own error; the host stays
// up, no host bytes come back, and a witness guest keeps rendering.
#include <gtest/gtest.h>

#include <vector>

#include "host_fixture.h"
#include "test_guest.h"
#include "witness.h"
#include "wire/gl_encode.h"
#include "wire/gl_opcodes.h"
#include "wire/reader.h"
#include "wire/sizes.h"

namespace hosttest {
namespace {

using wire::Api;
using wire::GlOp;

constexpr GLenum kTexture2D = 0x0DE1, kTexture3D = 0x806F, kRgba = 0x1908, kRgb = 0x1907;
constexpr GLenum kUbyte = 0x1401, kUint = 0x1405, kAbgr = 0x8000, kColorIndex = 0x1900;
constexpr GLenum kBitmap = 0x1A00, kPoints = 0x0000, kTriangles = 0x0004;
constexpr GLenum kUnpackRowLength = 0x0CF2, kUnpackSkipRows = 0x0CF3, kUnpackAlignment = 0x0CF5;
constexpr GLenum kUnpackSkipImages = 0x806D, kPackRowLength = 0x0D02, kPackSkipRows = 0x0D03;
constexpr GLbitfield kClientPixelStoreBit = 0x1;
constexpr GLenum kNoError = 0, kInvalidEnum = 0x0500, kInvalidOperation = 0x0502;

class HostilePixels : public AttackSuite<HostilePixels> {
 public:
  static host::HostOptions host_options() { return host::HostOptions{}; }

 protected:
  void set_up_attack() override {
    // The attacker: a desktop compatibility context (bitmaps, stipples,
    // glPixelStoref, client attribute stacks).
    attacker_ = TestGuest::connect(host_->address());
    ASSERT_TRUE(attacker_ && attacker_->hello().ok());
    ASSERT_EQ(attacker_->create_context(2, Api::kGl, 3, 0, wire::Profile::kCompatibility), 0u);
    attacker_->create_surface(1, 16, 16);
    attacker_->make_current(2, 1, 1);
    ASSERT_TRUE(attacker_->send().ok());
  }

  wire::Writer& w() { return attacker_->w(); }

  // Sends what was built: the attacker's context is lost at `op`.
  void expect_lost_at(GlOp op) { expect_attacker_lost(2, static_cast<uint32_t>(op)); }

  // glReadPixels into client memory: the bytes the host sends back.
  std::vector<std::byte> read_pixels(GLsizei width, GLsizei height, GLenum format, GLenum type) {
    size_t at = w().begin(static_cast<uint32_t>(GlOp::glReadPixels));
    for (int32_t v : {0, 0, width, height}) w().put(v);
    w().put(static_cast<uint32_t>(format));
    w().put(static_cast<uint32_t>(type));
    w().put_data(nullptr, 0);
    w().end(at);
    return reply_data();
  }

  // glDrawElementsInstancedBaseInstance and its base-vertex form read count
  // indices of their type: 999 GL_UNSIGNED_INT indices in 1000 bytes lose the
  // attacker's context at `op`.
  template <typename Encode>
  void send_bytes_as_uint_indices(Encode encode, GlOp op) {
    std::vector<std::byte> indices(1000);
    encode(w(), kTriangles, 999, kUint, 1, 0, 0, 0, indices.data(), 0, indices.size(), false);
    expect_lost_at(op);
  }

  std::vector<std::byte> reply_data() { return hosttest::reply_data(*attacker_); }

  // glGetTexImage of level 0 of the bound 2D texture into `destination`.
  template <typename PutDestination>
  void get_tex_image(PutDestination put_destination) {
    size_t at = w().begin(static_cast<uint32_t>(GlOp::glGetTexImage));
    w().put(kTexture2D);
    w().put(GLint{0});
    w().put(kRgba);
    w().put(kUbyte);
    put_destination();
    w().end(at);
  }

  // glGetPolygonStipple into `destination`.
  template <typename PutDestination>
  void get_polygon_stipple(PutDestination put_destination) {
    size_t at = w().begin(static_cast<uint32_t>(GlOp::glGetPolygonStipple));
    put_destination();
    w().end(at);
  }

  void tex_image_2d(GLsizei width, GLsizei height, GLenum format, size_t bytes) {
    std::vector<std::byte> pixels(bytes, std::byte{0x11});
    wire::encode_glTexImage2D(w(), kTexture2D, 0, static_cast<GLint>(kRgba), width, height, 0,
                              format, kUbyte, pixels.data(), pixels.size(), false);
  }
};

// glGetTexImage into a pack-buffer offset when none is bound: GL would
// write the image at that address in the host.
TEST_F(HostilePixels, TexImageReadBackToAnOffsetWithNoPackBuffer) {
  tex_image_2d(16, 16, kRgba, 16 * 16 * 4);
  get_tex_image([&] { w().put_buffer_offset(0x10000); });
  expect_lost_at(GlOp::glGetTexImage);
}

// The image read back is sized from GL's level and pack state: skipped rows
// make room, and come back as zeros.
TEST_F(HostilePixels, TexImageReadBackFollowsThePackState) {
  tex_image_2d(16, 16, kRgba, 16 * 16 * 4);
  wire::encode_glPixelStorei(w(), kPackSkipRows, 8);
  get_tex_image([&] { w().put_data(nullptr, 0); });
  const auto back = reply_data();
  ASSERT_EQ(back.size(), size_t{(8 + 16) * 16 * 4});
  EXPECT_EQ(back[0], std::byte{0});
  EXPECT_EQ(back[8 * 16 * 4], std::byte{0x11});
  EXPECT_EQ(gl_error(*attacker_), kNoError);
}

// glGetTextureSubImage of a region far past a 16x16 level, with a bufSize
// that promises room for all of it: the host makes room for the part inside
// the level only, and GL refuses the region before writing.
TEST_F(HostilePixels, TextureRegionPastTheLevelGetsGlsError) {
  constexpr GLenum kInvalidValue = 0x0501;
  wire::encode_glBindTexture(w(), kTexture2D, 7);
  tex_image_2d(16, 16, kRgba, 16 * 16 * 4);
  size_t at = w().begin(static_cast<uint32_t>(GlOp::glGetTextureSubImage));
  for (uint32_t v : {7u, 0u, 0u, 0u, 0u, 0x40000000u, 0x40000000u, 1u, kRgba, kUbyte, 0x7FFFFFFFu}) {
    w().put(v);
  }
  w().put_data(nullptr, 0);
  w().end(at);
  EXPECT_LE(reply_data().size(), size_t{16 * 16 * 4});
  EXPECT_EQ(gl_error(*attacker_), kInvalidValue);
}

// A compressed read of an uncompressed level is GL's error, not a read of
// whatever size the guest names.
TEST_F(HostilePixels, CompressedReadOfAnUncompressedLevel) {
  wire::encode_glBindTexture(w(), kTexture2D, 7);
  tex_image_2d(16, 16, kRgba, 16 * 16 * 4);
  size_t at = w().begin(static_cast<uint32_t>(GlOp::glGetCompressedTextureImage));
  for (uint32_t v : {7u, 0u, 0x7FFFFFFFu}) w().put(v);
  w().put_data(nullptr, 0);
  w().end(at);
  EXPECT_TRUE(reply_data().empty());
  EXPECT_EQ(gl_error(*attacker_), kInvalidOperation);
}

// The pack state's compressed block with a huge row length: the layout's
// extent saturates instead of wrapping, and the read is refused.
TEST_F(HostilePixels, CompressedBlockLayoutPastAnyRoom) {
  constexpr GLenum kRedRgtc1 = 0x8DBB, kBlockWidth = 0x912B, kBlockHeight = 0x912C;
  constexpr GLenum kBlockSize = 0x912E;
  std::vector<std::byte> blocks(32 * 32 / 2, std::byte{0x5A});
  wire::encode_glCompressedTexImage2D(w(), kTexture2D, 0, kRedRgtc1, 32, 32, 0,
                                      static_cast<GLsizei>(blocks.size()), blocks.data(),
                                      blocks.size(), false);
  for (auto [pname, value] : {std::pair{kBlockWidth, 4}, {kBlockHeight, 4}, {kBlockSize, 0x7FFFFFFF},
                              {kPackRowLength, 0x7FFFFFFF}}) {
    wire::encode_glPixelStorei(w(), pname, value);
  }
  size_t at = w().begin(static_cast<uint32_t>(GlOp::glGetCompressedTexImage));
  w().put(kTexture2D);
  w().put(GLint{0});
  w().put_data(nullptr, 0);
  w().end(at);
  EXPECT_TRUE(reply_data().empty());
  EXPECT_EQ(gl_error(*attacker_), kInvalidOperation);
}

// glPixelStoref is GL's too: an upload sized without its row length would
// hand GL the host's heap.
TEST_F(HostilePixels, FloatRowLengthMakesTheUploadShort) {
  wire::encode_glPixelStoref(w(), kUnpackRowLength, 64.0f);
  tex_image_2d(16, 16, kRgba, 16 * 16 * 4);
  expect_lost_at(GlOp::glTexImage2D);
}

// A value GL refuses leaves GL's row length as it was.
TEST_F(HostilePixels, RefusedRowLengthIsNotBelieved) {
  wire::encode_glPixelStorei(w(), kUnpackRowLength, 64);
  wire::encode_glPixelStorei(w(), kUnpackRowLength, -1);
  tex_image_2d(16, 16, kRgba, 16 * 16 * 4);
  expect_lost_at(GlOp::glTexImage2D);
}

// A refused alignment likewise: GL keeps 8-byte rows.
TEST_F(HostilePixels, RefusedAlignmentIsNotBelieved) {
  wire::encode_glPixelStorei(w(), kUnpackAlignment, 8);
  wire::encode_glPixelStorei(w(), kUnpackAlignment, 3);
  tex_image_2d(1, 16, kRgb, 4 * 15 + 3);
  expect_lost_at(GlOp::glTexImage2D);
}

// glPopClientAttrib brings back a row length set before the push.
TEST_F(HostilePixels, PoppedRowLengthCounts) {
  wire::encode_glPixelStorei(w(), kUnpackRowLength, 64);
  wire::encode_glPushClientAttrib(w(), kClientPixelStoreBit);
  wire::encode_glPixelStorei(w(), kUnpackRowLength, 0);
  wire::encode_glPopClientAttrib(w());
  tex_image_2d(16, 16, kRgba, 16 * 16 * 4);
  expect_lost_at(GlOp::glTexImage2D);
}

// Volumes start skipped images in, even one image deep.
TEST_F(HostilePixels, SkippedImagesOfAOneDeepVolume) {
  wire::encode_glPixelStorei(w(), kUnpackSkipImages, 64);
  std::vector<std::byte> pixels(16 * 16 * 4);
  wire::encode_glTexImage3D(w(), kTexture3D, 0, static_cast<GLint>(kRgba), 16, 16, 1, 0, kRgba,
                            kUbyte, pixels.data(), pixels.size(), false);
  expect_lost_at(GlOp::glTexImage3D);
}

// A pair the old size table did not know was sized 0 and not checked.
TEST_F(HostilePixels, AbgrUploadIsSized) {
  tex_image_2d(16, 16, kAbgr, 4);
  expect_lost_at(GlOp::glTexImage2D);
}

TEST_F(HostilePixels, BitmapTypeDrawPixelsIsSized) {
  std::vector<std::byte> bits(1);
  wire::encode_glDrawPixels(w(), 64, 64, kColorIndex, kBitmap, bits.data(), bits.size(), false);
  expect_lost_at(GlOp::glDrawPixels);
}

// llvmpipe reads colour-index rows from a pixel buffer with the wrong
// stride, past the buffer's end: not run (GL_INVALID_OPERATION).
TEST_F(HostilePixels, ColorIndexBitmapFromAPixelBufferIsRefused) {
  constexpr uint32_t kUnpackBuffer = 0x88EC, kStreamDraw = 0x88E0;
  GLuint buffer = 7;
  wire::encode_glGenBuffers(w(), 1, &buffer, sizeof buffer);
  wire::encode_glBindBuffer(w(), kUnpackBuffer, buffer);
  std::vector<std::byte> bits(5);
  wire::encode_glBufferData(w(), kUnpackBuffer, 5, bits.data(), kStreamDraw, bits.size());
  wire::encode_glDrawPixels(w(), 5, 3, kColorIndex, kBitmap, nullptr, 0, false);
  EXPECT_EQ(gl_error(*attacker_), kInvalidOperation);
  EXPECT_TRUE(attacker_->lost.empty());
  expect_witness_renders(*witness_, 1);
}

// NULL where GL reads client pixels (without an unpack buffer) is a bug GL
// need not catch before reading: the host gives GL zeros instead, and GL
// still raises its own errors for the call.
TEST_F(HostilePixels, NullPixelsReadZeros) {
  constexpr GLenum kRgbaInteger = 0x8D99, kFloat = 0x1406;
  wire::encode_glDrawPixels(w(), 16, 16, kRgba, kUbyte, nullptr, 0, false);
  EXPECT_EQ(gl_error(*attacker_), kNoError);
  wire::encode_glBindTexture(w(), kTexture2D, 7);
  wire::encode_glTexImage2D(w(), kTexture2D, 0, 0x8D70, 8, 8, 0, kRgbaInteger, kUint, nullptr, 0,
                            false);  // GL_RGBA32UI
  wire::encode_glTexSubImage2D(w(), kTexture2D, 0, 0, 0, 4, 4, kRgbaInteger, kFloat, nullptr, 0,
                               false);
  EXPECT_EQ(gl_error(*attacker_), kInvalidEnum);
  EXPECT_TRUE(attacker_->lost.empty());
  expect_witness_renders(*witness_, 1);
}

// ... but only up to the largest reply the host makes: 16 GiB of zeros is
// not something to allocate for a guest.
TEST_F(HostilePixels, HugeNullPixelsAreLost) {
  wire::encode_glDrawPixels(w(), 1 << 16, 1 << 16, kRgba, kUint, nullptr, 0, false);
  expect_lost_at(GlOp::glDrawPixels);
}

// A pair the host cannot size is GL_INVALID_ENUM, and nothing comes back.
TEST_F(HostilePixels, UnknownPairReadBackIsRefused) {
  EXPECT_TRUE(read_pixels(4, 4, 0x1234, kUbyte).empty());
  EXPECT_EQ(gl_error(*attacker_), kInvalidEnum);
  EXPECT_TRUE(attacker_->lost.empty());
  expect_witness_renders(*witness_, 1);
}

// An RGBA framebuffer has no color indices (GL_INVALID_OPERATION); llvmpipe
// reads them back anyway, crashing, or for 1-bit images writing past their
// end.
TEST_F(HostilePixels, ColorIndexReadBackIsRefused) {
  EXPECT_TRUE(read_pixels(4, 4, kColorIndex, kUbyte).empty());
  EXPECT_EQ(gl_error(*attacker_), kInvalidOperation);
  EXPECT_TRUE(attacker_->lost.empty());
  expect_witness_renders(*witness_, 1);
}

TEST_F(HostilePixels, ColorIndexBitmapReadBackIsRefused) {
  EXPECT_TRUE(read_pixels(8, 2, kColorIndex, kBitmap).empty());
  EXPECT_EQ(gl_error(*attacker_), kInvalidOperation);
  EXPECT_TRUE(attacker_->lost.empty());
  expect_witness_renders(*witness_, 1);
}

// GL writes rows of the pack row length glPopClientAttrib put back: the
// host's buffer holds them all and what GL did not write is zero, not host
// memory.
TEST_F(HostilePixels, PoppedHugePackRowLength) {
  wire::encode_glPixelStorei(w(), kPackRowLength, 1 << 16);
  wire::encode_glPushClientAttrib(w(), kClientPixelStoreBit);
  wire::encode_glPixelStorei(w(), kPackRowLength, 0);
  wire::encode_glPopClientAttrib(w());
  const auto pixels = read_pixels(2, 2, kRgba, kUbyte);
  ASSERT_EQ(pixels.size(), size_t{1 << 16} * 4 + 8);
  for (size_t i = 8; i < (size_t{1} << 16) * 4; ++i) ASSERT_EQ(pixels[i], std::byte{0}) << i;
  EXPECT_EQ(gl_error(*attacker_), kNoError);
  expect_witness_renders(*witness_, 1);
}

TEST_F(HostilePixels, FloatPackSkipRows) {
  wire::encode_glPixelStoref(w(), kPackSkipRows, 1000.0f);
  const auto pixels = read_pixels(4, 4, kRgba, kUbyte);
  ASSERT_EQ(pixels.size(), 1003u * 16 + 16);
  for (size_t i = 0; i < 1000u * 16; ++i) ASSERT_EQ(pixels[i], std::byte{0}) << i;
  EXPECT_EQ(gl_error(*attacker_), kNoError);
  expect_witness_renders(*witness_, 1);
}

TEST_F(HostilePixels, StippleReadWithSkippedRows) {
  wire::encode_glPixelStorei(w(), kUnpackSkipRows, 32);
  std::vector<std::byte> mask(128, std::byte{0xFF});
  wire::encode_glPolygonStipple(w(), reinterpret_cast<const GLubyte*>(mask.data()), mask.size(),
                                false);
  expect_lost_at(GlOp::glPolygonStipple);
}

// GL writes the stipple after the skipped rows: all of it comes back, the
// skipped part zero.
TEST_F(HostilePixels, StippleWrittenWithSkippedRows) {
  wire::encode_glPixelStorei(w(), kPackSkipRows, 32);
  get_polygon_stipple([&] { w().put_data(nullptr, 0); });
  const auto mask = reply_data();
  ASSERT_EQ(mask.size(), 256u);
  for (size_t i = 0; i < 128; ++i) ASSERT_EQ(mask[i], std::byte{0}) << i;
  EXPECT_EQ(gl_error(*attacker_), kNoError);
  expect_witness_renders(*witness_, 1);
}

// A pack-buffer offset with no pack buffer bound: GL would write the
// stipple at that address in the host.
TEST_F(HostilePixels, StippleReadBackToAnOffsetWithNoPackBuffer) {
  get_polygon_stipple([&] { w().put_buffer_offset(0x10000); });
  expect_lost_at(GlOp::glGetPolygonStipple);
}

// The same for a pixel map.
TEST_F(HostilePixels, PixelMapReadBackToAnOffsetWithNoPackBuffer) {
  size_t at = w().begin(static_cast<uint32_t>(GlOp::glGetPixelMapfv));
  w().put(uint32_t{0x0C76});  // GL_PIXEL_MAP_R_TO_R
  w().put_buffer_offset(0x10000);
  w().end(at);
  expect_lost_at(GlOp::glGetPixelMapfv);
}

TEST_F(HostilePixels, BitmapWithLongRows) {
  wire::encode_glPixelStorei(w(), kUnpackRowLength, 1024);
  std::vector<std::byte> bits(32);  // rows of 4 bytes, as without a row length
  wire::encode_glBitmap(w(), 8, 8, 0, 0, 0, 0, reinterpret_cast<const GLubyte*>(bits.data()),
                        bits.size(), false);
  expect_lost_at(GlOp::glBitmap);
}

TEST_F(HostilePixels, BaseInstanceIndicesOfTheirType) {
  send_bytes_as_uint_indices(wire::encode_glDrawElementsInstancedBaseInstance,
                             GlOp::glDrawElementsInstancedBaseInstance);
}

TEST_F(HostilePixels, BaseVertexBaseInstanceIndicesOfTheirType) {
  send_bytes_as_uint_indices(wire::encode_glDrawElementsInstancedBaseVertexBaseInstance,
                             GlOp::glDrawElementsInstancedBaseVertexBaseInstance);
}

// Indices of their type, as many as count: drawn, nothing refused.
TEST_F(HostilePixels, BaseInstanceDrawOfExactIndices) {
  std::vector<uint32_t> indices = {0, 1, 2};
  wire::encode_glDrawElementsInstancedBaseInstance(w(), kPoints, 3, kUint, 2, 0, 0, 0, indices.data(), 1,
                                                   indices.size() * sizeof(uint32_t), false);
  EXPECT_EQ(gl_error(*attacker_), kNoError);
  EXPECT_TRUE(attacker_->lost.empty());
}

}  // namespace
}  // namespace hosttest
