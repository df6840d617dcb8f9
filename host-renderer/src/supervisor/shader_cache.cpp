#include "shader_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>

namespace host {
namespace {

// Mesa's (MESA_GLSL_CACHE_DIR is its older name), NVIDIA's, and the
// folder both fall back to.
constexpr const char* kFolderVariables[] = {"MESA_SHADER_CACHE_DIR", "MESA_GLSL_CACHE_DIR",
                                            "__GL_SHADER_DISK_CACHE_PATH", "XDG_CACHE_HOME"};
// Without a folder: caches off, so that no driver tries to make one.
constexpr const char* kOffVariables[] = {
    "MESA_SHADER_CACHE_DISABLE=true", "MESA_GLSL_CACHE_DISABLE=true", "__GL_SHADER_DISK_CACHE=0"};

wire::Error sys_error(const std::string& what) {
  return wire::make_error(wire::Errc::kIo, what + ": " + std::strerror(errno));
}

void erase_named(std::vector<std::string>& env, std::string_view name) {
  std::erase_if(env, [&](const std::string& e) {
    return e.size() > name.size() && e.starts_with(name) && e[name.size()] == '=';
  });
}

// Everything inside the folder open as `dir` (which it closes), through
// descriptors: a link is removed, never followed.
void remove_inside(int dir) {
  DIR* d = ::fdopendir(dir);
  if (!d) {
    ::close(dir);
    return;
  }
  while (dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    const int sub =
        ::openat(::dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub >= 0) {
      remove_inside(sub);
      ::unlinkat(::dirfd(d), e->d_name, AT_REMOVEDIR);
    } else {
      ::unlinkat(::dirfd(d), e->d_name, 0);
    }
  }
  ::closedir(d);
}

wire::Status check_given_root(const std::string& root) {
  struct stat st {};
  if (::lstat(root.c_str(), &st) != 0) return sys_error("shader cache folder " + root);
  if (!S_ISDIR(st.st_mode))
    return wire::make_error(wire::Errc::kBadValue, root + " is not a folder");
  if (st.st_uid != ::geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
    return wire::make_error(
        wire::Errc::kBadValue,
        "shader cache folder " + root + " must belong to this user and be writable by no one else");
  }
  return {};
}

}  // namespace

wire::Result<std::unique_ptr<ShaderCacheRoot>> ShaderCacheRoot::create(
    const std::string& root, const std::optional<RendererIdentity>& identity) {
  std::string path = root;
  const bool owned = root.empty();
  if (owned) {
    const char* tmp = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(tmp && *tmp == '/' ? tmp : "/tmp") + "/conduit-shader-caches-XXXXXX";
    if (!::mkdtemp(tmpl.data())) return sys_error("mkdtemp " + tmpl);
    path = tmpl;
  } else {
    WIRE_TRY(check_given_root(root));
  }
  std::unique_ptr<ShaderCacheRoot> r(new ShaderCacheRoot(path, owned));
  if (::chmod(path.c_str(), identity ? 0711 : 0700) != 0) return sys_error("chmod " + path);
  return r;
}

ShaderCacheRoot::~ShaderCacheRoot() {
  if (owned_) remove_cache_folder(path_);
}

wire::Result<std::string> ShaderCacheRoot::make_renderer_folder(
    const std::optional<RendererIdentity>& identity) const {
  std::string folder = path_ + "/renderer-XXXXXX";
  if (!::mkdtemp(folder.data())) return sys_error("mkdtemp " + folder);
  if (identity && ::chown(folder.c_str(), identity->uid, identity->gid) != 0) {
    auto e = sys_error("chown " + folder);
    ::rmdir(folder.c_str());
    return e;
  }
  return folder;
}

void remove_cache_folder(const std::string& folder) {
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir >= 0) remove_inside(dir);
  ::rmdir(folder.c_str());
}

void set_cache_environment(std::vector<std::string>& env, const std::string& folder) {
  for (const char* name : kFolderVariables) erase_named(env, name);
  for (const char* entry : kOffVariables)
    erase_named(env, std::string_view(entry).substr(0, std::strchr(entry, '=') - entry));
  if (folder.empty()) {
    for (const char* entry : kOffVariables) env.emplace_back(entry);
    return;
  }
  for (const char* name : kFolderVariables) env.push_back(std::string(name) + "=" + folder);
}

}  // namespace host
