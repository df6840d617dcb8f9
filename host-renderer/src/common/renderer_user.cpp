#include "renderer_user.h"

#include <dirent.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "renderer_paths.h"

namespace host {
namespace {

wire::Error fail(const std::string& what, int err) {
  return wire::make_error(wire::Errc::kIo, what + ": " + std::strerror(err));
}

// A group a device node lets in: a renderer needs it to open the GPU
// (render and video on most systems). Root's group is never handed out:
// it opens far more than device nodes.
void add_device_group(const std::string& path, std::vector<gid_t>& groups) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISCHR(st.st_mode)) return;
  if (st.st_gid == 0 || (st.st_mode & (S_IRGRP | S_IWGRP)) == 0) return;
  groups.push_back(st.st_gid);
}

// The groups of /dev/dri/* and /dev/nvidia*.
std::vector<gid_t> gpu_groups() {
  std::vector<gid_t> groups;
  for (const auto& path : gpu_device_paths()) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) continue;
    if (!S_ISDIR(st.st_mode)) {
      add_device_group(path, groups);
      continue;
    }
    if (DIR* d = ::opendir(path.c_str())) {
      while (dirent* e = ::readdir(d)) add_device_group(path + "/" + e->d_name, groups);
      ::closedir(d);
    }
  }
  return groups;
}

// A name, or a number (which needs no entry in /etc/passwd).
wire::Result<passwd> look_up(const std::string& user) {
  char* end = nullptr;
  errno = 0;
  const unsigned long number = std::strtoul(user.c_str(), &end, 10);
  const bool numeric = !user.empty() && *end == '\0' && errno == 0 && number < UINT32_MAX;
  passwd* pw = numeric ? ::getpwuid(static_cast<uid_t>(number)) : ::getpwnam(user.c_str());
  if (pw) return *pw;
  if (!numeric) return wire::make_error(wire::Errc::kBadValue, "--renderer-user " + user + ": no such user");
  passwd anonymous{};
  anonymous.pw_uid = static_cast<uid_t>(number);
  anonymous.pw_gid = static_cast<gid_t>(number);
  return anonymous;
}

std::vector<gid_t> groups_of(const passwd& pw) {
  if (!pw.pw_name) return {};
  int count = 64;
  std::vector<gid_t> groups(count);
  while (::getgrouplist(pw.pw_name, pw.pw_gid, groups.data(), &count) < 0) groups.resize(count);
  groups.resize(count);
  return groups;
}

}  // namespace

wire::Result<std::optional<RendererIdentity>> renderer_identity(const std::string& user) {
  std::string name = user;
  if (name == "auto") name = ::getpwnam(kDedicatedRendererUser) ? kDedicatedRendererUser : "nobody";
  auto pw = look_up(name);
  if (!pw) return pw.error();
  if (::geteuid() != 0 || pw->pw_uid == 0) return std::optional<RendererIdentity>();
  RendererIdentity id{pw->pw_uid, pw->pw_gid, groups_of(*pw)};
  for (gid_t g : gpu_groups()) id.groups.push_back(g);
  std::sort(id.groups.begin(), id.groups.end());
  id.groups.erase(std::unique(id.groups.begin(), id.groups.end()), id.groups.end());
  return std::optional<RendererIdentity>(std::move(id));
}

wire::Status take_identity(const RendererIdentity& id) {
  // Groups first: they need CAP_SETGID, which the uid's change takes away.
  if (::setgroups(id.groups.size(), id.groups.data()) != 0) return fail("setgroups", errno);
  if (::setresgid(id.gid, id.gid, id.gid) != 0) return fail("setresgid", errno);
  if (::setresuid(id.uid, id.uid, id.uid) != 0) return fail("setresuid", errno);
  // The kernel forgets the parent-death signal when the effective uid
  // changes: armed again, so the renderer still never outlives the supervisor.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return fail("PR_SET_PDEATHSIG", errno);
  if (id.uid != 0 && (::setuid(0) == 0 || ::seteuid(0) == 0)) {
    return wire::make_error(wire::Errc::kIo, "uid 0 could be regained after leaving it");
  }
  return {};
}

}  // namespace host
