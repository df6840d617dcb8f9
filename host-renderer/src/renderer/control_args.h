// Reading the fixed payloads of Conduit's control commands (wire/control.h),
// shared by the session's and the GL handler's files that serve them.
#pragma once

#include <string>

#include "wire/reader.h"
#include "wire/result.h"

namespace host {

// The payload `T`, with nothing after it.
template <typename T>
wire::Result<T> read_control(wire::Reader& r) {
  auto v = r.get<T>();
  if (!v) return v.error();
  if (r.remaining() != 0) {
    return wire::make_error(wire::Errc::kBadLength,
                            std::to_string(r.remaining()) + " bytes after the arguments", r.offset());
  }
  return v;
}

// A control command naming an id the session does not have.
inline wire::Error unknown_id(const char* what, uint32_t id, size_t off) {
  return wire::make_error(wire::Errc::kBadName, std::string("unknown ") + what + " " + std::to_string(id), off);
}

// A control command this host does not serve.
inline wire::Error unknown_control_op(uint32_t opcode, size_t off) {
  return wire::make_error(wire::Errc::kUnknownOpcode, "control op " + std::to_string(opcode), off);
}

}  // namespace host
