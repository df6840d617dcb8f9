#include "renderer_paths.h"

#include <dirent.h>

#include <cstdlib>
#include <string_view>

namespace host {
namespace {

// Libraries and their data (/usr/share: drirc.d, glvnd and Vulkan manifests),
// the files of /etc that the dynamic loader and the drivers' loaders read,
// the hardware descriptions drivers look up, and the renderer's own /proc
// entries (/proc/self resolves to this process: nobody else's).
constexpr const char* kReadable[] = {
    "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/opt/nvidia",
    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/drirc", "/etc/glvnd",
    "/etc/vulkan", "/etc/egl", "/etc/OpenCL", "/etc/nvidia", "/etc/localtime",
    "/sys/devices", "/sys/dev", "/sys/bus", "/sys/class", "/sys/module",
    "/proc/self", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/driver",
    "/proc/sys/vm/overcommit_memory", "/proc/sys/kernel/osrelease",
    "/dev/urandom", "/dev/random", "/dev/zero",
};

// Variables that point loaders at drivers, manifests or libraries outside
// the usual places: colon-separated files or folders, set by whoever
// started the host.
constexpr const char* kPathVariables[] = {
    "LD_LIBRARY_PATH", "LIBGL_DRIVERS_PATH", "VK_ICD_FILENAMES", "VK_DRIVER_FILES",
    "VK_ADD_DRIVER_FILES", "VK_LAYER_PATH", "VK_ADD_LAYER_PATH", "__EGL_VENDOR_LIBRARY_FILENAMES",
    "__EGL_VENDOR_LIBRARY_DIRS", "XDG_DATA_DIRS",
};

// Sanitizer builds: the suppressions files the sanitizers' options name,
// which LeakSanitizer reads when it checks, at exit.
constexpr const char* kSanitizerVariables[] = {"ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"};

void add_listed(std::vector<std::string>& out, std::string_view list) {
  while (!list.empty()) {
    const size_t end = list.find(':');
    const std::string_view item = list.substr(0, end);
    if (!item.empty() && item.front() == '/') out.emplace_back(item);
    list = end == std::string_view::npos ? std::string_view() : list.substr(end + 1);
  }
}

// "name=value:suppressions=PATH:...": the PATH.
void add_suppressions(std::vector<std::string>& out, std::string_view options) {
  constexpr std::string_view kKey = "suppressions=";
  for (size_t at = options.find(kKey); at != std::string_view::npos;
       at = options.find(kKey, at + 1)) {
    if (at > 0 && options[at - 1] != ':') continue;
    const std::string_view rest = options.substr(at + kKey.size());
    add_listed(out, rest.substr(0, rest.find(':')));
  }
}

}  // namespace

std::vector<std::string> readable_paths() {
  std::vector<std::string> paths(std::begin(kReadable), std::end(kReadable));
  for (const char* name : kPathVariables) {
    if (const char* value = std::getenv(name)) add_listed(paths, value);
  }
  for (const char* name : kSanitizerVariables) {
    if (const char* value = std::getenv(name)) add_suppressions(paths, value);
  }
  return paths;
}

std::vector<std::string> gpu_device_paths() {
  std::vector<std::string> paths = {"/dev/dri", "/dev/null"};
  if (DIR* d = ::opendir("/dev")) {
    while (dirent* e = ::readdir(d)) {
      if (std::string_view(e->d_name).starts_with("nvidia")) {
        paths.push_back(std::string("/dev/") + e->d_name);
      }
    }
    ::closedir(d);
  }
  return paths;
}

}  // namespace host
