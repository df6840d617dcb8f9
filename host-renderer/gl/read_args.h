// Reads a hand-written command's fixed arguments in order, stopping at the
// first one that is missing.
#pragma once

#include "wire/reader.h"

namespace host {

template <typename... T>
wire::Status read_args(wire::Reader& r, T&... out) {
  wire::Status status;
  auto one = [&](auto& v) {
    if (!status) return;
    auto got = r.template get<std::remove_reference_t<decltype(v)>>();
    if (got) v = *got;
    else status = got.error();
  };
  (one(out), ...);
  return status;
}

inline wire::Status read_data(wire::Reader& r, wire::Data& out) {
  auto got = r.get_data();
  if (!got) return got.error();
  out = *got;
  return {};
}

// For commands the guest answers itself and never sends.
inline wire::Status guest_only(const char* name) {
  return wire::make_error(wire::Errc::kBadValue, std::string(name) + " is answered by the guest");
}

}  // namespace host
