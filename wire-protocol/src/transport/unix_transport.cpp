// unix:PATH — a unix stream socket (PATH, or @NAME for the abstract namespace).
#include <unistd.h>

#include "socket_stream.h"
#include "transports.h"

namespace wire::transport {

Result<std::unique_ptr<Channel>> unix_connect_channel(const Address& a,
                                                      const TransportOptions& opts) {
  auto fd = unix_connect(a.path, Deadline(opts.io_timeout));
  if (!fd) return fd.error();
  return open_stream_channel(std::move(*fd), "unix:" + a.path, opts);
}

Result<std::unique_ptr<Listener>> unix_listen_channel(const Address& a,
                                                      const TransportOptions& opts) {
  auto fd = unix_listen(a.path);
  if (!fd) return fd.error();
  std::function<void()> unlink_path;
  if (a.path[0] != '@') unlink_path = [path = a.path] { ::unlink(path.c_str()); };
  std::unique_ptr<Listener> l = std::make_unique<StreamListener>(
      std::move(*fd), "unix:" + a.path, opts, nullptr, std::move(unlink_path));
  return l;
}

}  // namespace wire::transport
