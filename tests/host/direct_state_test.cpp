// GL_EXT_direct_state_access against the host's checks: the texture a unit
// or a name gives is charged like any other (faces apart, refused past the
// guest's limit, the active unit left alone), and a named vertex array's
// offset never becomes a pointer into host memory.
#include <algorithm>
#include <cstring>
#include <vector>

#include "memory_fixture.h"
#include "witness.h"

namespace hosttest {
namespace {

constexpr GLenum kInvalidOperation = 0x0502, kFloat = 0x1406, kPoints = 0x0000;
constexpr GLenum kTexture0 = 0x84C0, kActiveTexture = 0x84E0;
constexpr GLenum kVertexArray = 0x8074, kVertexArrayBufferBinding = 0x8896;

class DirectStateTest : public MemoryLimitTest {
 protected:
  // A desktop compatibility context, which has the extension.
  void SetUp() override {
    ASSERT_TRUE(host_->ok()) << host_->error();
    guest_ = guest_with_context(host_->address(), Api::kGl, 4, 5, wire::Profile::kCompatibility);
    ASSERT_TRUE(guest_);
    surfaces_ = memory();
  }

  void unit_image(GLenum unit, GLsizei side) {
    wire::encode_glMultiTexImage2DEXT(guest_->w(), unit, kTexture2D, 0, static_cast<GLint>(kRgba), side, side, 0,
                                      kRgba, kUnsignedByte, nullptr, 0, false);
  }

  // glGetIntegerv's first value, as the host answers it.
  int32_t integer(GLenum pname) {
    wire::encode_glGetIntegerv(guest_->w(), pname);
    auto reply = guest_->call();
    if (!reply) return -1;
    wire::Reader r(*reply, 0);
    auto d = r.get_data();
    int32_t v = -1;
    if (d && d->bytes.size() >= sizeof v) std::memcpy(&v, d->bytes.data(), sizeof v);
    return v;
  }
};

TEST_F(DirectStateTest, AUnitsTextureIsChargedLikeABoundOne) {
  constexpr GLenum kUnit3 = kTexture0 + 3;
  wire::encode_glBindMultiTextureEXT(guest_->w(), kUnit3, kTexture2D, 5);
  unit_image(kUnit3, 64);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory(), surfaces_ + 64 * 64 * 4);
  // The active unit's own texture is another object.
  bind_texture(6);
  tex_image(kTexture2D, 0, 32);
  unit_image(kUnit3, 64);  // specified again: replaces its charge
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory(), surfaces_ + 64 * 64 * 4 + 32 * 32 * 4);
  EXPECT_EQ(integer(kActiveTexture), static_cast<int32_t>(kTexture0));

  unit_image(kUnit3, 1024);  // 4 MiB against 1 MiB
  EXPECT_EQ(get_error(), kOutOfMemory);
  unit_image(kTexture0 + 4096, 16);  // no such unit: GL's own error, nothing charged
  EXPECT_EQ(get_error(), kInvalidOperation);  // Mesa's, for a unit it has not
  EXPECT_EQ(memory(), surfaces_ + 64 * 64 * 4 + 32 * 32 * 4);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(DirectStateTest, ANamedCubeMapsFacesAreChargedApart) {
  for (GLenum face = 0; face < 6; ++face) {
    wire::encode_glTextureImage2DEXT(guest_->w(), 7, kCubeMapPositiveX + face, 0, static_cast<GLint>(kRgba), 32,
                                     32, 0, kRgba, kUnsignedByte, nullptr, 0, false);
  }
  wire::encode_glTextureImage2DEXT(guest_->w(), 7, kCubeMapPositiveX, 0, static_cast<GLint>(kRgba), 32, 32, 0,
                                   kRgba, kUnsignedByte, nullptr, 0, false);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(memory(), surfaces_ + 6 * 32 * 32 * 4);
  delete_names(wire::encode_glDeleteTextures, 7);
  EXPECT_EQ(memory(), surfaces_);
}

// GL_TEXTURE_CUBE_MAP reads all six faces, one after another: the host
// must give GL room for six (on main it gave one, and GL wrote past it).
TEST_F(DirectStateTest, AWholeCubeMapReadsBackAsSixFaces) {
  const std::vector<std::byte> face(8 * 8 * 4, std::byte{0x55});
  for (GLenum f = 0; f < 6; ++f) {
    wire::encode_glTextureImage2DEXT(guest_->w(), 7, kCubeMapPositiveX + f, 0, static_cast<GLint>(kRgba), 8, 8, 0,
                                     kRgba, kUnsignedByte, face.data(), face.size(), false);
  }
  wire::encode_glBindMultiTextureEXT(guest_->w(), kTexture0 + 2, kCubeMap, 7);
  for (bool by_unit : {false, true}) {
    if (by_unit) {
      wire::encode_glGetMultiTexImageEXT(guest_->w(), kTexture0 + 2, kCubeMap, 0, kRgba, kUnsignedByte, nullptr, 0,
                                         false);
    } else {
      wire::encode_glGetTextureImageEXT(guest_->w(), 7, kCubeMap, 0, kRgba, kUnsignedByte, nullptr, 0, false);
    }
    auto reply = guest_->call();
    ASSERT_TRUE(reply.ok());
    wire::Reader r(*reply, 0);
    auto image = r.get_data();
    ASSERT_TRUE(image.ok());
    EXPECT_EQ(image->bytes.size(), 6 * face.size());
    EXPECT_EQ(std::count(image->bytes.begin(), image->bytes.end(), std::byte{0x55}),
              static_cast<std::ptrdiff_t>(6 * face.size()));
  }
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_TRUE(guest_->lost.empty());
}

// A zero buffer makes the offset a client pointer: natively an address in
// the program, here one in the host. A null one is legal GL and draws from
// nothing; vertex array 0's arrays are the guest's to keep.
TEST_F(DirectStateTest, ANamedVertexArraysOffsetNeverReachesHostMemory) {
  GLuint vao = 1;
  wire::encode_glGenVertexArrays(guest_->w(), 1, &vao, sizeof vao);
  wire::encode_glVertexArrayVertexOffsetEXT(guest_->w(), vao, 0, 3, kFloat, 0, 0x10000);
  EXPECT_EQ(get_error(), kInvalidOperation);
  wire::encode_glVertexArrayVertexOffsetEXT(guest_->w(), 0, 0, 3, kFloat, 0, 0);
  EXPECT_EQ(get_error(), kInvalidOperation);
  wire::encode_glEnableVertexArrayEXT(guest_->w(), 0, kVertexArray);
  EXPECT_EQ(get_error(), kInvalidOperation);

  wire::encode_glVertexArrayVertexOffsetEXT(guest_->w(), vao, 0, 3, kFloat, 0, 0);
  wire::encode_glEnableVertexArrayEXT(guest_->w(), vao, kVertexArray);
  wire::encode_glBindVertexArray(guest_->w(), vao);
  wire::encode_glDrawArrays(guest_->w(), kPoints, 0, 4096);
  EXPECT_EQ(get_error(), kNoError);
  EXPECT_EQ(integer(kVertexArrayBufferBinding), 0);  // the host's empty buffer is no name of the guest's
  EXPECT_TRUE(guest_->lost.empty());
}

}  // namespace
}  // namespace hosttest
