// The RFB server's network side: where it listens, the password file, and
// the HTTP it speaks to browsers (noVNC's pages; WebSocket requests are
// recognised here and answered by LibVNCServer).
#include "vnc_net.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

namespace comp {

using wire::Fd;

namespace {

constexpr off_t kMaxPageBytes = 32 << 20;

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

const char* content_type(std::string_view path) {
  static const std::pair<std::string_view, const char*> kTypes[] = {
      {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
      {".css", "text/css"},                  {".json", "application/json"},
      {".svg", "image/svg+xml"},             {".png", "image/png"},
      {".ico", "image/x-icon"},              {".woff", "font/woff"},
      {".ttf", "font/ttf"},                  {".mp3", "audio/mpeg"},
      {".oga", "audio/ogg"},
  };
  for (const auto& [suffix, type] : kTypes) {
    if (path.ends_with(suffix)) return type;
  }
  return "application/octet-stream";
}

// Plain names below the pages folder only: no "..", no hidden files, no escapes.
std::optional<std::string> page_path(const std::string& dir, std::string_view target) {
  target = target.substr(0, target.find_first_of("?#"));
  if (target == "/") target = "/vnc.html";
  if (!target.starts_with('/')) return std::nullopt;
  for (size_t at = 1; at <= target.size();) {
    const size_t end = std::min(target.find('/', at), target.size());
    const std::string_view part = target.substr(at, end - at);
    if (part.empty() || part.front() == '.' || part.find_first_of("%\\") != std::string_view::npos) {
      return std::nullopt;
    }
    at = end + 1;
  }
  return dir + std::string(target);
}

std::optional<std::string> read_page(const std::string& path) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  struct stat st;
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > kMaxPageBytes) {
    return std::nullopt;
  }
  std::string body(static_cast<size_t>(st.st_size), '\0');
  size_t have = 0;
  while (have < body.size()) {
    const ssize_t n = ::read(fd.get(), body.data() + have, body.size() - have);
    if (n <= 0) return std::nullopt;
    have += static_cast<size_t>(n);
  }
  return body;
}

std::string http_reply(int code, const char* reason, const char* type, std::string_view body) {
  char head[256];
  std::snprintf(head, sizeof head,
                "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                "Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n"
                "Connection: close\r\n\r\n",
                code, reason, type, body.size());
  return head + std::string(body);
}


bool is_loopback(const sockaddr* address) {
  if (address->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(address);
    return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
  }
  if (address->sa_family == AF_INET6) {
    const in6_addr& in6 = reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr;
    return IN6_IS_ADDR_LOOPBACK(&in6) || (IN6_IS_ADDR_V4MAPPED(&in6) && in6.s6_addr[12] == 127);
  }
  return false;
}

uint16_t bound_port(int fd) {
  sockaddr_storage address{};
  socklen_t size = sizeof address;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) return 0;
  if (address.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
  }
  return ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
}

}  // namespace

std::string peer_address(const sockaddr* address) {
  char text[INET6_ADDRSTRLEN + 4] = "";
  if (address->sa_family == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(address)->sin_addr, text, sizeof text);
    return text;
  }
  if (address->sa_family != AF_INET6) return {};
  const in6_addr& in6 = reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr;
  if (IN6_IS_ADDR_V4MAPPED(&in6)) {
    ::inet_ntop(AF_INET, &in6.s6_addr[12], text, sizeof text);
    return text;
  }
  in6_addr prefix{};
  std::copy(in6.s6_addr, in6.s6_addr + 8, prefix.s6_addr);
  ::inet_ntop(AF_INET6, &prefix, text, sizeof text);
  return std::string(text) + "/64";
}

std::string peer_address(int fd) {
  sockaddr_storage address{};
  socklen_t size = sizeof address;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) return {};
  return peer_address(reinterpret_cast<const sockaddr*>(&address));
}

// A request header's value, lowercased; empty when absent. `name` is
// lowercase and ends with its colon.
std::string header(const std::string& head, std::string_view name) {
  const std::string all = lowercase(head);
  const size_t at = all.find("\r\n" + std::string(name));
  if (at == std::string::npos) return {};
  const size_t begin = all.find_first_not_of(' ', at + 2 + name.size());
  const size_t end = all.find("\r\n", at + 2);
  return begin < end ? all.substr(begin, all.find_last_not_of(' ', end - 1) + 1 - begin) : std::string();
}

wire::Error bad_value(std::string text) {
  return wire::make_error(wire::Errc::kBadValue, std::move(text));
}

wire::Error sys_error(const std::string& what) {
  return wire::make_error(wire::Errc::kIo, what + ": " + std::strerror(errno));
}

wire::Result<Listener> listen_on(const HostPort& where, const std::string& shown, bool password) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const int failed = ::getaddrinfo(where.host.c_str(), std::to_string(where.port).c_str(), &hints, &found);
  if (failed != 0) return bad_value(shown + ": " + ::gai_strerror(failed));
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> addresses(found, &freeaddrinfo);
  for (const addrinfo* a = found; a; a = a->ai_next) {
    if (!password && !is_loopback(a->ai_addr)) {
      return bad_value(shown + " is not a loopback address: --vnc on a non-loopback address needs "
                               "--vnc-password-file");
    }
  }
  errno = EADDRNOTAVAIL;
  for (const addrinfo* a = found; a; a = a->ai_next) {
    Fd fd(::socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid()) continue;
    const int on = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (::bind(fd.get(), a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd.get(), SOMAXCONN) == 0) {
      const uint16_t port = bound_port(fd.get());
      return Listener{std::move(fd), port};
    }
  }
  return sys_error("listen on " + shown);
}



bool is_websocket(const std::string& head) {
  return header(head, "upgrade:").find("websocket") != std::string::npos;
}

// The host part of a Host header names this machine's loopback.
bool names_loopback(std::string_view host) {
  host = host.starts_with('[') ? host.substr(0, host.find(']') + 1) : host.substr(0, host.rfind(':'));
  in_addr v4{};
  const std::string name(host);
  return name == "localhost" || name == "[::1]" ||
         (::inet_pton(AF_INET, name.c_str(), &v4) == 1 && (ntohl(v4.s_addr) >> 24) == 127);
}

std::string page_reply(const std::string& pages_dir, const std::string& head) {
  const size_t method_end = head.find(' ');
  const std::string method = head.substr(0, method_end);
  const size_t target_end = head.find(' ', method_end + 1);
  const std::string target = head.substr(method_end + 1, target_end - method_end - 1);
  if (is_websocket(head)) return http_reply(403, "Forbidden", "text/plain", "WebSocket refused\n");
  if (method != "GET") return http_reply(405, "Method Not Allowed", "text/plain", "GET only\n");
  const auto path = pages_dir.empty() ? std::nullopt : page_path(pages_dir, target);
  const auto body = path ? read_page(*path) : std::nullopt;
  if (!body) return http_reply(404, "Not Found", "text/plain", "not found\n");
  return http_reply(200, "OK", content_type(*path), *body);
}

wire::Result<std::string> read_vnc_password_file(const std::string& path) {
  const std::string what = "password file " + path;
  Fd fd(::open(path.c_str(), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
  struct stat st;
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0) return sys_error(what);
  if (!S_ISREG(st.st_mode)) return bad_value(what + " is not a regular file");
  // Like ssh with private keys: a secret others can read is no secret.
  if (st.st_mode & (S_IRWXG | S_IRWXO)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return bad_value(what + " (mode " + mode + ") is accessible by other users; refusing it (chmod 600 " +
                     path + ")");
  }
  std::string text(4096, '\0');
  const ssize_t n = ::read(fd.get(), text.data(), text.size());
  if (n < 0) return sys_error(what);
  text.resize(static_cast<size_t>(n));
  text.resize(std::min(text.size(), text.find('\n')));
  if (!text.empty() && text.back() == '\r') text.pop_back();
  if (text.empty()) return bad_value(what + " is empty");
  return text;
}

wire::Result<HostPort> parse_host_port(const std::string& address) {
  const auto wrong = [&] {
    return bad_value(address + ": expected HOST:PORT, [IPv6]:PORT, or a PORT on 127.0.0.1");
  };
  std::string host, port;
  if (!address.empty() && address.find_first_not_of("0123456789") == std::string::npos) {
    host = "127.0.0.1";  // a port alone: this machine's loopback
    port = address;
  } else if (address.starts_with('[')) {
    const size_t close = address.find(']');
    if (close == std::string::npos || address.compare(close, 2, "]:") != 0) return wrong();
    host = address.substr(1, close - 1);
    port = address.substr(close + 2);
  } else {
    const size_t colon = address.rfind(':');
    if (colon == std::string::npos) return wrong();
    host = address.substr(0, colon);
    port = address.substr(colon + 1);
    if (host.find(':') != std::string::npos) return wrong();
  }
  if (host.empty() || port.empty() || port.size() > 5 ||
      port.find_first_not_of("0123456789") != std::string::npos || std::stoul(port) > 65535) {
    return wrong();
  }
  return HostPort{host, static_cast<uint16_t>(std::stoul(port))};
}

}  // namespace comp
