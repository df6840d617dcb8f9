// Program queries the guest answers from what the host told of a link
// (kProgramReflection) give what the driver gives: each answer is compared
// with the host's answer to the same command sent as a round trip.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "gl/context_stream.h"
#include "gl_state_fixture.h"
#include "wire/gl_encode.h"

namespace icd::egl {
namespace {

constexpr GLenum kLinkStatus = 0x8B82, kInfoLogLength = 0x8B84, kActiveUniforms = 0x8B86;
constexpr GLenum kActiveUniformMaxLength = 0x8B87, kActiveAttributes = 0x8B89, kActiveAttributeMaxLength = 0x8B8A;
constexpr GLenum kActiveUniformBlocks = 0x8A36, kActiveUniformBlockMaxNameLength = 0x8A35;
constexpr GLenum kNoError = 0, kInvalidValue = 0x0501, kInvalidOperation = 0x0502;
constexpr GLenum kNumProgramBinaryFormats = 0x87FE, kProgramBinaryLength = 0x8741;

// Arrays, arrays of structures holding arrays, a uniform block, a sampler,
// unused uniforms and attributes, and an explicit output location.
const char* kVertex =
    "#version 300 es\n"
    "in vec4 pos; in vec2 uv; in vec3 unused_attr;\n"
    "uniform mat4 mvp; uniform vec4 list[4]; uniform float unused_uniform;\n"
    "struct Light { vec3 dir; float power[2]; }; uniform Light lights[2];\n"
    "layout(std140) uniform Block { vec4 tint; vec4 arr[2]; } blk;\n"
    "layout(std140) uniform Other { vec4 more; };\n"
    "out vec4 v;\n"
    "void main() {\n"
    "  v = list[0] + list[3] + vec4(lights[1].dir, lights[0].power[1]) + blk.tint + blk.arr[1] + more;\n"
    "  gl_Position = mvp * pos + vec4(uv, 0.0, 0.0);\n"
    "}\n";
const char* kFragment =
    "#version 300 es\n"
    "precision mediump float; in vec4 v; uniform sampler2D tex; uniform vec2 offsets[3];\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() { color = v + texture(tex, offsets[2]); }\n";

const char* const kUniformNames[] = {
    "mvp", "mvp[0]", "mvp[1]", "mvp.x", "list", "list[0]", "list[1]", "list[3]", "list[4]", "list[01]",
    "list[ 1]", "list[-1]", "list[1", "list[]", "list[99999999999]", "lights[0].dir", "lights[1].dir",
    "lights[1].power", "lights[1].power[0]", "lights[1].power[1]", "lights[1].power[2]", "lights[2].dir",
    "lights", "lights[0]", "unused_uniform", "nothing", "nothing[2]", "tex", "tex[0]", "offsets",
    "offsets[2]", "offsets[3]", "Block.tint", "blk.tint", "tint", "more", "Other.more", "gl_DepthRange.near", "",
};
const char* const kAttribNames[] = {"pos", "uv", "unused_attr", "nope", "pos[0]", "uv[1]", "gl_VertexID", ""};
const char* const kBlockNames[] = {"Block", "blk", "Other", "Nope", "Block[0]", "Block.tint", ""};
const GLenum kProgramPnames[] = {kLinkStatus,       kInfoLogLength,           kActiveUniforms,
                                 kActiveUniformMaxLength, kActiveAttributes, kActiveAttributeMaxLength,
                                 kActiveUniformBlocks, kActiveUniformBlockMaxNameLength};

// What a variable query writes.
struct Active {
  GLsizei length = -7;
  GLint size = -7;
  GLenum type = 7;
  std::string name = std::string(64, '#');
  bool operator==(const Active&) const = default;
};

class ProgramReflection : public GlState {
 protected:
  GLuint shader(GLenum type, const char* text) {
    GLuint s = gl<GLuint (*)(GLenum)>("glCreateShader")(type);
    gl<void (*)(GLuint, GLsizei, const GLchar* const*, const GLint*)>("glShaderSource")(s, 1, &text, nullptr);
    gl<void (*)(GLuint)>("glCompileShader")(s);
    return s;
  }
  GLuint program(const char* vs, const char* fs) {
    GLuint p = gl<GLuint (*)()>("glCreateProgram")();
    gl<void (*)(GLuint, GLuint)>("glAttachShader")(p, shader(kVertexShader, vs));
    gl<void (*)(GLuint, GLuint)>("glAttachShader")(p, shader(kFragmentShader, fs));
    link(p);
    return p;
  }
  void link(GLuint p) { gl<void (*)(GLuint)>("glLinkProgram")(p); }
  GLenum error() { return gl<GLenum (*)()>("glGetError")(); }
  uint64_t round_trips() {
    return static_cast<ContextStream*>(current_stream())->connection().stats().round_trips;
  }

  // Through the entry points: from what the host told, where the guest can.
  GLint uniform(GLuint p, const char* name) { return gl<GLint (*)(GLuint, const GLchar*)>("glGetUniformLocation")(p, name); }
  GLint attrib(GLuint p, const char* name) { return gl<GLint (*)(GLuint, const GLchar*)>("glGetAttribLocation")(p, name); }
  GLuint block(GLuint p, const char* name) { return gl<GLuint (*)(GLuint, const GLchar*)>("glGetUniformBlockIndex")(p, name); }
  GLint value(GLuint p, GLenum pname) {
    GLint v = -7;
    gl<void (*)(GLuint, GLenum, GLint*)>("glGetProgramiv")(p, pname, &v);
    return v;
  }
  Active active(const char* entry, GLuint p, GLuint index, GLsizei buf_size) {
    Active a;
    gl<void (*)(GLuint, GLuint, GLsizei, GLsizei*, GLint*, GLenum*, GLchar*)>(entry)(
        p, index, buf_size, &a.length, &a.size, &a.type, a.name.data());
    return a;
  }
  std::string log(GLuint p, GLsizei buf_size) {
    std::string text(256, '#');
    GLsizei length = -7;
    gl<void (*)(GLuint, GLsizei, GLsizei*, GLchar*)>("glGetProgramInfoLog")(p, buf_size, &length, text.data());
    return std::to_string(length) + ":" + text;
  }

  // The same commands as round trips: the driver's answers.
  template <typename T, typename Encode>
  T ask(Encode encode) {
    Stream& s = *current_stream();
    encode(s.writer());
    auto reply = s.roundtrip();
    EXPECT_TRUE(reply.ok());
    wire::Reader r(*reply, 0);
    auto v = r.get<T>();
    return v ? *v : T{};
  }
  void ask_outputs(const std::function<void(wire::Writer&)>& encode, std::vector<std::pair<void*, size_t>> outputs) {
    Stream& s = *current_stream();
    encode(s.writer());
    auto reply = s.roundtrip();
    ASSERT_TRUE(reply.ok());
    wire::Reader r(*reply, 0);
    for (auto [dst, bytes] : outputs) {
      auto d = r.get_data();
      ASSERT_TRUE(d.ok());
      std::memcpy(dst, d->bytes.data(), std::min(bytes, d->bytes.size()));
    }
  }
  GLint host_uniform(GLuint p, const char* name) {
    return ask<GLint>([&](wire::Writer& w) { wire::encode_glGetUniformLocation(w, p, name); });
  }
  GLint host_attrib(GLuint p, const char* name) {
    return ask<GLint>([&](wire::Writer& w) { wire::encode_glGetAttribLocation(w, p, name); });
  }
  GLuint host_block(GLuint p, const char* name) {
    return ask<GLuint>([&](wire::Writer& w) { wire::encode_glGetUniformBlockIndex(w, p, name); });
  }
  GLint host_value(GLuint p, GLenum pname) {
    GLint v = -7;
    ask_outputs([&](wire::Writer& w) { wire::encode_glGetProgramiv(w, p, pname); }, {{&v, 4}});
    return v;
  }
  Active host_active(bool uniforms, GLuint p, GLuint index, GLsizei buf_size) {
    Active a;
    ask_outputs(
        [&](wire::Writer& w) {
          if (uniforms) {
            wire::encode_glGetActiveUniform(w, p, index, buf_size);
          } else {
            wire::encode_glGetActiveAttrib(w, p, index, buf_size);
          }
        },
        {{&a.length, 4}, {&a.size, 4}, {&a.type, 4}, {a.name.data(), static_cast<size_t>(std::max(buf_size, 0))}});
    return a;
  }
  std::string host_log(GLuint p, GLsizei buf_size) {
    std::string text(256, '#');
    GLsizei length = -7;
    ask_outputs([&](wire::Writer& w) { wire::encode_glGetProgramInfoLog(w, p, buf_size); },
                {{&length, 4}, {text.data(), static_cast<size_t>(std::max(buf_size, 0))}});
    return std::to_string(length) + ":" + text;
  }

  // Every query above, through the guest and through the host, with the
  // error each leaves.
  void expect_answers_as_the_driver(GLuint p) {
    for (const char* name : kUniformNames) {
      const GLint guest = uniform(p, name);
      const GLenum guest_error = error();
      EXPECT_EQ(guest, host_uniform(p, name)) << "uniform " << name;
      EXPECT_EQ(guest_error, error()) << "uniform " << name;
    }
    for (const char* name : kAttribNames) EXPECT_EQ(attrib(p, name), host_attrib(p, name)) << "attribute " << name;
    for (const char* name : kBlockNames) EXPECT_EQ(block(p, name), host_block(p, name)) << "block " << name;
    for (GLenum pname : kProgramPnames) EXPECT_EQ(value(p, pname), host_value(p, pname)) << "pname " << pname;
    const GLint uniforms = host_value(p, kActiveUniforms), attributes = host_value(p, kActiveAttributes);
    for (GLsizei buf_size : {64, 4, 1}) {
      for (GLint i = 0; i <= uniforms; ++i) {
        const Active guest = active("glGetActiveUniform", p, i, buf_size);
        const GLenum guest_error = error();
        EXPECT_EQ(guest, host_active(true, p, i, buf_size)) << "uniform " << i << " in " << buf_size;
        EXPECT_EQ(guest_error, error());
      }
      for (GLint i = 0; i <= attributes; ++i) {
        const Active guest = active("glGetActiveAttrib", p, i, buf_size);
        const GLenum guest_error = error();
        EXPECT_EQ(guest, host_active(false, p, i, buf_size)) << "attribute " << i << " in " << buf_size;
        EXPECT_EQ(guest_error, error());
      }
      EXPECT_EQ(log(p, buf_size), host_log(p, buf_size));
    }
    EXPECT_EQ(error(), kNoError);
  }
};

TEST_F(ProgramReflection, AnswersEqualTheDriversForArraysStructuresBlocksAndUnknownNames) {
  const GLuint p = program(kVertex, kFragment);
  ASSERT_EQ(host_value(p, kLinkStatus), 1);
  expect_answers_as_the_driver(p);
}

TEST_F(ProgramReflection, QueriesAfterTheFirstCostNoRoundTrip) {
  const GLuint p = program(kVertex, kFragment);
  EXPECT_EQ(value(p, kLinkStatus), 1);  // the one round trip: the link's word comes ahead of its reply
  const uint64_t before = round_trips();
  for (const char* name : {"mvp", "list[3]", "lights[1].dir", "nothing", "tex", "offsets[1]"}) uniform(p, name);
  for (const char* name : {"pos", "uv", "nope"}) attrib(p, name);
  block(p, "Block");
  value(p, kActiveUniforms);
  active("glGetActiveUniform", p, 0, 64);
  log(p, 64);
  EXPECT_EQ(round_trips(), before);
}

TEST_F(ProgramReflection, ARelinkForgetsWhatTheLastLinkLeft) {
  const char* fs = "#version 300 es\nprecision mediump float; out vec4 c; void main() { c = vec4(1.0); }\n";
  GLuint vs = shader(kVertexShader, "#version 300 es\nuniform vec4 first; void main() { gl_Position = first; }\n");
  GLuint p = gl<GLuint (*)()>("glCreateProgram")();
  gl<void (*)(GLuint, GLuint)>("glAttachShader")(p, vs);
  gl<void (*)(GLuint, GLuint)>("glAttachShader")(p, shader(kFragmentShader, fs));
  link(p);
  EXPECT_GE(uniform(p, "first"), 0);
  EXPECT_EQ(uniform(p, "second"), -1);
  const char* second = "#version 300 es\nuniform vec4 second; void main() { gl_Position = second; }\n";
  gl<void (*)(GLuint, GLsizei, const GLchar* const*, const GLint*)>("glShaderSource")(vs, 1, &second, nullptr);
  gl<void (*)(GLuint)>("glCompileShader")(vs);
  link(p);
  EXPECT_EQ(uniform(p, "first"), -1);
  EXPECT_GE(uniform(p, "second"), 0);
  EXPECT_EQ(uniform(p, "second"), host_uniform(p, "second"));
}

TEST_F(ProgramReflection, AFailedLinkTellsItsStatusAndLogAndTheRestIsAsked) {
  const GLuint p = program("#version 300 es\nout vec4 a; void main() { a = vec4(0.0); gl_Position = a; }\n",
                           "#version 300 es\nprecision mediump float; in vec4 b; out vec4 c; void main() { c = b; }\n");
  EXPECT_EQ(value(p, kLinkStatus), 0);
  const uint64_t before = round_trips();
  EXPECT_EQ(value(p, kInfoLogLength), host_value(p, kInfoLogLength));
  EXPECT_GT(value(p, kInfoLogLength), 0);
  EXPECT_EQ(log(p, 256), host_log(p, 256));
  EXPECT_EQ(round_trips(), before + 2);  // the host's two answers only
  EXPECT_EQ(uniform(p, "c"), -1);
  EXPECT_EQ(error(), kInvalidOperation);  // GL's, from the host: the program has no interface
}

TEST_F(ProgramReflection, ADeletedProgramIsNoLongerAnswered) {
  const GLuint p = program(kVertex, kFragment);
  EXPECT_EQ(value(p, kLinkStatus), 1);
  gl<void (*)(GLuint)>("glDeleteProgram")(p);
  EXPECT_EQ(value(p, kLinkStatus), -7);
  EXPECT_EQ(error(), kInvalidValue);
}

TEST_F(ProgramReflection, ValidationRewritesTheLog) {
  const GLuint p = program(kVertex, kFragment);
  EXPECT_EQ(value(p, kInfoLogLength), host_value(p, kInfoLogLength));
  gl<void (*)(GLuint)>("glValidateProgram")(p);
  EXPECT_EQ(value(p, kInfoLogLength), host_value(p, kInfoLogLength));
  EXPECT_EQ(log(p, 256), host_log(p, 256));
}

TEST_F(ProgramReflection, AProgramFromABinaryIsAnsweredAsTheDriverAnswers) {
  GLint formats = 0;
  gl<void (*)(GLenum, GLint*)>("glGetIntegerv")(kNumProgramBinaryFormats, &formats);
  if (formats == 0) GTEST_SKIP() << "the host's driver offers no program binary format";
  const GLuint from = program(kVertex, kFragment);
  std::vector<uint8_t> binary(static_cast<size_t>(value(from, kProgramBinaryLength)));
  GLsizei written = 0;
  GLenum format = 0;
  gl<void (*)(GLuint, GLsizei, GLsizei*, GLenum*, void*)>("glGetProgramBinary")(
      from, static_cast<GLsizei>(binary.size()), &written, &format, binary.data());
  const GLuint p = gl<GLuint (*)()>("glCreateProgram")();
  gl<void (*)(GLuint, GLenum, const void*, GLsizei)>("glProgramBinary")(p, format, binary.data(), written);
  expect_answers_as_the_driver(p);
}

TEST_F(ProgramReflection, AShaderProgramMadeInOneCallIsAnsweredAsTheDriverAnswers) {
  const char* text = "#version 310 es\nuniform vec4 a[3]; uniform vec4 b; void main() { gl_Position = a[2] + b; }\n";
  const GLuint p = gl<GLuint (*)(GLenum, GLsizei, const GLchar* const*)>("glCreateShaderProgramv")(
      kVertexShader, 1, &text);
  ASSERT_EQ(host_value(p, kLinkStatus), 1);
  for (const char* name : {"a", "a[1]", "a[2]", "a[3]", "b", "c"}) {
    EXPECT_EQ(uniform(p, name), host_uniform(p, name)) << name;
  }
}

}  // namespace
}  // namespace icd::egl
