// The guest's memory limit (--max-guest-memory) counts buffers, textures and
// renderbuffers per object, next to its surfaces: a re-specified store
// replaces its charge, deleted objects and closed contexts give bytes back,
// and an allocation beyond the limit is GL_OUT_OF_MEMORY, never executed.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "host_fixture.h"
#include "test_guest.h"
#include "wire/gl_encode.h"
#include "wire/reader.h"

namespace hosttest {
namespace {

using wire::Api;
using wire::ControlOp;

constexpr GLenum kNoError = 0;
constexpr GLenum kOutOfMemory = 0x0505;
constexpr GLenum kArrayBuffer = 0x8892;
constexpr GLenum kStreamDraw = 0x88E0;
constexpr GLenum kBufferSize = 0x8764;
constexpr GLenum kTexture2D = 0x0DE1;
constexpr GLenum kTexture3D = 0x806F;
constexpr GLenum kCubeMap = 0x8513;
constexpr GLenum kCubeMapPositiveX = 0x8515;
constexpr GLenum kRgba = 0x1908;
constexpr GLenum kRgba8 = 0x8058;
constexpr GLenum kUnsignedByte = 0x1401;
constexpr GLenum kRenderbuffer = 0x8D41;

constexpr uint64_t kLimit = 1u << 20;
constexpr uint64_t kKiB = 1024;

host::HostOptions small_memory() {
  host::HostOptions o;
  o.limits.guest.max_total_bytes = kLimit;
  return o;
}

class MemoryLimitTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { host_ = new RunningHost(small_memory()); }
  static void TearDownTestSuite() {
    delete host_;
    host_ = nullptr;
  }

  void SetUp() override {
    ASSERT_TRUE(host_->ok()) << host_->error();
    guest_ = connect_ready();
    ASSERT_TRUE(guest_);
    surfaces_ = memory();
    ASSERT_GT(surfaces_, 0u) << "the surface is charged";
    ASSERT_LT(surfaces_, kLimit / 2);
  }

  // A guest with a GLES 3 context 1 current on a 16x16 surface 1.
  static std::unique_ptr<TestGuest> connect_ready() {
    auto g = TestGuest::connect(host_->address());
    if (!g || !g->hello().ok() || g->create_context(1, Api::kGles, 3, 0) != 0) return nullptr;
    g->create_surface(1, 16, 16);
    g->make_current(1, 1, 1);
    return g;
  }

  GLenum get_error() {
    wire::encode_glGetError(guest_->w());
    auto reply = guest_->call();
    if (!reply || reply->size() != sizeof(GLenum)) return ~0u;
    GLenum e = 0;
    std::memcpy(&e, reply->data(), sizeof e);
    return e;
  }

  static nlohmann::json stats(TestGuest& g) {
    g.control(ControlOp::kGetStats);
    auto reply = g.call();
    if (!reply) return {};
    return nlohmann::json::parse(std::string(reinterpret_cast<const char*>(reply->data()), reply->size()));
  }

  // What the host charges this guest now (its session's memory_bytes).
  uint64_t memory() {
    auto j = stats(*guest_);
    for (const auto& s : j["sessions"]) {
      if (s["id"] == j["session"]) return s["memory_bytes"].get<uint64_t>();
    }
    return ~uint64_t{0};
  }

  // GL_BUFFER_SIZE of the buffer bound to GL_ARRAY_BUFFER, as the host sees it.
  int32_t bound_buffer_size() {
    wire::encode_glGetBufferParameteriv(guest_->w(), kArrayBuffer, kBufferSize);
    auto reply = guest_->call();
    if (!reply) return -1;
    wire::Reader r(*reply, 0);
    auto d = r.get_data();
    if (!d || d->bytes.size() < 4) return -1;
    int32_t v = 0;
    std::memcpy(&v, d->bytes.data(), sizeof v);
    return v;
  }

  void gen_buffers(GLuint first, GLuint count) {
    std::vector<GLuint> names(count);
    for (GLuint i = 0; i < count; ++i) names[i] = first + i;
    wire::encode_glGenBuffers(guest_->w(), static_cast<GLsizei>(count), names.data(),
                              names.size() * sizeof(GLuint));
  }
  void buffer_data(GLuint buffer, uint64_t bytes) {
    wire::encode_glBindBuffer(guest_->w(), kArrayBuffer, buffer);
    wire::encode_glBufferData(guest_->w(), kArrayBuffer, static_cast<GLsizeiptr>(bytes), nullptr,
                              kStreamDraw, 0);
  }
  void delete_names(void (*del)(wire::Writer&, GLsizei, const GLuint*, size_t), GLuint name) {
    del(guest_->w(), 1, &name, sizeof name);
  }
  // A texture `name` bound to GL_TEXTURE_2D (or `target`).
  void bind_texture(GLuint name, GLenum target = kTexture2D) {
    wire::encode_glGenTextures(guest_->w(), 1, &name, sizeof name);
    wire::encode_glBindTexture(guest_->w(), target, name);
  }
  void tex_image(GLenum target, GLint level, GLsizei side) {
    wire::encode_glTexImage2D(guest_->w(), target, level, static_cast<GLint>(kRgba), side, side, 0,
                              kRgba, kUnsignedByte, nullptr, 0, false);
  }

  static RunningHost* host_;
  std::unique_ptr<TestGuest> guest_;
  uint64_t surfaces_ = 0;  // what the guest holds before any GL allocation
};
RunningHost* MemoryLimitTest::host_ = nullptr;

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
  // Sizes that overflow 64 bits saturate instead of wrapping round.
  bind_texture(2, kTexture3D);
  wire::encode_glTexImage3D(guest_->w(), kTexture3D, 0, static_cast<GLint>(kRgba), INT_MAX, INT_MAX,
                            INT_MAX, 0, kRgba, kUnsignedByte, nullptr, 0, false);
  EXPECT_EQ(get_error(), kOutOfMemory);
  wire::encode_glTexStorage2D(guest_->w(), kTexture2D, 31, kRgba8, INT_MAX, INT_MAX);
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
  EXPECT_EQ(memory(), surfaces_ + 256 * kKiB + 64 * 64 * 4);

  guest_->make_current(2, 1, 1);
  guest_->control(ControlOp::kDestroyContext, wire::ObjectId{1});
  EXPECT_EQ(memory(), surfaces_ + 256 * kKiB) << "the buffer lives on in context 2";
  wire::encode_glBindBuffer(guest_->w(), kArrayBuffer, 1);
  EXPECT_EQ(bound_buffer_size(), static_cast<int32_t>(256 * kKiB));
  guest_->make_current(0, 0, 0);
  guest_->control(ControlOp::kDestroyContext, wire::ObjectId{2});
  EXPECT_EQ(memory(), surfaces_);
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
