#include "host/host_query.h"

#include <unistd.h>

#include <vector>

#include "wire/batch.h"
#include "wire/reader.h"
#include "wire/transport.h"
#include "wire/writer.h"

namespace host {

using wire::Errc;
using wire::make_error;

namespace {

constexpr auto kReplyTimeout = std::chrono::seconds(10);

// Waits for the kReply command and returns a copy of its bytes.
wire::Result<std::vector<std::byte>> wait_reply(wire::Channel& ch, wire::BatchDecoder& decoder) {
  auto deadline = std::chrono::steady_clock::now() + kReplyTimeout;
  while (std::chrono::steady_clock::now() < deadline) {
    auto msg = ch.receive(std::chrono::milliseconds(100));
    if (!msg) {
      if (msg.error().code == Errc::kTimeout) continue;
      return msg.error();
    }
    auto batch = decoder.decode(*msg);
    if (!batch) return batch.error();
    wire::CommandIterator it(batch->commands);
    while (!it.done()) {
      auto cmd = it.next();
      if (!cmd) return cmd.error();
      wire::Reader r(cmd->payload, cmd->offset, ch.incoming_heap());
      if (cmd->opcode == static_cast<uint32_t>(wire::ControlOp::kRefused)) {
        auto why = r.get_data();
        if (!why) return why.error();
        return make_error(Errc::kLimit, "the host refused this program: " +
                                            std::string(reinterpret_cast<const char*>(why->bytes.data()),
                                                        why->bytes.size()));
      }
      if (cmd->opcode != static_cast<uint32_t>(wire::ControlOp::kReply)) continue;
      auto data = r.get_data();
      if (!data) return data.error();
      std::vector<std::byte> out(data->bytes.begin(), data->bytes.end());
      ch.release();
      return out;
    }
    ch.release();
  }
  return make_error(Errc::kTimeout, "no reply from the host");
}

}  // namespace

wire::Result<HostOffer> query_host(const std::string& address, const wire::TransportOptions& link) {
  auto ch = wire::connect(address, link);
  if (!ch) return ch.error();
  wire::Writer w;
  size_t at = w.begin(static_cast<uint32_t>(wire::ControlOp::kHello));
  w.put(wire::Hello{wire::kProtocolVersion,
                    wire::kFeatureCompression | wire::kFeatureGles1 | wire::kFeatureGlImages | wire::kFeatureSrgbSurfaces,
                     static_cast<uint32_t>(getpid())});
  w.end(at);
  at = w.begin(static_cast<uint32_t>(wire::ControlOp::kGetStats));
  w.end(at);
  wire::BatchEncoder encoder;
  auto msg = encoder.encode(w.bytes(), wire::kBatchWantsReply);
  if (!msg) return msg.error();
  WIRE_TRY((*ch)->send(*msg));
  wire::BatchDecoder decoder(64u << 20);
  auto reply = wait_reply(**ch, decoder);
  if (!reply) return reply.error();
  wire::Reader r(*reply, 0);
  HostOffer offer;
  auto hello = r.get<wire::HelloReply>();
  if (!hello) return hello.error();
  offer.hello = *hello;
  auto strings = r.get_data();
  if (!strings) return strings.error();
  std::string* fields[] = {&offer.renderer, &offer.vendor, &offer.gl_version, &offer.platform};
  size_t field = 0;
  for (std::byte b : strings->bytes) {
    if (field >= 4) break;
    if (b == std::byte{0}) {
      ++field;
    } else {
      fields[field]->push_back(static_cast<char>(b));
    }
  }
  size_t used = reply->size() - r.remaining();
  offer.stats_json.assign(reinterpret_cast<const char*>(reply->data()) + used, r.remaining());
  (*ch)->close();
  return offer;
}

}  // namespace host
