// Hostile streams: each one loses only its own context (or connection);
// another guest connected at the same time keeps rendering correct frames.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "host_fixture.h"
#include "test_guest.h"
#include "witness.h"
#include "wire/gl_encode.h"
#include "wire/gl_opcodes.h"
#include "wire/vk_memory.h"

namespace hosttest {
namespace {

using wire::Api;
using wire::ControlOp;

constexpr GLbitfield kColorBufferBit = 0x4000;

class HostileTest : public AttackSuite<HostileTest> {
 protected:
  void set_up_attack() override { connect_attacker(); }

  // Sends `raw` from the attacker: its context 1 is lost, at `opcode`.
  // Sticky: later commands of the context are skipped, no frame comes.
  void expect_lost(std::span<const std::byte> raw, uint32_t opcode) {
    expect_witness_renders(*witness_, 1);
    lost_then_draw(raw, opcode, 1u, false);
  }

  // `send` (the attacker sending something broken) ends the attacker's
  // connection with one loss, while the witness renders before and after.
  template <typename Send>
  void expect_connection_ended(Send send) {
    expect_witness_renders(*witness_, 1);
    ASSERT_TRUE(send().ok());
    EXPECT_TRUE(attacker_->wait_closed());
    EXPECT_EQ(attacker_->lost.size(), 1u);
    expect_witness_renders(*witness_, 2);
  }

  // A control message `op` of `payload` loses the attacker's context.
  template <typename Payload>
  void expect_control_lost(ControlOp op, const Payload& payload) {
    wire::Writer w;
    size_t at = w.begin(static_cast<uint32_t>(op));
    w.put(payload);
    w.end(at);
    expect_lost(bytes_of(w), static_cast<uint32_t>(op));
  }

  // A broken Vulkan command loses the guest's Vulkan alone: its GL context
  // goes on drawing, and later Vulkan commands are skipped silently.
  void expect_vulkan_lost(std::span<const std::byte> raw, uint32_t opcode) {
    lost_then_draw(raw, opcode, wire::kVulkanContextId, true);
  }

  // `raw` loses `context` at `opcode`, logged once; the attacker then draws
  // a frame (after `raw` once more), which comes only when `draws`; the
  // witness renders on.
  void lost_then_draw(std::span<const std::byte> raw, uint32_t opcode, uint32_t context, bool draws) {
    ASSERT_TRUE(attacker_->send_raw(raw).ok());
    wire::ContextLost lost{};
    ASSERT_TRUE(attacker_->wait_lost(&lost));
    EXPECT_EQ(lost.context_id, context);
    EXPECT_EQ(lost.opcode, opcode);
    if (draws) {
      ASSERT_TRUE(attacker_->send_raw(raw).ok());
    }
    wire::encode_glClear(attacker_->w(), kColorBufferBit);
    attacker_->swap(1, 2);
    attacker_->control(ControlOp::kSync);
    ASSERT_TRUE(attacker_->call().ok());
    EXPECT_EQ(attacker_->frames.empty(), !draws);
    EXPECT_TRUE(attacker_->lost.empty()) << "logged once";
    expect_witness_renders(*witness_, 2);
  }

  static std::vector<std::byte> bytes_of(const wire::Writer& w) {
    return {w.bytes().begin(), w.bytes().end()};
  }
  static void patch_u32(std::vector<std::byte>& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

};

TEST_F(HostileTest, TruncatedCommand) {
  wire::Writer w;
  wire::encode_glClearColor(w, 1, 1, 1, 1);
  auto b = bytes_of(w);
  b.resize(b.size() - 4);  // the header still claims the full size
  expect_lost(b, 0);
}

TEST_F(HostileTest, CommandLongerThanTheBatch) {
  wire::Writer w;
  wire::encode_glClear(w, kColorBufferBit);
  auto b = bytes_of(w);
  patch_u32(b, 4, 1u << 30);
  expect_lost(b, 0);
}

TEST_F(HostileTest, MisalignedCommandSize) {
  wire::Writer w;
  wire::encode_glClear(w, kColorBufferBit);
  auto b = bytes_of(w);
  patch_u32(b, 4, 10);
  expect_lost(b, 0);
}

TEST_F(HostileTest, ArgumentsMissing) {
  wire::Writer w;
  w.end(w.begin(static_cast<uint32_t>(wire::GlOp::glClearColor)));  // no floats at all
  expect_lost(bytes_of(w), static_cast<uint32_t>(wire::GlOp::glClearColor));
}

TEST_F(HostileTest, UnknownGlOpcode) {
  wire::Writer w;
  w.end(w.begin(wire::kFirstVkOpcode - 1));
  expect_lost(bytes_of(w), wire::kFirstVkOpcode - 1);
}

// The Vulkan range: the first opcode of the table without its arguments,
// and an opcode far past the table.
TEST_F(HostileTest, VulkanCommandWithoutArguments) {
  wire::Writer w;
  w.end(w.begin(wire::kFirstVkOpcode));
  expect_vulkan_lost(bytes_of(w), wire::kFirstVkOpcode);
}

TEST_F(HostileTest, OpcodeFarPastTheTable) {
  wire::Writer w;
  w.end(w.begin(0x7FFFFF00u));
  expect_vulkan_lost(bytes_of(w), 0x7FFFFF00u);
}

// A present of a fence and memory the guest never made.
TEST_F(HostileTest, PresentOfObjectsNeverMade) {
  wire::Writer w;
  const auto op = static_cast<uint32_t>(wire::vk::MemoryOp::kPresentMemory);
  const size_t at = w.begin(op);
  w.put(wire::vk::PresentMemory{5, 6, wire::Frame{1, 1, 64, 64, 256}, 0});
  w.end(at);
  expect_vulkan_lost(bytes_of(w), op);
}

// Pages outside the shared area (a socket's channel has none; on shared
// memory the area's bounds are checked the same way).
TEST_F(HostileTest, PlacementOutsideTheSharedArea) {
  wire::Writer w;
  const auto op = static_cast<uint32_t>(wire::vk::MemoryOp::kPlaceInArea);
  const size_t at = w.begin(op);
  w.put(wire::vk::AreaPlacement{uint64_t{1} << 62, uint64_t{1} << 62});
  w.end(at);
  expect_vulkan_lost(bytes_of(w), op);
}

TEST_F(HostileTest, UnknownControlOpcode) {
  wire::Writer w;
  w.end(w.begin(60));
  expect_lost(bytes_of(w), 60);
}

TEST_F(HostileTest, HostToGuestOpcodeFromTheGuest) {
  wire::Writer w;
  w.end(w.begin(static_cast<uint32_t>(ControlOp::kFrame)));
  expect_lost(bytes_of(w), static_cast<uint32_t>(ControlOp::kFrame));
}

TEST_F(HostileTest, MakeCurrentOfAnUnknownContext) {
  expect_control_lost(ControlOp::kMakeCurrent, wire::MakeCurrent{99, 1, 1});
}

TEST_F(HostileTest, SwapOfAnUnknownSurface) {
  expect_control_lost(ControlOp::kSwapBuffers, wire::SwapBuffers{1234, 1});
}

TEST_F(HostileTest, ImageOfAnUnknownContext) {
  expect_control_lost(ControlOp::kCreateImage,
                      wire::CreateImage{5, 99, 0x30B1 /* EGL_GL_TEXTURE_2D_KHR */, 1, 0, 0, 0});
}

TEST_F(HostileTest, DestroyOfAnUnknownImage) {
  expect_control_lost(ControlOp::kDestroyImage, wire::ObjectId{77});
}

// An image of a name that names nothing, or of a target the host has not,
// is EGL's error in the reply; nothing is lost, and an unknown image bound
// to a texture is GL's GL_INVALID_VALUE.
TEST_F(HostileTest, ImagesOfNothingAreEglErrors) {
  expect_witness_renders(*witness_, 1);
  for (uint32_t target : {0x30B1u /* EGL_GL_TEXTURE_2D_KHR */, 0x1234u}) {
    attacker_->control(ControlOp::kCreateImage, wire::CreateImage{7, 1, target, 4242, 0, 0, 0});
    auto reply = attacker_->call();
    ASSERT_TRUE(reply.ok());
    uint32_t error = 0;
    ASSERT_GE(reply->size(), sizeof error);
    std::memcpy(&error, reply->data(), sizeof error);
    EXPECT_EQ(error, 0x300Cu);  // EGL_BAD_PARAMETER
  }
  size_t at = attacker_->w().begin(static_cast<uint32_t>(wire::GlOp::glEGLImageTargetTexture2DOES));
  attacker_->w().put(uint32_t{0x0DE1});  // GL_TEXTURE_2D
  attacker_->w().put(uint32_t{7});       // never made
  attacker_->w().end(at);
  EXPECT_EQ(gl_error(*attacker_), 0x0501u);  // GL_INVALID_VALUE
  EXPECT_TRUE(attacker_->lost.empty());
  expect_witness_renders(*witness_, 2);
}

TEST_F(HostileTest, DestroyOfAnUnknownSurface) {
  expect_control_lost(ControlOp::kDestroySurface, wire::ObjectId{77});
}

TEST_F(HostileTest, ControlPayloadTooShortOrTooLong) {
  expect_control_lost(ControlOp::kResizeSurface, uint32_t{1});
  auto again = clearing_guest(host_->address(), 1.0f);
  ASSERT_TRUE(again);
  attacker_ = std::move(again);
  wire::Writer w;
  size_t at = w.begin(static_cast<uint32_t>(ControlOp::kSwapBuffers));
  w.put(wire::SwapBuffers{1, 1});
  w.put(uint32_t{5});
  w.end(at);
  expect_lost(bytes_of(w), static_cast<uint32_t>(ControlOp::kSwapBuffers));
}

TEST_F(HostileTest, HugeSurface) {
  expect_control_lost(ControlOp::kCreateSurface,
                      wire::CreateSurface{2, 0xFFFFFFFFu, 0xFFFFFFFFu, {8, 8, 8, 8, 24, 8, 0}, 0});
}

// Checked with the formula it is charged by: 2048x2048 pixels of 8 bytes fit
// the 64 MiB limit, four samples of them and the resolved image (160 MiB) do not.
TEST_F(HostileTest, MultisampledSurfaceBeyondTheGuestMemoryLimit) {
  expect_control_lost(ControlOp::kCreateSurface,
                      wire::CreateSurface{2, 2048, 2048, {8, 8, 8, 8, 24, 8, 4}, 0});
}

TEST_F(HostileTest, SurfaceBeyondTheGuestMemoryLimit) {
  wire::Writer w;
  size_t at = w.begin(static_cast<uint32_t>(ControlOp::kResizeSurface));
  w.put(wire::ResizeSurface{1, 8192, 8192});  // 512 MiB of pixels against a 64 MiB limit
  w.end(at);
  expect_lost(bytes_of(w), static_cast<uint32_t>(ControlOp::kResizeSurface));
}

TEST_F(HostileTest, TooManyContextsAreRefusedNotFatal) {
  for (uint32_t id = 2; id <= 4; ++id) EXPECT_EQ(attacker_->create_context(id, Api::kGles, 2, 0), 0u);
  EXPECT_NE(attacker_->create_context(5, Api::kGles, 2, 0), 0u);
  EXPECT_TRUE(attacker_->lost.empty());
  expect_witness_renders(*witness_, 1);
}

TEST_F(HostileTest, BatchOverTheSizeLimitEndsTheConnection) {
  std::vector<std::byte> big(2u << 20);
  wire::Writer w;
  size_t at = w.begin(static_cast<uint32_t>(ControlOp::kSync));
  w.end(at);
  std::memcpy(big.data(), w.bytes().data(), w.size());
  patch_u32(big, 4, static_cast<uint32_t>(big.size()));
  expect_connection_ended([&] { return attacker_->send_raw(big); });
}

TEST_F(HostileTest, CommandsBeforeHelloEndNothingButTheirOwn) {
  auto g = TestGuest::connect(host_->address());
  ASSERT_TRUE(g);
  wire::encode_glClear(g->w(), kColorBufferBit);
  ASSERT_TRUE(g->send().ok());
  wire::ContextLost lost{};
  ASSERT_TRUE(g->wait_lost(&lost));
  EXPECT_EQ(lost.context_id, 0u);
  expect_witness_renders(*witness_, 1);
}

TEST_F(HostileTest, BrokenBatchHeaderEndsTheConnection) {
  wire::Writer w;
  wire::encode_glClear(w, kColorBufferBit);
  wire::BatchEncoder enc(wire::Compression::kOff);
  auto msg = enc.encode(w.bytes());
  ASSERT_TRUE(msg.ok());
  std::vector<std::byte> m(msg->begin(), msg->end());
  m[0] = std::byte{0};  // not the batch magic
  expect_connection_ended([&] { return attacker_->send_message(m); });
}

TEST_F(HostileTest, CorruptCompressedBatchEndsTheConnection) {
  std::vector<std::byte> payload(4096, std::byte{7});
  wire::BatchEncoder enc(wire::Compression::kFast);
  auto msg = enc.encode(payload);
  ASSERT_TRUE(msg.ok());
  std::vector<std::byte> m(msg->begin(), msg->end());
  for (size_t i = sizeof(wire::BatchHeader); i < m.size(); ++i) m[i] ^= std::byte{0xA5};
  expect_witness_renders(*witness_, 1);
  ASSERT_TRUE(attacker_->send_message(m).ok());
  EXPECT_TRUE(attacker_->wait_closed());
  expect_witness_renders(*witness_, 2);
}

// A few bytes asking for billions of vertices would keep a software
// rasterizer busy for minutes: draws past the guest's vertex limit are
// refused, instances counted, and a draw within it runs.
// A core profile creates nothing on bind: a name no glGen* made is GL's
// GL_INVALID_OPERATION there, as natively, and no host object is made for
// it. A compatibility profile creates the object, queries included.
TEST_F(HostileTest, NamesNoGlGenMadeAreCoreProfileErrors) {
  constexpr GLenum kArrayBuffer = 0x8892, kTexture2D = 0x0DE1;
  constexpr GLenum kSamplesPassed = 0x8914, kAnySamplesPassed = 0x8C2F;
  for (auto profile : {wire::Profile::kCore, wire::Profile::kCompatibility}) {
    auto g = guest_with_context(host_->address(), wire::Api::kGl, 3, 2, profile);
    ASSERT_TRUE(g);
    const GLenum expected = profile == wire::Profile::kCore ? 0x0502u : 0u;
    wire::encode_glBindBuffer(g->w(), kArrayBuffer, 77);
    EXPECT_EQ(gl_error(*g), expected);
    wire::encode_glBindTexture(g->w(), kTexture2D, 78);
    EXPECT_EQ(gl_error(*g), expected);
    wire::encode_glBeginQuery(g->w(), kSamplesPassed, 79);
    wire::encode_glEndQuery(g->w(), kSamplesPassed);
    EXPECT_EQ(gl_error(*g), expected);
    GLuint made = 5;
    wire::encode_glGenBuffers(g->w(), 1, &made, sizeof made);
    wire::encode_glBindBuffer(g->w(), kArrayBuffer, made);
    EXPECT_EQ(gl_error(*g), 0u);
    EXPECT_TRUE(g->lost.empty());
  }
  // OpenGL ES creates buffers on bind, but no query on glBeginQuery.
  auto es = guest_with_context(host_->address(), wire::Api::kGles, 3, 0);
  ASSERT_TRUE(es);
  wire::encode_glBeginQuery(es->w(), kAnySamplesPassed, 80);
  EXPECT_EQ(gl_error(*es), 0x0502u);
  wire::encode_glBindBuffer(es->w(), kArrayBuffer, 81);
  EXPECT_EQ(gl_error(*es), 0u);
}

TEST_F(HostileTest, DrawsBeyondTheVertexLimit) {
  constexpr GLenum kTriangles = 0x0004, kOutOfMemory = 0x0505;
  wire::encode_glDrawArrays(attacker_->w(), kTriangles, 0, 0x7fffffff);
  EXPECT_EQ(gl_error(*attacker_), kOutOfMemory);
  wire::encode_glDrawArraysInstanced(attacker_->w(), kTriangles, 0, 3 << 10, 1 << 10);
  EXPECT_EQ(gl_error(*attacker_), kOutOfMemory) << "3 Mi vertices by instances";
  wire::encode_glDrawArraysInstanced(attacker_->w(), kTriangles, 0, 3, 1 << 10);
  EXPECT_EQ(gl_error(*attacker_), 0u);
  EXPECT_TRUE(attacker_->lost.empty());
  expect_witness_renders(*witness_, 1);
}

}  // namespace
}  // namespace hosttest
