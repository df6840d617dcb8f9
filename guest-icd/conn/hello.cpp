#include "conn/hello.h"

#include <cstdlib>
#include <string_view>

#include "wire/reader.h"

namespace icd {

wire::Result<HostInfo> parse_hello_reply(std::span<const std::byte> reply) {
  HostInfo info;
  wire::Reader r(reply, 0);
  auto hello = r.get<wire::HelloReply>();
  if (!hello) return hello.error();
  info.reply = hello.value();
  if (info.reply.protocol_version != wire::kProtocolVersion)
    return wire::make_error(wire::Errc::kBadVersion,
                            "host speaks protocol " + std::to_string(info.reply.protocol_version));
  auto strings = r.get_data();
  if (!strings) return strings.error();
  std::string_view rest(reinterpret_cast<const char*>(strings->bytes.data()), strings->bytes.size());
  std::string memory, pbuffer_side;
  std::string* fields[] = {&info.renderer, &info.vendor, &info.gl_version, &info.platform, &memory, &pbuffer_side};
  for (std::string* field : fields) {
    const size_t end = rest.find('\0');
    if (end == std::string_view::npos) break;  // an older host may send fewer strings
    *field = std::string(rest.substr(0, end));
    rest.remove_prefix(end + 1);
  }
  info.guest_memory_bytes = std::strtoull(memory.c_str(), nullptr, 10);
  info.max_pbuffer_side = static_cast<uint32_t>(std::strtoul(pbuffer_side.c_str(), nullptr, 10));
  return info;
}

}  // namespace icd
