#include "renderer_environment.h"

#include <string_view>

namespace host {
namespace {

// Families of driver and loader variables: Mesa, Gallium (llvmpipe's LP_),
// libglvnd, the Vulkan loader, NVIDIA's, Mesa's hardware drivers, and the
// sanitizers' options in sanitizer builds.
constexpr std::string_view kKeptPrefixes[] = {
    "LIBGL_", "MESA_", "GALLIUM_", "LP_",    "NIR_",  "VK_",    "__GLX_",
    "__EGL_", "EGL_",  "GBM_",     "DRI_",   "__GL_", "__NV_",  "NV_",
    "RADV_",  "ANV_",  "AMD_",     "INTEL_", "ASAN_", "UBSAN_", "LSAN_",
};

// Where drivers find libraries, manifests and their caches.
constexpr std::string_view kKeptNames[] = {
    "LD_LIBRARY_PATH", "HOME",          "XDG_CACHE_HOME", "XDG_CONFIG_HOME",
    "XDG_CONFIG_DIRS", "XDG_DATA_HOME", "XDG_DATA_DIRS",
};

bool kept(std::string_view entry) {
  const size_t eq = entry.find('=');
  if (eq == std::string_view::npos) return false;
  const std::string_view name = entry.substr(0, eq);
  for (auto prefix : kKeptPrefixes) {
    if (name.starts_with(prefix)) return true;
  }
  for (auto exact : kKeptNames) {
    if (name == exact) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> renderer_environment(char** environ) {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    if (kept(*e)) out.emplace_back(*e);
  }
  return out;
}

}  // namespace host
