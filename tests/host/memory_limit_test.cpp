// The guest's memory limit (--max-guest-memory) counts buffers, textures and
// renderbuffers per object, next to its surfaces: a re-specified store
// replaces its charge, deleted objects and closed contexts give bytes back,
// and an allocation beyond the limit is GL_OUT_OF_MEMORY, never executed.
#include <climits>
#include <cmath>
#include <thread>

#include "memory_fixture.h"

namespace hosttest {
namespace {

TEST_F(MemoryLimitTest, BuffersStopAtTheLimitWithOutOfMemory) {
  constexpr uint64_t kEach = 64 * kKiB;
  const uint64_t fit = (kLimit - surfaces_) / kEach;
  gen_buffers(1, static_cast<GLuint>(fit + 1));
  for (GLuint b = 1; b <= fit; ++b) {
    buffer_data(b, kEach);
    ASSERT_EQ(get_error(), kNoError) << "buffer " << b;
  }
  EXPECT_EQ(memory(), surfaces_ + fit * kEach);
  // One more would cross the limit: refused, and GL never saw it.
  buffer_data(static_cast<GLuint>(fit + 1), kEach);
  EXPECT_EQ(get_error(), kOutOfMemory);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(bound_buffer_size(), 0);
  EXPECT_EQ(memory(), surfaces_ + fit * kEach);
  // What fits in the rest still goes through, and is really allocated.
  const uint64_t rest = kLimit - surfaces_ - fit * kEach;
  if (rest >= 256) {
    buffer_data(static_cast<GLuint>(fit + 1), rest / 256 * 256);
    EXPECT_EQ(get_error(), kNoError);
    EXPECT_EQ(bound_buffer_size(), static_cast<int32_t>(rest / 256 * 256));
  }
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(MemoryLimitTest, RespecifyingABufferReplacesItsCharge) {
  const uint64_t big = (kLimit - surfaces_) * 3 / 4 / 256 * 256;
  gen_buffers(1, 1);
  for (int i = 0; i < 200; ++i) buffer_data(1, big);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(bound_buffer_size(), static_cast<int32_t>(big));
  EXPECT_EQ(memory(), surfaces_ + big);
  // A smaller store keeps the larger charge (GL might have refused it).
  buffer_data(1, big / 2);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory(), surfaces_ + big);
}

TEST_F(MemoryLimitTest, DeletedObjectsGiveTheirBytesBack) {
  const uint64_t third = (kLimit - surfaces_) / 3 / 256 * 256;
  gen_buffers(1, 3);
  buffer_data(1, third);
  // A texture and a renderbuffer of a third each (RGBA8: 4 bytes a texel).
  const auto side = static_cast<GLsizei>(std::sqrt(static_cast<double>(third / 4)));
  bind_texture(10);
  tex_image(kTexture2D, 0, side);
  GLuint rb = 20;
  wire::encode_glGenRenderbuffers(guest_->w(), 1, &rb, sizeof rb);
  wire::encode_glBindRenderbuffer(guest_->w(), kRenderbuffer, rb);
  wire::encode_glRenderbufferStorage(guest_->w(), kRenderbuffer, kRgba8, side, side);
  EXPECT_EQ(get_error(), kNoError);
  buffer_data(2, third);
  EXPECT_EQ(get_error(), kOutOfMemory);

  delete_names(wire::encode_glDeleteBuffers, 1);
  buffer_data(2, third);
  EXPECT_EQ(get_error(), kNoError);
  buffer_data(3, third);
  EXPECT_EQ(get_error(), kOutOfMemory);
  delete_names(wire::encode_glDeleteTextures, 10);
  buffer_data(3, third);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(bound_buffer_size(), static_cast<int32_t>(third));
  const uint64_t before = memory();
  delete_names(wire::encode_glDeleteRenderbuffers, rb);
  delete_names(wire::encode_glDeleteBuffers, 2);
  delete_names(wire::encode_glDeleteBuffers, 3);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_LT(memory(), before);
  EXPECT_EQ(memory(), surfaces_);
}

TEST_F(MemoryLimitTest, TextureLevelsAndFacesAreChargedApart) {
  bind_texture(1);
  for (int i = 0; i < 50; ++i) tex_image(kTexture2D, 0, 64);  // re-uploading replaces
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory(), surfaces_ + 64 * 64 * 4);
  tex_image(kTexture2D, 1, 32);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory(), surfaces_ + 64 * 64 * 4 + 32 * 32 * 4);

  bind_texture(2, kCubeMap);
  for (GLenum face = 0; face < 6; ++face) tex_image(kCubeMapPositiveX + face, 0, 32);
  tex_image(kCubeMapPositiveX, 0, 32);
  EXPECT_EQ(get_error(), kNoError);
  const uint64_t planes = 64 * 64 * 4 + 32 * 32 * 4;
  EXPECT_EQ(memory(), surfaces_ + planes + 6 * 32 * 32 * 4);

  // Immutable storage: every level at once (64, 32 ... 1 texels a side).
  bind_texture(3);
  wire::encode_glTexStorage2D(guest_->w(), kTexture2D, 7, kRgba8, 64, 64);
  EXPECT_EQ(get_error(), kNoError);
  const uint64_t chain = (4096 + 1024 + 256 + 64 + 16 + 4 + 1) * 4;
  EXPECT_EQ(memory(), surfaces_ + planes + 6 * 32 * 32 * 4 + (chain + 255) / 256 * 256);

  // glGenerateMipmap: a third of level 0 more, however often it runs; an
  // immutable texture has its levels already.
  const uint64_t before_mipmaps = memory();
  wire::encode_glBindTexture(guest_->w(), kTexture2D, 1);
  for (int i = 0; i < 3; ++i) wire::encode_glGenerateMipmap(guest_->w(), kTexture2D);
  wire::encode_glBindTexture(guest_->w(), kTexture2D, 3);
  wire::encode_glGenerateMipmap(guest_->w(), kTexture2D);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory(), before_mipmaps + (64 * 64 * 4 / 3 + 255) / 256 * 256);

  delete_names(wire::encode_glDeleteTextures, 1);
  delete_names(wire::encode_glDeleteTextures, 2);
  delete_names(wire::encode_glDeleteTextures, 3);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory(), surfaces_);
}

TEST_F(MemoryLimitTest, TexturesBeyondTheLimitAreRefused) {
  bind_texture(1);
  tex_image(kTexture2D, 0, 1024);  // 4 MiB against 1 MiB
  EXPECT_EQ(get_error(), kOutOfMemory);
  // Sizes far past GL's limits are GL's GL_INVALID_VALUE, raised without
  // GL (sizes that would overflow 64 bits among them).
  bind_texture(2, kTexture3D);
  wire::encode_glTexImage3D(guest_->w(), kTexture3D, 0, static_cast<GLint>(kRgba), INT_MAX, INT_MAX,
                            INT_MAX, 0, kRgba, kUnsignedByte, nullptr, 0, false);
  EXPECT_EQ(get_error(), kInvalidValue);
  wire::encode_glTexStorage2D(guest_->w(), kTexture2D, 31, kRgba8, INT_MAX, INT_MAX);
  EXPECT_EQ(get_error(), kInvalidValue);
  // Within them, a size past the guest's memory is its GL_OUT_OF_MEMORY.
  wire::encode_glTexStorage2D(guest_->w(), kTexture2D, 1, kRgba8, 8192, 8192);
  EXPECT_EQ(get_error(), kOutOfMemory);
  EXPECT_EQ(memory(), surfaces_);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(MemoryLimitTest, SharedObjectsGoWithTheLastContextOfTheGroup) {
  ASSERT_EQ(guest_->create_context(2, Api::kGles, 3, 0, wire::Profile::kNone, 1), 0u);
  gen_buffers(1, 1);
  buffer_data(1, 256 * kKiB);
  bind_texture(5);  // the default texture of context 1 holds storage too
  wire::encode_glBindTexture(guest_->w(), kTexture2D, 0);
  tex_image(kTexture2D, 0, 64);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory(), surfaces_ + kContextBytes + 256 * kKiB + 64 * 64 * 4);

  guest_->make_current(2, 1, 1);
  guest_->control(ControlOp::kDestroyContext, wire::ObjectId{1});
  EXPECT_EQ(memory(), surfaces_ + 256 * kKiB) << "the buffer lives on in context 2";
  wire::encode_glBindBuffer(guest_->w(), kArrayBuffer, 1);
  EXPECT_EQ(bound_buffer_size(), static_cast<int32_t>(256 * kKiB));
  guest_->make_current(0, 0, 0);
  guest_->control(ControlOp::kDestroyContext, wire::ObjectId{2});
  EXPECT_EQ(memory(), surfaces_ - kContextBytes);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(MemoryLimitTest, AGuestThatGoesAwayTakesItsChargesWithIt) {
  const uint64_t big = (kLimit - surfaces_) / 2 / 256 * 256;
  gen_buffers(1, 1);
  buffer_data(1, big);
  ASSERT_EQ(get_error(), kNoError);
  auto j = stats(*guest_);
  const uint32_t gone = j["session"];
  const uint64_t all = j["memory_bytes"];
  EXPECT_GE(all, surfaces_ + big);
  guest_.reset();  // the connection closes with everything allocated

  auto witness = connect_ready();
  ASSERT_TRUE(witness);
  bool still_there = true;
  for (int i = 0; i < 200 && still_there; ++i) {
    j = stats(*witness);
    still_there = false;
    for (const auto& s : j["sessions"]) still_there |= s["id"] == gone;
    if (still_there) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_FALSE(still_there);
  EXPECT_LE(j["memory_bytes"].get<uint64_t>(), all - big);
}

}  // namespace
}  // namespace hosttest
