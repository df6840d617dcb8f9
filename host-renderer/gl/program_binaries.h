// A session's use of the persistent program cache (shaders-cache/): GL
// programs come back from the driver's binaries instead of being compiled
// and linked again, and a shader whose compile result the cache knows is
// not compiled until something needs it.
//
// glCompileShader looks the shader up by a hash of its source (and the
// host's driver): when the cache saw it compile, the driver's compile is
// deferred and glGetShaderiv / glGetShaderInfoLog answer from the cache.
// glLinkProgram looks the program up by a hash of everything that decides
// the link (program_key.h); a hit is loaded with glProgramBinary and kept
// only when the driver accepts it and reports the same attributes,
// uniforms and blocks as when it was stored. Otherwise the deferred
// shaders are compiled and the program linked as usual, and a successful
// link is stored. The host context must be current for every call.
#pragma once

#include <epoxy/gl.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "host/stats.h"
#include "shaders_cache/program_entry.h"
#include "shaders_cache/program_key.h"

namespace host {

class ProgramCacheClient;
class ShareGroup;

class ProgramBinaries {
 public:
  // `client` null: the cache is off, and every compile and link reaches
  // the driver (still counted).
  ProgramBinaries(ProgramCacheClient* client, Counters& counters) : client_(client), counters_(counters) {}

  // A shader or program name GL has just handed out: whatever was known of
  // an earlier object of that name is forgotten.
  void created_shader(const ShareGroup* group, GLuint shader);
  void created_program(const ShareGroup* group, GLuint program);
  // glShaderSource is about to replace the source: a deferred compile of
  // the old one happens first, as GL would have done it already.
  void before_source(const ShareGroup* group, GLuint shader);
  void compile(const ShareGroup* group, GLuint shader, bool gles);
  // Links `program`; returns the interface the cache compared or stored
  // (what reflect_program() finds now), or none when it asked GL for none.
  std::optional<shaders_cache::Reflection> link(const ShareGroup* group, GLuint program, bool gles);
  // glGetShaderiv's answer for a deferred shader, or none (GL answers).
  std::optional<GLint> shader_parameter(const ShareGroup* group, GLuint shader, GLenum pname) const;
  // A deferred shader's info log, or none (GL answers).
  std::optional<std::string> shader_log(const ShareGroup* group, GLuint shader) const;

  // What decides a link besides its shaders, as the guest sets it.
  void bind_attribute(const ShareGroup* group, GLuint program, const std::string& name, GLuint index);
  void bind_frag_data(const ShareGroup* group, GLuint program, const std::string& name, GLuint color, GLuint index);
  void feedback_varyings(const ShareGroup* group, GLuint program, std::vector<std::string> names, GLenum mode);
  void parameter(const ShareGroup* group, GLuint program, GLenum pname, GLint value);

 private:
  using Key = std::pair<const ShareGroup*, GLuint>;
  struct Shader {
    shaders_cache::ShaderInput compiled;  // as last compiled (or deferred)
    bool known = false;                   // compiled through compile(): `compiled` is what GL holds
    std::optional<shaders_cache::ShaderEntry> deferred;
  };
  struct Program {
    std::map<std::string, uint32_t> attributes;
    std::map<std::string, std::pair<uint32_t, uint32_t>> frag_data;
    std::vector<std::string> varyings;
    uint32_t varying_mode = 0;
    bool separable = false;
  };

  void run_deferred(Shader& s, GLuint shader);
  void compile_now(Shader& s, GLuint shader, const std::string& key);
  // The link's inputs, or none when a shader's compiled source is unknown.
  std::optional<shaders_cache::ProgramInputs> inputs(const ShareGroup* group, GLuint program);
  bool load(GLuint program, const shaders_cache::ProgramEntry& entry);
  void link_now(const ShareGroup* group, GLuint program);
  std::optional<shaders_cache::Reflection> store(GLuint program, const std::string& key);

  ProgramCacheClient* client_;
  Counters& counters_;
  std::map<Key, Shader> shaders_;
  std::map<Key, Program> programs_;
};

// What the current context reports of its program's interface, with its
// uniform blocks where the context has them (reflects_blocks()).
shaders_cache::Reflection reflect_program(GLuint program, bool with_blocks);
bool reflects_blocks();
// The program's info log as GL holds it.
std::string program_info_log(GLuint program);
// The host's driver and the current context's API, as keys take them.
shaders_cache::HostIdentity current_host_identity(bool gles);

}  // namespace host
