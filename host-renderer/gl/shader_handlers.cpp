// Shaders and programs: names the guest chose, arrays of source strings.
//
// Wire layouts and replies: wire-protocol/annotations.toml [layouts] and
// [replies]. Sources, include paths and named strings travel without
// terminators, the other strings with.
#include <epoxy/gl.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <string>
#include <string_view>
#include <vector>

#include "gl/dispatch_support.h"
#include "gl/gl_host_handlers.h"
#include "gl/program_binaries.h"
#include "gl/program_reflection.h"
#include "wire/gl_replies.h"

namespace host {
namespace {

constexpr size_t kMaxStrings = 4096;

struct Strings {
  std::vector<const GLchar*> pointers;
  std::vector<GLint> lengths;

  // Never null: GL refuses a null list even of no strings.
  const GLchar* const* list() const {
    static const GLchar* const kNone[1] = {""};
    return pointers.empty() ? kNone : pointers.data();
  }
};

// A name or string without its terminator, as GL takes it with a length.
struct Counted {
  const GLchar* text = nullptr;
  GLint length = 0;
};

wire::Result<Counted> counted(const wire::Data& d) {
  if (d.kind == wire::DataKind::kBufferOffset) return wire::make_error(wire::Errc::kBadValue, "string as a buffer offset");
  return Counted{static_cast<const GLchar*>(d.ptr()), static_cast<GLint>(d.bytes.size())};
}

// The strings of a list of Data; with `nul`, each must be NUL-terminated.
wire::Status strings_of(const std::vector<wire::Data>& list, bool nul, Strings& out) {
  if (list.size() > kMaxStrings) {
    return wire::make_error(wire::Errc::kBadValue, "string count " + std::to_string(list.size()));
  }
  for (const wire::Data& d : list) {
    auto c = counted(d);
    if (!c) return c.error();
    if (nul) {
      auto s = input_string(d);
      if (!s || *s == nullptr) return wire::make_error(wire::Errc::kBadValue, "bad string");
    }
    out.pointers.push_back(reinterpret_cast<const GLchar*>(d.bytes.data()));
    out.lengths.push_back(c->length);
  }
  return {};
}

// A command's shader as the host names it, and its strings (sources or
// include paths, without terminators).
wire::Status shader_and_strings(DispatchEnv& env, GLuint guest_shader, const std::vector<wire::Data>& list,
                                GLuint* shader, Strings& s) {
  WIRE_TRY(env.state.impl().translate(ObjectType::kShader, guest_shader, NameUse::kExisting, shader));
  return strings_of(list, false, s);
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
  const GLuint created = glCreateShader(a.type);
  if (env.programs && created) env.programs->created_shader(env.state.impl().share.get(), created);
  return adopt_one(env.state.impl(), ObjectType::kShader, a.shader, created);
}

wire::Status handle_glCreateProgram(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glCreateProgram a{};
  WIRE_TRY(wire::decode_glCreateProgram(r, a));
  const GLuint created = glCreateProgram();
  if (env.programs && created) env.programs->created_program(env.state.impl().share.get(), created);
  return adopt_one(env.state.impl(), ObjectType::kProgram, a.program, created);
}

wire::Status handle_glShaderSource(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glShaderSource a{};
  WIRE_TRY(wire::decode_glShaderSource(r, a));
  GLuint shader = 0;
  Strings s;
  WIRE_TRY(shader_and_strings(env, a.shader, a.string, &shader, s));
  auto& st = env.state.impl();
  if (env.programs) env.programs->before_source(st.share.get(), shader);
  if (st.gles && st.account.limits.promote_shader_precision) {
    const std::string source = promote_precision(s);
    const GLchar* text = source.c_str();
    glShaderSource(shader, 1, &text, nullptr);
    return {};
  }
  glShaderSource(shader, a.count, s.list(), s.lengths.data());
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
  const GLuint created = create(a.type, a.count, s);
  if (env.programs && created) env.programs->created_program(env.state.impl().share.get(), created);
  WIRE_TRY(adopt_one(env.state.impl(), ObjectType::kProgram, a.program, created));
  // The guest counts this as a link of its name even when GL made nothing.
  tell_linked(env, a.program, created);
  return {};
}

}  // namespace

wire::Status handle_glCreateShaderProgramv(DispatchEnv& env, wire::Reader& r) {
  return create_shader_program(env, r, [](GLenum type, int32_t count, const Strings& s) {
    return glCreateShaderProgramv(type, count, s.list());
  });
}

wire::Status handle_glCreateShaderProgramvEXT(DispatchEnv& env, wire::Reader& r) {
  return create_shader_program(env, r, [](GLenum type, int32_t count, const Strings& s) {
    return glCreateShaderProgramvEXT(type, count, const_cast<const GLchar**>(s.list()));
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
  glTransformFeedbackVaryings(program, a.count, s.list(), a.bufferMode);
  if (env.programs) {
    env.programs->feedback_varyings(env.state.impl().share.get(), program,
                                    std::vector<std::string>(s.pointers.begin(), s.pointers.end()), a.bufferMode);
  }
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
  const bool answered =
      answered_by_gl(env.state.impl(), [&] { glGetUniformIndices(program, a.count, s.list(), indices.data()); });
  // refused: writes nothing
  wire::encode_reply_glGetUniformIndices(env.reply, indices.data(), answered ? indices.size() * sizeof(GLuint) : 0);
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
  wire::encode_reply_glGetAttachedShaders(env.reply, static_cast<GLsizei>(names.size()), names.data(),
                                          names.size() * sizeof(GLuint));
  return {};
}

namespace {

// A named-string command's arguments, and its name as GL takes it.
template <typename Args>
wire::Result<Counted> decode_named(wire::Reader& r, wire::Status (*decode)(wire::Reader&, Args&), Args& a) {
  WIRE_TRY(decode(r, a));
  return counted(a.name);
}

// What GL_NAMED_STRING_LENGTH_ARB says (the terminator counted), or none
// (GL refused the name).
GLint named_string_length(const Counted& name) {
  GLint length = -1;
  glGetNamedStringivARB(name.length, name.text, GL_NAMED_STRING_LENGTH_ARB, &length);
  return length;
}

}  // namespace

wire::Status handle_glNamedStringARB(DispatchEnv&, wire::Reader& r) {
  wire::Args_glNamedStringARB a{};
  auto name = decode_named(r, wire::decode_glNamedStringARB, a);
  if (!name) return name.error();
  auto string = counted(a.string);
  if (!string) return string.error();
  glNamedStringARB(a.type, name->length, name->text, string->length, string->text);
  return {};
}

wire::Status handle_glDeleteNamedStringARB(DispatchEnv&, wire::Reader& r) {
  wire::Args_glDeleteNamedStringARB a{};
  auto name = decode_named(r, wire::decode_glDeleteNamedStringARB, a);
  if (!name) return name.error();
  glDeleteNamedStringARB(name->length, name->text);
  return {};
}

wire::Status handle_glIsNamedStringARB(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glIsNamedStringARB a{};
  auto name = decode_named(r, wire::decode_glIsNamedStringARB, a);
  if (!name) return name.error();
  wire::encode_reply_glIsNamedStringARB(env.reply, glIsNamedStringARB(name->length, name->text) != GL_FALSE);
  return {};
}

// The host's buffer is as large as the string GL holds, whatever bufSize
// the guest named.
wire::Status handle_glGetNamedStringARB(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetNamedStringARB a{};
  auto name = decode_named(r, wire::decode_glGetNamedStringARB, a);
  if (!name) return name.error();
  const GLint held = named_string_length(*name);
  const GLsizei room = a.bufSize < 0 ? a.bufSize : std::min<GLsizei>(a.bufSize, std::max<GLint>(held, 1));
  std::vector<GLchar> text(static_cast<size_t>(std::max<GLsizei>(room, 1)));
  GLint length = -1;
  glGetNamedStringARB(name->length, name->text, room, &length, text.data());
  const size_t wrote = length < 0 || room <= 0 ? 0 : std::min<size_t>(static_cast<size_t>(length) + 1, room);
  wire::encode_reply_glGetNamedStringARB(env.reply, length, text.data(), wrote);
  return {};
}

wire::Status handle_glGetNamedStringivARB(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glGetNamedStringivARB a{};
  auto name = decode_named(r, wire::decode_glGetNamedStringivARB, a);
  if (!name) return name.error();
  constexpr GLint kUnwritten = INT32_MIN;  // no pname answers this
  GLint value = kUnwritten;
  glGetNamedStringivARB(name->length, name->text, a.pname, &value);
  wire::encode_reply_glGetNamedStringivARB(env.reply, value != kUnwritten, value);
  return {};
}

wire::Status handle_glCompileShaderIncludeARB(DispatchEnv& env, wire::Reader& r) {
  wire::Args_glCompileShaderIncludeARB a{};
  WIRE_TRY(wire::decode_glCompileShaderIncludeARB(r, a));
  GLuint shader = 0;
  Strings s;
  WIRE_TRY(shader_and_strings(env, a.shader, a.path, &shader, s));
  glCompileShaderIncludeARB(shader, static_cast<GLsizei>(s.pointers.size()), s.list(), s.lengths.data());
  return {};
}

}  // namespace host
