// glUniform*v with a count past the end of the uniform's array: GL reads
// only the values the array holds from the location on, so a program may
// pass any count with just those values in its memory (piglit's
// glsl-uniform-out-of-bounds passes INT_MAX). The guest copies what GL reads.
#include <climits>

#include "gl_state_fixture.h"

namespace icd::egl {
namespace {

constexpr GLenum kNoError = 0, kInvalidOperation = 0x0502;

class UniformCount : public GlState {
 protected:
  void SetUp() override {
    GlState::SetUp();
    program_ = use_program(
        "uniform vec4 single; uniform vec4 list[3]; attribute vec2 pos; varying vec4 v;"
        "void main() { v = single + list[0] + list[1] + list[2]; gl_Position = vec4(pos, 0.0, 1.0); }",
        "precision mediump float; varying vec4 v; void main() { gl_FragColor = v; }");
  }
  GLint location(const char* name) {
    return gl<GLint (*)(GLuint, const GLchar*)>("glGetUniformLocation")(program_, name);
  }
  GLenum error() { return gl<GLenum (*)()>("glGetError")(); }
  void set(GLint at, GLsizei count, const float* values) {
    gl<void (*)(GLint, GLsizei, const GLfloat*)>("glUniform4fv")(at, count, values);
  }
  std::array<float, 4> get(GLint at) {
    std::array<float, 4> v{};
    gl<void (*)(GLuint, GLint, GLfloat*)>("glGetUniformfv")(program_, at, v.data());
    return v;
  }
  GLuint program_ = 0;
};

// Eight values: what the last two elements of `list` hold, nothing more.
TEST_F(UniformCount, ACountFarPastTheArraysEndSetsTheElementsThatAreLeft) {
  const float values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  set(location("list[1]"), INT_MAX, values);
  EXPECT_EQ(error(), kNoError);
  EXPECT_EQ(get(location("list[1]")), (std::array<float, 4>{1, 2, 3, 4}));
  EXPECT_EQ(get(location("list[2]")), (std::array<float, 4>{5, 6, 7, 8}));
}

TEST_F(UniformCount, AHugeCountForAUniformThatIsNoArrayIsRefused) {
  const float values[4] = {1, 2, 3, 4};
  set(location("single"), INT_MAX, values);
  EXPECT_EQ(error(), kInvalidOperation);
  EXPECT_EQ(get(location("single")), (std::array<float, 4>{0, 0, 0, 0}));
}

TEST_F(UniformCount, AHugeCountAtALocationOfNoUniformIsRefused) {
  const float values[4] = {1, 2, 3, 4};
  set(1000, INT_MAX, values);
  EXPECT_EQ(error(), kInvalidOperation);
  set(-1, INT_MAX, values);  // ignored, as GL ignores location -1
  EXPECT_EQ(error(), kNoError);
}

}  // namespace
}  // namespace icd::egl
