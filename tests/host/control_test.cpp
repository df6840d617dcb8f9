// The control path end to end: handshake, contexts, surfaces, frames, stats.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "host_fixture.h"
#include "host/surface.h"
#include "test_guest.h"
#include "wire/gl_encode.h"
#include "wire/reader.h"

namespace hosttest {
namespace {

using wire::Api;
using wire::ControlOp;
using wire::Profile;

constexpr GLbitfield kColorBufferBit = 0x4000;
constexpr GLenum kScissorTest = 0x0C11;

class ControlTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { host_ = new RunningHost(); }
  static void TearDownTestSuite() {
    delete host_;
    host_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(host_->ok()) << host_->error();
    guest_ = TestGuest::connect(host_->address());
    ASSERT_TRUE(guest_);
    ASSERT_TRUE(guest_->hello().ok());
  }
  // A context current on a `w`x`h` surface (ids 1 and 1).
  void context_on_surface(uint32_t w, uint32_t h, Api api = Api::kGles, uint32_t major = 3) {
    Profile profile = api == Api::kGl ? Profile::kCore : Profile::kNone;
    ASSERT_EQ(guest_->create_context(1, api, major, api == Api::kGl ? 3 : 0, profile), 0u);
    guest_->create_surface(1, w, h);
    guest_->make_current(1, 1, 1);
  }
  void clear(float r, float g, float b, float a) {
    wire::encode_glClearColor(guest_->w(), r, g, b, a);
    wire::encode_glClear(guest_->w(), kColorBufferBit);
  }
  // Swaps surface 1 as frame `frame_id` and waits for a frame in `f`.
  ::testing::AssertionResult swap_and_receive(uint32_t frame_id, ReceivedFrame* f) {
    guest_->swap(1, frame_id);
    if (!guest_->send().ok()) return ::testing::AssertionFailure() << "the swap was not sent";
    if (!guest_->wait_frame(f)) return ::testing::AssertionFailure() << "no frame came";
    return ::testing::AssertionSuccess();
  }

  static RunningHost* host_;
  std::unique_ptr<TestGuest> guest_;
};
RunningHost* ControlTest::host_ = nullptr;

TEST_F(ControlTest, HelloReportsWhatTheHostOffers) {
  auto g = TestGuest::connect(host_->address());
  ASSERT_TRUE(g);
  g->control(ControlOp::kHello, wire::Hello{wire::kProtocolVersion, wire::kFeatureCompression, 1});
  auto reply = g->call();
  ASSERT_TRUE(reply.ok()) << reply.error().describe();
  wire::Reader r(*reply, 0);
  auto h = r.get<wire::HelloReply>();
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->protocol_version, wire::kProtocolVersion);
  EXPECT_EQ(h->features, wire::kFeatureCompression);
  EXPECT_NE(h->session_id, 0u);
  EXPECT_GE(h->max_gles_version, 20u);
  EXPECT_GT(h->max_batch_bytes, 0u);
  auto strings = r.get_data();
  ASSERT_TRUE(strings.ok());
  std::string text(reinterpret_cast<const char*>(strings->bytes.data()), strings->bytes.size());
  // renderer, vendor, version, platform, the guest's memory limit and the
  // largest pbuffer side.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\0'), 6);
  EXPECT_EQ(text.rfind(host_->server().display().info().renderer, 0), 0u);
  EXPECT_NE(text.find('\0' + std::to_string(host::GuestLimits{}.max_total_bytes) + '\0'), std::string::npos);
  const uint32_t side = host::largest_pbuffer_side(host_->server().display());
  EXPECT_GT(side, 0u);
  EXPECT_LE(side, host::kMaxSurfaceSide);
  EXPECT_TRUE(text.ends_with('\0' + std::to_string(side) + '\0'));
}

TEST_F(ControlTest, CreatesContextsAsAsked) {
  EXPECT_EQ(guest_->create_context(1, Api::kGles, 2, 0), 0u);
  EXPECT_EQ(guest_->create_context(2, Api::kGles, 3, 0, Profile::kNone, 1), 0u);  // shares with 1
  const auto& info = host_->server().display().info();
  if (info.max_gl_core >= 33) {
    EXPECT_EQ(guest_->create_context(3, Api::kGl, 3, 3, Profile::kCore), 0u);
  }
  if (info.max_gl_compat >= 30) {
    EXPECT_EQ(guest_->create_context(4, Api::kGl, 3, 0, Profile::kCompatibility), 0u);
  }
  EXPECT_NE(guest_->create_context(1, Api::kGles, 2, 0), 0u);                        // id in use
  EXPECT_NE(guest_->create_context(0, Api::kGles, 2, 0), 0u);                        // id 0
  EXPECT_NE(guest_->create_context(5, Api::kGles, 9, 0), 0u);                        // no such version
  EXPECT_NE(guest_->create_context(6, Api::kGles, 2, 0, Profile::kNone, 77), 0u);    // unknown share
  EXPECT_NE(guest_->create_context(7, static_cast<Api>(9), 2, 0), 0u);               // no such API
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(ControlTest, SwapSendsTheClearedColour) {
  context_on_surface(64, 32);
  clear(0.0f, 1.0f, 0.0f, 1.0f);
  ReceivedFrame f;
  ASSERT_TRUE(swap_and_receive(1, &f));
  EXPECT_EQ(f.frame.surface_id, 1u);
  EXPECT_EQ(f.frame.frame_id, 1u);
  EXPECT_EQ(f.frame.width, 64u);
  EXPECT_EQ(f.frame.height, 32u);
  EXPECT_EQ(f.frame.stride, 256u);
  ASSERT_EQ(f.pixels.size(), 256u * 32);
  EXPECT_EQ(f.argb(0, 0), 0xFF00FF00u);
  EXPECT_EQ(f.argb(63, 31), 0xFF00FF00u);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(ControlTest, FramesArriveTopRowFirstInBgra) {
  context_on_surface(16, 8);
  clear(1.0f, 0.0f, 0.0f, 1.0f);
  wire::encode_glEnable(guest_->w(), kScissorTest);
  wire::encode_glScissor(guest_->w(), 0, 4, 16, 4);  // GL's y grows upwards: the top half
  clear(0.0f, 0.0f, 1.0f, 1.0f);
  ReceivedFrame f;
  ASSERT_TRUE(swap_and_receive(7, &f));
  EXPECT_EQ(f.argb(5, 0), 0xFF0000FFu);  // blue on top
  EXPECT_EQ(f.argb(5, 7), 0xFFFF0000u);  // red below
}

TEST_F(ControlTest, PipelinedFramesKeepTheirOrderAndColours) {
  context_on_surface(32, 32);
  constexpr uint32_t kFrames = 12;
  for (uint32_t i = 1; i <= kFrames; ++i) {
    clear(static_cast<float>(i * 20) / 255.0f, 0.0f, 0.0f, 1.0f);
    guest_->swap(1, i);
    ASSERT_TRUE(guest_->send().ok());
  }
  for (uint32_t i = 1; i <= kFrames; ++i) {
    ReceivedFrame f;
    ASSERT_TRUE(guest_->wait_frame(&f)) << i;
    EXPECT_EQ(f.frame.frame_id, i);
    EXPECT_EQ(f.argb(3, 3), 0xFF000000u | ((i * 20) << 16)) << i;
  }
}

TEST_F(ControlTest, DesktopGlContextRendersFrames) {
  if (host_->server().display().info().max_gl_core < 33) GTEST_SKIP() << "no OpenGL 3.3 core";
  context_on_surface(8, 8, Api::kGl);
  clear(0.0f, 0.0f, 1.0f, 0.0f);
  ReceivedFrame f;
  ASSERT_TRUE(swap_and_receive(1, &f));
  EXPECT_EQ(f.argb(0, 0) & 0x00FFFFFFu, 0x000000FFu);
}

TEST_F(ControlTest, ResizedSurfaceGivesFramesOfTheNewSize) {
  context_on_surface(40, 30);
  guest_->control(ControlOp::kResizeSurface, wire::ResizeSurface{1, 20, 10});
  clear(1.0f, 1.0f, 1.0f, 1.0f);
  ReceivedFrame f;
  ASSERT_TRUE(swap_and_receive(2, &f));
  EXPECT_EQ(f.frame.width, 20u);
  EXPECT_EQ(f.frame.height, 10u);
  EXPECT_EQ(f.argb(19, 9), 0xFFFFFFFFu);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(ControlTest, SurfacelessCurrentContextAndSync) {
  if (!host_->server().display().surfaceless_context()) GTEST_SKIP() << "no EGL_KHR_surfaceless_context";
  ASSERT_EQ(guest_->create_context(1, Api::kGles, 3, 0), 0u);
  guest_->make_current(1, 0, 0);
  clear(0.0f, 0.0f, 0.0f, 1.0f);
  guest_->control(ControlOp::kSync);
  auto reply = guest_->call();
  ASSERT_TRUE(reply.ok());
  EXPECT_TRUE(reply->empty());
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(ControlTest, DestroyedObjectsAreGone) {
  context_on_surface(8, 8);
  guest_->make_current(0, 0, 0);
  guest_->control(ControlOp::kDestroySurface, wire::ObjectId{1});
  guest_->control(ControlOp::kDestroyContext, wire::ObjectId{1});
  guest_->control(ControlOp::kSync);
  ASSERT_TRUE(guest_->call().ok());
  EXPECT_TRUE(guest_->lost.empty());
  EXPECT_EQ(guest_->create_context(1, Api::kGles, 2, 0), 0u);  // the id is free again
  guest_->swap(1, 1);                                          // the surface is not
  ASSERT_TRUE(guest_->send().ok());
  wire::ContextLost lost{};
  ASSERT_TRUE(guest_->wait_lost(&lost));
  EXPECT_EQ(lost.opcode, static_cast<uint32_t>(ControlOp::kSwapBuffers));
}

// eglBindTexImage reaches the host as a control op in the context's stream:
// a pbuffer made for textures binds and releases; any other surface is a
// guest the EGL vendor would have refused, and loses its context.
TEST_F(ControlTest, OnlyATexturePbufferBindsToATexture) {
  if (!host::offers_texture_pbuffers(host_->server().display())) GTEST_SKIP() << "no texture pbuffers";
  context_on_surface(8, 8);
  guest_->create_surface(2, 16, 16, wire::kSurfaceTextureRgba);
  guest_->control(ControlOp::kBindTexImage, wire::BindTexImage{2, 1});
  guest_->control(ControlOp::kBindTexImage, wire::BindTexImage{2, 0});
  guest_->control(ControlOp::kSync);
  ASSERT_TRUE(guest_->call().ok());
  EXPECT_TRUE(guest_->lost.empty());

  guest_->control(ControlOp::kBindTexImage, wire::BindTexImage{1, 1});
  ASSERT_TRUE(guest_->send().ok());
  wire::ContextLost lost{};
  ASSERT_TRUE(guest_->wait_lost(&lost));
  EXPECT_EQ(lost.opcode, static_cast<uint32_t>(ControlOp::kBindTexImage));
}

TEST_F(ControlTest, StatsCountTheStream) {
  context_on_surface(8, 8);
  clear(0.0f, 0.0f, 0.0f, 1.0f);
  guest_->swap(1, 1);
  ASSERT_TRUE(guest_->send().ok());
  ASSERT_TRUE(guest_->wait_frame(nullptr));
  guest_->control(ControlOp::kGetStats);
  auto reply = guest_->call();
  ASSERT_TRUE(reply.ok());
  auto j = nlohmann::json::parse(std::string(reinterpret_cast<const char*>(reply->data()), reply->size()));
  uint32_t me = j["session"];
  bool found = false;
  for (const auto& s : j["sessions"]) {
    if (s["id"] != me) continue;
    found = true;
    const auto& c = s["counters"];
    EXPECT_GE(c["batches"].get<uint64_t>(), 4u);
    EXPECT_GE(c["commands"].get<uint64_t>(), 7u);
    EXPECT_GE(c["round_trips"].get<uint64_t>(), 2u);
    EXPECT_EQ(c["frames"].get<uint64_t>(), 1u);
    EXPECT_EQ(c["frame_bytes"].get<uint64_t>(), 8u * 8 * 4);
    EXPECT_GT(c["bytes_raw"].get<uint64_t>(), 0u);
    EXPECT_GT(c["bytes_wire"].get<uint64_t>(), 0u);
  }
  EXPECT_TRUE(found);
  EXPECT_GE(j["total"]["frames"].get<uint64_t>(), 1u);
  EXPECT_EQ(j["host"]["renderer"], host_->server().display().info().renderer);
}

}  // namespace
}  // namespace hosttest
