#include "gl/program_binaries.h"

#include <epoxy/gl.h>

#include <algorithm>

#include "program_cache_channel.h"

namespace host {
namespace {

using shaders_cache::ActiveVariable;
using shaders_cache::ProgramEntry;
using shaders_cache::Reflection;
using shaders_cache::ShaderEntry;

constexpr auto kRelaxed = std::memory_order_relaxed;

std::string gl_string(GLenum name) {
  const auto* s = reinterpret_cast<const char*>(glGetString(name));
  return s ? s : "";
}

GLint program_int(GLuint program, GLenum pname) {
  GLint v = 0;
  glGetProgramiv(program, pname, &v);
  return v;
}

GLint shader_int(GLuint shader, GLenum pname) {
  GLint v = 0;
  glGetShaderiv(shader, pname, &v);
  return v;
}

std::string shader_source(GLuint shader) {
  std::string text(static_cast<size_t>(std::max(shader_int(shader, GL_SHADER_SOURCE_LENGTH), 1)), '\0');
  GLsizei written = 0;
  glGetShaderSource(shader, static_cast<GLsizei>(text.size()), &written, text.data());
  text.resize(static_cast<size_t>(std::max(written, 0)));
  return text;
}

std::string shader_info_log(GLuint shader) {
  std::string text(static_cast<size_t>(std::max(shader_int(shader, GL_INFO_LOG_LENGTH), 1)), '\0');
  GLsizei written = 0;
  glGetShaderInfoLog(shader, static_cast<GLsizei>(text.size()), &written, text.data());
  text.resize(static_cast<size_t>(std::max(written, 0)));
  return text;
}

// Active attributes or uniforms: `get` is glGetActiveAttrib or
// glGetActiveUniform, `locate` the matching location query.
template <typename Get, typename Locate>
std::vector<ActiveVariable> active(GLuint program, GLenum count_pname, GLenum length_pname, Get get, Locate locate) {
  const GLint count = program_int(program, count_pname);
  std::vector<char> name(static_cast<size_t>(std::max(program_int(program, length_pname), 1)));
  std::vector<ActiveVariable> out;
  for (GLint i = 0; i < count; ++i) {
    GLsizei written = 0;
    GLint size = 0;
    GLenum type = 0;
    get(program, static_cast<GLuint>(i), static_cast<GLsizei>(name.size()), &written, &size, &type, name.data());
    ActiveVariable v;
    v.name.assign(name.data(), static_cast<size_t>(std::max(written, 0)));
    v.type = type;
    v.size = static_cast<uint32_t>(size);
    v.location = locate(program, v.name.c_str());
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<ActiveVariable> uniform_blocks(GLuint program) {
  const GLint count = program_int(program, GL_ACTIVE_UNIFORM_BLOCKS);
  std::vector<char> name(static_cast<size_t>(std::max(program_int(program, GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH), 1)));
  std::vector<ActiveVariable> out;
  for (GLint i = 0; i < count; ++i) {
    GLsizei written = 0;
    glGetActiveUniformBlockName(program, static_cast<GLuint>(i), static_cast<GLsizei>(name.size()), &written, name.data());
    GLint size = 0, binding = 0;
    glGetActiveUniformBlockiv(program, static_cast<GLuint>(i), GL_UNIFORM_BLOCK_DATA_SIZE, &size);
    glGetActiveUniformBlockiv(program, static_cast<GLuint>(i), GL_UNIFORM_BLOCK_BINDING, &binding);
    out.push_back({std::string(name.data(), static_cast<size_t>(std::max(written, 0))), 0,
                   static_cast<uint32_t>(size), binding});
  }
  return out;
}

// Uniform blocks exist from OpenGL 3.1 and OpenGL ES 3.0.
bool has_uniform_blocks(bool gles) { return epoxy_gl_version() >= (gles ? 30 : 31); }

bool accepts_format(GLenum format) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &count);
  if (count <= 0) return false;
  std::vector<GLint> formats(static_cast<size_t>(count));
  glGetIntegerv(GL_PROGRAM_BINARY_FORMATS, formats.data());
  return std::find(formats.begin(), formats.end(), static_cast<GLint>(format)) != formats.end();
}

bool binaries_supported() {
  if (epoxy_gl_version() < 41 && !epoxy_has_gl_extension("GL_ARB_get_program_binary") &&
      !epoxy_has_gl_extension("GL_OES_get_program_binary"))
    return false;
  GLint count = 0;
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &count);
  return count > 0;
}

// Guests' programs are desktop or ES, linked by a context of either: the
// program key takes the context's API from here.
bool current_is_gles() { return !epoxy_is_desktop_gl(); }

}  // namespace

shaders_cache::Reflection reflect_program(GLuint program, bool with_blocks) {
  Reflection r;
  r.attributes = active(program, GL_ACTIVE_ATTRIBUTES, GL_ACTIVE_ATTRIBUTE_MAX_LENGTH, glGetActiveAttrib,
                        glGetAttribLocation);
  r.uniforms = active(program, GL_ACTIVE_UNIFORMS, GL_ACTIVE_UNIFORM_MAX_LENGTH, glGetActiveUniform,
                      glGetUniformLocation);
  if (with_blocks) r.blocks = uniform_blocks(program);
  return r;
}

std::string program_info_log(GLuint program) {
  std::string text(static_cast<size_t>(std::max(program_int(program, GL_INFO_LOG_LENGTH), 1)), '\0');
  GLsizei written = 0;
  glGetProgramInfoLog(program, static_cast<GLsizei>(text.size()), &written, text.data());
  text.resize(static_cast<size_t>(std::max(written, 0)));
  return text;
}

bool reflects_blocks() { return has_uniform_blocks(current_is_gles()); }

shaders_cache::HostIdentity current_host_identity(bool gles) {
  return {gl_string(GL_VENDOR), gl_string(GL_RENDERER), gl_string(GL_VERSION),
          gl_string(GL_SHADING_LANGUAGE_VERSION), gles};
}

void ProgramBinaries::created_shader(const ShareGroup* group, GLuint shader) { shaders_.erase({group, shader}); }

void ProgramBinaries::created_program(const ShareGroup* group, GLuint program) { programs_.erase({group, program}); }

void ProgramBinaries::before_source(const ShareGroup* group, GLuint shader) {
  auto it = shaders_.find({group, shader});
  if (it != shaders_.end()) run_deferred(it->second, shader);
}

void ProgramBinaries::run_deferred(Shader& s, GLuint shader) {
  if (!s.deferred) return;
  s.deferred.reset();
  glCompileShader(shader);
  counters_.shader_compiles.fetch_add(1, kRelaxed);
}

void ProgramBinaries::compile_now(Shader& s, GLuint shader, const std::string& key) {
  glCompileShader(shader);
  counters_.shader_compiles.fetch_add(1, kRelaxed);
  if (!client_ || key.empty()) return;
  const ShaderEntry entry{shader_int(shader, GL_COMPILE_STATUS) == GL_TRUE, shader_info_log(shader)};
  client_->put(key, shaders_cache::encode(entry));
}

void ProgramBinaries::compile(const ShareGroup* group, GLuint shader, bool gles) {
  if (!glIsShader(shader)) {
    glCompileShader(shader);  // GL raises the guest's error
    return;
  }
  Shader& s = shaders_[{group, shader}];
  s.deferred.reset();
  s.compiled = {static_cast<uint32_t>(shader_int(shader, GL_SHADER_TYPE)), shader_source(shader)};
  s.known = true;
  const std::string key = client_ ? shaders_cache::shader_key(current_host_identity(gles), s.compiled) : "";
  if (client_) {
    auto bytes = client_->get(key);
    auto entry = bytes ? shaders_cache::decode_shader(*bytes) : std::nullopt;
    if (entry && entry->compiled) {
      s.deferred = std::move(entry);
      counters_.shader_cache_hits.fetch_add(1, kRelaxed);
      return;
    }
  }
  compile_now(s, shader, key);
}

std::optional<GLint> ProgramBinaries::shader_parameter(const ShareGroup* group, GLuint shader, GLenum pname) const {
  auto it = shaders_.find({group, shader});
  if (it == shaders_.end() || !it->second.deferred) return std::nullopt;
  const std::string& log = it->second.deferred->info_log;
  switch (pname) {
    case GL_COMPILE_STATUS: return GL_TRUE;
    case GL_COMPLETION_STATUS_ARB: return GL_TRUE;
    case GL_INFO_LOG_LENGTH: return log.empty() ? 0 : static_cast<GLint>(log.size() + 1);
    default: return std::nullopt;
  }
}

std::optional<std::string> ProgramBinaries::shader_log(const ShareGroup* group, GLuint shader) const {
  auto it = shaders_.find({group, shader});
  if (it == shaders_.end() || !it->second.deferred) return std::nullopt;
  return it->second.deferred->info_log;
}

void ProgramBinaries::bind_attribute(const ShareGroup* group, GLuint program, const std::string& name, GLuint index) {
  programs_[{group, program}].attributes[name] = index;
}

void ProgramBinaries::bind_frag_data(const ShareGroup* group, GLuint program, const std::string& name, GLuint color,
                                     GLuint index) {
  programs_[{group, program}].frag_data[name] = {color, index};
}

void ProgramBinaries::feedback_varyings(const ShareGroup* group, GLuint program, std::vector<std::string> names,
                                        GLenum mode) {
  Program& p = programs_[{group, program}];
  p.varyings = std::move(names);
  p.varying_mode = mode;
}

void ProgramBinaries::parameter(const ShareGroup* group, GLuint program, GLenum pname, GLint value) {
  if (pname == GL_PROGRAM_SEPARABLE) programs_[{group, program}].separable = value != GL_FALSE;
}

std::optional<shaders_cache::ProgramInputs> ProgramBinaries::inputs(const ShareGroup* group, GLuint program) {
  shaders_cache::ProgramInputs in;
  const GLint attached = program_int(program, GL_ATTACHED_SHADERS);
  std::vector<GLuint> names(static_cast<size_t>(std::max(attached, 0)));
  GLsizei count = 0;
  glGetAttachedShaders(program, static_cast<GLsizei>(names.size()), &count, names.data());
  if (count <= 0) return std::nullopt;
  for (GLsizei i = 0; i < count; ++i) {
    auto it = shaders_.find({group, names[i]});
    if (it == shaders_.end() || !it->second.known) return std::nullopt;
    in.shaders.push_back(it->second.compiled);
  }
  if (auto it = programs_.find({group, program}); it != programs_.end()) {
    in.attribute_bindings = it->second.attributes;
    in.frag_data_bindings = it->second.frag_data;
    in.feedback_varyings = it->second.varyings;
    in.feedback_mode = it->second.varying_mode;
    in.separable = it->second.separable;
  }
  return in;
}

// Whether the driver took the binary and made of it the program that was stored.
bool ProgramBinaries::load(GLuint program, const ProgramEntry& entry) {
  if (!accepts_format(entry.binary_format)) return false;
  glProgramBinary(program, entry.binary_format, entry.binary.data(), static_cast<GLsizei>(entry.binary.size()));
  if (program_int(program, GL_LINK_STATUS) != GL_TRUE) return false;
  return reflect_program(program, reflects_blocks()) == entry.reflection;
}

void ProgramBinaries::link_now(const ShareGroup* group, GLuint program) {
  const GLint attached = program_int(program, GL_ATTACHED_SHADERS);
  std::vector<GLuint> names(static_cast<size_t>(std::max(attached, 0)));
  GLsizei count = 0;
  if (!names.empty()) glGetAttachedShaders(program, static_cast<GLsizei>(names.size()), &count, names.data());
  for (GLsizei i = 0; i < count; ++i) {
    auto it = shaders_.find({group, names[i]});
    if (it != shaders_.end()) run_deferred(it->second, names[i]);
  }
  glLinkProgram(program);
  counters_.program_compiles.fetch_add(1, kRelaxed);
}

std::optional<Reflection> ProgramBinaries::store(GLuint program, const std::string& key) {
  if (program_int(program, GL_LINK_STATUS) != GL_TRUE) return std::nullopt;
  const GLint length = program_int(program, GL_PROGRAM_BINARY_LENGTH);
  if (length <= 0) return std::nullopt;
  ProgramEntry entry;
  entry.binary.resize(static_cast<size_t>(length));
  GLsizei written = 0;
  GLenum format = 0;
  glGetProgramBinary(program, length, &written, &format, entry.binary.data());
  if (written <= 0) return std::nullopt;
  entry.binary.resize(static_cast<size_t>(written));
  entry.binary_format = format;
  entry.info_log = program_info_log(program);
  entry.reflection = reflect_program(program, reflects_blocks());
  client_->put(key, shaders_cache::encode(entry));
  return std::move(entry.reflection);
}

std::optional<Reflection> ProgramBinaries::link(const ShareGroup* group, GLuint program, bool gles) {
  if (!glIsProgram(program)) {
    glLinkProgram(program);  // GL raises the guest's error
    return std::nullopt;
  }
  counters_.programs_linked.fetch_add(1, kRelaxed);
  auto in = client_ && binaries_supported() ? inputs(group, program) : std::nullopt;
  if (!in) {
    link_now(group, program);
    return std::nullopt;
  }
  const std::string key = shaders_cache::program_key(current_host_identity(gles), *in);
  auto bytes = client_->get(key);
  auto entry = bytes ? shaders_cache::decode_program(*bytes) : std::nullopt;
  if (entry && load(program, *entry)) {
    counters_.program_cache_hits.fetch_add(1, kRelaxed);
    return std::move(entry->reflection);
  }
  link_now(group, program);
  return store(program, key);
}

}  // namespace host
