#include "guest_refusal.h"

#include "wire/batch.h"
#include "wire/control.h"
#include "wire/writer.h"

namespace host {

namespace {
// A guest says hello as soon as it connected; one that does not is not
// waited for longer.
constexpr auto kHelloWait = std::chrono::seconds(2);
}  // namespace

void refuse_guest(wire::Channel& channel, const std::string& why) {
  // The hello is read (never decoded) first: a socket closed with bytes
  // unread resets the connection, and the guest could lose the answer.
  if (channel.receive(kHelloWait)) channel.release();
  wire::Writer w;
  const size_t at = w.begin(static_cast<uint32_t>(wire::ControlOp::kRefused));
  w.put_data(why.data(), why.size());
  w.end(at);
  wire::BatchEncoder encoder(wire::Compression::kOff);
  if (auto message = encoder.encode(w.bytes(), 0)) (void)channel.send(*message);
  channel.close();
}

}  // namespace host
