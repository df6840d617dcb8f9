// The RFB server's accept thread: connections taken, told apart (a VNC
// viewer, a browser's page request or WebSocket) on a handshake thread
// each, and the doors kept: handshake deadlines, quiet viewers, a few
// connections not yet viewers per address, and addresses refused for
// their wrong passwords (vnc_doors.cpp). Threads: vnc_server_impl.h.
#include <fcntl.h>
#include <sys/socket.h>

#include <algorithm>
#include <tuple>

#include "vnc_server_impl.h"

namespace comp {
namespace {

constexpr auto kGreetingWait = 250ms;  // a viewer's greeting waits this long for a current picture
constexpr int kSniffMs = 250;            // browsers speak at once; VNC viewers wait for the server
constexpr auto kRequestTime = 3s;
constexpr auto kPageSendTime = 10s;
constexpr size_t kMaxRequestHead = 8192;

}  // namespace

using wire::Fd;

void VncServer::Impl::accept_loop() {
  pollfd fds[2] = {{listener.fd.get(), POLLIN, 0}, {wake.get(), POLLIN, 0}};
  int wait_ms = -1;
  while (!stopping) {
    if (::poll(fds, 2, wait_ms) < 0) {
      if (errno == EINTR) continue;
      log_line("accepting viewers: %s", std::strerror(errno));
      return;
    }
    if (fds[1].revents) return;
    reap_handshakes();
    if (fds[0].revents) take_arrival();
    wait_ms = enforce_deadlines();
  }
}

void VncServer::Impl::take_arrival() {
  sockaddr_storage from{};
  socklen_t size = sizeof from;
  Fd socket(::accept4(listener.fd.get(), reinterpret_cast<sockaddr*>(&from), &size, SOCK_CLOEXEC));
  if (!socket.valid()) {
    if (errno == EMFILE || errno == ENFILE) std::this_thread::sleep_for(100ms);
    return;
  }
  // LibVNCServer waits on viewers' sockets with select().
  if (socket.get() >= FD_SETSIZE - 8) {
    log_peer("too many open files to take another viewer");
    return;
  }
  const std::string address = peer_address(reinterpret_cast<const sockaddr*>(&from));
  const auto now = Clock::now();
  if (const auto left = throttle.refused(address, now)) {
    log_peer("refused a connection from %s: too many wrong passwords (%.3g s of its back-off left)",
             address.c_str(), seconds(*left));
    return;
  }
  if (!make_room_for(address)) {
    log_peer("%zu connections are being set up; refusing one from %s", VncServer::kMaxPending, address.c_str());
    return;
  }
  Handshake& h = handshakes.emplace_back();
  h.address = address;
  h.deadline = now + options.handshake_timeout;
  h.socket = Fd(::fcntl(socket.get(), F_DUPFD_CLOEXEC, 0));
  h.thread = std::thread([this, &h, s = std::move(socket)]() mutable {
    take_connection(std::move(s), h.deadline);
    std::lock_guard lock(h.mutex);
    h.socket.reset();  // the connection must end when its last real owner closes it
    h.done = true;
  });
}

// Connections not yet viewers, those of `address` at most
// kMaxPendingPerAddress: its oldest gives way to the new one, so silent
// connections cannot keep an address's viewer out. False when they are
// kMaxPending in all.
bool VncServer::Impl::make_room_for(const std::string& address) {
  size_t total = 0, mine = 0;
  Handshake* oldest_handshake = nullptr;
  ClientState* oldest_client = nullptr;
  Clock::time_point oldest = Clock::time_point::max();
  for (Handshake& h : handshakes) {
    {
      std::lock_guard lock(h.mutex);
      if (h.done || h.ended) continue;
    }
    ++total;
    if (h.address != address) continue;
    ++mine;
    if (h.deadline < oldest) std::tie(oldest, oldest_handshake) = std::tuple(h.deadline, &h);
  }
  std::lock_guard lock(clients_mutex);
  for (auto& [cl, state] : clients) {
    if (state->viewer || state->ending) continue;
    ++total;
    if (state->address != address) continue;
    ++mine;
    if (state->deadline < oldest) {
      std::tie(oldest, oldest_client) = std::tuple(state->deadline, state.get());
      oldest_handshake = nullptr;
    }
  }
  if (mine < VncServer::kMaxPendingPerAddress) return total < VncServer::kMaxPending;
  log_peer("%s has %zu connections being set up; closing its oldest for a new one", address.c_str(), mine);
  if (oldest_client) {
    oldest_client->ending = true;
    if (oldest_client->socket.valid()) ::shutdown(oldest_client->socket.get(), SHUT_RDWR);
  } else if (oldest_handshake) {
    std::lock_guard hold(oldest_handshake->mutex);
    oldest_handshake->ended = true;
    if (oldest_handshake->socket.valid()) ::shutdown(oldest_handshake->socket.get(), SHUT_RDWR);
  }
  return true;
}

// Closes connections past their handshake deadline and viewers that have
// gone quiet; a viewer quiet for half of --vnc-idle-timeout is sent one
// pixel again, which a live one answers with its next request. Returns the
// milliseconds until the next thing to check, -1 for none.
int VncServer::Impl::enforce_deadlines() {
  const auto now = Clock::now();
  auto next = Clock::time_point::max();
  const double handshake_s = seconds(options.handshake_timeout);
  for (Handshake& h : handshakes) {
    std::lock_guard lock(h.mutex);
    if (h.done || h.ended) continue;
    if (now < h.deadline) {
      next = std::min(next, h.deadline);
      continue;
    }
    log_peer("%s did not finish its handshake in %.3g s; closing it", h.address.c_str(), handshake_s);
    h.ended = true;
    if (h.socket.valid()) ::shutdown(h.socket.get(), SHUT_RDWR);
  }
  const auto idle = options.idle_timeout;
  std::lock_guard lock(clients_mutex);
  for (auto& [cl, state] : clients) {
    if (state->ending) continue;
    Clock::time_point due;
    if (!state->viewer) {
      due = state->deadline;
      if (now >= due) {
        log_peer("%s did not finish its handshake in %.3g s; closing it", state->address.c_str(), handshake_s);
      }
    } else if (idle > 0ms) {
      const Clock::time_point heard{Clock::duration(state->last_heard.load())};
      due = heard + idle;
      if (now >= due) {
        log_peer("viewer %s sent nothing for %.3g s; closing it", state->address.c_str(), seconds(idle));
      } else if (state->probed < heard) {
        if (now >= heard + idle / 2) {
          ask_for_word(cl);
          state->probed = now;
        } else {
          due = heard + idle / 2;
        }
      }
    } else {
      continue;
    }
    if (now < due) {
      next = std::min(next, due);
      continue;
    }
    state->ending = true;
    if (state->socket.valid()) ::shutdown(state->socket.get(), SHUT_RDWR);
  }
  if (next == Clock::time_point::max()) return -1;
  const auto wait = std::chrono::ceil<std::chrono::milliseconds>(next - now);
  return static_cast<int>(std::clamp<int64_t>(wait.count(), 1, 24 * 3600 * 1000));
}

// One pixel marked changed: a viewer with a request pending gets it, and
// asks again.
void VncServer::Impl::ask_for_word(rfbClientPtr cl) {
  const Region pixel = rect_region(0, 0, 1, 1);
  pthread_mutex_lock(&cl->updateMutex);
  sraRgnOr(cl->modifiedRegion, pixel.get());
  pthread_cond_signal(&cl->updateCond);
  pthread_mutex_unlock(&cl->updateMutex);
}

void VncServer::Impl::reap_handshakes() {
  for (auto it = handshakes.begin(); it != handshakes.end();) {
    bool done;
    {
      std::lock_guard lock(it->mutex);
      done = it->done;
    }
    if (!done) {
      ++it;
      continue;
    }
    it->thread.join();
    it = handshakes.erase(it);
  }
}

void VncServer::Impl::take_connection(Fd socket, Clock::time_point deadline) {
  std::string head;
  switch (sniff(socket.get(), &head)) {
    case Arrival::kGone:
      return;
    case Arrival::kPage:
      serve_page(socket.get(), head);
      return;
    case Arrival::kViewer:
      await_current_picture();
      hand_to_library(socket.release(), deadline);
      return;
  }
}

// Browsers let any site's pages open a WebSocket to any address, this
// machine's loopback included: only noVNC's pages from this server may
// (same origin), and without a password only under a loopback name, which
// a site cannot rebind its own name to. (WebSockets over TLS reach
// LibVNCServer unread; a password guards those.)
bool VncServer::Impl::websocket_allowed(const std::string& head) const {
  const std::string host = header(head, "host:"), origin = header(head, "origin:");
  if (host.empty() || (origin != "http://" + host && origin != "https://" + host)) {
    log_peer("refused a WebSocket from the pages of %s", origin.empty() ? "no origin" : origin.c_str());
    return false;
  }
  if (password.empty() && !names_loopback(host)) {
    log_peer("refused a WebSocket for %s: without a password only a loopback name is served", host.c_str());
    return false;
  }
  return true;
}

// A VNC viewer waits for the server to speak; a browser sends a request at
// once, for a page or for a WebSocket (LibVNCServer answers those, and TLS).
Arrival VncServer::Impl::sniff(int fd, std::string* head) const {
  if (!wait_for(fd, POLLIN, kSniffMs)) return Arrival::kViewer;
  constexpr std::string_view kGet = "GET ";
  const auto deadline = Clock::now() + kRequestTime;
  std::string seen(kMaxRequestHead, '\0');
  for (;;) {
    const ssize_t n = ::recv(fd, seen.data(), seen.size(), MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return Arrival::kGone;
    const std::string_view got(seen.data(), static_cast<size_t>(std::max<ssize_t>(n, 0)));
    const std::string_view start = got.substr(0, kGet.size());
    if (start != kGet.substr(0, start.size())) return Arrival::kViewer;
    if (const size_t end = got.find("\r\n\r\n"); end != std::string_view::npos) {
      head->assign(got.substr(0, end + 4));
      return is_websocket(*head) && websocket_allowed(*head) ? Arrival::kViewer : Arrival::kPage;
    }
    if (got.size() == seen.size() || Clock::now() > deadline || stopping) return Arrival::kGone;
    // What was sent stays to be peeked at after the sender has gone.
    if (wait_for(fd, POLLRDHUP, 10)) return Arrival::kGone;
  }
}

void VncServer::Impl::serve_page(int fd, const std::string& head) const {
  // Take the request in, or closing would reset the connection under the reply.
  for (size_t taken = 0; taken < head.size();) {
    char sink[1024];
    const ssize_t n = ::recv(fd, sink, std::min(sizeof sink, head.size() - taken), MSG_DONTWAIT);
    if (n <= 0) return;
    taken += static_cast<size_t>(n);
  }
  const std::string reply = page_reply(pages_dir, head);
  if (send_all(fd, reply)) ::shutdown(fd, SHUT_WR);
}

bool VncServer::Impl::send_all(int fd, std::string_view data) const {
  const auto deadline = Clock::now() + kPageSendTime;
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
    if (stopping || Clock::now() > deadline) return false;
    wait_for(fd, POLLOUT, 100);
  }
  return true;
}

// A viewer is greeted with the picture's size as it is now. Without viewers
// nothing is composed, so the picture the first one brings on may differ
// in size from the last; a viewer that cannot follow a change of size
// (vncsnapshot) would be let go the moment it arrived.
void VncServer::Impl::await_current_picture() {
  ++arriving;
  {
    std::unique_lock lock(shown_mutex);
    const uint64_t seen = pictures_shown;
    shown_cv.wait_for(lock, kGreetingWait, [&] { return pictures_shown != seen || stopping; });
  }
  --arriving;
}

void VncServer::Impl::hand_to_library(int fd, Clock::time_point deadline) {
  rfbClientPtr cl = rfbNewClient(screen, fd);  // takes the socket; closes it on failure
  if (!cl) return;
  rfbIncrClientRef(cl);  // keeps `cl` until its thread is on record
  {
    std::lock_guard lock(clients_mutex);
    if (auto it = clients.find(cl); it != clients.end()) it->second->deadline = deadline;
  }
  rfbStartOnHoldClient(cl);
  {
    std::lock_guard lock(clients_mutex);
    if (auto it = clients.find(cl); it != clients.end()) {
      it->second->thread = cl->client_thread;
      it->second->started = true;
    }
  }
  rfbDecrClientRef(cl);
}

}  // namespace comp
