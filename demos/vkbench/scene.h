// A scene draws one frame per call into the canvas; the table lists every
// scene with its options and their defaults.
#pragma once

#include <vulkan/vulkan.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "canvas.h"
#include "context.h"

namespace vkbench {

class Scene {
 public:
  virtual ~Scene() = default;
  // Records frame number `frame` into `cmd`. `slot` (0 or 1) picks the
  // per-frame resources the CPU writes: the device may still read the
  // other slot's.
  virtual void record(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) = 0;
};

// A scene's option values: those given on the command line over the defaults.
class SceneOptions {
 public:
  SceneOptions(std::string scene, std::map<std::string, std::string> values)
      : scene_(std::move(scene)), values_(std::move(values)) {}
  // The option as a whole number in [1, max]; exits naming it otherwise.
  uint32_t count(const char* name, uint32_t max) const;

 private:
  std::string scene_;
  std::map<std::string, std::string> values_;
};

using SceneFactory = std::unique_ptr<Scene> (*)(const Context&, const Canvas&, const SceneOptions&);

struct SceneInfo {
  const char* name;
  std::vector<std::pair<const char*, const char*>> defaults;  // option, value
  SceneFactory make;
};

// Every scene, in the order a run without -b runs them.
const std::vector<SceneInfo>& scene_table();
const SceneInfo* find_scene(const std::string& name);

std::unique_ptr<Scene> make_draws_scene(const Context& context, const Canvas& canvas,
                                        const SceneOptions& options);
std::unique_ptr<Scene> make_texture_scene(const Context& context, const Canvas& canvas,
                                          const SceneOptions& options);
std::unique_ptr<Scene> make_compute_scene(const Context& context, const Canvas& canvas,
                                          const SceneOptions& options);
std::unique_ptr<Scene> make_rtt_scene(const Context& context, const Canvas& canvas,
                                      const SceneOptions& options);

}  // namespace vkbench
