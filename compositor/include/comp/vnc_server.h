// The composed picture for remote viewers: an RFB (VNC) server on
// LibVNCServer. One port serves VNC viewers, noVNC's pages to browsers and
// the WebSocket connections noVNC makes back. Input from every viewer goes
// back to the picture's source.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comp/compositor.h"
#include "wire/result.h"

namespace comp {

// What the server shows and where its viewers' input goes.
class PictureSource {
 public:
  virtual ~PictureSource() = default;
  // As Compositor::wait_picture.
  virtual bool wait_picture(uint64_t* version, Canvas* out, std::vector<Rect>* damage,
                            std::chrono::milliseconds timeout) = 0;
  // Canvas coordinates and the RFB button mask (bit 0 left, 1 middle,
  // 2 right, 3 and 4 wheel up and down). Called from one thread at a time.
  virtual void pointer(int32_t x, int32_t y, uint32_t button_mask) = 0;
  // An X11 keysym.
  virtual void key(uint32_t keysym, bool pressed) = 0;
};

// The compositor's picture and input routing.
class CompositorSource final : public PictureSource {
 public:
  explicit CompositorSource(Compositor& compositor) : compositor_(compositor) {}
  bool wait_picture(uint64_t* version, Canvas* out, std::vector<Rect>* damage,
                    std::chrono::milliseconds timeout) override {
    return compositor_.wait_picture(version, out, damage, timeout);
  }
  void pointer(int32_t x, int32_t y, uint32_t button_mask) override {
    compositor_.pointer(x, y, button_mask);
  }
  void key(uint32_t keysym, bool pressed) override { compositor_.key(keysym, pressed); }

 private:
  Compositor& compositor_;
};

struct VncServerOptions {
  // HOST:PORT, [IPv6]:PORT or PORT (on 127.0.0.1). Port 0 takes a free
  // port (see port()).
  std::string listen = "127.0.0.1:5900";
  // A file whose first line is the password (VNC authentication, which
  // uses its first 8 characters); only its owner may read it. Required
  // unless every address `listen` names is a loopback address.
  std::string password_file;
  // noVNC's files, served to browsers on the same port (http://HOST:PORT/
  // opens vnc.html). Empty: /usr/share/novnc when it exists, else none.
  std::string novnc_dir;
  // PEM certificate and key: WebSocket connections may then use TLS
  // (wss://, noVNC's "encrypt"). Pages are still served in the clear.
  std::string tls_cert, tls_key;
  std::string desktop_name = "Conduit";
  // A connection that is not a viewer this long after it was accepted (RFB
  // handshake, password and its first request done) is closed; so is a
  // page request not answered by then.
  std::chrono::milliseconds handshake_timeout{30'000};
  // A viewer that sends nothing this long is closed; 0: never. Viewers ask
  // for updates continually; while the picture is still, one pixel is sent
  // again halfway through, which a viewer answers with its next request.
  std::chrono::milliseconds idle_timeout{600'000};
  // This many wrong passwords from one address (an IPv6 /64) within
  // `password_backoff` refuse it for `password_backoff`; 0: no limit.
  unsigned password_failures = 5;
  std::chrono::milliseconds password_backoff{60'000};
};

class VncServer {
 public:
  // Listens and serves `source` until destroyed; `source` must outlive it.
  static wire::Result<std::unique_ptr<VncServer>> start(PictureSource& source,
                                                        VncServerOptions options);
  ~VncServer();  // disconnects every viewer
  VncServer(const VncServer&) = delete;
  VncServer& operator=(const VncServer&) = delete;

  uint16_t port() const;

  // Connections not yet viewers (page requests too): at most this many from
  // one address (its oldest is closed for a new one; a browser loads
  // noVNC's pages over 6 at once), and this many in all (a new one is
  // refused).
  static constexpr size_t kMaxPendingPerAddress = 8;
  static constexpr size_t kMaxPending = 64;

 private:
  struct Impl;
  explicit VncServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The first line of a password file that only its owner may read or
// write (like an ssh key); shared by the server and the viewer.
wire::Result<std::string> read_vnc_password_file(const std::string& path);

// "HOST:PORT" or "[IPv6]:PORT" split into its parts, brackets removed; a
// PORT alone is on 127.0.0.1.
struct HostPort {
  std::string host;
  uint16_t port = 0;
};
wire::Result<HostPort> parse_host_port(const std::string& address);

}  // namespace comp
