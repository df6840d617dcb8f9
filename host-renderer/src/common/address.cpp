#include "host/address.h"

#include "wire/address.h"

namespace host {

std::string admin_path_for(const std::string& address) {
  auto a = wire::Address::parse(address);
  if (!a || (a->kind != wire::Address::Kind::kUnix && a->kind != wire::Address::Kind::kShm)) return "";
  if (a->path[0] == '@') return "";  // an abstract socket has no folder to put it beside
  return a->path + ".admin";
}

std::string admin_path(const std::vector<std::string>& addresses) {
  for (const auto& a : addresses) {
    if (auto p = admin_path_for(a); !p.empty()) return p;
  }
  return admin_path_for(wire::default_address());
}

}  // namespace host
