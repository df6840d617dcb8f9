// glGetString and glGetStringi(GL_EXTENSIONS) answered from the strings the
// guest fetches together (kContextStrings) give what the driver gives: each
// answer is compared with the host's answer to the same command sent as a
// round trip, on OpenGL ES 2, OpenGL ES 3 and a desktop core profile.
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "gl/context_stream.h"
#include "gl_state_fixture.h"
#include "wire/gl_encode.h"
#include "wire/gl_opcodes.h"

namespace icd::egl {
namespace {

constexpr GLenum kVendor = 0x1F00, kVersion = 0x1F02, kShadingLanguageVersion = 0x8B8C;
constexpr GLenum kExtensions = 0x1F03, kNumExtensions = 0x821D;
constexpr GLenum kNoError = 0, kInvalidEnum = 0x0500, kInvalidValue = 0x0501;
constexpr GLenum kNamed[] = {kVendor, kRenderer, kVersion, kShadingLanguageVersion};

template <typename Base>
class ContextStrings : public Base {
 protected:
  // Through the entry points.
  const char* string(GLenum name) {
    return reinterpret_cast<const char*>(gl<const GLubyte* (*)(GLenum)>("glGetString")(name));
  }
  const char* stringi(GLuint index) {
    return reinterpret_cast<const char*>(gl<const GLubyte* (*)(GLenum, GLuint)>("glGetStringi")(kExtensions, index));
  }
  GLint num_extensions() {
    GLint n = -7;
    gl<void (*)(GLenum, GLint*)>("glGetIntegerv")(kNumExtensions, &n);
    return n;
  }
  GLenum error() { return gl<GLenum (*)()>("glGetError")(); }
  uint64_t round_trips() { return static_cast<ContextStream*>(current_stream())->connection().stats().round_trips; }

  // The same commands as round trips: the driver's answers, and its error.
  std::string host_string(const std::function<void(wire::Writer&)>& encode) {
    Stream& s = *current_stream();
    encode(s.writer());
    auto reply = s.roundtrip();
    EXPECT_TRUE(reply.ok());
    wire::Reader r(*reply, 0);
    auto d = r.get_data();
    EXPECT_TRUE(d.ok() && !d->bytes.empty());
    return d.ok() && !d->bytes.empty() ? std::string(reinterpret_cast<const char*>(d->bytes.data()), d->bytes.size() - 1)
                                       : std::string("#");
  }
  GLenum host_error() {
    Stream& s = *current_stream();
    wire::encode_glGetError(s.writer());
    auto reply = s.roundtrip();
    EXPECT_TRUE(reply.ok());
    wire::Reader r(*reply, 0);
    auto v = r.get<GLenum>();
    return v ? *v : 0xFFFF;
  }
  // GL_NUM_EXTENSIONS as the driver answers it; -1 where it refuses it.
  GLint host_num_extensions() {
    Stream& s = *current_stream();
    wire::encode_glGetIntegerv(s.writer(), kNumExtensions);
    auto reply = s.roundtrip();
    EXPECT_TRUE(reply.ok());
    wire::Reader r(*reply, 0);
    auto d = r.get_data();
    GLint n = -1;
    if (d.ok() && d->bytes.size() >= sizeof n) std::memcpy(&n, d->bytes.data(), sizeof n);
    return host_error() == kNoError ? n : -1;
  }
  // The driver's list, one by one or split from its one string.
  std::vector<std::string> host_extensions() {
    std::vector<std::string> list;
    if (const GLint n = host_num_extensions(); n >= 0) {
      for (GLint i = 0; i < n; ++i) {
        list.push_back(host_string([&](wire::Writer& w) { wire::encode_glGetStringi(w, kExtensions, i); }));
      }
      return list;
    }
    std::istringstream in(host_string([](wire::Writer& w) { wire::encode_glGetString(w, kExtensions); }));
    for (std::string e; in >> e;) list.push_back(e);
    return list;
  }
  // What the guest offers of `list`: all but what Conduit does not carry.
  std::vector<std::string> offered(const std::vector<std::string>& list) {
    const wire::GlApi api = this->desktop_ ? wire::GlApi::kGl : wire::GlApi::kGles;
    std::vector<std::string> out;
    for (const auto& e : list) {
      if (!wire::gl_extension_blocked(e.c_str(), api)) out.push_back(e);
    }
    return out;
  }

  // Every answer equals the driver's: the named strings byte for byte, the
  // extensions as the driver lists them less those hidden, GL_NUM_EXTENSIONS
  // their count, and the index past them GL_INVALID_VALUE.
  void answers_equal_the_drivers() {
    ASSERT_EQ(error(), kNoError);
    for (GLenum name : kNamed) {
      const char* text = string(name);
      ASSERT_NE(text, nullptr) << std::hex << name;
      EXPECT_EQ(text, host_string([&](wire::Writer& w) { wire::encode_glGetString(w, name); })) << std::hex << name;
    }
    const std::vector<std::string> expected = offered(host_extensions());
    ASSERT_GT(expected.size(), 10u);
    const GLint n = num_extensions();
    ASSERT_EQ(n, static_cast<GLint>(expected.size()));
    for (GLint i = 0; i < n; ++i) {
      const char* e = stringi(static_cast<GLuint>(i));
      ASSERT_NE(e, nullptr) << i;
      EXPECT_EQ(e, expected[i]) << i;
    }
    EXPECT_EQ(error(), kNoError);
    EXPECT_EQ(stringi(static_cast<GLuint>(n)), nullptr);
    EXPECT_EQ(error(), kInvalidValue);
    EXPECT_EQ(stringi(~0u), nullptr);
    EXPECT_EQ(error(), kInvalidValue);
    EXPECT_EQ(error(), kNoError);
  }

  // A second context of the same attributes answers every string query
  // without a round trip, and the same.
  void a_second_context_asks_nothing(const EGLint* attribs) {
    const std::string version = string(kVersion);
    const GLint n = num_extensions();
    const std::string last = stringi(static_cast<GLuint>(n - 1));
    EGLConfig config = nullptr;
    EGLint count = 0;
    const EGLint want[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    ASSERT_TRUE(ChooseConfig(this->dpy_, want, &config, 1, &count));
    EGLContext second = CreateContext(this->dpy_, config, EGL_NO_CONTEXT, attribs);
    ASSERT_NE(second, EGL_NO_CONTEXT);
    ASSERT_TRUE(MakeCurrent(this->dpy_, this->surface_, this->surface_, second));
    const uint64_t before = round_trips();
    EXPECT_EQ(string(kVersion), version);
    EXPECT_EQ(num_extensions(), n);
    EXPECT_EQ(stringi(static_cast<GLuint>(n - 1)), last);
    for (GLenum name : kNamed) EXPECT_NE(string(name), nullptr);
    EXPECT_EQ(round_trips(), before);
    ASSERT_TRUE(MakeCurrent(this->dpy_, this->surface_, this->surface_, this->context_));
    DestroyContext(this->dpy_, second);
  }
};

class Gles2Base : public GlState {
 protected:
  void SetUp() override {
    gles_major_ = 2;
    GlState::SetUp();
  }
};
using Gles2Strings = ContextStrings<Gles2Base>;
using Gles3Strings = ContextStrings<GlState>;
using CoreStrings = ContextStrings<Core4GlState>;

TEST_F(Gles2Strings, AnswersEqualTheDrivers) {
  answers_equal_the_drivers();
  // One string of every extension, the driver's own where none is hidden.
  const char* flat = string(kExtensions);
  ASSERT_NE(flat, nullptr);
  std::string joined;
  for (GLint i = 0; i < num_extensions(); ++i) joined += std::string(stringi(static_cast<GLuint>(i))) + " ";
  const std::string host_flat = host_string([](wire::Writer& w) { wire::encode_glGetString(w, kExtensions); });
  EXPECT_TRUE(flat == joined || flat == host_flat) << flat;
  EXPECT_EQ(error(), kNoError);
}

TEST_F(Gles2Strings, ASecondContextAsksNothing) {
  const EGLint attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  a_second_context_asks_nothing(attribs);
}

TEST_F(Gles3Strings, AnswersEqualTheDrivers) { answers_equal_the_drivers(); }

TEST_F(CoreStrings, AnswersEqualTheDrivers) {
  answers_equal_the_drivers();
  // A core profile has no single extension string.
  EXPECT_EQ(string(kExtensions), nullptr);
  EXPECT_EQ(error(), kInvalidEnum);
  EXPECT_EQ(host_error(), kNoError);
}

TEST_F(CoreStrings, ASecondContextAsksNothing) {
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                            EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  a_second_context_asks_nothing(attribs);
}

// The strings of a context of new attributes (a debug context) come in one
// round trip, and an error the program has not read yet is still there
// after the host gathered them (its queries leave GL's error state alone).
TEST_F(Gles3Strings, NewAttributesFetchOnceAndKeepAWaitingError) {
  EGLConfig config = nullptr;
  EGLint count = 0;
  const EGLint want[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
  ASSERT_TRUE(ChooseConfig(dpy_, want, &config, 1, &count));
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE, EGL_NONE};
  EGLContext debug = CreateContext(dpy_, config, EGL_NO_CONTEXT, attribs);
  ASSERT_NE(debug, EGL_NO_CONTEXT);
  ASSERT_TRUE(MakeCurrent(dpy_, surface_, surface_, debug));
  gl<void (*)(GLenum)>("glEnable")(0x7777);  // GL_INVALID_ENUM, on the host
  const uint64_t before = round_trips();
  EXPECT_NE(string(kVendor), nullptr);
  const GLint n = num_extensions();
  for (GLint i = 0; i < n; ++i) EXPECT_NE(stringi(static_cast<GLuint>(i)), nullptr);
  EXPECT_EQ(round_trips(), before + 1);
  EXPECT_EQ(error(), kInvalidEnum);
  EXPECT_EQ(error(), kNoError);
  answers_equal_the_drivers();
  ASSERT_TRUE(MakeCurrent(dpy_, surface_, surface_, context_));
  DestroyContext(dpy_, debug);
}

}  // namespace
}  // namespace icd::egl
