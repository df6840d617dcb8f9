#include "scene.h"

#include <cerrno>
#include <cstdlib>

#include "check.h"

namespace vkbench {

uint32_t SceneOptions::count(const char* name, uint32_t max) const {
  const std::string& text = values_.at(name);
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end || errno || text[0] == '-' || value < 1 || value > max) {
    fail("scene %s: %s=%s is not a whole number from 1 to %u", scene_.c_str(), name, text.c_str(),
         max);
  }
  return uint32_t(value);
}

const std::vector<SceneInfo>& scene_table() {
  static const std::vector<SceneInfo> table = {
      {"draws", {{"draws", "1000"}}, make_draws_scene},
      {"texture", {{"size", "512"}}, make_texture_scene},
      {"compute", {{"elements", "1048576"}}, make_compute_scene},
      {"rtt", {{"passes", "4"}}, make_rtt_scene},
  };
  return table;
}

const SceneInfo* find_scene(const std::string& name) {
  for (const SceneInfo& info : scene_table()) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

}  // namespace vkbench
