#include "gl/program_reflection.h"

#include <string>
#include <vector>

#include "gl/program_binaries.h"

namespace host {
namespace {

// Past these, a program's interface is not sent (the guest asks instead):
// variables listed, and element locations checked.
constexpr size_t kMaxVariables = 1024;
constexpr int64_t kMaxElementChecks = 4096;

GLint program_int(GLuint program, GLenum pname) {
  GLint v = 0;
  glGetProgramiv(program, pname, &v);
  return v;
}

// Whether element k of an array named "a[0]" is at `location + k` for
// every k, as GL places explicit locations and as the guest will answer
// "a[k]" (implicit ones need not follow, so they are checked). `budget`
// bounds the queries of one program.
template <typename Locate>
bool elements_follow(GLuint program, const shaders_cache::ActiveVariable& v, Locate locate, int64_t& budget) {
  constexpr std::string_view kFirst = "[0]";
  if (v.size < 2 || v.location < 0 || !v.name.ends_with(kFirst)) return false;
  budget -= v.size;
  if (budget < 0) return false;
  const std::string base = v.name.substr(0, v.name.size() - kFirst.size());
  for (uint32_t k = 1; k < v.size; ++k) {
    const std::string element = base + "[" + std::to_string(k) + "]";
    if (locate(program, element.c_str()) != v.location + static_cast<GLint>(k)) return false;
  }
  return true;
}

template <typename Locate>
std::vector<wire::ReflectedVariable> variables(GLuint program, const std::vector<shaders_cache::ActiveVariable>& list,
                                               Locate locate, int64_t& budget) {
  std::vector<wire::ReflectedVariable> out;
  for (const auto& v : list) {
    out.push_back({v.name, v.type, static_cast<int32_t>(v.size), v.location,
                   elements_follow(program, v, locate, budget)});
  }
  return out;
}

void add_interface(wire::ProgramReflection& r, GLuint program, bool blocks,
                   const shaders_cache::Reflection* known) {
  const auto active = [&](GLenum pname) { return static_cast<size_t>(program_int(program, pname)); };
  const size_t count = active(GL_ACTIVE_ATTRIBUTES) + active(GL_ACTIVE_UNIFORMS) +
                       (blocks ? active(GL_ACTIVE_UNIFORM_BLOCKS) : 0);
  if (count > kMaxVariables) return;
  const shaders_cache::Reflection found = known ? *known : reflect_program(program, blocks);
  int64_t budget = kMaxElementChecks;
  r.attributes = variables(program, found.attributes, glGetAttribLocation, budget);
  r.uniforms = variables(program, found.uniforms, glGetUniformLocation, budget);
  for (const auto& b : found.blocks) r.blocks.push_back(b.name);
  r.interface_known = true;
}

}  // namespace

wire::ProgramReflection reflect_for_guest(GLuint program, const shaders_cache::Reflection* known) {
  wire::ProgramReflection r;
  const GLint linked = program_int(program, GL_LINK_STATUS);
  r.values = {{GL_LINK_STATUS, linked}, {GL_INFO_LOG_LENGTH, program_int(program, GL_INFO_LOG_LENGTH)}};
  std::string log = program_info_log(program);
  if (log.size() <= wire::kMaxReflectedLog) r.info_log = std::move(log);
  if (linked != GL_TRUE) return r;  // GL answers the rest with GL_INVALID_OPERATION: the guest asks
  const bool blocks = reflects_blocks();
  std::vector<GLenum> counts = {GL_ACTIVE_ATTRIBUTES, GL_ACTIVE_ATTRIBUTE_MAX_LENGTH, GL_ACTIVE_UNIFORMS,
                                GL_ACTIVE_UNIFORM_MAX_LENGTH};
  if (blocks) counts.insert(counts.end(), {GL_ACTIVE_UNIFORM_BLOCKS, GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH});
  for (GLenum pname : counts) r.values.emplace_back(pname, program_int(program, pname));
  add_interface(r, program, blocks, known);
  return r;
}

void tell_linked(DispatchEnv& env, GLuint guest_program, GLuint program, const shaders_cache::Reflection* known) {
  if (!env.tell_linked) return;
  // A name GL does not take as a program (the link raised an error) gets
  // the empty reflection: the guest counts it and asks for its answers.
  const wire::ProgramReflection r = own_queries(env.state.impl(), [&] {
    return glIsProgram(program) ? reflect_for_guest(program, known) : wire::ProgramReflection{};
  });
  (*env.tell_linked)(guest_program, wire::encode_reflection(r));
}

}  // namespace host
