#include "host/server.h"

#include <algorithm>

#include "host/admin_socket.h"
#include "host/capture_writer.h"
#include "host/log.h"
#include "host/memory_budget.h"
#include "renderer_user.h"
#include "shared_memory_faults.h"
#include "supervisor.h"
#include "wire/address.h"

namespace host {

using wire::Errc;
using wire::make_error;

namespace {
constexpr auto kAcceptPoll = std::chrono::milliseconds(100);
constexpr auto kAcceptBackOff = std::chrono::milliseconds(100);
constexpr int kMaxHandshakes = 64;
// As many as the guests a peer may run by default (--max-guests-per-peer):
// sixteen programs started at once on a loaded machine had their handshakes
// overlap, and with a share of 8 the ninth took the slot of a live one.
constexpr int kMaxHandshakesPerPeer = 32;

void log_limited(const std::string& line) {
  uint64_t dropped = 0;
  if (guest_log_limiter().allow(&dropped)) log_line("%s", line.c_str());
}

// Whose share of the host's caps a connection counts against: a local user,
// a remote address (any port), or a ring file.
std::string peer_key(const wire::PeerIdentity& p) {
  if (p.has_credentials) return "uid " + std::to_string(p.uid);
  auto address = wire::Address::parse(p.address);
  if (address && address->kind == wire::Address::Kind::kTcp) return address->describe_host();
  return p.address;
}

// The supervisor's program cache as the options ask; null when off.
wire::Result<std::shared_ptr<ProgramCacheRoot>> program_cache_root(const HostOptions& opts) {
  if (opts.program_cache == "off") return std::shared_ptr<ProgramCacheRoot>();
  const auto scope = shaders_cache::parse_scope(opts.cache_scope);
  if (!scope) return make_error(Errc::kBadValue, "--cache-scope is host or guest, not " + opts.cache_scope);
  const std::string root = opts.program_cache == "auto" ? shaders_cache::default_cache_root() : opts.program_cache;
  if (root.empty()) return make_error(Errc::kBadValue, "no cache folder: set XDG_CACHE_HOME or HOME, or --program-cache");
  log_line("program cache: %s (%s scope)", shaders_cache::programs_folder(root).c_str(), opts.cache_scope.c_str());
  return std::make_shared<ProgramCacheRoot>(root, *scope, opts.program_cache_max);
}

wire::TransportOptions transport_options(const HostOptions& opts) {
  wire::TransportOptions t;
  t.token = opts.token;
  t.insecure = opts.insecure;
  t.allowed_uids = opts.allow_uids;
  t.max_message_bytes = opts.limits.max_batch_bytes + sizeof(wire::BatchHeader);
  t.ring_silence = opts.ring_silence;
  return t;
}

// Sessions as threads: the capture file is this process's to open.
void start_capture(Session& session, const std::string& dir) {
  static std::atomic<uint32_t> next{1};
  auto fd = capture::create_capture_file(dir, next.fetch_add(1));
  auto writer = fd ? capture::Writer::open(*fd, "in " + dir) : wire::Result<std::unique_ptr<capture::Writer>>(fd.error());
  if (writer) session.set_capture(std::move(*writer));
  else log_line("no capture: %s", writer.error().describe().c_str());
}

SupervisorOptions supervisor_options(const HostOptions& opts) {
  SupervisorOptions s;
  s.renderer_exe = opts.renderer_exe;
  s.max_guests = opts.max_guests;
  s.max_guests_per_peer = opts.max_guests_per_peer;
  s.max_host_memory = opts.max_host_memory ? opts.max_host_memory
                                           : physical_memory_bytes() / 100 * kDefaultHostMemoryPercent;
  s.watchdog = opts.renderer_watchdog;
  s.stall = opts.renderer_stall;
  s.compositor = opts.compositor;
  s.capture_dir = opts.capture_dir;
  RendererConfig& r = s.renderer;
  r.viewers = opts.compositor != nullptr;
  r.log_frame_hashes = opts.log_frame_hashes;
  r.idle_beat = std::max<std::chrono::milliseconds>(opts.renderer_watchdog / 4, std::chrono::milliseconds(100));
  r.display = opts.display;
  r.limits = opts.limits;
  r.transport = transport_options(opts);
  r.transport.token.clear();  // guests reach renderers authenticated
  const size_t guest = opts.limits.guest.max_total_bytes;
  r.sandbox.data_bytes = opts.renderer_data_bytes ? opts.renderer_data_bytes
                         : guest > (SIZE_MAX - (1ull << 30)) / 2 ? 0
                                                                 : 2 * guest + (1ull << 30);
  return s;
}

}  // namespace

Server::Server() = default;

wire::Result<std::unique_ptr<Server>> Server::create(const HostOptions& opts) {
  survive_shrunk_shared_memory();
  std::unique_ptr<Server> s(new Server());
  s->opts_ = opts;
  if (s->opts_.listen.empty()) s->opts_.listen.push_back(wire::default_address());
  for (const auto& a : s->opts_.listen) {
    auto address = wire::Address::parse(a);
    if (address && address->kind == wire::Address::Kind::kTcp && opts.token.empty()) {
      return make_error(Errc::kBadValue, a + ": tcp needs --token");
    }
  }
  if (opts.renderer_exe.empty()) {
    auto display = EglDisplay::open(opts.display);
    if (!display) return display.error();
    s->display_ = std::move(*display);
  } else {
    auto identity = renderer_identity(opts.renderer_user);
    if (!identity) return identity.error();
    if (*identity) log_line("renderers run as uid %u, gid %u", (*identity)->uid, (*identity)->gid);
    SupervisorOptions sopts = supervisor_options(opts);
    sopts.renderer.identity = std::move(*identity);
    if (opts.renderer_cache != "off") {
      auto caches = ShaderCacheRoot::create(opts.renderer_cache == "auto" ? "" : opts.renderer_cache,
                                            sopts.renderer.identity);
      if (!caches) return caches.error();
      sopts.shader_caches = std::move(*caches);
    }
    auto programs = program_cache_root(opts);
    if (!programs) return programs.error();
    sopts.program_cache = std::move(*programs);
    auto sup = Supervisor::create(std::move(sopts));
    if (!sup) return sup.error();
    s->supervisor_ = std::move(*sup);
  }
  const wire::TransportOptions topts = transport_options(opts);
  for (const auto& a : s->opts_.listen) {
    auto l = wire::listen(a, topts);  // creates and checks a socket's folder itself
    if (!l) return make_error(l.error().code, a + ": " + l.error().describe());
    s->listeners_.push_back(std::move(*l));
  }
  if (!opts.admin.empty()) {
    auto admin = AdminSocket::open(opts.admin);
    if (!admin) return admin.error();
    s->admin_ = std::move(*admin);
  }
  return s;
}

Server::~Server() {
  stop_.store(true);
  join_workers();
  supervisor_.reset();
}

void Server::join_workers() {
  std::list<Worker> all;
  {
    std::lock_guard lock(workers_mutex_);
    all.splice(all.end(), workers_);
  }
  // Joined without the lock: a handshake in progress takes it to finish.
  for (auto& w : all) {
    if (w.thread.joinable()) w.thread.join();
  }
}

const RendererInfo& Server::info() const { return display_ ? display_->info() : supervisor_->info(); }

nlohmann::json Server::stats_json() { return supervisor_ ? supervisor_->stats_json() : stats_.to_json(); }

std::string Server::summary() { return summarize(stats_json()); }

std::vector<std::string> Server::addresses() const {
  std::vector<std::string> out;
  for (const auto& l : listeners_) out.push_back(l->describe());
  return out;
}

size_t Server::live_sessions() {
  if (supervisor_) return supervisor_->live_guests();
  std::lock_guard lock(workers_mutex_);
  size_t n = 0;
  for (auto& w : workers_) n += w.done.load() ? 0 : 1;
  return n;
}

void Server::run(const std::atomic<bool>& stop) {
  std::vector<std::thread> acceptors;
  for (auto& l : listeners_) acceptors.emplace_back([this, &l, &stop] { accept_loop(*l, stop); });
  if (admin_) {
    acceptors.emplace_back([this] { admin_->serve(stop_, [this] { return stats_json().dump(); }); });
  }
  for (auto& t : acceptors) t.join();
  stop_.store(true);
  if (supervisor_) supervisor_->stop_all();
  join_workers();
}

// The accepting thread only accepts: handshakes (authentication, TLS,
// shared-memory set-up) run on threads of their own, so silent peers cost
// no one else their wait.
void Server::accept_loop(wire::Listener& listener, const std::atomic<bool>& external_stop) {
  while (!stop_.load() && !external_stop.load()) {
    reap_finished();
    auto peer = listener.accept_peer(kAcceptPoll);
    if (!peer) {
      if (peer.error().code == Errc::kTimeout) continue;
      log_limited(listener.describe() + ": accept: " + peer.error().describe());
      // Out of descriptors (EMFILE, ENFILE) or memory: the connection stays
      // queued and accepting again at once fails again; wait for some to free.
      std::this_thread::sleep_for(kAcceptBackOff);
      continue;
    }
    start_handshake(std::move(*peer));
  }
  stop_.store(true);
}

// A peer at its share of handshakes gets the slot of its oldest one, which
// is abandoned: silent connections cannot lock out the peer's next one,
// however many it opens (evicted ones still count against the host's
// total until their thread has ended, which is at once).
void Server::start_handshake(std::unique_ptr<wire::PendingPeer> peer) {
  const std::string key = peer_key(peer->peer());
  std::lock_guard lock(workers_mutex_);
  if (handshakes_of(key) >= kMaxHandshakesPerPeer) evict_oldest_handshake(key);
  if (handshakes_total_ >= kMaxHandshakes || handshakes_of(key) >= kMaxHandshakesPerPeer) {
    log_limited("refused " + peer->peer().describe() + ": too many handshakes in progress");
    return;  // destroying the pending peer closes its connection
  }
  ++handshakes_total_;
  ++handshakes_[key];
  Worker& w = workers_.emplace_back();
  w.key = key;
  w.handshaking = peer.get();
  w.thread = std::thread([this, &w, key, peer = std::move(peer)]() mutable {
    auto channel = peer->complete();
    {
      std::lock_guard done(workers_mutex_);
      --handshakes_total_;
      w.handshaking = nullptr;
      if (!w.evicted) release_handshake(key);
    }
    if (!channel) {
      log_limited(peer->peer().describe() + ": handshake: " + channel.error().describe());
    } else if (!stop_.load()) {
      serve(std::move(*channel), key);
    }
    w.done.store(true);
  });
}

int Server::handshakes_of(const std::string& key) const {
  auto it = handshakes_.find(key);
  return it == handshakes_.end() ? 0 : it->second;
}

void Server::release_handshake(const std::string& key) {
  if (--handshakes_[key] == 0) handshakes_.erase(key);
}

void Server::evict_oldest_handshake(const std::string& key) {
  for (auto& w : workers_) {  // oldest first
    if (w.handshaking && !w.evicted && w.key == key) {
      w.evicted = true;
      w.handshaking->abandon();
      release_handshake(key);
      log_limited(w.handshaking->peer().describe() + ": handshake abandoned for a newer one of " + key);
      return;
    }
  }
}

void Server::send_input(comp::SurfaceKey key, const comp::InputEvent& event) {
  if (supervisor_) supervisor_->send_input(key, event);
}

// Renderer processes, or (without a renderer program) the session on this thread.
void Server::serve(std::unique_ptr<wire::Channel> channel, const std::string& peer) {
  if (supervisor_) {
    supervisor_->serve(std::move(channel), peer);
    return;
  }
  // Sessions watch stop_, which the accept loops set once they see the outer stop.
  Session session(*display_, std::move(channel), opts_.limits, stats_, stop_);
  session.set_log_frame_hashes(opts_.log_frame_hashes);
  if (!opts_.capture_dir.empty()) start_capture(session, opts_.capture_dir);
  session.run();
}

// Joins the threads of sessions that ended, so threads do not pile up.
void Server::reap_finished() {
  std::lock_guard lock(workers_mutex_);
  for (auto it = workers_.begin(); it != workers_.end();) {
    if (it->done.load() && it->thread.joinable()) {
      it->thread.join();
      it = workers_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace host
