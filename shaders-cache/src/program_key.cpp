#include "shaders_cache/program_key.h"

#include "shaders_cache/content_hash.h"

namespace shaders_cache {
namespace {

// Bumped whenever what a key covers, or what an entry holds, changes.
constexpr uint64_t kKeyLayout = 1;

ContentHash& add_host(ContentHash& h, const HostIdentity& host) {
  return h.add(kKeyLayout)
      .add(std::string_view(conduit_version()))
      .add(host.vendor)
      .add(host.renderer)
      .add(host.version)
      .add(host.shading_language)
      .add(uint64_t{host.gles});
}

}  // namespace

const char* conduit_version() { return CONDUIT_VERSION; }

std::string shader_key(const HostIdentity& host, const ShaderInput& shader) {
  ContentHash h;
  h.add(std::string_view("gl shader"));
  return add_host(h, host).add(uint64_t{shader.type}).add(shader.source).hex();
}

std::string program_key(const HostIdentity& host, const ProgramInputs& p) {
  ContentHash h;
  h.add(std::string_view("gl program"));
  add_host(h, host);
  h.add(uint64_t{p.shaders.size()});
  for (const auto& s : p.shaders) h.add(uint64_t{s.type}).add(s.source);
  h.add(uint64_t{p.attribute_bindings.size()});
  for (const auto& [name, index] : p.attribute_bindings) h.add(name).add(uint64_t{index});
  h.add(uint64_t{p.frag_data_bindings.size()});
  for (const auto& [name, at] : p.frag_data_bindings) h.add(name).add(uint64_t{at.first}).add(uint64_t{at.second});
  h.add(uint64_t{p.feedback_varyings.size()});
  for (const auto& v : p.feedback_varyings) h.add(v);
  return h.add(uint64_t{p.feedback_mode}).add(uint64_t{p.separable}).hex();
}

}  // namespace shaders_cache
