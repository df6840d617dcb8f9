// Front buffers of double-buffered (window) surfaces: GL_FRONT and GL_BACK
// are separate buffers, a swap copies the back into the front, a flush after
// front-buffer drawing shows the front, and the front is charged to the
// guest only once it is used.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "host/surface.h"
#include "witness.h"
#include "wire/gl_encode.h"

namespace hosttest {
namespace {

constexpr GLenum kFront = 0x0404, kBack = 0x0405, kFrontAndBack = 0x0408, kDrawBuffer = 0x0C01, kReadBuffer = 0x0C02,
                 kRgba = 0x1908, kUnsignedByte = 0x1401;
constexpr GLbitfield kColorBufferBit = 0x4000;
constexpr uint32_t kSide = 16;
constexpr uint32_t kRed = 0xFFFF0000u, kGreen = 0xFF00FF00u, kBlue = 0xFF0000FFu;

class FrontBufferTest : public SharedHostTest<FrontBufferTest> {
 public:
  static host::HostOptions host_options() { return small_limits(); }
  static constexpr bool kRingFile = false;

 protected:
  // A desktop GL compatibility context current on surface 1: a
  // double-buffered window by default.
  void connect(uint32_t flags = wire::kSurfaceWindow | wire::kSurfaceDoubleBuffered) {
    guest_ = TestGuest::connect(host_->address());
    ASSERT_TRUE(guest_ && guest_->hello().ok());
    ASSERT_EQ(guest_->create_context(1, wire::Api::kGl, 3, 0, wire::Profile::kCompatibility), 0u);
    guest_->create_surface(1, kSide, kSide, flags);
    guest_->make_current(1, 1, 1);
    ASSERT_TRUE(guest_->call().ok());
  }

  wire::Writer& w() { return guest_->w(); }

  void clear(GLenum draw_buffer, uint32_t argb) {
    wire::encode_glDrawBuffer(w(), draw_buffer);
    wire::encode_glClearColor(w(), ((argb >> 16) & 0xFF) / 255.0f, ((argb >> 8) & 0xFF) / 255.0f,
                              (argb & 0xFF) / 255.0f, 1.0f);
    wire::encode_glClear(w(), kColorBufferBit);
  }

  // The centre pixel of `read_buffer` as 0xAARRGGBB; 0 when no answer came.
  uint32_t centre(GLenum read_buffer) {
    wire::encode_glReadBuffer(w(), read_buffer);
    size_t at = w().begin(static_cast<uint32_t>(wire::GlOp::glReadPixels));
    for (int32_t v : {int32_t{kSide / 2}, int32_t{kSide / 2}, 1, 1}) w().put(v);
    w().put(static_cast<uint32_t>(kRgba));
    w().put(static_cast<uint32_t>(kUnsignedByte));
    w().put_data(nullptr, 0);
    w().end(at);
    auto reply = guest_->call();
    if (!reply) return 0;
    wire::Reader r(*reply, 0);
    auto data = r.get_data();
    if (!data || data->bytes.size() != 4) return 0;
    const auto* p = reinterpret_cast<const uint8_t*>(data->bytes.data());
    return uint32_t{p[3]} << 24 | uint32_t{p[0]} << 16 | uint32_t{p[1]} << 8 | p[2];
  }

  GLint draw_buffer() { return integer(kDrawBuffer); }
  GLint integer(GLenum pname) {
    wire::encode_glGetIntegerv(w(), pname);
    auto reply = guest_->call();
    GLint v = 0;
    if (reply && reply->size() >= sizeof v) std::memcpy(&v, reply->data() + reply->size() - sizeof v, sizeof v);
    return v;
  }

  void TearDown() override {
    guest_.reset();
    EXPECT_TRUE(wait_live_sessions(*host_, 0));
  }

  std::unique_ptr<TestGuest> guest_;
};

TEST_F(FrontBufferTest, FrontAndBackAreBuffersOfTheirOwn) {
  connect();
  EXPECT_EQ(draw_buffer(), static_cast<GLint>(kBack));
  EXPECT_EQ(integer(kReadBuffer), static_cast<GLint>(kBack));
  clear(kFront, kGreen);
  clear(kBack, kRed);
  EXPECT_EQ(centre(kFront), kGreen);
  EXPECT_EQ(centre(kBack), kRed);
  EXPECT_EQ(draw_buffer(), static_cast<GLint>(kBack));
  // Going back and forth keeps both.
  clear(kFront, kBlue);
  EXPECT_EQ(centre(kBack), kRed);
  EXPECT_EQ(centre(kFront), kBlue);
  EXPECT_EQ(draw_buffer(), static_cast<GLint>(kFront));
  EXPECT_EQ(gl_error(*guest_), 0u);
  EXPECT_TRUE(guest_->lost.empty());
}

// glClearBuffer of the window's colour clears the buffer the program
// selected, front or back, and keeps the clear colour (Mesa's own
// glClearBuffer would leave the back of such a window alone).
TEST_F(FrontBufferTest, ClearBufferReachesFrontAndBack) {
  constexpr GLenum kColor = 0x1800;
  connect();
  clear(kBack, kBlue);
  const float red[] = {1, 0, 0, 1}, green[] = {0, 1, 0, 1};
  wire::encode_glDrawBuffer(w(), kFront);
  wire::encode_glClearBufferfv(w(), kColor, 0, green, sizeof green);
  wire::encode_glDrawBuffer(w(), kBack);
  wire::encode_glClearBufferfv(w(), kColor, 0, red, sizeof red);
  EXPECT_EQ(centre(kFront), kGreen);
  EXPECT_EQ(centre(kBack), kRed);
  wire::encode_glClear(w(), kColorBufferBit);  // the clear colour is still blue
  EXPECT_EQ(centre(kBack), kBlue);
  EXPECT_EQ(gl_error(*guest_), 0u);
}

TEST_F(FrontBufferTest, SwapShowsTheBackAndMakesItTheFront) {
  connect();
  clear(kFront, kGreen);
  clear(kBack, kRed);
  guest_->swap(1, 1);
  ASSERT_TRUE(guest_->send().ok());
  ReceivedFrame f;
  ASSERT_TRUE(guest_->wait_frame(&f));
  EXPECT_EQ(f.argb(kSide / 2, kSide / 2), kRed);
  EXPECT_EQ(centre(kFront), kRed);
  clear(kBack, kBlue);
  EXPECT_EQ(centre(kFront), kRed);
  EXPECT_EQ(centre(kBack), kBlue);
}

TEST_F(FrontBufferTest, FlushAfterFrontDrawingShowsTheFront) {
  connect();
  clear(kBack, kRed);
  guest_->swap(1, 7);
  ASSERT_TRUE(guest_->send().ok());
  ReceivedFrame f;
  ASSERT_TRUE(guest_->wait_frame(&f));
  clear(kFront, kGreen);
  wire::encode_glFlush(w());
  ASSERT_TRUE(guest_->send().ok());
  ASSERT_TRUE(guest_->wait_frame(&f));
  EXPECT_EQ(f.argb(kSide / 2, kSide / 2), kGreen);
  EXPECT_EQ(f.frame.frame_id, 7u);  // the last swap's: a guest's frame pacing is not moved
  // Nothing drawn since: a second flush sends nothing.
  wire::encode_glFlush(w());
  ASSERT_TRUE(guest_->send().ok());
  EXPECT_FALSE(guest_->wait_frame(&f, std::chrono::milliseconds(300)));
  // Back-buffer drawing is not shown by a flush.
  clear(kBack, kBlue);
  wire::encode_glFlush(w());
  ASSERT_TRUE(guest_->send().ok());
  EXPECT_FALSE(guest_->wait_frame(&f, std::chrono::milliseconds(300)));
}

// GL_FRONT_AND_BACK and GL_LEFT name both buffers of a double-buffered
// window: each clear reaches both, and a flush shows the front.
TEST_F(FrontBufferTest, FrontAndBackDrawingReachesBoth) {
  constexpr GLenum kLeft = 0x0406, kColor = 0x1800;
  connect();
  clear(kFront, kGreen);
  clear(kBack, kBlue);
  clear(kFrontAndBack, kRed);
  EXPECT_EQ(centre(kBack), kRed);
  EXPECT_EQ(centre(kFront), kRed);
  EXPECT_EQ(draw_buffer(), static_cast<GLint>(kFrontAndBack));
  const float green[] = {0, 1, 0, 1};
  wire::encode_glDrawBuffer(w(), kLeft);
  wire::encode_glClearBufferfv(w(), kColor, 0, green, sizeof green);
  wire::encode_glFlush(w());
  ASSERT_TRUE(guest_->send().ok());
  ReceivedFrame f;
  ASSERT_TRUE(guest_->wait_frame(&f));
  EXPECT_EQ(f.argb(kSide / 2, kSide / 2), kGreen);
  EXPECT_EQ(centre(kBack), kGreen);
  EXPECT_EQ(centre(kFront), kGreen);
  // GL_BACK draws into the back alone again.
  clear(kBack, kBlue);
  EXPECT_EQ(centre(kFront), kGreen);
  EXPECT_EQ(centre(kBack), kBlue);
  EXPECT_EQ(gl_error(*guest_), 0u);
  EXPECT_TRUE(guest_->lost.empty());
}

TEST_F(FrontBufferTest, FrontIsChargedOnceUsedAndFreedWithTheSurface) {
  connect();
  ASSERT_TRUE(guest_->call().ok());
  const uint64_t before = held_memory(*host_);
  clear(kBack, kRed);
  ASSERT_TRUE(guest_->call().ok());
  EXPECT_EQ(held_memory(*host_), before);
  clear(kFront, kGreen);
  ASSERT_TRUE(guest_->call().ok());
  const uint64_t one_buffer = host::Surface::bytes_for(kSide, kSide, {8, 8, 8, 8, 24, 8, 0});
  EXPECT_EQ(held_memory(*host_), before + one_buffer);
  guest_->make_current(0, 0, 0);
  guest_->control(wire::ControlOp::kDestroySurface, wire::ObjectId{1});
  ASSERT_TRUE(guest_->call().ok());
  EXPECT_EQ(held_memory(*host_), before - one_buffer);
}

TEST_F(FrontBufferTest, SingleBufferedSurfacesHaveOneBuffer) {
  connect(0);  // a pbuffer
  ASSERT_TRUE(guest_->call().ok());
  const uint64_t before = held_memory(*host_);
  clear(kFront, kGreen);
  EXPECT_EQ(centre(kFront), kGreen);
  ASSERT_TRUE(guest_->call().ok());
  EXPECT_EQ(held_memory(*host_), before);
  // Nothing shows a pbuffer.
  wire::encode_glFlush(w());
  ASSERT_TRUE(guest_->send().ok());
  ReceivedFrame f;
  EXPECT_FALSE(guest_->wait_frame(&f, std::chrono::milliseconds(300)));
}

TEST_F(FrontBufferTest, SingleBufferedWindowShowsItsDrawingAtAFlush) {
  connect(wire::kSurfaceWindow);
  EXPECT_EQ(draw_buffer(), static_cast<GLint>(kFront));  // as natively: it has no back
  wire::encode_glClearColor(w(), 0.0f, 1.0f, 0.0f, 1.0f);
  wire::encode_glClear(w(), kColorBufferBit);
  wire::encode_glFlush(w());
  ASSERT_TRUE(guest_->send().ok());
  ReceivedFrame f;
  ASSERT_TRUE(guest_->wait_frame(&f));
  EXPECT_EQ(f.argb(kSide / 2, kSide / 2), kGreen);
}

TEST_F(FrontBufferTest, UnknownSurfaceFlagsLoseTheContext) {
  guest_ = TestGuest::connect(host_->address());
  ASSERT_TRUE(guest_ && guest_->hello().ok());
  guest_->create_surface(1, kSide, kSide, 1u << 7);  // no flag has this bit
  ASSERT_TRUE(guest_->send().ok());
  wire::ContextLost lost{};
  ASSERT_TRUE(guest_->wait_lost(&lost));
  EXPECT_EQ(lost.opcode, static_cast<uint32_t>(wire::ControlOp::kCreateSurface));
}

}  // namespace
}  // namespace hosttest
