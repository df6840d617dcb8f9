// A private shader cache for each renderer process. Drivers keep compiled
// shaders on disk (Mesa's MESA_SHADER_CACHE_DIR, NVIDIA's
// __GL_SHADER_DISK_CACHE_PATH); a cache two renderers shared would let a
// renderer taken over through its driver plant code that another guest's
// renderer runs, so each renderer gets a folder of its own, which Landlock
// lets it write and no other renderer reach, removed when it ends.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "renderer_user.h"
#include "wire/result.h"

namespace host {

// The supervisor's folder of renderers' caches: `root` itself when given
// (it must be a folder of this user that nobody else may write to), else a
// fresh one under the system's temporary folder, removed by the destructor.
// Renderers of another user (`identity`) may pass through it to their own
// folder but not list it (mode 0711).
class ShaderCacheRoot {
 public:
  static wire::Result<std::unique_ptr<ShaderCacheRoot>> create(
      const std::string& root, const std::optional<RendererIdentity>& identity);
  ~ShaderCacheRoot();
  ShaderCacheRoot(const ShaderCacheRoot&) = delete;
  ShaderCacheRoot& operator=(const ShaderCacheRoot&) = delete;

  const std::string& path() const { return path_; }
  // A new folder for one renderer, 0700, of `identity`'s user where given,
  // with an unguessable name.
  wire::Result<std::string> make_renderer_folder(
      const std::optional<RendererIdentity>& identity) const;

 private:
  ShaderCacheRoot(std::string path, bool owned) : path_(std::move(path)), owned_(owned) {}
  std::string path_;
  bool owned_;  // made here, removed here
};

// Removes a renderer's folder and everything in it without following any
// link it holds (its renderer wrote it).
void remove_cache_folder(const std::string& folder);

// The drivers' variables that point their caches at `folder`, or with an
// empty one turn them off, replacing any of the same names in `env`.
void set_cache_environment(std::vector<std::string>& env, const std::string& folder);

}  // namespace host
