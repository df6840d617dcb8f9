// LibVNCServer's callbacks for viewers: arriving and leaving, input, the
// password check; and ending viewers. They run on each viewer's own
// threads (vnc_server_impl.h).
#include <fcntl.h>
#include <sys/socket.h>

#include "vnc_server_impl.h"

namespace comp {

using wire::Fd;

rfbNewClientAction VncServer::Impl::on_new_client(rfbClientPtr cl) {
  Impl* self = of(cl);
  auto state = std::make_unique<ClientState>();
  state->socket = Fd(::fcntl(cl->sock, F_DUPFD_CLOEXEC, 0));
  state->address = peer_address(cl->sock);
  state->deadline = Clock::now() + self->options.handshake_timeout;  // hand_to_library() sets it
  cl->clientData = state.get();
  cl->clientGoneHook = &Impl::on_client_gone;
  cl->clientFramebufferUpdateRequestHook = &Impl::on_update_request;
  {
    std::lock_guard lock(self->clients_mutex);
    self->clients.emplace(cl, std::move(state));
  }
  log_peer("viewer %s connected", cl->host);
  return RFB_CLIENT_ACCEPT;
}

// On the viewer's own thread, as it ends.
void VncServer::Impl::on_client_gone(rfbClientPtr cl) {
  Impl* self = of(cl);
  std::lock_guard lock(self->clients_mutex);
  auto it = self->clients.find(cl);
  if (it == self->clients.end()) return;
  if (it->second->started) self->finished.push_back(it->second->thread);
  self->clients.erase(it);
  cl->clientData = nullptr;
  log_peer("viewer %s left", cl->host);
}

void VncServer::Impl::on_pointer(int mask, int x, int y, rfbClientPtr cl) {
  heard_from(cl);
  Impl* self = of(cl);
  {
    std::lock_guard lock(self->input_mutex);
    self->source.pointer(x, y, static_cast<uint32_t>(mask));
  }
  rfbDefaultPtrAddEvent(mask, x, y, cl);  // other viewers' pointer positions
}

void VncServer::Impl::on_key(rfbBool down, rfbKeySym keysym, rfbClientPtr cl) {
  heard_from(cl);
  Impl* self = of(cl);
  std::lock_guard lock(self->input_mutex);
  self->source.key(keysym, down != 0);
}

void VncServer::Impl::on_update_request(rfbClientPtr cl, rfbFramebufferUpdateRequestMsg*) { heard_from(cl); }

// On the viewer's input thread, which alone ends its state (on_client_gone()).
void VncServer::Impl::heard_from(rfbClientPtr cl) {
  auto* state = static_cast<ClientState*>(cl->clientData);
  if (!state) return;
  state->last_heard.store(Clock::now().time_since_epoch().count());
  state->viewer.store(true);
}

// VNC authentication, with wrong passwords counted per address: one that
// is refused is refused whatever it sends.
rfbBool VncServer::Impl::check_password(rfbClientPtr cl, const char* response, int length) {
  Impl* self = of(cl);
  const std::string address = peer_address(cl->sock);
  const auto now = Clock::now();
  if (const auto left = self->throttle.refused(address, now)) {
    log_peer("refused a password from %s: too many wrong ones (%.3g s of its back-off left)", address.c_str(),
             seconds(*left));
    return FALSE;
  }
  if (rfbCheckPasswordByList(cl, response, length)) {
    self->throttle.succeeded(address);
    return TRUE;
  }
  if (self->throttle.failed(address, now)) {
    if (g_door_budget.allows()) {
      log_line("%s sent %u wrong passwords; refusing it for %.3g s", address.c_str(), self->throttle.failures(),
               seconds(self->throttle.backoff()));
    }
  } else {
    log_peer("wrong password from %s", address.c_str());
  }
  return FALSE;
}

void VncServer::Impl::end_connection(rfbClientPtr cl) {
  std::lock_guard lock(clients_mutex);
  auto it = clients.find(cl);
  if (it != clients.end() && it->second->socket.valid()) ::shutdown(it->second->socket.get(), SHUT_RDWR);
}

void VncServer::Impl::disconnect_viewers() {
  std::vector<pthread_t> threads;
  {
    std::lock_guard lock(clients_mutex);
    for (auto& [cl, state] : clients) {
      // Ends a send that waits on a full socket too; the viewer's threads
      // then close it and end.
      if (state->socket.valid()) ::shutdown(state->socket.get(), SHUT_RDWR);
      if (state->started) threads.push_back(state->thread);
    }
    threads.insert(threads.end(), finished.begin(), finished.end());
    finished.clear();
  }
  for (pthread_t t : threads) pthread_join(t, nullptr);
}

}  // namespace comp
