#include "supervisor.h"

#include <algorithm>
#include <chrono>

#include "guest_refusal.h"
#include "host/capture_writer.h"
#include "host/log.h"
#include "host/memory_budget.h"

namespace host {

namespace {

constexpr auto kRendererStart = std::chrono::seconds(30);
constexpr auto kRetryAfterFailure = std::chrono::seconds(1);
constexpr auto kRelayPoll = std::chrono::milliseconds(100);
constexpr auto kRelaxed = std::memory_order_relaxed;
constexpr auto kWatchdogPeriod = std::chrono::milliseconds(1000);

std::string seconds(std::chrono::steady_clock::duration d) {
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(d).count()) + " s";
}

void log_guest(const char* fmt, const std::string& a, const std::string& b) {
  uint64_t dropped = 0;
  if (guest_log_limiter().allow(&dropped)) log_line(fmt, a.c_str(), b.c_str());
}

// Moves messages one way until either side ends; then closes both, so the
// other direction's loop ends too.
void relay(wire::Channel& from, wire::Channel& to) {
  for (;;) {
    auto msg = from.receive(kRelayPoll);
    if (!msg && msg.error().code == wire::Errc::kTimeout) continue;
    if (!msg || !to.send(*msg)) break;
    from.release();
  }
  from.close();
  to.close();
}

}  // namespace

wire::Result<std::unique_ptr<Supervisor>> Supervisor::create(SupervisorOptions opts) {
  std::unique_ptr<Supervisor> s(new Supervisor(std::move(opts)));
  s->spare_keeper_ = std::thread([p = s.get()] { p->keep_spare(); });
  s->watchdog_ = std::thread([p = s.get()] { p->watch_heartbeats(); });
  std::unique_lock lock(s->mutex_);
  s->changed_.wait(lock, [&] { return s->spare_ || s->first_failure_; });
  if (s->first_failure_) return *s->first_failure_;  // the keeper has ended
  return s;
}

Supervisor::~Supervisor() { stop_all(); }

// One renderer is always started ahead, so that a guest program does not
// wait for a display to open. Every renderer is started by this thread: a
// renderer ends with the thread that started it (PR_SET_PDEATHSIG), and this
// one lives until every renderer has ended.
void Supervisor::keep_spare() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    changed_.wait(lock, [&] { return stopping_ || !spare_; });
    if (stopping_) break;
    lock.unlock();
    auto r = RendererProcess::spawn(opts_.renderer_exe, opts_.renderer, opts_.shader_caches.get());
    auto info = r ? (*r)->wait_ready(kRendererStart) : wire::Result<RendererInfo>(r.error());
    lock.lock();
    if (info) {
      if (!spare_started_) info_ = *info;  // the first tells what the display offers
      spare_started_ = true;
      spare_ = std::move(*r);
      changed_.notify_all();
      continue;
    }
    if (!spare_started_) {  // nothing was ever served: the host cannot start
      first_failure_ = info.error();
      changed_.notify_all();
      return;
    }
    log_line("cannot start a renderer: %s", info.error().describe().c_str());
    changed_.wait_for(lock, kRetryAfterFailure, [&] { return stopping_; });
  }
  changed_.wait(lock, [&] { return all_done(); });
}

bool Supervisor::all_done() const {
  for (const auto& g : guests_) {
    if (!g.done.load()) return false;
  }
  return true;
}

wire::Result<std::unique_ptr<RendererProcess>> Supervisor::take_renderer() {
  std::unique_lock lock(mutex_);
  if (!changed_.wait_for(lock, kRendererStart, [&] { return stopping_ || spare_; }) || stopping_) {
    return wire::make_error(wire::Errc::kTimeout, "no renderer could be started");
  }
  auto r = std::move(spare_);
  changed_.notify_all();
  return r;
}

std::string Supervisor::admit(const std::string& peer) {
  std::lock_guard lock(mutex_);
  size_t live = 0, of_peer = 0;
  for (const auto& g : guests_) {
    if (g.done.load()) continue;
    ++live;
    of_peer += !peer.empty() && g.peer == peer;
  }
  if (live >= opts_.max_guests || of_peer >= opts_.max_guests_per_peer) {
    ++refused_;
    return "too many guests (--max-guests, --max-guests-per-peer)";
  }
  // Measured now, not at the watchdog's last look: a guest that grew since
  // counts at once.
  const uint64_t held = measure_renderers();
  if (opts_.max_host_memory == 0 || held < opts_.max_host_memory) return {};
  ++refused_;
  ++refused_for_memory_;
  auto mib = [](uint64_t bytes) { return std::to_string(bytes / (1u << 20) + (bytes % (1u << 20) != 0)); };
  return "the host's memory budget is spent: its renderers hold " + mib(held) + " MiB of " +
         mib(opts_.max_host_memory) + " MiB (--max-host-memory)";
}

// What the renderers serving guests hold now; the spare one, started
// before any guest asked, is the host's own cost.
uint64_t Supervisor::measure_renderers() {
  uint64_t sum = 0;
  for (auto& g : guests_) {
    if (g.done.load()) continue;
    g.memory = process_memory_bytes(g.renderer->pid());
    sum += g.memory;
  }
  renderers_memory_ = sum;
  return sum;
}

void Supervisor::serve(std::unique_ptr<wire::Channel> channel, const std::string& peer) {
  reap();
  const std::string description = channel->describe();
  std::unique_lock admission(admission_);
  std::string why = admit(peer);
  auto renderer = why.empty() ? take_renderer() : wire::make_error(wire::Errc::kLimit, why);
  if (!renderer) {
    admission.unlock();
    why = renderer.error().detail;
    log_guest("refused %s: %s", description + (peer.empty() ? "" : " of " + peer), why);
    refuse_guest(*channel, why);
    return;
  }
  std::lock_guard lock(mutex_);
  Guest& g = guests_.emplace_back();
  g.id = next_id_++;
  g.peer = peer;
  g.description = description;
  g.renderer = std::move(*renderer);
  auto handoff = handoff_or_relay(g, std::move(channel));
  if (handoff && opts_.program_cache) {
    auto server = opts_.program_cache->serve_renderer(*g.renderer, peer.empty() ? description : peer);
    if (server) g.cache_server = std::move(*server);
    else log_guest("%s runs without the program cache: %s", description, server.error().describe());
  }
  int capture_fd = -1;
  if (handoff && !opts_.capture_dir.empty()) {
    auto fd = capture::create_capture_file(opts_.capture_dir, g.id);
    if (fd) capture_fd = *fd;
    else log_guest("no capture of %s: %s", description, fd.error().describe());
  }
  wire::Status st = handoff ? g.renderer->adopt(std::move(*handoff), g.id, capture_fd) : wire::Status(handoff.error());
  if (!st) log_guest("cannot hand %s to a renderer: %s", description, st.error().describe());
  if (!st || stopping_) g.renderer->stop();
  g.monitor = std::thread([this, &g] { watch(g); });
}

// Channels that cannot move (TLS keeps its keys here) are relayed through a
// socket pair whose other end moves instead.
wire::Result<wire::ChannelHandoff> Supervisor::handoff_or_relay(Guest& g,
                                                                std::unique_ptr<wire::Channel> channel) {
  auto h = channel->export_handoff();
  if (h) {
    g.on_release = std::exchange(h->on_release, nullptr);
    g.guest_gone = std::exchange(h->peer_gone, nullptr);
    return h;
  }
  auto pair = wire::socket_pair_channels(opts_.renderer.transport);
  if (!pair) return pair.error();
  auto inner = pair->second->export_handoff();
  if (!inner) return inner.error();
  inner->description = g.description;
  wire::Channel* guest = channel.get();
  wire::Channel* renderer = pair->first.get();
  g.relayed.push_back(std::move(channel));
  g.relayed.push_back(std::move(pair->first));
  // Either direction ends when either side does: a renderer that has not
  // ended by then is the one whose guest has gone.
  auto ended = std::make_shared<std::atomic<bool>>(false);
  g.guest_gone = [ended] { return ended->load(); };
  g.relays.emplace_back([guest, renderer, ended] {
    relay(*guest, *renderer);
    ended->store(true);
  });
  g.relays.emplace_back([guest, renderer] { relay(*renderer, *guest); });
  return inner;
}

// Waits for the guest's renderer to end, and accounts for how it ended.
void Supervisor::watch(Guest& g) {
  const int status = g.renderer->wait_exit([this, &g](ControlMessage& m) { on_renderer_message(g, m); });
  if (opts_.compositor) opts_.compositor->remove_guest(g.id);
  if (g.cache_server.joinable()) g.cache_server.join();  // ends with the renderer's end
  for (auto& ch : g.relayed) ch->close();
  std::lock_guard lock(mutex_);
  g.guest_gone = nullptr;  // what it watches through goes with the session
  finished_.add(g.renderer->counters().counters);
  if (!clean_exit(status)) {
    ++crashed_;
    // The guest's pid (from its hello) names the program whose stream did it.
    const uint32_t pid = g.renderer->counters().guest_pid.load(std::memory_order_relaxed);
    log_guest("session %s: renderer ended abnormally (%s); only this guest is affected",
              std::to_string(g.id) + " (" + g.description + ", guest pid " + std::to_string(pid) + ")",
              describe_exit(status));
  }
  if (g.on_release) g.on_release();
  g.done.store(true);
  changed_.notify_all();
}

// What a renderer says while it serves: its guest's windows for the
// compositor. A renderer may be compromised: it can only name its own
// guest's surfaces, and its boards are checked when mapped.
void Supervisor::on_renderer_message(Guest& g, ControlMessage& msg) {
  if (!opts_.compositor) return;
  try {
    if (msg.body.at("session").get<uint32_t>() != g.id) return;
    const uint32_t surface = msg.body.at("surface").get<uint32_t>();
    if (msg.type == ControlMsg::kSurfaceGone && g.shown.erase(surface)) {
      opts_.compositor->remove_surface({g.id, surface});
    }
    if (msg.type == ControlMsg::kSurfaceShown) show_surface(g, msg);
  } catch (const nlohmann::json::exception&) {
  }
}

// A guest shows at most as many surfaces as it may have.
void Supervisor::show_surface(Guest& g, ControlMessage& msg) {
  if (msg.fds.size() != 2) return;
  const uint32_t surface = msg.body.at("surface").get<uint32_t>();
  if (!g.shown.count(surface) && g.shown.size() >= opts_.renderer.limits.max_surfaces) return;
  const comp::FrameSize size{msg.body.at("width").get<uint32_t>(), msg.body.at("height").get<uint32_t>()};
  comp::SurfaceLabel label{g.peer.empty() ? g.description : g.peer, msg.body.at("program").get<std::string>(),
                           msg.body.at("pid").get<uint32_t>()};
  auto board = comp::FrameBoardReader::adopt(msg.fds[0], msg.fds[1], size);
  msg.fds.clear();  // the reader owns them, also when it refused them
  if (!board) {
    log_guest("session %s: frame board refused: %s", std::to_string(g.id), board.error().describe());
    return;
  }
  g.shown.insert(surface);
  opts_.compositor->add_surface({g.id, surface}, std::move(label), std::move(*board));
}

void Supervisor::send_input(comp::SurfaceKey key, const comp::InputEvent& e) {
  const nlohmann::json event = {{"session", key.guest}, {"surface", key.surface},
                                {"kind", static_cast<uint32_t>(e.kind)}, {"pressed", e.pressed},
                                {"code", e.code}, {"x", e.x}, {"y", e.y}};
  std::lock_guard lock(mutex_);
  for (auto& g : guests_) {
    if (g.id == key.guest && !g.done.load()) g.renderer->send_input(event);
  }
}

// A renderer whose main loop no longer beats (stopped, deadlocked, or
// busy where it should answer the supervisor), whose session is stuck in
// one piece of work, or which outlives its guest would hold its guest's
// slot for ever: it is killed, and watch() accounts for it as for any
// renderer that ended abnormally.
void Supervisor::watch_heartbeats() {
  const auto period = std::min<std::chrono::milliseconds>(kWatchdogPeriod, opts_.watchdog / 4);
  std::unique_lock lock(mutex_);
  // Also while the host stops: a renderer stuck in a driver call would
  // otherwise hold up its end (its main loop, waiting for the session,
  // stops beating).
  auto ended = [&] { return stopping_ && all_done(); };
  while (!ended()) {
    changed_.wait_for(lock, period, ended);
    const auto now = std::chrono::steady_clock::now();
    for (auto& g : guests_) {
      if (g.done.load()) continue;
      check_heartbeat(g, now);
      check_stall(g, now);
      check_guest_gone(g, now);
    }
    measure_renderers();
  }
}

void Supervisor::check_heartbeat(Guest& g, std::chrono::steady_clock::time_point now) {
  const uint64_t beat = g.renderer->counters().heartbeat.load(kRelaxed);
  if (beat != g.last_beat) {
    g.last_beat = beat;
    g.beat_seen = now;
    return;
  }
  if (now - g.beat_seen < opts_.watchdog) return;
  kill_renderer(g, "stopped answering for " + seconds(now - g.beat_seen));
}

// A driver call that never returns leaves the main loop beating: the
// session's own stamp says how long its current work has taken. The stamp
// is the renderer's word, which can only spare itself.
void Supervisor::check_stall(Guest& g, std::chrono::steady_clock::time_point now) {
  const auto since = std::chrono::milliseconds(g.renderer->counters().busy_since_ms.load(kRelaxed));
  const auto busy = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()) - since;
  if (since.count() == 0 || busy < opts_.stall) return;
  kill_renderer(g, "busy with one piece of its guest's work for " + seconds(busy));
}

// A renderer ends at once when its guest goes, unless it is stuck where it
// would notice; one still running a watchdog period later is.
void Supervisor::check_guest_gone(Guest& g, std::chrono::steady_clock::time_point now) {
  if (!g.gone_seen) {
    if (g.guest_gone && g.guest_gone()) g.gone_seen = now;
    return;
  }
  if (now - *g.gone_seen < opts_.watchdog) return;
  kill_renderer(g, "still running " + seconds(now - *g.gone_seen) + " after its guest went");
}

void Supervisor::kill_renderer(Guest& g, const std::string& why) {
  if (g.killed) return;
  g.killed = true;
  log_guest("session %s: renderer %s; killed", std::to_string(g.id) + " (" + g.description + ")", why);
  g.renderer->kill();
}

void Supervisor::reap() {
  std::list<Guest> ended;
  {
    std::lock_guard lock(mutex_);
    for (auto it = guests_.begin(); it != guests_.end();) {
      auto next = std::next(it);
      if (it->done.load()) ended.splice(ended.end(), guests_, it);
      it = next;
    }
  }
  for (auto& g : ended) {
    g.monitor.join();
    for (auto& t : g.relays) t.join();
  }
}

size_t Supervisor::live_guests() {
  reap();
  std::lock_guard lock(mutex_);
  size_t n = 0;
  for (const auto& g : guests_) n += g.done.load() ? 0 : 1;
  return n;
}

nlohmann::json Supervisor::stats_json() {
  reap();
  std::lock_guard lock(mutex_);
  Counters total;
  total.add(finished_);
  uint64_t memory = 0;
  auto sessions = nlohmann::json::array();
  for (auto& g : guests_) {
    if (g.done.load()) continue;
    CountersPage& page = g.renderer->counters();
    total.add(page.counters);
    const uint64_t held = page.memory_bytes.load(kRelaxed);
    memory += held;
    sessions.push_back({{"id", g.id}, {"peer", g.description}, {"pid", page.guest_pid.load(kRelaxed)},
                        {"renderer_pid", g.renderer->pid()}, {"memory_bytes", held},
                        {"renderer_memory_bytes", g.memory},
                        {"counters", page.counters.to_json()}});
  }
  return {{"total", total.to_json()},
          {"memory_bytes", memory},
          {"sessions_total", next_id_ - 1},
          {"sessions_live", sessions.size()},
          {"sessions", sessions},
          {"renderers", {{"live", sessions.size()}, {"started", next_id_ - 1}, {"crashed", crashed_},
                         {"refused", refused_}}},
          {"host_memory", {{"counted_bytes", renderers_memory_}, {"budget_bytes", opts_.max_host_memory},
                           {"refused", refused_for_memory_}}}};
}

void Supervisor::stop_all() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    changed_.notify_all();
    for (auto& g : guests_) g.renderer->stop();
  }
  if (watchdog_.joinable()) watchdog_.join();
  // The keeper, which started every renderer, returns once they all ended.
  if (spare_keeper_.joinable()) spare_keeper_.join();
  reap();
  spare_.reset();
}

}  // namespace host
