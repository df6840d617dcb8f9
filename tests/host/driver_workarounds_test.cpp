// Legal GL that a host driver mishandles: the host's workaround keeps the
// guest's renderer standing and what the guest sees of its state unchanged
// (gl/driver_workarounds.h). Each test names the driver it concerns and runs
// everywhere: on other drivers it checks the same outcome without the
// workaround being needed.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "gl/driver_workarounds.h"
#include "witness.h"
#include "wire/gl_encode.h"

namespace hosttest {
namespace {

constexpr GLenum kQuads = 0x0007, kFront = 0x0404, kBack = 0x0405, kPoint = 0x1B00,
                 kLine = 0x1B01, kLineSmooth = 0x0B20, kCw = 0x0900, kCcw = 0x0901;

class DriverWorkaroundsTest : public AttackSuite<DriverWorkaroundsTest> {
 protected:
  void set_up_attack() override { connect_attacker(true); }

  wire::Writer& w() { return attacker_->w(); }

  // A quad wound clockwise, then one counter-clockwise, as one primitive
  // each, so both of glPolygonMode's faces are drawn.
  void draw_two_quads() {
    for (GLenum winding : {kCw, kCcw}) {
      wire::encode_glFrontFace(w(), winding);
      wire::encode_glBegin(w(), kQuads);
      wire::encode_glVertex2f(w(), -0.8f, -0.8f);
      wire::encode_glVertex2f(w(), 0.8f, -0.8f);
      wire::encode_glVertex2f(w(), 0.8f, 0.8f);
      wire::encode_glVertex2f(w(), -0.8f, 0.8f);
      wire::encode_glEnd(w());
    }
  }

  // The outlines of draw_two_quads() with a facing shader, GL_LINE_SMOOTH
  // as `smooth`, read back as frame `frame_id` of surface 1 (16x16).
  std::vector<std::byte> outlines(bool smooth, uint32_t frame_id) {
    constexpr GLbitfield kColorBufferBit = 0x4000;
    (smooth ? wire::encode_glEnable : wire::encode_glDisable)(w(), kLineSmooth);
    wire::encode_glClear(w(), kColorBufferBit);
    draw_two_quads();
    attacker_->swap(1, frame_id);
    ReceivedFrame f;
    if (!attacker_->send().ok() || !attacker_->wait_frame(&f)) return {};
    return f.pixels;
  }

  void use_facing_program() {
    build_program(w(), 1, 2, 3,
                  "#version 130\nvoid main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; }\n",
                  "#version 130\nvoid main() {\n"
                  "  gl_FragColor = gl_FrontFacing ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0, 1.0, 0.0, 1.0);\n"
                  "}\n");
    wire::encode_glUseProgram(w(), 1);
  }

  bool line_smooth_enabled() {
    wire::encode_glIsEnabled(w(), kLineSmooth);
    auto reply = attacker_->call();
    uint8_t enabled = 0;
    if (reply && !reply->empty()) std::memcpy(&enabled, reply->data(), 1);
    return enabled != 0;
  }
};

// Mesa's draw module (llvmpipe, softpipe) writes past its vertex buffer when
// smoothed lines outline polygons for a shader reading gl_FrontFacing; the
// renderer then crashes in eglDestroyContext (piglit's
// gl-1.1-polygon-mode-facing did this every run). Whether the corruption
// hits something depends on the heap, so this checks what the workaround
// must keep: the guest's own state across the draws and a renderer that
// still answers after the context is gone.
TEST_F(DriverWorkaroundsTest, SmoothOutlinesForAFacingShaderKeepTheRendererStanding) {
  use_facing_program();
  wire::encode_glEnable(w(), kLineSmooth);
  for (GLenum front : {kPoint, kLine}) {
    wire::encode_glPolygonMode(w(), kFront, front);
    wire::encode_glPolygonMode(w(), kBack, kLine);
    draw_two_quads();
  }
  EXPECT_TRUE(line_smooth_enabled()) << "the guest's GL_LINE_SMOOTH is as it set it";
  EXPECT_EQ(gl_error(*attacker_), 0u);

  // Destroying the context is where the corrupted heap made Mesa crash.
  attacker_->control(wire::ControlOp::kDestroyContext, wire::ObjectId{2});
  attacker_->make_current(1, 1, 1);
  EXPECT_EQ(gl_error(*attacker_), 0u) << "the renderer still answers";
  EXPECT_TRUE(attacker_->lost.empty());
  expect_witness_renders(*witness_, 1);
}

// What the workaround changes: on the draw module such outlines come out
// exactly as aliased ones; elsewhere nothing is changed.
TEST_F(DriverWorkaroundsTest, SmoothOutlinesForAFacingShaderAreAliasedOnTheDrawModule) {
  const std::string& renderer = host_->server().info().renderer;
  if (!host::draw_module_renderer(renderer)) GTEST_SKIP() << "the workaround is for Mesa's draw module, not " << renderer;
  use_facing_program();
  wire::encode_glPolygonMode(w(), kFront, kLine);
  wire::encode_glPolygonMode(w(), kBack, kLine);
  const auto aliased = outlines(false, 1);
  const auto smoothed = outlines(true, 2);
  ASSERT_FALSE(aliased.empty());
  EXPECT_EQ(aliased, smoothed);
  // Without a GLSL program the driver smooths them (and has no bug).
  wire::encode_glUseProgram(w(), 0);
  EXPECT_NE(outlines(false, 3), outlines(true, 4)) << "smoothing shows in these pixels";
  EXPECT_TRUE(attacker_->lost.empty());
}

}  // namespace
}  // namespace hosttest
