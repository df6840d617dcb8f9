// Hostile OpenGL ES 1.1 streams: fixed-point client arrays, the point-size
// array and glDrawTex, the commands ES 1 has of its own. GL reads ES 1's
// fixed-function arrays on the CPU, so each attack aims at host memory
// through them; one attack per test, a witness guest rendering throughout.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "witness.h"
#include "wire/gl_encode.h"
#include "wire/gl_opcodes.h"

namespace hosttest {
namespace {

using wire::Api;
using wire::GlOp;

constexpr GLenum kPoints = 0x0000, kFixed = 0x140C, kFloat = 0x1406;
constexpr GLenum kVertexArray = 0x8074, kPointSizeArray = 0x8B9C;
constexpr GLenum kArrayBuffer = 0x8892, kStaticDraw = 0x88E4;
constexpr GLenum kInvalidValue = 0x0501, kTextureEnv = 0x2300, kTextureEnvColor = 0x2201;

class HostileGles1Test : public AttackSuite<HostileGles1Test> {
 protected:
  void set_up_attack() override {
    attacker_ = guest_with_context(host_->address(), Api::kGles, 1, 1);
    if (!attacker_) GTEST_SKIP() << "no OpenGL ES 1.1 context on the host";
  }

  wire::Writer& w() { return attacker_->w(); }

  // The attacker still gets answers, nothing of its context is lost, and the
  // witness renders.
  void expect_answered(GLenum error) {
    EXPECT_EQ(gl_error(*attacker_), error);
    EXPECT_TRUE(attacker_->lost.empty());
    expect_witness_renders(*witness_, 1);
  }
};

// One fixed-point vertex in client memory, drawn as a million points: the
// array lives in a host-only buffer of the bytes sent, so GL reads nothing
// of the host's past them.
TEST_F(HostileGles1Test, FixedPointArrayDrawnPastItsEnd) {
  const std::vector<int32_t> vertex = {0, 0};
  wire::encode_glVertexPointer(w(), 0, 2, kFixed, 0, 0, vertex.data(), 8, false);
  wire::encode_glEnableClientState(w(), kVertexArray);
  wire::encode_glDrawArrays(w(), kPoints, 0, 1 << 20);
  expect_answered(0);
}

// The point-size array at an offset of a buffer that is then deleted: its
// offset must never become a pointer GL follows into host memory.
TEST_F(HostileGles1Test, PointSizeArrayOfADeletedBuffer) {
  const std::vector<float> sizes(4, 2.0f), vertices(8, 0.0f);
  GLuint buffer = 3;
  wire::encode_glGenBuffers(w(), 1, &buffer, sizeof buffer);
  wire::encode_glBindBuffer(w(), kArrayBuffer, buffer);
  wire::encode_glBufferData(w(), kArrayBuffer, 16, sizes.data(), kStaticDraw, 16);
  const void* offset = reinterpret_cast<const void*>(uintptr_t{4});
  wire::encode_glPointSizePointerOES(w(), 0, 1, kFloat, 0, 0, offset, 0, true);
  wire::encode_glDeleteBuffers(w(), 1, &buffer, sizeof buffer);
  wire::encode_glBindBuffer(w(), kArrayBuffer, 0);
  wire::encode_glVertexPointer(w(), 0, 2, kFloat, 0, 0, vertices.data(), vertices.size() * 4, false);
  wire::encode_glEnableClientState(w(), kVertexArray);
  wire::encode_glEnableClientState(w(), kPointSizeArray);
  wire::encode_glDrawArrays(w(), kPoints, 0, 4);
  expect_answered(0);
}

// glDrawTex with a rectangle far larger than any surface, then an empty
// one: GL clips the first and refuses the second with its own error.
TEST_F(HostileGles1Test, DrawTexOfExtremeRectangles) {
  wire::encode_glDrawTexiOES(w(), -(1 << 30), -(1 << 30), 0, 0x7fffffff, 0x7fffffff);
  EXPECT_EQ(gl_error(*attacker_), 0u);
  wire::encode_glDrawTexiOES(w(), 0, 0, 0, 0, -5);
  expect_answered(kInvalidValue);
}

// A fixed-point texture-environment colour of one value where GL reads
// four: refused before GL reads past the bytes sent.
TEST_F(HostileGles1Test, FixedPointVectorShorterThanItsParameter) {
  const int32_t one = 0x10000;
  size_t at = w().begin(static_cast<uint32_t>(GlOp::glTexEnvxv));
  w().put(kTextureEnv);
  w().put(kTextureEnvColor);
  w().put_data(&one, sizeof one);
  w().end(at);
  expect_attacker_lost(1, static_cast<uint32_t>(GlOp::glTexEnvxv));
}

}  // namespace
}  // namespace hosttest
