// The commands the program cache (program_binaries.h) follows or answers:
// each runs as the generated dispatch would, through the session's
// ProgramBinaries when it has one.
//
// Replies, as generated: glGetShaderiv Data params; glGetShaderInfoLog
// Data length, Data what was written of the log (with its NUL). Every
// link is followed by what it left in the program (program_reflection.h).
#include <epoxy/gl.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "gl/dispatch_support.h"
#include "gl/gl_host_handlers.h"
#include "gl/program_binaries.h"
#include "gl/program_reflection.h"

namespace host {
namespace {

wire::Status program_of(DispatchEnv& env, GLuint guest, GLuint* program) {
  return env.state.impl().translate(ObjectType::kProgram, guest, NameUse::kExisting, program);
}

wire::Status shader_of(DispatchEnv& env, GLuint guest, GLuint* shader) {
  return env.state.impl().translate(ObjectType::kShader, guest, NameUse::kExisting, shader);
}

const ShareGroup* group_of(DispatchEnv& env) { return env.state.impl().share.get(); }

// A deferred shader's log, written as glGetShaderInfoLog writes it into
// `bufSize` bytes.
void reply_log(DispatchEnv& env, const std::string& log, GLsizei buf_size) {
  const size_t room = static_cast<size_t>(std::max(buf_size, 0));
  const size_t copied = room == 0 ? 0 : std::min(log.size(), room - 1);
  const int32_t length = static_cast<int32_t>(copied);
  env.reply.put_data(&length, sizeof length);
  std::string written = log.substr(0, copied);
  env.reply.put_data(written.c_str(), room == 0 ? 0 : copied + 1);
}

}  // namespace

wire::Status handle_glCompileShader(DispatchEnv& env, wire::Args_glCompileShader& a) {
  GLuint shader = 0;
  WIRE_TRY(shader_of(env, a.shader, &shader));
  if (!env.programs) {
    glCompileShader(shader);
    return {};
  }
  env.programs->compile(group_of(env), shader, env.state.impl().gles);
  return {};
}

wire::Status handle_glLinkProgram(DispatchEnv& env, wire::Args_glLinkProgram& a) {
  GLuint program = 0;
  WIRE_TRY(program_of(env, a.program, &program));
  if (!env.programs) {
    glLinkProgram(program);
    tell_linked(env, a.program, program);
    return {};
  }
  const auto found = env.programs->link(group_of(env), program, env.state.impl().gles);
  tell_linked(env, a.program, program, found ? &*found : nullptr);
  return {};
}

// As generated, and then the guest is told what the binary left.
wire::Status handle_glProgramBinary(DispatchEnv& env, wire::Args_glProgramBinary& a) {
  GLuint program = 0;
  WIRE_TRY(program_of(env, a.program, &program));
  auto binary = input_array(env, a.binary, wire::size::nonnegative(static_cast<int64_t>(a.length)), 1, 0, false);
  if (!binary) return binary.error();
  glProgramBinary(program, a.binaryFormat, *binary, a.length);
  tell_linked(env, a.program, program);
  return {};
}

wire::Status handle_glGetShaderiv(DispatchEnv& env, wire::Args_glGetShaderiv& a) {
  auto& st = env.state.impl();
  GLuint shader = 0;
  WIRE_TRY(shader_of(env, a.shader, &shader));
  auto params = output_array(env, wire::size::pname_values(a.pname), 4, wire::size::kMaxEnumValues);
  if (!params) return params.error();
  if (params->refused) return refused_reply(env, 1);
  if (env.programs) {
    if (auto value = env.programs->shader_parameter(group_of(env), shader, a.pname)) {
      std::memcpy(params->data, &*value, sizeof(GLint));
      env.reply.put_data(params->data, params->bytes);
      return {};
    }
  }
  const bool answered = answered_by_gl(st, [&] { glGetShaderiv(shader, a.pname, static_cast<GLint*>(params->data)); });
  env.reply.put_data(params->data, answered ? params->bytes : 0);
  return {};
}

wire::Status handle_glGetShaderInfoLog(DispatchEnv& env, wire::Args_glGetShaderInfoLog& a) {
  auto& st = env.state.impl();
  GLuint shader = 0;
  WIRE_TRY(shader_of(env, a.shader, &shader));
  auto length = output_array(env, 1, 4, 0);
  if (!length) return length.error();
  if (length->refused) return refused_reply(env, 2);
  auto log = output_array(env, wire::size::nonnegative(static_cast<int64_t>(a.bufSize)), 1, 0);
  if (!log) return log.error();
  if (log->refused) return refused_reply(env, 2);
  if (env.programs && a.bufSize >= 0) {
    if (auto kept = env.programs->shader_log(group_of(env), shader)) {
      reply_log(env, *kept, a.bufSize);
      return {};
    }
  }
  const bool answered = answered_by_gl(st, [&] {
    glGetShaderInfoLog(shader, a.bufSize, static_cast<GLsizei*>(length->data), static_cast<GLchar*>(log->data));
  });
  env.reply.put_data(length->data, answered ? length->bytes : 0);
  env.reply.put_data(log->data, answered ? written_string_bytes(log->data, log->bytes) : 0);
  return {};
}

wire::Status handle_glBindAttribLocation(DispatchEnv& env, wire::Args_glBindAttribLocation& a) {
  GLuint program = 0;
  WIRE_TRY(program_of(env, a.program, &program));
  auto name = input_string(a.name);
  if (!name) return name.error();
  glBindAttribLocation(program, a.index, *name);
  if (env.programs) env.programs->bind_attribute(group_of(env), program, *name, a.index);
  return {};
}

wire::Status handle_glBindFragDataLocation(DispatchEnv& env, wire::Args_glBindFragDataLocation& a) {
  GLuint program = 0;
  WIRE_TRY(program_of(env, a.program, &program));
  auto name = input_string(a.name);
  if (!name) return name.error();
  glBindFragDataLocation(program, a.color, *name);
  if (env.programs) env.programs->bind_frag_data(group_of(env), program, *name, a.color, 0);
  return {};
}

wire::Status handle_glBindFragDataLocationIndexed(DispatchEnv& env, wire::Args_glBindFragDataLocationIndexed& a) {
  GLuint program = 0;
  WIRE_TRY(program_of(env, a.program, &program));
  auto name = input_string(a.name);
  if (!name) return name.error();
  glBindFragDataLocationIndexed(program, a.colorNumber, a.index, *name);
  if (env.programs) env.programs->bind_frag_data(group_of(env), program, *name, a.colorNumber, a.index);
  return {};
}

wire::Status handle_glProgramParameteri(DispatchEnv& env, wire::Args_glProgramParameteri& a) {
  GLuint program = 0;
  WIRE_TRY(program_of(env, a.program, &program));
  glProgramParameteri(program, a.pname, a.value);
  if (env.programs) env.programs->parameter(group_of(env), program, a.pname, a.value);
  return {};
}

}  // namespace host
