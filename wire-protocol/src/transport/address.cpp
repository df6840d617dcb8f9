// Address parsing and the dispatch from an address to its transport.
#include "wire/address.h"

#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <string>

#include "transports.h"

namespace wire {
namespace {

Error bad_address(std::string_view text, const char* why) {
  return make_error(Errc::kBadValue, "address '" + std::string(text) + "': " + why);
}

}  // namespace

Result<Address> Address::parse(std::string_view text) {
  auto colon = text.find(':');
  if (colon == std::string_view::npos) return bad_address(text, "expected SCHEME:...");
  std::string_view scheme = text.substr(0, colon), rest = text.substr(colon + 1);
  if (rest.empty()) return bad_address(text, "nothing after the scheme");
  Address a;
  if (scheme == "unix") {
    a.path = rest;
    return a;
  }
  if (scheme == "shm") {
    constexpr std::string_view kFile = "file=";
    a.kind = rest.starts_with(kFile) ? Kind::kShmFile : Kind::kShm;
    a.path = a.kind == Kind::kShmFile ? rest.substr(kFile.size()) : rest;
    if (a.path.empty()) return bad_address(text, "empty path");
    return a;
  }
  if (scheme == "ivshmem") {
    a.kind = Kind::kIvshmem;
    a.path = rest;
    return a;
  }
  if (scheme != "tcp") return bad_address(text, "scheme is not unix, tcp, shm or ivshmem");
  a.kind = Kind::kTcp;
  auto port_colon = rest.rfind(':');
  if (port_colon == std::string_view::npos || port_colon == 0) {
    return bad_address(text, "expected tcp:HOST:PORT");
  }
  std::string_view host = rest.substr(0, port_colon), port = rest.substr(port_colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  unsigned value = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc() || end != port.data() + port.size() || value > 65535 || port.empty()) {
    return bad_address(text, "port is not a number from 0 to 65535");
  }
  a.host = host;
  a.port = static_cast<uint16_t>(value);
  return a;
}

std::string Address::describe_host() const {
  const bool v6 = host.find(':') != std::string::npos;
  return "tcp:" + (v6 ? "[" + host + "]" : host);
}

std::string Address::describe() const {
  switch (kind) {
    case Kind::kUnix: return "unix:" + path;
    case Kind::kTcp: return describe_host() + ":" + std::to_string(port);
    case Kind::kShm: return "shm:" + path;
    case Kind::kShmFile: return "shm:file=" + path;
    case Kind::kIvshmem: return "ivshmem:" + path;
  }
  return {};
}

std::string default_address() {
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  if (runtime && *runtime) return std::string("unix:") + runtime + "/conduit/host.sock";
  return "unix:/tmp/conduit-" + std::to_string(getuid()) + "/host.sock";
}

std::string address_from_environment() {
  const char* named = std::getenv("CONDUIT_HOST");
  return named && *named ? named : default_address();
}

Result<std::unique_ptr<Channel>> connect(std::string_view address, const TransportOptions& opts) {
  auto a = Address::parse(address);
  if (!a) return a.error();
  switch (a->kind) {
    case Address::Kind::kUnix: return transport::unix_connect_channel(*a, opts);
    case Address::Kind::kTcp: return transport::tcp_connect_channel(*a, opts);
    case Address::Kind::kShm: return transport::shm_connect_channel(*a, opts);
    case Address::Kind::kShmFile: return transport::shm_file_connect_channel(*a, opts);
    case Address::Kind::kIvshmem: return transport::ivshmem_connect_channel(*a, opts);
  }
  return make_error(Errc::kBadValue, "address kind");
}

Result<std::unique_ptr<Listener>> listen(std::string_view address, const TransportOptions& opts) {
  auto a = Address::parse(address);
  if (!a) return a.error();
  switch (a->kind) {
    case Address::Kind::kUnix: return transport::unix_listen_channel(*a, opts);
    case Address::Kind::kTcp: return transport::tcp_listen_channel(*a, opts);
    case Address::Kind::kShm: return transport::shm_listen_channel(*a, opts);
    case Address::Kind::kShmFile: return transport::shm_file_listen_channel(*a, opts);
    case Address::Kind::kIvshmem:
      return make_error(Errc::kBadValue, "ivshmem: is for guests; a host listens on shm:file=PATH "
                                         "and gives QEMU that file");
  }
  return make_error(Errc::kBadValue, "address kind");
}

}  // namespace wire
