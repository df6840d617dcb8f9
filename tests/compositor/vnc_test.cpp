// The RFB server against libvncclient and raw sockets, and the native
// viewer: pixels arrive exactly, changes and resizes follow, a still
// picture ends up lossless, input comes back, passwords are checked, unsafe
// setups are refused, a stalled viewer holds no one up, and noVNC's pages
// and its WebSocket share the port; silent, slow and idle connections are
// closed, and wrong passwords refuse their address for a while.
#include "comp/vnc_server.h"
#include "comp/vnc_viewer.h"
#include "wire/sanitizer.h"

#include <SDL.h>
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <rfb/rfbclient.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

// libvncclient's DES for VNC authentication, which its header leaves out.
extern "C" void rfbClientEncryptBytes(unsigned char* bytes, char* password);

namespace comp {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

Canvas pattern(uint32_t width, uint32_t height, uint32_t seed) {
  Canvas c{width, height, std::vector<uint32_t>(size_t{width} * height)};
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      c.pixels[size_t{y} * width + x] = ((x * 4 + seed) & 0xff) << 16 | ((y * 5 + seed * 3) & 0xff) << 8 |
                                        (((x ^ y) + seed) & 0xff);
    }
  }
  return c;
}

// Pixels no JPEG keeps exactly.
Canvas noise(uint32_t width, uint32_t height, uint32_t seed) {
  Canvas c{width, height, std::vector<uint32_t>(size_t{width} * height)};
  uint32_t s = seed * 2654435761u + 1;
  for (uint32_t& p : c.pixels) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    p = s & 0xffffff;
  }
  return c;
}

struct PointerEvent {
  int32_t x, y;
  uint32_t mask;
  bool operator==(const PointerEvent&) const = default;
};

class TestSource final : public PictureSource {
 public:
  explicit TestSource(Canvas canvas) { show(std::move(canvas)); }

  // A new picture; `damage` against the one before (empty: all of it).
  void show(Canvas canvas, std::vector<Rect> damage = {}) {
    std::lock_guard lock(mutex_);
    canvas_ = std::move(canvas);
    damage_ = std::move(damage);
    ++version_;
    changed_.notify_all();
  }

  bool wait_picture(uint64_t* version, Canvas* out, std::vector<Rect>* damage,
                    std::chrono::milliseconds timeout) override {
    std::unique_lock lock(mutex_);
    if (!changed_.wait_for(lock, timeout, [&] { return *version < version_; })) return false;
    const bool follows = *version + 1 == version_ && out->width == canvas_.width &&
                         out->height == canvas_.height && !damage_.empty();
    *damage = follows ? damage_
                      : std::vector<Rect>{{0, 0, int32_t(canvas_.width), int32_t(canvas_.height)}};
    *out = canvas_;
    *version = version_;
    return true;
  }

  void pointer(int32_t x, int32_t y, uint32_t button_mask) override {
    std::lock_guard lock(mutex_);
    pointers_.push_back({x, y, button_mask});
    changed_.notify_all();
  }

  void key(uint32_t keysym, bool pressed) override {
    std::lock_guard lock(mutex_);
    keys_.emplace_back(keysym, pressed);
    changed_.notify_all();
  }

  bool saw_pointer(PointerEvent e, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] {
      return std::find(pointers_.begin(), pointers_.end(), e) != pointers_.end();
    });
  }

  bool saw_key(uint32_t keysym, bool pressed, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    const std::pair<uint32_t, bool> k{keysym, pressed};
    return changed_.wait_for(lock, timeout,
                             [&] { return std::find(keys_.begin(), keys_.end(), k) != keys_.end(); });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  Canvas canvas_;
  std::vector<Rect> damage_;
  uint64_t version_ = 0;
  std::vector<PointerEvent> pointers_;
  std::vector<std::pair<uint32_t, bool>> keys_;
};

void quiet(const char*, ...) {}

char g_tag;

// A libvncclient viewer whose framebuffer holds 0x00RRGGBB words.
class TestClient {
 public:
  ~TestClient() {
    if (client_) rfbClientCleanup(client_);
  }

  // False when the connection or its authentication fails.
  bool connect(uint16_t port, const char* encodings = "raw", std::string password = "",
               int quality = -1) {
    rfbClientLog = quiet;
    rfbClientErr = quiet;
    password_ = std::move(password);
    rfbClient* c = rfbGetClient(8, 3, 4);
    c->format.redShift = 16;
    c->format.greenShift = 8;
    c->format.blueShift = 0;
    c->appData.encodingsString = encodings;
    if (quality >= 0) c->appData.qualityLevel = quality;
    c->MallocFrameBuffer = &TestClient::on_size;
    c->GetPassword = &TestClient::on_password;
    c->connectTimeout = 5;
    std::free(c->serverHost);
    c->serverHost = strdup("127.0.0.1");
    c->serverPort = port;
    rfbClientSetClientData(c, &g_tag, this);
    if (!rfbInitClient(c, nullptr, nullptr)) return false;  // frees `c`
    client_ = c;
    return true;
  }

  // Handles one server message; false when none came in time or it failed.
  bool handle_one(std::chrono::milliseconds timeout) {
    if (client_->buffered == 0 && WaitForMessage(client_, static_cast<unsigned>(timeout.count() * 1000)) <= 0) {
      return false;
    }
    return HandleRFBServerMessage(client_);
  }

  bool pump_until(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    const auto end = Clock::now() + timeout;
    while (!done()) {
      if (Clock::now() > end) return false;
      handle_one(20ms);
    }
    return true;
  }

  void drain() {
    while (handle_one(100ms)) {
    }
  }

  bool shows(const Canvas& c) const {
    if (c.width != width() || c.height != height()) return false;
    for (size_t i = 0; i < c.pixels.size(); ++i) {
      if ((pixels_[i] & 0xffffff) != c.pixels[i]) return false;
    }
    return true;
  }

  uint32_t width() const { return client_ ? uint32_t(client_->width) : 0; }
  uint32_t height() const { return client_ ? uint32_t(client_->height) : 0; }
  rfbClient* get() { return client_; }

 private:
  static TestClient* of(rfbClient* c) { return static_cast<TestClient*>(rfbClientGetClientData(c, &g_tag)); }

  static rfbBool on_size(rfbClient* c) {
    TestClient* self = of(c);
    self->pixels_.assign(size_t(c->width) * c->height, 0);
    c->frameBuffer = reinterpret_cast<uint8_t*>(self->pixels_.data());
    return TRUE;
  }

  // libvncclient frees what this returns, unless it is empty.
  static char* on_password(rfbClient* c) {
    return of(c)->password_.empty() ? nullptr : strdup(of(c)->password_.c_str());
  }

  rfbClient* client_ = nullptr;
  std::vector<uint32_t> pixels_;
  std::string password_;
};

class TempDir {
 public:
  TempDir() {
    char name[] = "/tmp/vnc-test-XXXXXX";
    path_ = ::mkdtemp(name);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string write(const std::string& name, const std::string& text, mode_t mode) const {
    const std::string file = path_ + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(file).parent_path());
    std::ofstream(file) << text;
    ::chmod(file.c_str(), mode);
    return file;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

VncServerOptions local() {
  VncServerOptions o;
  o.listen = "127.0.0.1:0";
  return o;
}

std::unique_ptr<VncServer> start(PictureSource& source, VncServerOptions options = local()) {
  auto server = VncServer::start(source, std::move(options));
  EXPECT_TRUE(server) << (server ? "" : server.error().describe());
  return server ? std::move(*server) : nullptr;
}

int connect_tcp(uint16_t port, int receive_buffer = 0) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (receive_buffer) ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool read_exact(int fd, void* data, size_t size, std::chrono::milliseconds timeout = 3s) {
  auto* p = static_cast<char*>(data);
  const auto end = Clock::now() + timeout;
  while (size > 0) {
    pollfd pfd{fd, POLLIN, 0};
    if (Clock::now() > end || ::poll(&pfd, 1, 50) < 0) return false;
    if (!(pfd.revents & (POLLIN | POLLHUP))) continue;
    const ssize_t n = ::recv(fd, p, size, 0);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Everything the server sends until it closes.
std::string read_all(int fd) {
  std::string all;
  char buf[4096];
  for (;;) {
    pollfd pfd{fd, POLLIN, 0};
    if (::poll(&pfd, 1, 3000) <= 0) break;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    all.append(buf, static_cast<size_t>(n));
  }
  return all;
}

// A connection to the server on 127.0.0.1 from `source` (any address of
// 127/8 is this machine).
int connect_from(uint16_t port, const char* source) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in from{};
  from.sin_family = AF_INET;
  ::inet_pton(AF_INET, source, &from.sin_addr);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

enum class Handshake { kViewer, kWrongPassword, kClosed };

// RFB 3.8 up to ServerInit by hand: VNC authentication with `password`
// when the server asks for it, else none.
Handshake rfb_handshake(int fd, const std::string& password = "") {
  char version[12];
  if (!read_exact(fd, version, sizeof version)) return Handshake::kClosed;
  if (::send(fd, "RFB 003.008\n", 12, MSG_NOSIGNAL) != 12) return Handshake::kClosed;
  uint8_t count = 0, type = 0;
  if (!read_exact(fd, &count, 1) || count != 1 || !read_exact(fd, &type, 1)) return Handshake::kClosed;
  if (::send(fd, &type, 1, MSG_NOSIGNAL) != 1) return Handshake::kClosed;
  if (type == 2) {  // VNC authentication: the challenge encrypted with the password
    unsigned char challenge[16];
    if (!read_exact(fd, challenge, sizeof challenge)) return Handshake::kClosed;
    std::string key = password;
    rfbClientEncryptBytes(challenge, key.data());
    if (::send(fd, challenge, sizeof challenge, MSG_NOSIGNAL) != ssize_t(sizeof challenge)) return Handshake::kClosed;
  }
  uint32_t result = 1;
  if (!read_exact(fd, &result, 4)) return Handshake::kClosed;
  if (result != 0) return Handshake::kWrongPassword;
  const uint8_t shared = 1;
  if (::send(fd, &shared, 1, MSG_NOSIGNAL) != 1) return Handshake::kClosed;
  uint8_t init[24];
  if (!read_exact(fd, init, sizeof init)) return Handshake::kClosed;
  std::string name(ntohl(*reinterpret_cast<uint32_t*>(init + 20)), '\0');
  return read_exact(fd, name.data(), name.size()) ? Handshake::kViewer : Handshake::kClosed;
}

// Connects from `source` and logs in: kViewer when the server took it.
Handshake log_in(uint16_t port, const char* source, const std::string& password) {
  const int fd = connect_from(port, source);
  if (fd < 0) return Handshake::kClosed;
  const Handshake result = rfb_handshake(fd, password);
  ::close(fd);
  return result;
}

// How long until the server closes `fd` (what it sends is read and
// dropped); nothing when it is still open after `limit`.
std::optional<Clock::duration> time_to_close(int fd, Clock::time_point since, std::chrono::milliseconds limit) {
  const auto end = Clock::now() + limit;
  char sink[4096];
  while (Clock::now() < end) {
    pollfd pfd{fd, POLLIN, 0};
    if (::poll(&pfd, 1, 20) <= 0) continue;
    if (::recv(fd, sink, sizeof sink, 0) <= 0) return Clock::now() - since;
  }
  return std::nullopt;
}

// The server has closed `fd` (what it sent is read and dropped).
bool closed_now(int fd) {
  char sink[4096];
  for (;;) {
    const ssize_t n = ::recv(fd, sink, sizeof sink, MSG_DONTWAIT);
    if (n == 0) return true;
    if (n < 0) return errno != EAGAIN;
  }
}

std::string http_get(uint16_t port, const std::string& path) {
  const int fd = connect_tcp(port);
  const std::string request = "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
  EXPECT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), ssize_t(request.size()));
  std::string reply = read_all(fd);
  ::close(fd);
  return reply;
}

TEST(VncServer, ViewerSeesTheCanvasExactly) {
  const Canvas canvas = pattern(64, 48, 1);
  TestSource source(canvas);
  auto server = start(source);
  ASSERT_TRUE(server);
  EXPECT_NE(server->port(), 0);
  TestClient viewer;
  ASSERT_TRUE(viewer.connect(server->port()));
  EXPECT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 5s));
}

TEST(VncServer, ChangesAndResizesReachTheViewer) {
  Canvas canvas = pattern(64, 48, 1);
  TestSource source(canvas);
  auto server = start(source);
  ASSERT_TRUE(server);
  TestClient viewer;
  ASSERT_TRUE(viewer.connect(server->port(), "hextile"));
  ASSERT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 5s));

  for (int y = 4; y < 20; ++y) {
    for (int x = 8; x < 24; ++x) canvas.pixels[size_t(y) * 64 + x] = 0x123456 + uint32_t(x * y);
  }
  source.show(canvas, {{8, 4, 16, 16}, {60, 40, 100, 100}});  // the second reaches past the edge
  EXPECT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 5s));

  canvas = pattern(80, 40, 7);
  source.show(canvas);
  EXPECT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 5s));
  canvas = pattern(32, 24, 9);
  source.show(canvas);
  EXPECT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 5s));
}

TEST(VncServer, StillPictureBecomesLossless) {
  Canvas canvas = noise(128, 96, 3);
  TestSource source(canvas);
  auto server = start(source);
  ASSERT_TRUE(server);
  TestClient viewer;
  ASSERT_TRUE(viewer.connect(server->port(), "tight", "", 1));
  ASSERT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 5s));
  viewer.drain();

  canvas = noise(128, 96, 4);
  source.show(canvas);
  ASSERT_TRUE(viewer.handle_one(3s));
  EXPECT_FALSE(viewer.shows(canvas)) << "the changing picture should come with JPEG first";
  EXPECT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 5s));
}

TEST(VncServer, PointerAndKeysComeBack) {
  TestSource source(pattern(64, 48, 1));
  auto server = start(source);
  ASSERT_TRUE(server);
  TestClient viewer;
  ASSERT_TRUE(viewer.connect(server->port()));
  SendPointerEvent(viewer.get(), 10, 20, 1);
  SendPointerEvent(viewer.get(), 11, 21, 0);
  SendKeyEvent(viewer.get(), XK_a, TRUE);
  SendKeyEvent(viewer.get(), XK_Return, FALSE);
  EXPECT_TRUE(source.saw_pointer({10, 20, 1}, 3s));
  EXPECT_TRUE(source.saw_pointer({11, 21, 0}, 3s));
  EXPECT_TRUE(source.saw_key(XK_a, true, 3s));
  EXPECT_TRUE(source.saw_key(XK_Return, false, 3s));
}

TEST(VncServer, PasswordIsChecked) {
  TempDir dir;
  const Canvas canvas = pattern(64, 48, 2);
  TestSource source(canvas);
  VncServerOptions options = local();
  options.password_file = dir.write("password", "open sesame\n", 0600);
  auto server = start(source, options);
  ASSERT_TRUE(server);
  TestClient right, wrong, none;
  ASSERT_TRUE(right.connect(server->port(), "raw", "open sesame"));
  EXPECT_TRUE(right.pump_until([&] { return right.shows(canvas); }, 5s));
  EXPECT_FALSE(wrong.connect(server->port(), "raw", "open barley"));
  EXPECT_FALSE(none.connect(server->port(), "raw", ""));
}

TEST(VncServer, NonLoopbackNeedsAPassword) {
  TestSource source(pattern(64, 48, 1));
  VncServerOptions options;
  options.listen = "0.0.0.0:0";
  auto refused = VncServer::start(source, options);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().detail.find("needs --vnc-password-file"), std::string::npos)
      << refused.error().detail;

  TempDir dir;
  options.password_file = dir.write("password", "pw\n", 0600);
  EXPECT_TRUE(start(source, options));
}

TEST(VncServer, PasswordFileOthersCanReadIsRefused) {
  TempDir dir;
  TestSource source(pattern(64, 48, 1));
  VncServerOptions options = local();
  options.password_file = dir.write("password", "pw\n", 0644);
  auto refused = VncServer::start(source, options);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().detail.find("accessible by other users"), std::string::npos)
      << refused.error().detail;
  auto read = read_vnc_password_file(options.password_file);
  EXPECT_FALSE(read);
  ::chmod(options.password_file.c_str(), 0600);
  read = read_vnc_password_file(options.password_file);
  ASSERT_TRUE(read);
  EXPECT_EQ(*read, "pw");
}

TEST(VncServer, AddressesAreHostAndPort) {
  auto v4 = parse_host_port("127.0.0.1:5900");
  ASSERT_TRUE(v4);
  EXPECT_EQ(v4->host, "127.0.0.1");
  EXPECT_EQ(v4->port, 5900);
  auto v6 = parse_host_port("[::1]:0");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 0);
  auto port_alone = parse_host_port("5901");
  ASSERT_TRUE(port_alone);
  EXPECT_EQ(port_alone->host, "127.0.0.1");
  EXPECT_EQ(port_alone->port, 5901);
  for (const char* bad : {"", "localhost", "localhost:", ":5900", "70000", "::1:5900", "[::1]5900", "host:65536", "host:5x"}) {
    EXPECT_FALSE(parse_host_port(bad)) << bad;
  }
}

// A viewer that asks for a large picture and never reads it holds up
// neither the pictures nor the other viewers, nor a change of size.
// This process's resident memory (VmRSS).
long resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("VmRSS:")) return std::stol(line.substr(6));
  }
  return 0;
}

TEST(VncServer, StalledViewerHoldsNoOneUp) {
  Canvas canvas = noise(2048, 1536, 1);
  TestSource source(canvas);
  auto server = start(source);
  ASSERT_TRUE(server);

  const int stalled = connect_tcp(server->port(), 4096);
  ASSERT_GE(stalled, 0);
  char version[12];
  ASSERT_TRUE(read_exact(stalled, version, sizeof version));
  ASSERT_EQ(std::string(version, sizeof version), "RFB 003.008\n");
  ASSERT_EQ(::send(stalled, version, sizeof version, MSG_NOSIGNAL), ssize_t(sizeof version));
  uint8_t count = 0, type = 0;
  ASSERT_TRUE(read_exact(stalled, &count, 1));
  ASSERT_EQ(count, 1);
  ASSERT_TRUE(read_exact(stalled, &type, 1));
  ASSERT_EQ(type, 1);  // no authentication on loopback
  ASSERT_EQ(::send(stalled, &type, 1, MSG_NOSIGNAL), 1);
  uint32_t result = 1;
  ASSERT_TRUE(read_exact(stalled, &result, 4));
  ASSERT_EQ(result, 0u);
  const uint8_t shared = 1;
  ASSERT_EQ(::send(stalled, &shared, 1, MSG_NOSIGNAL), 1);
  uint8_t init[24];
  ASSERT_TRUE(read_exact(stalled, init, sizeof init));
  std::string name(ntohl(*reinterpret_cast<uint32_t*>(init + 20)), '\0');
  ASSERT_TRUE(read_exact(stalled, name.data(), name.size()));
  // Raw pixels, and it follows size changes (NewFBSize, -223).
  const uint8_t encodings[12] = {2, 0, 0, 2, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x21};
  ASSERT_EQ(::send(stalled, encodings, sizeof encodings, MSG_NOSIGNAL), ssize_t(sizeof encodings));
  const uint8_t request[10] = {3, 0, 0, 0, 0, 0, 2048 >> 8, 0, 1536 >> 8, 0};
  ASSERT_EQ(::send(stalled, request, sizeof request, MSG_NOSIGNAL), ssize_t(sizeof request));
  std::this_thread::sleep_for(300ms);
  int waiting = 0;
  ASSERT_EQ(::ioctl(stalled, FIONREAD, &waiting), 0);
  EXPECT_GT(waiting, 0) << "the stalled viewer was sent nothing";

  TestClient viewer;
  ASSERT_TRUE(viewer.connect(server->port()));
  EXPECT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 5s));
  for (uint32_t seed = 2; seed < 4; ++seed) {
    canvas = noise(2048, 1536, seed);
    source.show(canvas);
    EXPECT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 3s));
  }
  // What a stalled viewer is owed is a region, not a queue of pictures:
  // thirty more pictures leave the server's memory where it was.
  const long before = resident_kib();
  for (uint32_t seed = 10; seed < 40; ++seed) {
    canvas = noise(2048, 1536, seed);
    source.show(canvas);
    EXPECT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 3s));
  }
  // (ASan keeps freed memory in quarantine: resident memory says nothing there.)
  if (!CONDUIT_ASAN) {
    EXPECT_LT(resident_kib() - before, 32 * 1024) << "KiB grown while a viewer took nothing";
  }
  canvas = pattern(640, 480, 5);
  source.show(canvas);
  EXPECT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 4s));
  ::close(stalled);
}

std::string upgrade_request(const std::string& host, const std::string& origin) {
  return "GET /websockify HTTP/1.1\r\nHost: " + host +
         "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
         (origin.empty() ? "" : "Origin: " + origin + "\r\n") +
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
         "Sec-WebSocket-Protocol: binary\r\n\r\n";
}

TEST(VncServer, ServesPagesAndWebSocketOnOnePort) {
  TempDir pages;
  pages.write("vnc.html", "<html>viewer</html>", 0644);
  pages.write("app/ui.js", "export const x = 1;", 0644);
  pages.write(".hidden", "secret", 0644);
  TestSource source(pattern(64, 48, 1));
  VncServerOptions options = local();
  options.novnc_dir = pages.path();
  auto server = start(source, options);
  ASSERT_TRUE(server);
  const uint16_t port = server->port();

  std::string page = http_get(port, "/vnc.html?autoconnect=1");
  EXPECT_TRUE(page.starts_with("HTTP/1.1 200 OK\r\n")) << page;
  EXPECT_NE(page.find("Content-Type: text/html"), std::string::npos) << page;
  EXPECT_TRUE(page.ends_with("\r\n\r\n<html>viewer</html>")) << page;
  EXPECT_EQ(http_get(port, "/"), page);
  page = http_get(port, "/app/ui.js");
  EXPECT_NE(page.find("Content-Type: text/javascript"), std::string::npos) << page;
  for (const char* refused : {"/../etc/passwd", "/.hidden", "/app/../vnc.html", "/missing.js", "/app"}) {
    EXPECT_TRUE(http_get(port, refused).starts_with("HTTP/1.1 404")) << refused;
  }

  // Another site's pages, or a name that a site could rebind to this
  // machine, may not open a WebSocket to a server without a password.
  const std::string here = "localhost:" + std::to_string(port);
  for (const auto& [host, origin] : {std::pair{here, "http://evil.example"}, {here, ""},
                                     {std::string("evil.example:80"), "http://evil.example:80"}}) {
    const int refused = connect_tcp(port);
    const std::string request = upgrade_request(host, origin);
    ASSERT_EQ(::send(refused, request.data(), request.size(), MSG_NOSIGNAL), ssize_t(request.size()));
    EXPECT_TRUE(read_all(refused).starts_with("HTTP/1.1 403")) << host << " " << origin;
    ::close(refused);
  }

  const int ws = connect_tcp(port);
  const std::string upgrade = upgrade_request(here, "http://" + here);
  ASSERT_EQ(::send(ws, upgrade.data(), upgrade.size(), MSG_NOSIGNAL), ssize_t(upgrade.size()));
  std::string reply;
  char c;
  while (!reply.ends_with("\r\n\r\n") && read_exact(ws, &c, 1)) reply += c;
  EXPECT_TRUE(reply.starts_with("HTTP/1.1 101")) << reply;
  uint8_t frame[2 + 12];
  ASSERT_TRUE(read_exact(ws, frame, sizeof frame));
  EXPECT_EQ(frame[0], 0x82);  // a final binary frame
  EXPECT_EQ(frame[1], 12);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(frame + 2), 12), "RFB 003.008\n");
  ::close(ws);
}

void use_headless_sdl() {
  ::setenv("SDL_VIDEODRIVER", "dummy", 1);
  ::setenv("SDL_RENDER_DRIVER", "software", 1);
}

void push_key(SDL_Keycode sym, bool down) {
  SDL_Event e{};
  e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
  e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
  e.key.keysym.sym = sym;
  SDL_PushEvent(&e);
}

void push_button(int32_t x, int32_t y, bool down) {
  SDL_Event e{};
  e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
  e.button.button = SDL_BUTTON_LEFT;
  e.button.x = x;
  e.button.y = y;
  SDL_PushEvent(&e);
}

void wait_for_sdl() {
  const auto end = Clock::now() + 5s;
  while (!SDL_WasInit(SDL_INIT_VIDEO) && Clock::now() < end) std::this_thread::sleep_for(10ms);
}

TEST(VncViewer, SendsInputAndEndsWhenTheServerGoes) {
  use_headless_sdl();
  TestSource source(pattern(64, 48, 1));
  auto server = start(source);
  ASSERT_TRUE(server);
  const std::string address = "127.0.0.1:" + std::to_string(server->port());
  std::thread user([&] {
    wait_for_sdl();
    push_key(SDLK_a, true);
    push_key(SDLK_a, false);
    push_button(32, 24, true);  // the window is the picture's size
    EXPECT_TRUE(source.saw_key(XK_a, true, 5s));
    EXPECT_TRUE(source.saw_key(XK_a, false, 5s));
    EXPECT_TRUE(source.saw_pointer({32, 24, 1}, 5s));
    server.reset();
  });
  const wire::Status ended = run_vnc_viewer({address, ""});
  user.join();
  ASSERT_FALSE(ended);
  EXPECT_NE(ended.error().detail.find("connection ended"), std::string::npos) << ended.error().detail;
}

TEST(VncViewer, ClosingTheWindowEndsIt) {
  use_headless_sdl();
  TestSource source(pattern(64, 48, 1));
  auto server = start(source);
  ASSERT_TRUE(server);
  std::thread user([] {
    wait_for_sdl();
    SDL_Event quit{};
    quit.type = SDL_QUIT;
    SDL_PushEvent(&quit);
  });
  const wire::Status ended = run_vnc_viewer({"127.0.0.1:" + std::to_string(server->port()), ""});
  user.join();
  EXPECT_TRUE(ended) << (ended ? "" : ended.error().describe());
}

TEST(VncViewer, SaysWhyItCannotConnect) {
  TempDir dir;
  TestSource source(pattern(64, 48, 1));
  VncServerOptions options = local();
  options.password_file = dir.write("password", "pw\n", 0600);
  auto server = start(source, options);
  ASSERT_TRUE(server);
  const std::string address = "127.0.0.1:" + std::to_string(server->port());
  const wire::Status no_password = run_vnc_viewer({address, ""});
  ASSERT_FALSE(no_password);
  EXPECT_NE(no_password.error().detail.find("asks for a password"), std::string::npos)
      << no_password.error().detail;
  const wire::Status wrong = run_vnc_viewer({address, dir.write("wrong", "nope\n", 0600)});
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().detail.find("cannot connect"), std::string::npos) << wrong.error().detail;
  server.reset();
  const wire::Status refused = run_vnc_viewer({address, ""});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().detail.find("cannot connect"), std::string::npos) << refused.error().detail;
}

// Each connection has its own handshake deadline: a silent one, one that
// stops after the version and one that stops inside "GET " are closed at
// theirs, and meanwhile a viewer connects and gets pictures, also after.
TEST(VncServer, SilentConnectionsAreClosedAtTheirDeadlineWhileAViewerGetsIn) {
  Canvas canvas = pattern(64, 48, 1);
  TestSource source(canvas);
  VncServerOptions options = local();
  options.handshake_timeout = 1500ms;
  auto server = start(source, options);
  ASSERT_TRUE(server);
  const auto opened = Clock::now();
  const int silent = connect_tcp(server->port());
  const int after_version = connect_tcp(server->port());
  const int half_request = connect_tcp(server->port());
  ASSERT_GE(silent, 0);
  ASSERT_GE(after_version, 0);
  ASSERT_GE(half_request, 0);
  ASSERT_EQ(::send(half_request, "GET ", 4, MSG_NOSIGNAL), 4);
  char version[12];
  ASSERT_TRUE(read_exact(after_version, version, sizeof version));
  ASSERT_EQ(::send(after_version, version, sizeof version, MSG_NOSIGNAL), ssize_t(sizeof version));

  TestClient viewer;
  ASSERT_TRUE(viewer.connect(server->port()));
  ASSERT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 5s));
  EXPECT_LT(Clock::now() - opened, options.handshake_timeout) << "the viewer waited for the silent ones";
  for (const int fd : {silent, after_version, half_request}) {
    const auto closed = time_to_close(fd, opened, 4s);
    ASSERT_TRUE(closed) << "a connection that never finished its handshake is still open";
    EXPECT_GE(*closed, options.handshake_timeout - 100ms);
    EXPECT_LT(*closed, options.handshake_timeout + 1s);
    ::close(fd);
  }
  canvas = pattern(64, 48, 2);
  source.show(canvas);
  EXPECT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 5s)) << "the viewer was closed too";
}

// An address holds only a few connections that are not viewers yet: its
// oldest gives way to a new one, so silent connections cannot keep its
// viewer out; and only so many are set up in all.
TEST(VncServer, SilentConnectionsGiveWayToANewOne) {
  const Canvas canvas = pattern(64, 48, 1);
  TestSource source(canvas);
  auto server = start(source);  // handshakes may take the default 10 s
  ASSERT_TRUE(server);
  std::vector<int> silent;
  for (int i = 0; i < 20; ++i) {
    silent.push_back(connect_tcp(server->port()));
    ASSERT_EQ(::send(silent.back(), "GET ", 4, MSG_NOSIGNAL), 4);
  }
  TestClient viewer;
  ASSERT_TRUE(viewer.connect(server->port()));
  EXPECT_TRUE(viewer.pump_until([&] { return viewer.shows(canvas); }, 5s));

  // Other addresses fill every place, then one more is refused at once.
  for (const int fd : silent) ::close(fd);
  silent.clear();
  std::this_thread::sleep_for(100ms);
  for (size_t a = 0; a < VncServer::kMaxPending / VncServer::kMaxPendingPerAddress; ++a) {
    const std::string source_address = "127.0.0." + std::to_string(2 + a);
    for (size_t i = 0; i < VncServer::kMaxPendingPerAddress; ++i) {
      silent.push_back(connect_from(server->port(), source_address.c_str()));
      ASSERT_GE(silent.back(), 0);
    }
  }
  std::this_thread::sleep_for(300ms);
  for (const int fd : silent) EXPECT_FALSE(closed_now(fd)) << "a connection within the bounds was refused";
  const int refused = connect_from(server->port(), "127.0.0.100");
  ASSERT_GE(refused, 0);
  const auto closed = time_to_close(refused, Clock::now(), 2s);
  ASSERT_TRUE(closed) << "more connections than the bound were set up";
  EXPECT_LT(*closed, 1s);
  ::close(refused);
  for (const int fd : silent) ::close(fd);
}

// A viewer that stops asking for pictures is closed once idle; one that
// keeps asking stays, also while the picture is still.
TEST(VncServer, IdleViewerIsClosed) {
  Canvas canvas = pattern(64, 48, 1);
  TestSource source(canvas);
  VncServerOptions options = local();
  options.idle_timeout = 1s;
  auto server = start(source, options);
  ASSERT_TRUE(server);
  const int idle = connect_tcp(server->port());
  ASSERT_GE(idle, 0);
  ASSERT_EQ(rfb_handshake(idle), Handshake::kViewer);
  const uint8_t request[10] = {3, 0, 0, 0, 0, 0, 0, 64, 0, 48};
  ASSERT_EQ(::send(idle, request, sizeof request, MSG_NOSIGNAL), ssize_t(sizeof request));
  const auto asked = Clock::now();

  TestClient live;
  ASSERT_TRUE(live.connect(server->port()));
  ASSERT_TRUE(live.pump_until([&] { return live.shows(canvas); }, 5s));
  const auto closed = time_to_close(idle, asked, 3s);
  ASSERT_TRUE(closed) << "an idle viewer was kept";
  EXPECT_GE(*closed, options.idle_timeout - 100ms);
  EXPECT_LT(*closed, options.idle_timeout + 1s);
  ::close(idle);

  live.pump_until([] { return false; }, 2500ms);  // a still picture, more than twice the bound
  canvas = pattern(64, 48, 2);
  source.show(canvas);
  EXPECT_TRUE(live.pump_until([&] { return live.shows(canvas); }, 3s)) << "a live viewer was closed";
}

// Five wrong passwords from an address refuse it, even with the right one,
// until its back-off has passed; other addresses log in meanwhile, and a
// right password forgets an address's failures.
TEST(VncServer, WrongPasswordsRefuseTheirAddressForAWhile) {
  TempDir dir;
  TestSource source(pattern(64, 48, 1));
  VncServerOptions options = local();
  options.password_file = dir.write("password", "open sesame\n", 0600);
  options.password_backoff = 1500ms;
  auto server = start(source, options);
  ASSERT_TRUE(server);
  const uint16_t port = server->port();
  const char* const guesser = "127.0.0.1";
  for (int i = 0; i < 4; ++i) ASSERT_EQ(log_in(port, guesser, "guess"), Handshake::kWrongPassword);
  ASSERT_EQ(log_in(port, guesser, "open sesame"), Handshake::kViewer);
  for (int i = 0; i < 5; ++i) ASSERT_EQ(log_in(port, guesser, "guess"), Handshake::kWrongPassword) << i;
  const auto refused_from = Clock::now();
  EXPECT_NE(log_in(port, guesser, "open sesame"), Handshake::kViewer) << "the sixth try was let in";
  EXPECT_EQ(log_in(port, "127.0.0.2", "open sesame"), Handshake::kViewer);
  EXPECT_NE(log_in(port, guesser, "open sesame"), Handshake::kViewer);
  std::this_thread::sleep_until(refused_from + options.password_backoff + 100ms);
  EXPECT_EQ(log_in(port, guesser, "open sesame"), Handshake::kViewer);
}

}  // namespace
}  // namespace comp
