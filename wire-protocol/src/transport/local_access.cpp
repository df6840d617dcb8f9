#include "local_access.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace wire::transport {
namespace {

std::string octal(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

// The folder an unnamed (not abstract) socket path lives in; empty for a
// path in the current folder or the abstract namespace.
std::string parent_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (path.empty() || path[0] == '@' || slash == std::string::npos) return {};
  return slash == 0 ? "/" : path.substr(0, slash);
}

Status make_missing_dirs(const std::string& dir, mode_t mode) {
  for (size_t at = 1; at <= dir.size(); ++at) {
    if (at != dir.size() && dir[at] != '/') continue;
    std::string prefix = dir.substr(0, at);
    if (::mkdir(prefix.c_str(), mode) == 0) {
      // mkdir applies the umask; the folder we made gets exactly `mode`.
      if (::chmod(prefix.c_str(), mode) != 0) return errno_error(("chmod " + prefix).c_str());
    } else if (errno != EEXIST) {
      return errno_error(("mkdir " + prefix).c_str());
    }
  }
  return {};
}

}  // namespace

bool admits_other_users(const TransportOptions& opts) {
  const uid_t self = ::geteuid();
  return std::any_of(opts.allowed_uids.begin(), opts.allowed_uids.end(),
                     [&](uint32_t uid) { return uid != self && uid != 0; });
}

Status prepare_socket_dir(const std::string& socket_path, const TransportOptions& opts) {
  const std::string dir = parent_of(socket_path);
  if (dir.empty()) return {};
  WIRE_TRY(make_missing_dirs(dir, admits_other_users(opts) ? 0711 : 0700));
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) return errno_error(("stat " + dir).c_str());
  if (!S_ISDIR(st.st_mode)) return make_error(Errc::kBadValue, dir + " is not a directory");
  const bool sticky_system_dir = st.st_uid == 0 && (st.st_mode & S_ISVTX);
  if (st.st_uid != ::geteuid() && !sticky_system_dir) {
    return make_error(Errc::kBadValue, "socket directory " + dir + " belongs to uid " +
                                           std::to_string(st.st_uid) +
                                           ", not to this user; refusing to listen in it");
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !sticky_system_dir) {
    return make_error(Errc::kBadValue, "socket directory " + dir + " (mode " + octal(st.st_mode) +
                                           ") is writable by others, who could replace the "
                                           "socket; refusing to listen in it (chmod go-w)");
  }
  return {};
}

Status restrict_socket(const std::string& socket_path, const TransportOptions& opts) {
  if (socket_path.empty() || socket_path[0] == '@') return {};
  const mode_t mode = admits_other_users(opts) ? 0666 : 0600;
  if (::chmod(socket_path.c_str(), mode) != 0) {
    return errno_error(("chmod " + socket_path).c_str());
  }
  return {};
}

PeerIdentity unix_peer_identity(int fd, std::string address) {
  PeerIdentity peer;
  peer.address = std::move(address);
  ucred cred{};
  socklen_t len = sizeof cred;
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && len == sizeof cred) {
    peer.has_credentials = true;
    peer.uid = cred.uid;
    peer.gid = cred.gid;
    peer.pid = cred.pid;
  }
  return peer;
}

Status check_peer_allowed(const PeerIdentity& peer, const TransportOptions& opts) {
  if (!peer.has_credentials) {
    return make_error(Errc::kBadValue, peer.address + ": the peer's credentials are unknown");
  }
  const bool allowed = peer.uid == ::geteuid() || peer.uid == 0 ||
                       std::find(opts.allowed_uids.begin(), opts.allowed_uids.end(), peer.uid) !=
                           opts.allowed_uids.end();
  if (allowed) return {};
  return make_error(Errc::kBadValue, "refused " + peer.describe() +
                                         ": uid not allowed (conduit host --allow-uid)");
}

Result<Fd> open_ring_file(const std::string& path) {
  Fd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (fd.valid()) return fd;
  if (errno != EEXIST) return errno_error(("create " + path).c_str());
  // O_NONBLOCK keeps a FIFO planted at the path from blocking the open; it
  // changes nothing for the regular file that is accepted (it is mapped).
  fd = Fd(::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) {
    if (errno == ELOOP) {
      return make_error(Errc::kBadValue, "ring file " + path + " is a symbolic link; refusing it");
    }
    if (errno == EISDIR) {
      return make_error(Errc::kBadValue, "ring file " + path + " is not a regular file; refusing it");
    }
    return errno_error(("open " + path).c_str());
  }
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return errno_error(("fstat " + path).c_str());
  if (!S_ISREG(st.st_mode)) {
    return make_error(Errc::kBadValue, "ring file " + path + " is not a regular file; refusing it");
  }
  if (st.st_uid != ::geteuid()) {
    return make_error(Errc::kBadValue, "ring file " + path + " belongs to uid " +
                                           std::to_string(st.st_uid) + ", not to this user; "
                                           "refusing it");
  }
  if (st.st_mode & (S_IRWXG | S_IRWXO)) {
    return make_error(Errc::kBadValue, "ring file " + path + " (mode " + octal(st.st_mode) +
                                           ") is open to other users; refusing it (chmod 600)");
  }
  return fd;
}

}  // namespace wire::transport
