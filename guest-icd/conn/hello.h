// Parsing the host's answer to Hello.
#pragma once

#include <cstddef>
#include <span>

#include "conn/connection.h"
#include "wire/result.h"

namespace icd {

// `reply`: the bytes of the kReply to a Hello batch: a HelloReply, then a
// Data holding "renderer\0vendor\0gl_version\0platform\0guest_memory_bytes\0".
wire::Result<HostInfo> parse_hello_reply(std::span<const std::byte> reply);

}  // namespace icd
