// Debug output through the guest ICD against a real host (OpenGL ES 3): the
// program's callback hears of GL's errors, at once while output is
// synchronous, else when the program asks for the error; without a
// callback the messages wait in the log.
#include <string>
#include <vector>

#include "gl_state_fixture.h"

namespace icd::egl {
namespace {

constexpr GLenum kDebugOutput = 0x92E0, kDebugOutputSynchronous = 0x8242;
constexpr GLenum kDebugTypeError = 0x824C, kDebugSourceApi = 0x8246;
constexpr GLenum kInvalidEnum = 0x0500, kNotACapability = 0xFFFF;

struct Heard {
  std::vector<GLenum> types, sources;
  std::vector<std::string> texts;
};

void GLAPIENTRY listen(GLenum source, GLenum type, GLuint, GLenum, GLsizei length,
                       const GLchar* message, const void* user) {
  auto* heard = static_cast<Heard*>(const_cast<void*>(user));
  heard->sources.push_back(source);
  heard->types.push_back(type);
  heard->texts.emplace_back(message, static_cast<size_t>(length));
}

class DebugOutput : public GlState {
 protected:
  void SetUp() override {
    if (set_up_offering("GL_KHR_debug", "debug output")) enable(kDebugOutput);
  }
  void enable(GLenum cap) { gl<void (*)(GLenum)>("glEnable")(cap); }
  void set_callback(Heard* heard) {
    gl<void (*)(GLDEBUGPROC, const void*)>("glDebugMessageCallbackKHR")(listen, heard);
  }
  GLenum get_error() { return gl<GLenum (*)()>("glGetError")(); }
};

TEST_F(DebugOutput, SynchronousOutputCallsBackBeforeTheCommandReturns) {
  Heard heard;
  set_callback(&heard);
  enable(kDebugOutputSynchronous);
  enable(kNotACapability);
  ASSERT_EQ(heard.types.size(), 1u) << "heard before any other command";
  EXPECT_EQ(heard.types[0], kDebugTypeError);
  EXPECT_EQ(heard.sources[0], kDebugSourceApi);
  EXPECT_FALSE(heard.texts[0].empty());
  EXPECT_EQ(get_error(), kInvalidEnum);
  EXPECT_EQ(heard.types.size(), 1u) << "each message once";
}

TEST_F(DebugOutput, OtherwiseTheCallbackHearsWhenTheProgramAsks) {
  Heard heard;
  set_callback(&heard);
  enable(kNotACapability);
  EXPECT_EQ(get_error(), kInvalidEnum);
  ASSERT_EQ(heard.types.size(), 1u);
  EXPECT_EQ(heard.types[0], kDebugTypeError);
}

TEST_F(DebugOutput, WithoutACallbackMessagesWaitInTheLog) {
  enable(kNotACapability);
  GLenum source = 0, type = 0, severity = 0;
  GLuint id = 0;
  GLsizei length = 0;
  char text[512] = {};
  auto log = gl<GLuint (*)(GLuint, GLsizei, GLenum*, GLenum*, GLuint*, GLenum*, GLsizei*, GLchar*)>(
      "glGetDebugMessageLogKHR");
  EXPECT_EQ(log(1, sizeof text, &source, &type, &id, &severity, &length, text), 1u);
  EXPECT_EQ(type, kDebugTypeError);
  EXPECT_GT(length, 1);
}

}  // namespace
}  // namespace icd::egl
