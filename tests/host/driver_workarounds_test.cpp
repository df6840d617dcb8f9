// Legal GL that a host driver mishandles: the host's workaround keeps the
// guest's renderer standing and what the guest sees of its state unchanged
// (gl/driver_workarounds.h). Each test names the driver it concerns and runs
// everywhere: on other drivers it checks the same outcome without the
// workaround being needed.
#include <gtest/gtest.h>

#include <cstring>

#include "witness.h"
#include "wire/gl_encode.h"

namespace hosttest {
namespace {

using wire::Api;

constexpr GLenum kQuads = 0x0007, kFront = 0x0404, kBack = 0x0405, kPoint = 0x1B00,
                 kLine = 0x1B01, kLineSmooth = 0x0B20, kCw = 0x0900, kCcw = 0x0901;

class DriverWorkaroundsTest : public AttackSuite<DriverWorkaroundsTest> {
 protected:
  void SetUp() override {
    AttackSuite::SetUp();
    if (HasFatalFailure()) return;
    attacker_ = clearing_guest(host_->address(), 1.0f);
    ASSERT_TRUE(attacker_);
    ASSERT_EQ(attacker_->create_context(2, Api::kGl, 3, 0, wire::Profile::kCompatibility), 0u);
    attacker_->make_current(2, 1, 1);
  }

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
  build_program(w(), 1, 2, 3,
                "#version 130\nvoid main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; }\n",
                "#version 130\nvoid main() {\n"
                "  gl_FragColor = gl_FrontFacing ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0, 1.0, 0.0, 1.0);\n"
                "}\n");
  wire::encode_glUseProgram(w(), 1);
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

}  // namespace
}  // namespace hosttest
