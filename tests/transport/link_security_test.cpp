// Who may connect, and how: link handshakes off the accepting thread, TLS
// on tcp: with every refusal said on both sides, and the owner and mode
// checks of local endpoints (socket folders, ring files, peer uids).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "fd.h"
#include "peer_process.h"
#include "wire/transport.h"

namespace wire {
namespace {

using namespace std::chrono_literals;
using transport::Fd;
using namespace wire::testing;  // the peer-process helpers every transport test uses
namespace fs = std::filesystem;

constexpr uint32_t kStranger = 54321;  // a uid that is neither ours nor root

std::string fresh_path(const std::string& what) {
  static int counter = 0;
  return ::testing::TempDir() + "conduit-sec-" + std::to_string(getpid()) + "-" +
         std::to_string(counter++) + "-" + what;
}

uint16_t port_of(const std::string& tcp_address) {
  return static_cast<uint16_t>(std::stoi(tcp_address.substr(tcp_address.rfind(':') + 1)));
}

// A raw TCP connection to 127.0.0.1:port that says nothing by itself.
Fd raw_tcp_connect(uint16_t port) {
  Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return Fd();
  return fd;
}

TransportOptions tls_options(const std::string& token = "the right token") {
  TransportOptions o;
  o.token = token;
  o.io_timeout = 3s;
  return o;
}

// The listener's view and the client's view of one connection attempt.
struct Attempt {
  Result<std::unique_ptr<Channel>> server = make_error(Errc::kIo, "not run");
  Result<std::unique_ptr<Channel>> client = make_error(Errc::kIo, "not run");
};

Attempt attempt(Listener& listener, const std::string& address, const TransportOptions& client) {
  Attempt a;
  std::thread t([&] { a.client = wire::connect(address, client); });
  auto pending = listener.accept_peer(5s);
  if (pending) {
    a.server = (*pending)->complete();
  } else {
    a.server = pending.error();
  }
  t.join();
  return a;
}

bool says(const Result<std::unique_ptr<Channel>>& r, const std::string& text) {
  return !r && r.error().describe().find(text) != std::string::npos;
}

std::string what(const Result<std::unique_ptr<Channel>>& r) {
  return r ? "a channel" : r.error().describe();
}

// Passes when `r` failed with an error that names `reason`.
template <typename T>
::testing::AssertionResult refused_for(const Result<T>& r, const std::string& reason) {
  if (r) return ::testing::AssertionFailure() << "accepted";
  const std::string said = r.error().describe();
  if (said.find(reason) == std::string::npos) return ::testing::AssertionFailure() << said;
  return ::testing::AssertionSuccess();
}

// --- Handshakes off the accepting thread --------------------------------

class SilentPeers : public ::testing::TestWithParam<std::string> {};

TEST_P(SilentPeers, DoNotDelayARealPeer) {
  const std::string kind = GetParam();
  TransportOptions opts = tls_options();
  opts.io_timeout = 1500ms;  // each silent peer would cost the accept thread this long
  const std::string path = fresh_path(kind + ".sock");
  auto l = wire::listen(kind == "tcp" ? "tcp:127.0.0.1:0" : kind + ":" + path, opts);
  ASSERT_TRUE(l) << l.error().describe();
  const std::string address = kind == "tcp" ? (*l)->describe() : kind + ":" + path;

  // The accept thread only accepts; each handshake runs on a thread of its own.
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::unique_ptr<Channel>> served;
  std::thread acceptor([&] {
    std::vector<std::thread> workers;
    while (!stop) {
      auto peer = (*l)->accept_peer(20ms);
      if (!peer) continue;
      workers.emplace_back([&, p = std::move(*peer)] {
        auto ch = p->complete();
        std::lock_guard lock(mu);
        if (ch) served.push_back(std::move(*ch));
        cv.notify_all();
      });
    }
    for (auto& w : workers) w.join();
  });

  std::vector<Fd> silent;
  for (int i = 0; i < 3; ++i) {
    if (kind == "tcp") {
      silent.push_back(raw_tcp_connect(port_of(address)));
    } else {
      auto fd = transport::unix_connect(path, transport::Deadline(1s));
      ASSERT_TRUE(fd) << fd.error().describe();
      silent.push_back(std::move(*fd));
    }
    ASSERT_TRUE(silent.back().valid());
  }
  std::this_thread::sleep_for(50ms);  // the listener has taken them all

  const int64_t start = monotonic_us();
  auto client = wire::connect(address, opts);
  const int64_t connected = monotonic_us();
  ASSERT_TRUE(client) << client.error().describe();
  std::vector<std::byte> hello(100, std::byte{7});
  ASSERT_TRUE((*client)->send(hello));
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 2s, [&] { return !served.empty(); }));
  }
  auto m = served.front()->receive(2s);
  ASSERT_TRUE(m) << m.error().describe();
  EXPECT_EQ(m->size(), hello.size());
  std::printf("[ %s ] connected past 3 silent peers in %.1f ms\n", kind.c_str(),
              (connected - start) / 1e3);
  EXPECT_LT(connected - start, 1000000);
  stop = true;
  acceptor.join();  // the silent peers' handshakes time out meanwhile
}

INSTANTIATE_TEST_SUITE_P(Transports, SilentPeers, ::testing::Values("unix", "tcp", "shm"),
                         [](const auto& info) { return info.param; });

// --- TLS on tcp: -----------------------------------------------------------

struct TcpHost {
  std::unique_ptr<Listener> listener;
  std::string address;
};

TcpHost tcp_host(const TransportOptions& opts) {
  auto l = wire::listen("tcp:127.0.0.1:0", opts);
  EXPECT_TRUE(l) << l.error().describe();
  if (!l) return {};
  std::string address = (*l)->describe();
  return {std::move(*l), address};
}

TEST(Tls, RightTokenConnectsAndCarriesMessages) {
  TcpHost host = tcp_host(tls_options());
  Attempt a = attempt(*host.listener, host.address, tls_options());
  ASSERT_TRUE(a.server) << what(a.server);
  ASSERT_TRUE(a.client) << what(a.client);
  EXPECT_NE((*a.client)->describe().find("TLS"), std::string::npos);
  std::vector<std::byte> big(3u << 20);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::byte>(i * 7);
  std::thread sender([&] { EXPECT_TRUE((*a.client)->send(big)); });
  auto m = (*a.server)->receive(5s);
  sender.join();
  ASSERT_TRUE(m) << m.error().describe();
  EXPECT_TRUE(std::equal(m->begin(), m->end(), big.begin(), big.end()));
}

TEST(Tls, WrongTokenIsRefusedOnBothSides) {
  TcpHost host = tcp_host(tls_options("correct horse"));
  Attempt a = attempt(*host.listener, host.address, tls_options("battery staple"));
  EXPECT_TRUE(says(a.client, "token")) << what(a.client);
  EXPECT_TRUE(says(a.server, "token")) << what(a.server);
  std::printf("guest: %s\nhost:  %s\n", what(a.client).c_str(), what(a.server).c_str());
}

TEST(Tls, MissingTokenIsRefused) {
  TcpHost host = tcp_host(tls_options());
  auto client = wire::connect(host.address, TransportOptions{});
  EXPECT_TRUE(says(client, "needs a token")) << what(client);
  auto listener = wire::listen("tcp:127.0.0.1:0", TransportOptions{});
  ASSERT_FALSE(listener);
  EXPECT_NE(listener.error().describe().find("needs a token"), std::string::npos);
}

TEST(Tls, PlaintextClientAtTlsHostIsRefusedOnBothSides) {
  TcpHost host = tcp_host(tls_options());
  TransportOptions plain = tls_options();
  plain.insecure = true;
  Attempt a = attempt(*host.listener, host.address, plain);
  EXPECT_TRUE(says(a.client, "requires TLS")) << what(a.client);
  EXPECT_TRUE(says(a.server, "plaintext client")) << what(a.server);
}

TEST(Tls, TlsClientAtPlaintextHostIsRefusedOnBothSides) {
  TransportOptions plain = tls_options();
  plain.insecure = true;
  TcpHost host = tcp_host(plain);
  Attempt a = attempt(*host.listener, host.address, tls_options());
  EXPECT_TRUE(says(a.client, "serves plaintext")) << what(a.client);
  EXPECT_TRUE(says(a.server, "TLS client")) << what(a.server);
}

// The descriptor of this process's TCP connection to `port`.
int socket_to_port(uint16_t port) {
  for (int fd = 3; fd < 1024; ++fd) {
    sockaddr_in peer{};
    socklen_t len = sizeof peer;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &len) == 0 &&
        peer.sin_family == AF_INET && ntohs(peer.sin_port) == port) {
      return fd;
    }
  }
  return -1;
}

TEST(Tls, PeerEndingInsideARecordIsAClosedLink) {
  TcpHost host = tcp_host(tls_options());
  pid_t client = fork_peer([&] {
    auto ch = wire::connect(host.address, tls_options());
    if (!ch) return 2;
    // An application-data record header promising 16 KiB, then 10 bytes of
    // it: what the socket holds when a sender dies half-way through a record.
    const uint8_t partial[15] = {0x17, 0x03, 0x03, 0x40, 0x00};
    const int fd = socket_to_port(port_of(host.address));
    return fd >= 0 && ::send(fd, partial, sizeof partial, MSG_NOSIGNAL) == sizeof partial ? 0 : 3;
  });
  auto server = host.listener->accept(5s);
  ASSERT_TRUE(server) << what(server);
  auto m = (*server)->receive(5s);
  EXPECT_EQ(wait_peer(client), 0);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, Errc::kClosed) << m.error().describe();
}

// Copies bytes both ways between a client and the listener, recording them.
struct Recording {
  std::vector<std::byte> from_client;
  std::vector<std::byte> from_host;
};

void relay(int a, int b, Recording* rec) {
  pollfd fds[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
  std::byte buf[65536];
  for (;;) {
    if (::poll(fds, 2, 5000) <= 0) return;
    for (int i = 0; i < 2; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP))) continue;
      ssize_t n = ::recv(fds[i].fd, buf, sizeof buf, 0);
      if (n <= 0) return;
      auto& log = i == 0 ? rec->from_client : rec->from_host;
      log.insert(log.end(), buf, buf + n);
      if (::send(fds[1 - i].fd, buf, static_cast<size_t>(n), MSG_NOSIGNAL) != n) return;
    }
  }
}

TEST(Tls, RecordedHandshakeCannotBeReplayedAndHidesTheToken) {
  const std::string token = "a token nobody may see";
  TcpHost host = tcp_host(tls_options(token));
  // A relay between a real client and the host records what crosses.
  Fd relay_listen(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::bind(relay_listen.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(relay_listen.get(), 1), 0);
  ASSERT_EQ(::getsockname(relay_listen.get(), reinterpret_cast<sockaddr*>(&addr), &len), 0);
  Recording rec;
  std::thread relay_thread([&] {
    Fd client(::accept4(relay_listen.get(), nullptr, nullptr, SOCK_CLOEXEC));
    Fd upstream = raw_tcp_connect(port_of(host.address));
    relay(client.get(), upstream.get(), &rec);
  });
  const std::string via_relay = "tcp:127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
  std::vector<std::byte> secret_message(64, std::byte{'S'});
  Attempt a;
  std::thread client_thread([&] {
    a.client = wire::connect(via_relay, tls_options(token));
    if (a.client) {
      (void)(*a.client)->send(secret_message);
      (void)(*a.client)->receive(2s);  // until the host closes
    }
  });
  auto pending = host.listener->accept_peer(5s);
  ASSERT_TRUE(pending) << pending.error().describe();
  auto original = (*pending)->complete();
  ASSERT_TRUE(original) << original.error().describe();
  auto m = (*original)->receive(5s);
  ASSERT_TRUE(m) << m.error().describe();
  (*original)->close();
  client_thread.join();
  relay_thread.join();
  ASSERT_TRUE(a.client) << what(a.client);

  auto contains = [](const std::vector<std::byte>& hay, std::string_view needle) {
    auto* b = reinterpret_cast<const char*>(hay.data());
    return std::string_view(b, hay.size()).find(needle) != std::string_view::npos;
  };
  EXPECT_FALSE(contains(rec.from_client, token));
  EXPECT_FALSE(contains(rec.from_client, std::string(64, 'S')));
  ASSERT_GT(rec.from_client.size(), 100u);

  // The same bytes again, on a new connection: the host must not accept it.
  std::thread replayer([&] {
    Fd fd = raw_tcp_connect(port_of(host.address));
    (void)::send(fd.get(), rec.from_client.data(), rec.from_client.size(), MSG_NOSIGNAL);
    std::byte sink[4096];
    while (::recv(fd.get(), sink, sizeof sink, 0) > 0) {
    }
  });
  auto replay = host.listener->accept_peer(5s);
  ASSERT_TRUE(replay) << replay.error().describe();
  auto replayed = (*replay)->complete();
  replayer.join();
  EXPECT_FALSE(replayed) << "a replayed handshake was accepted";
}

// --- Local endpoints -----------------------------------------------------------

bool is_root() { return ::geteuid() == 0; }

// An empty file only its owner may read and write.
void create_private_file(const std::string& path) {
  Fd fd(::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
}

mode_t mode_of(const std::string& path) {
  struct stat st{};
  ::lstat(path.c_str(), &st);
  return st.st_mode & 07777;
}

TEST(LocalEndpoints, SocketFolderIsCreatedPrivateAndSocketOwnerOnly) {
  const std::string dir = fresh_path("dir");
  for (const char* scheme : {"unix:", "shm:"}) {
    const std::string sock = dir + "/deeper/" + scheme[0] + ".sock";
    auto l = wire::listen(scheme + sock);
    ASSERT_TRUE(l) << l.error().describe();
    EXPECT_EQ(mode_of(dir), 0700u);
    EXPECT_EQ(mode_of(dir + "/deeper"), 0700u);
    EXPECT_EQ(mode_of(sock), 0600u) << sock;
  }
  fs::remove_all(dir);
}

TEST(LocalEndpoints, SocketFolderWritableByOthersIsRefused) {
  const std::string dir = fresh_path("open-dir");
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  for (const char* scheme : {"unix:", "shm:"}) {
    ASSERT_TRUE(refused_for(wire::listen(scheme + dir + "/host.sock"), "writable by others"))
        << scheme;
  }
  fs::remove_all(dir);
}

TEST(LocalEndpoints, SocketFolderOfAnotherUserIsRefused) {
  if (!is_root()) GTEST_SKIP() << "needs root to give a folder away";
  const std::string dir = fresh_path("their-dir");
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(::chown(dir.c_str(), kStranger, kStranger), 0);
  for (const char* scheme : {"unix:", "shm:"}) {
    ASSERT_TRUE(refused_for(wire::listen(scheme + dir + "/host.sock"), "belongs to uid 54321"))
        << scheme;
  }
  fs::remove_all(dir);
}

TEST(LocalEndpoints, RingFileSymlinkIsRefusedAndItsTargetUntouched) {
  const std::string target = fresh_path("target");
  const std::string link = fresh_path("ring-link");
  create_private_file(target);
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  ASSERT_TRUE(refused_for(wire::listen("shm:file=" + link), "symbolic link"));
  EXPECT_EQ(fs::file_size(target), 0u);
  ::unlink(link.c_str());
  ::unlink(target.c_str());
}

TEST(LocalEndpoints, RingFileOpenToOthersIsRefused) {
  const std::string ring = fresh_path("ring");
  create_private_file(ring);
  ASSERT_EQ(::chmod(ring.c_str(), 0644), 0);
  ASSERT_TRUE(refused_for(wire::listen("shm:file=" + ring), "open to other users"));
  ::unlink(ring.c_str());
}

TEST(LocalEndpoints, RingFileOfAnotherUserIsRefused) {
  if (!is_root()) GTEST_SKIP() << "needs root to give a file away";
  const std::string ring = fresh_path("their-ring");
  create_private_file(ring);
  ASSERT_EQ(::chown(ring.c_str(), kStranger, kStranger), 0);
  ASSERT_TRUE(refused_for(wire::listen("shm:file=" + ring), "belongs to uid 54321"));
  ::unlink(ring.c_str());
}

TEST(LocalEndpoints, RingFileThatIsAFolderIsRefused) {
  const std::string ring = fresh_path("ring-dir");
  ASSERT_EQ(::mkdir(ring.c_str(), 0700), 0);
  ASSERT_TRUE(refused_for(wire::listen("shm:file=" + ring), "not a regular file"));
  ::rmdir(ring.c_str());
}

TEST(LocalEndpoints, OwnPrivateRingFileIsReused) {
  const std::string ring = fresh_path("own-ring");
  create_private_file(ring);
  auto l = wire::listen("shm:file=" + ring);
  ASSERT_TRUE(l) << l.error().describe();
  EXPECT_GT(fs::file_size(ring), 0u);
}

// A child that becomes `uid` and connects; its exit status says how it went.
int connect_as(uint32_t uid, const std::string& address, wire::testing::Pipe* why) {
  return wait_peer(fork_peer([&] {
    if (::setgid(uid) != 0 || ::setuid(uid) != 0) return 10;
    auto ch = wire::connect(address, tls_options());
    if (ch) return 0;
    const bool says_user = ch.error().describe().find("from this user") != std::string::npos;
    why->put(says_user);
    return 1;
  }));
}

class PeerUid : public ::testing::TestWithParam<std::string> {};

TEST_P(PeerUid, NotOnTheAllowListIsRefusedOnBothSides) {
  if (!is_root()) GTEST_SKIP() << "needs root to connect as another uid";
  TransportOptions opts = tls_options();
  opts.allowed_uids = {kStranger + 1};
  const std::string dir = fresh_path("uid-dir");
  const std::string address = GetParam() + ":" + dir + "/host.sock";
  auto l = wire::listen(address, opts);
  ASSERT_TRUE(l) << l.error().describe();
  // Others reach the socket only because the allow list names another user.
  EXPECT_EQ(mode_of(dir), 0711u);
  EXPECT_EQ(mode_of(dir + "/host.sock"), 0666u);

  wire::testing::Pipe why;
  int status = -1;
  std::thread stranger([&] { status = connect_as(kStranger, address, &why); });
  auto pending = (*l)->accept_peer(5s);
  ASSERT_TRUE(pending) << pending.error().describe();
  EXPECT_TRUE((*pending)->peer().has_credentials);
  EXPECT_EQ((*pending)->peer().uid, kStranger);
  auto refused = (*pending)->complete();
  stranger.join();
  EXPECT_TRUE(says(refused, "uid not allowed")) << what(refused);
  EXPECT_EQ(status, 1);
  bool said_user = false;
  EXPECT_TRUE(why.get(&said_user));
  EXPECT_TRUE(said_user) << "the client's error does not say the user was refused";

  std::thread friendly([&] { status = connect_as(kStranger + 1, address, &why); });
  auto welcome = (*l)->accept(5s);
  friendly.join();
  EXPECT_TRUE(welcome) << what(welcome);
  EXPECT_EQ(status, 0);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Sockets, PeerUid, ::testing::Values("unix", "shm"),
                         [](const auto& info) { return info.param; });

// --- Tokens from files and the environment -------------------------------------

TEST(TokenFile, OwnerOnlyFileIsRead) {
  const std::string path = fresh_path("token");
  { Fd fd(::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
    ASSERT_EQ(::write(fd.get(), "s3cret\n", 7), 7); }
  auto t = read_token_file(path);
  ASSERT_TRUE(t) << t.error().describe();
  EXPECT_EQ(*t, "s3cret");
  ::unlink(path.c_str());
}

TEST(TokenFile, FileOthersMayReadIsRefused) {
  const std::string path = fresh_path("token-open");
  { Fd fd(::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
    ASSERT_EQ(::write(fd.get(), "s3cret\n", 7), 7); }
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  auto t = read_token_file(path);
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().describe().find("chmod 600"), std::string::npos) << t.error().describe();
  ::unlink(path.c_str());
}

TEST(TokenFile, EnvironmentPrefersTheFileAndReadsInsecure) {
  const std::string path = fresh_path("token-env");
  { Fd fd(::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
    ASSERT_EQ(::write(fd.get(), "from file", 9), 9); }
  ::setenv("CONDUIT_TOKEN", "from variable", 1);
  ::setenv("CONDUIT_TOKEN_FILE", path.c_str(), 1);
  ::setenv("CONDUIT_INSECURE", "1", 1);
  auto o = options_from_environment();
  ::unsetenv("CONDUIT_TOKEN");
  ::unsetenv("CONDUIT_TOKEN_FILE");
  ::unsetenv("CONDUIT_INSECURE");
  ASSERT_TRUE(o) << o.error().describe();
  EXPECT_EQ(o->token, "from file");
  EXPECT_TRUE(o->insecure);
  ::unlink(path.c_str());
}

}  // namespace
}  // namespace wire
