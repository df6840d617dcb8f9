// Shaders and programs: names the guest chose, arrays of source strings.
//
// Wire layouts: wire-protocol/annotations.toml [layouts]. Sources travel
// without terminators, the other strings with. Replies:
//   glGetUniformIndices   Data indices
//   glGetAttachedShaders  i32 count, Data guest names
#include <epoxy/gl.h>

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "gl/dispatch_support.h"
#include "gl/gl_host_handlers.h"

namespace host {
namespace {

constexpr size_t kMaxStrings = 4096;

struct Strings {
  std::vector<const GLchar*> pointers;
  std::vector<GLint> lengths;
};

// The strings of a list of Data; with `nul`, each must be NUL-terminated.
wire::Status strings_of(const std::vector<wire::Data>& list, bool nul, Strings& out) {
  if (list.size() > kMaxStrings) {
    return wire::make_error(wire::Errc::kBadValue, "string count " + std::to_string(list.size()));
  }
  for (const wire::Data& d : list) {
    if (d.kind == wire::DataKind::kBufferOffset) {
      return wire::make_error(wire::Errc::kBadValue, "string as a buffer offset");
    }
    if (nul) {
      auto s = input_string(d);
      if (!s || *s == nullptr) return wire::make_error(wire::Errc::kBadValue, "bad string");
      out.pointers.push_back(*s);
    } else {
      out.pointers.push_back(reinterpret_cast<const GLchar*>(d.bytes.data()));
    }
    out.lengths.push_back(static_cast<GLint>(d.bytes.size()));
  }
  return {};
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The sources joined, with every `mediump` qualifier made `highp`, padded to
// the same length: programs compare GL_SHADER_SOURCE_LENGTH with their own.
std::string promote_precision(const Strings& s) {
  std::string out;
  for (size_t i = 0; i < s.pointers.size(); ++i) out.append(s.pointers[i], s.lengths[i]);
  constexpr std::string_view kWord = "mediump";
  for (size_t at = out.find(kWord); at != std::string::npos; at = out.find(kWord, at + 1)) {
    const size_t end = at + kWord.size();
    if ((at > 0 && word_char(out[at - 1])) || (end < out.size() && word_char(out[end]))) continue;
    out.replace(at, kWord.size(), "highp  ");
  }
  return out;
}

wire::Status adopt_one(GlContextState::Impl& st, ObjectType t, GLuint guest, GLuint created) {
  if (created == 0) return {};  // GL failed (bad type): the guest name stays unmapped
  return st.adopt(t, &guest, &created, 1);
}

}  // namespace

wire::Status handle_glCreateShader(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glCreateShader a{};
  WIRE_TRY(wire::decode_glCreateShader(r, a));
  return adopt_one(env.state.impl(), ObjectType::kShader, a.shader, glCreateShader(a.type));
}

wire::Status handle_glCreateProgram(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glCreateProgram a{};
  WIRE_TRY(wire::decode_glCreateProgram(r, a));
  return adopt_one(env.state.impl(), ObjectType::kProgram, a.program, glCreateProgram());
}

wire::Status handle_glShaderSource(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glShaderSource a{};
  WIRE_TRY(wire::decode_glShaderSource(r, a));
  GLuint shader = 0;
  WIRE_TRY(env.state.impl().translate(ObjectType::kShader, a.shader, NameUse::kExisting, &shader));
  Strings s;
  WIRE_TRY(strings_of(a.string, false, s));
  auto& st = env.state.impl();
  if (st.gles && st.account.limits.promote_shader_precision) {
    const std::string source = promote_precision(s);
    const GLchar* text = source.c_str();
    glShaderSource(shader, 1, &text, nullptr);
    return {};
  }
  glShaderSource(shader, a.count, s.pointers.data(), s.lengths.data());
  return {};
}

namespace {

// glCreateShaderProgramv and its two EXT forms reach the driver under their
// own names (a driver may offer one without the other); all three share
// glCreateShaderProgramv's layout.
template <typename Create>
wire::Status create_shader_program(DispatchEnv& env, wire::Reader& r, Create create) {
  wire::Args_glCreateShaderProgramv a{};
  WIRE_TRY(wire::decode_glCreateShaderProgramv(r, a));
  Strings s;
  WIRE_TRY(strings_of(a.strings, true, s));
  return adopt_one(env.state.impl(), ObjectType::kProgram, a.program, create(a.type, a.count, s));
}

}  // namespace

wire::Status handle_glCreateShaderProgramv(DispatchEnv& env, wire::Reader& r) {
  return create_shader_program(env, r, [](GLenum type, int32_t count, const Strings& s) {
    return glCreateShaderProgramv(type, count, s.pointers.data());
  });
}

wire::Status handle_glCreateShaderProgramvEXT(DispatchEnv& env, wire::Reader& r) {
  return create_shader_program(env, r, [](GLenum type, int32_t count, const Strings& s) {
    return glCreateShaderProgramvEXT(type, count, const_cast<const GLchar**>(s.pointers.data()));
  });
}

// The desktop EXT form takes one string: the guest sends a count of 1.
wire::Status handle_glCreateShaderProgramEXT(DispatchEnv& env, wire::Reader& r) {
  return create_shader_program(env, r, [](GLenum type, int32_t count, const Strings& s) {
    return count == 1 ? glCreateShaderProgramEXT(type, s.pointers[0]) : 0;
  });
}

wire::Status handle_glTransformFeedbackVaryings(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glTransformFeedbackVaryings a{};
  WIRE_TRY(wire::decode_glTransformFeedbackVaryings(r, a));
  Strings s;
  WIRE_TRY(strings_of(a.varyings, true, s));
  GLuint program = 0;
  WIRE_TRY(env.state.impl().translate(ObjectType::kProgram, a.program, NameUse::kExisting, &program));
  glTransformFeedbackVaryings(program, a.count, s.pointers.data(), a.bufferMode);
  return {};
}

wire::Status handle_glGetUniformIndices(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetUniformIndices a{};
  WIRE_TRY(wire::decode_glGetUniformIndices(r, a));
  Strings s;
  WIRE_TRY(strings_of(a.names, true, s));
  GLuint program = 0;
  WIRE_TRY(env.state.impl().translate(ObjectType::kProgram, a.program, NameUse::kExisting, &program));
  std::vector<GLuint> indices(a.names.size());
  glGetUniformIndices(program, a.count, s.pointers.data(), indices.data());
  env.reply.put_data(indices.data(), indices.size() * sizeof(GLuint));
  return {};
}

wire::Status handle_glGetAttachedShaders(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetAttachedShaders a{};
  WIRE_TRY(wire::decode_glGetAttachedShaders(r, a));
  auto& st = env.state.impl();
  GLuint program = 0;
  WIRE_TRY(st.translate(ObjectType::kProgram, a.program, NameUse::kExisting, &program));
  GLuint host_names[64] = {};
  GLsizei count = 0;
  glGetAttachedShaders(program, 64, &count, host_names);
  count = std::min<GLsizei>(count, std::max<int32_t>(a.maxCount, 0));
  std::vector<GLuint> names;
  for (GLsizei i = 0; i < count; ++i) {
    names.push_back(st.names(ObjectType::kShader).reverse(host_names[i]));
  }
  env.reply.put(static_cast<int32_t>(names.size()));
  env.reply.put_data(names.data(), names.size() * sizeof(GLuint));
  return {};
}

}  // namespace host
