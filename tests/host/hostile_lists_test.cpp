// Hostile streams into display lists and glArrayElement: GL reads vertex
// arrays on the CPU for them without checking a buffer's size, so reads
// past a small buffer or before an array's start must be refused, not made.
// Also list calls the driver cannot compile inside an open glBegin (found by
// the session fuzzer). Each is refused or left out; the attacker keeps its
// context and a witness keeps rendering.
#include <gtest/gtest.h>

#include <cstring>

#include "witness.h"
#include "wire/gl_encode.h"
#include "wire/gl_opcodes.h"

namespace hosttest {
namespace {

constexpr GLenum kPoints = 0x0000, kTriangles = 0x0004, kQuadStrip = 0x0008;
constexpr GLenum kCompile = 0x1300, kCompileAndExecute = 0x1301;
constexpr GLenum kUnsignedByte = 0x1401, kInvalidOperation = 0x0502, kCurrentColor = 0x0B00;

class HostileListsTest : public AttackSuite<HostileListsTest> {
 protected:
  void set_up_attack() override {
    connect_attacker(true);
    if (HasFatalFailure()) return;
    expect_witness_renders(*witness_, 1);
  }

  // The attacker's last command was answered with `error` and nothing was
  // lost; the witness still renders.
  void expect_survived(GLenum error) {
    EXPECT_EQ(gl_error(*attacker_), error);
    EXPECT_TRUE(attacker_->lost.empty());
    expect_witness_renders(*witness_, 2);
  }

  wire::Writer& w() { return attacker_->w(); }

  // Generic array 1 enabled with neither a buffer nor client memory: GL
  // would read it from address 0 upwards.
  void enable_array_without_source() { wire::encode_glEnableVertexAttribArray(w(), 1); }

  // Generic array 0 reads one vec4 vertex from a 16-byte buffer.
  void enable_array_of_one_vertex() {
    constexpr GLenum kArrayBuffer = 0x8892, kStaticDraw = 0x88E4, kFloat = 0x1406;
    GLuint buffer = 1;
    wire::encode_glGenBuffers(w(), 1, &buffer, sizeof buffer);
    wire::encode_glBindBuffer(w(), kArrayBuffer, buffer);
    wire::encode_glBufferData(w(), kArrayBuffer, 16, nullptr, kStaticDraw, 0);
    wire::encode_glVertexAttribFormat(w(), 0, 4, kFloat, 0, 0);
    wire::encode_glBindVertexBuffer(w(), 0, buffer, 0, 16);
    wire::encode_glEnableVertexAttribArray(w(), 0);
  }

  void compile_draw(GLenum mode, GLint first, GLsizei count) {
    wire::encode_glNewList(w(), 7, mode);
    wire::encode_glDrawArrays(w(), kPoints, first, count);
    wire::encode_glEndList(w());
  }

  // Compiles list 1 as glBegin(GL_QUAD_STRIP), what `inside` builds and
  // glEnd, then calls it.
  template <typename Inside>
  void compile_primitive_and_call(Inside inside) {
    wire::encode_glNewList(w(), 1, kCompile);
    wire::encode_glBegin(w(), kQuadStrip);
    inside();
    wire::encode_glEnd(w());
    wire::encode_glEndList(w());
    wire::encode_glCallList(w(), 1);
  }

  void call_lists(const std::vector<uint8_t>& names) {
    size_t at = w().begin(static_cast<uint32_t>(wire::GlOp::glCallLists));
    w().put(static_cast<GLsizei>(names.size()));
    w().put(kUnsignedByte);
    w().put_data(names.data(), names.size());
    w().end(at);
  }

};

TEST_F(HostileListsTest, CompiledDrawPastTheBuffer) {
  enable_array_of_one_vertex();
  compile_draw(kCompile, 0, 1 << 19);
  expect_survived(kInvalidOperation);
}

TEST_F(HostileListsTest, CompiledAndExecutedDrawPastTheBuffer) {
  enable_array_of_one_vertex();
  compile_draw(kCompileAndExecute, 0, 1 << 19);
  expect_survived(kInvalidOperation);
}

TEST_F(HostileListsTest, ArrayElementPastTheBuffer) {
  enable_array_of_one_vertex();
  wire::encode_glBegin(w(), kPoints);
  wire::encode_glArrayElement(w(), 1 << 24);
  wire::encode_glEnd(w());
  expect_survived(kInvalidOperation);
}

// A glBegin the host does not see, run from a display list: glArrayElement
// is still checked against the arrays.
TEST_F(HostileListsTest, ArrayElementPastTheBufferInsideAListsBegin) {
  enable_array_of_one_vertex();
  wire::encode_glNewList(w(), 8, kCompile);
  wire::encode_glBegin(w(), kPoints);
  wire::encode_glEndList(w());
  wire::encode_glCallList(w(), 8);
  wire::encode_glArrayElement(w(), 1 << 24);
  wire::encode_glEnd(w());
  EXPECT_EQ(gl_error(*attacker_), kInvalidOperation);
  for (int i = 0; i < 8 && gl_error(*attacker_) != 0;) ++i;  // a look inside a glBegin is GL's error too
  expect_survived(0);
}

// What the buffer holds (its one vertex) is read as GL reads it.
TEST_F(HostileListsTest, VerticesTheBufferHoldsAreDrawn) {
  enable_array_of_one_vertex();
  compile_draw(kCompile, 0, 1);
  wire::encode_glBegin(w(), kPoints);
  wire::encode_glArrayElement(w(), 0);
  wire::encode_glEnd(w());
  expect_survived(0);
}

TEST_F(HostileListsTest, CompiledDrawBeforeTheArraysStart) {
  enable_array_without_source();
  wire::encode_glNewList(w(), 1, kCompile);
  wire::encode_glDrawArrays(w(), kTriangles, -715000000, 6);
  wire::encode_glEndList(w());
  expect_survived(kInvalidOperation);
}

TEST_F(HostileListsTest, CompiledElementsDrawWithANegativeBaseVertex) {
  constexpr GLint kBaseVertex = -1000;
  const uint8_t indices[3] = {0, 1, 2};
  enable_array_without_source();
  wire::encode_glNewList(w(), 1, kCompile);
  wire::encode_glDrawElementsBaseVertex(w(), kTriangles, 3, kUnsignedByte, 1, kBaseVertex, 0, 0, indices, 0,
                                        sizeof indices, false);
  wire::encode_glEndList(w());
  expect_survived(kInvalidOperation);
}

// The second part of a compiled glMultiDrawElements names vertex 5 of a
// one-vertex array.
TEST_F(HostileListsTest, CompiledMultiElementsDrawPastTheBuffer) {
  const uint8_t first[1] = {0}, second[1] = {5};
  const GLsizei counts[2] = {1, 1};
  enable_array_of_one_vertex();
  wire::encode_glNewList(w(), 1, kCompile);
  size_t at = w().begin(static_cast<uint32_t>(wire::GlOp::glMultiDrawElements));
  // mode, type, draw count, counts, base vertices, indices of each part
  w().put(kPoints);
  w().put(kUnsignedByte);
  w().put(GLsizei{2});
  w().put_data(counts, sizeof counts);
  w().put_data(nullptr, 0);
  w().put_data(first, sizeof first);
  w().put_data(second, sizeof second);
  w().end(at);
  wire::encode_glEndList(w());
  expect_survived(kInvalidOperation);
}

TEST_F(HostileListsTest, ArrayElementBeforeTheArraysStart) {
  enable_array_without_source();
  wire::encode_glBegin(w(), kTriangles);
  wire::encode_glArrayElement(w(), -100000);
  wire::encode_glEnd(w());
  expect_survived(kInvalidOperation);
}

// Mesa reads through a null for a missing list called inside a compiled
// glBegin: the call is left out, as GL would call nothing for it now.
TEST_F(HostileListsTest, CallOfAMissingListInsideACompiledBegin) {
  compile_primitive_and_call([&] { wire::encode_glCallList(w(), 3); });
  expect_survived(0);
}

// GL compiles whatever comes after the glBegin, a command GL refuses inside
// it too: the primitive stays open.
TEST_F(HostileListsTest, CallOfAMissingListAfterARefusedCommandInsideACompiledBegin) {
  compile_primitive_and_call([&] {
    wire::encode_glRotatef(w(), -165.1f, 0, 0, 1);
    wire::encode_glCallList(w(), 2);
  });
  EXPECT_EQ(gl_error(*attacker_), kInvalidOperation) << "glRotatef inside glBegin, as GL runs the list";
  expect_survived(0);
}

// Mesa crashes compiling an array draw inside a compiled glBegin (found by
// fuzz_session): it is left out, as GL would refuse it when the list runs.
TEST_F(HostileListsTest, ArrayDrawInsideACompiledBegin) {
  enable_array_of_one_vertex();
  compile_primitive_and_call([&] { wire::encode_glDrawArrays(w(), kPoints, 0, 1); });
  expect_survived(0);
}

TEST_F(HostileListsTest, CallListsOfMissingListsInsideACompiledBegin) {
  compile_primitive_and_call([&] { call_lists({3, 4}); });
  expect_survived(0);
}

// Compiled and run at once, the glBegin is open in GL too: the calls of
// missing lists are left out all the same, and GL reports nothing.
TEST_F(HostileListsTest, CallListsOfMissingListsInsideABeginCompiledAndRun) {
  wire::encode_glNewList(w(), 1, kCompileAndExecute);
  wire::encode_glBegin(w(), kQuadStrip);
  call_lists({3, 4});
  wire::encode_glEnd(w());
  wire::encode_glEndList(w());
  expect_survived(0);
}

// A list that exists is still called from inside a compiled glBegin: the
// inner list's colour is the current one after the outer list ran.
TEST_F(HostileListsTest, CallOfAnExistingListInsideACompiledBeginStillRuns) {
  wire::encode_glNewList(w(), 3, kCompile);
  wire::encode_glColor3f(w(), 0, 1, 0);
  wire::encode_glEndList(w());
  wire::encode_glNewList(w(), 4, kCompile);
  wire::encode_glColor3f(w(), 0, 0, 1);
  wire::encode_glEndList(w());
  wire::encode_glColor3f(w(), 1, 0, 0);
  compile_primitive_and_call([&] {
    call_lists({4});
    wire::encode_glCallList(w(), 3);
  });
  wire::encode_glGetFloatv(w(), kCurrentColor);
  const auto color = reply_data(*attacker_);
  ASSERT_EQ(color.size(), 4 * sizeof(float));
  float rgba[4];
  std::memcpy(rgba, color.data(), sizeof rgba);
  EXPECT_EQ(rgba[0], 0.0f);
  EXPECT_EQ(rgba[1], 1.0f) << "list 3 ran after list 4";
  EXPECT_EQ(rgba[2], 0.0f);
  expect_survived(0);
}

}  // namespace
}  // namespace hosttest
