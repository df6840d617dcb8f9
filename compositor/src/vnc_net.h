// The RFB server's network side (vnc_net.cpp): listening, and the HTTP it
// speaks to browsers before a connection becomes a WebSocket or a page.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "comp/vnc_server.h"
#include "wire/fd.h"
#include "wire/result.h"

namespace comp {

wire::Error bad_value(std::string text);
wire::Error sys_error(const std::string& what);  // with errno's text

struct Listener {
  wire::Fd fd;
  uint16_t port = 0;
};

// Listens on every address `where` names; without a password only on
// loopback addresses (refused otherwise). `shown` names it in messages.
wire::Result<Listener> listen_on(const HostPort& where, const std::string& shown, bool password);

// The address a connection counts against: an IPv4 address (also when
// mapped into IPv6), or the /64 an IPv6 address is in (one host's share).
std::string peer_address(const sockaddr* address);
// That of a connected socket's far end; empty when it has none.
std::string peer_address(int fd);

// A request header's value, lowercased; empty when absent. `name` is
// lowercase and ends with its colon.
std::string header(const std::string& head, std::string_view name);
bool is_websocket(const std::string& head);
// The host part of a Host header names this machine's loopback.
bool names_loopback(std::string_view host);
// The whole HTTP reply to a request for a page of `pages_dir` (empty: none
// served): the file, or 403 for a refused WebSocket, 405, or 404.
std::string page_reply(const std::string& pages_dir, const std::string& head);

}  // namespace comp
