// Asking a running host what it offers (`conduit info`).
#pragma once

#include <string>

#include "wire/control.h"
#include "wire/result.h"
#include "wire/transport.h"

namespace host {

struct HostOffer {
  wire::HelloReply hello{};
  std::string renderer, vendor, gl_version, platform;
  std::string stats_json;  // the host's kGetStats answer
};

// `link` carries the token and the insecure switch, as a guest's would.
wire::Result<HostOffer> query_host(const std::string& address, const wire::TransportOptions& link);

}  // namespace host
