// The content keys of compiled GL shaders and linked programs: a hash of
// everything that decides what the driver makes of them, so that a key
// found in the cache names a result this host would make again.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace shaders_cache {

// The host's side: its driver, and Conduit's own version (a host that
// changes how it rewrites sources or what it records starts afresh).
struct HostIdentity {
  std::string vendor, renderer, version, shading_language;
  bool gles = false;  // the guest context's API
};

struct ShaderInput {
  uint32_t type = 0;
  std::string source;  // as the driver holds it (after any host rewriting)
};

struct ProgramInputs {
  std::vector<ShaderInput> shaders;  // in the order they are attached
  std::map<std::string, uint32_t> attribute_bindings;
  // name -> (colour number, index)
  std::map<std::string, std::pair<uint32_t, uint32_t>> frag_data_bindings;
  std::vector<std::string> feedback_varyings;
  uint32_t feedback_mode = 0;
  bool separable = false;
};

std::string shader_key(const HostIdentity& host, const ShaderInput& shader);
std::string program_key(const HostIdentity& host, const ProgramInputs& program);
// What the key covers of Conduit itself.
const char* conduit_version();

}  // namespace shaders_cache
