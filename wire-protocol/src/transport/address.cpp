// Address parsing and the dispatch from an address to its transport.
#include <charconv>
#include <string>

#include "transports.h"

namespace wire {
namespace transport {

namespace {

Error bad_address(std::string_view text, const char* why) {
  return make_error(Errc::kBadValue, "address '" + std::string(text) + "': " + why);
}

}  // namespace

// unix:PATH | tcp:HOST:PORT | tcp:[V6HOST]:PORT | shm:PATH | shm:file=PATH
// | ivshmem:auto | ivshmem:BDF
Result<Address> parse_address(std::string_view text) {
  auto colon = text.find(':');
  if (colon == std::string_view::npos) return bad_address(text, "expected SCHEME:...");
  std::string_view scheme = text.substr(0, colon), rest = text.substr(colon + 1);
  if (rest.empty()) return bad_address(text, "nothing after the scheme");
  Address a{Address::Kind::kUnix, {}, {}, 0};
  if (scheme == "unix") {
    a.path = rest;
    return a;
  }
  if (scheme == "shm") {
    constexpr std::string_view kFile = "file=";
    a.kind = rest.starts_with(kFile) ? Address::Kind::kShmFile : Address::Kind::kShm;
    a.path = a.kind == Address::Kind::kShmFile ? rest.substr(kFile.size()) : rest;
    if (a.path.empty()) return bad_address(text, "empty path");
    return a;
  }
  if (scheme == "ivshmem") {
    a.kind = Address::Kind::kIvshmem;
    a.path = rest;
    return a;
  }
  if (scheme != "tcp") return bad_address(text, "scheme is not unix, tcp, shm or ivshmem");
  a.kind = Address::Kind::kTcp;
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

}  // namespace transport

Result<std::unique_ptr<Channel>> connect(std::string_view address, const TransportOptions& opts) {
  using transport::Address;
  auto a = transport::parse_address(address);
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
  using transport::Address;
  auto a = transport::parse_address(address);
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
