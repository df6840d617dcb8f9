#include "host/renderer.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <atomic>
#include <csignal>
#include <list>
#include <map>
#include <mutex>
#include <utility>
#include <memory>
#include <thread>

#include "control_socket.h"
#include "counters_page.h"
#include "host/capture_writer.h"
#include "host/log.h"
#include "host/session.h"
#include "idle_trim.h"
#include "program_cache_channel.h"
#include "renderer_config.h"
#include "wire/handoff.h"

namespace host {

namespace {

// While its guests are busy the main loop publishes their counters and
// beats this often; once they have been quiet long enough to trim, it beats
// only as often as the watchdog needs (RendererConfig::idle_beat), and
// their sessions wait for them without waking.
constexpr auto kPublishPeriod = std::chrono::milliseconds(100);
constexpr auto kQuietAfter = IdleTrim::kQuietBeforeTrim;
// A session's wait for its idle guest: woken by input, by the renderer's
// end, or by the guest; this is only a backstop.
constexpr auto kSessionIdleWait = std::chrono::hours(1);

class Renderer {
 public:
  Renderer(int control_fd, RendererConfig config, std::unique_ptr<EglDisplay> display,
           std::unique_ptr<SharedCounters> counters)
      : control_(control_fd),
        config_(std::move(config)),
        display_(std::move(display)),
        counters_(std::move(counters)) {}
  ~Renderer() {
    if (activity_ >= 0) ::close(activity_);
  }

  // Serves until the supervisor goes away or every session it was given ended.
  void serve() {
    for (;;) {
      auto msg = next_message();
      publish();
      if (!msg && msg.error().code == wire::Errc::kTimeout) {
        if (started_ > 0 && live_.load() == 0) break;
        continue;
      }
      if (!msg) break;  // the supervisor is gone: stop serving
      if (msg->type == ControlMsg::kProgramCache) take_program_cache(*msg);
      if (msg->type == ControlMsg::kAdopt) adopt(*msg);
      if (msg->type == ControlMsg::kInput) pass_input(msg->body);
      for (int fd : msg->fds) ::close(fd);  // those not taken above
    }
    stop_.store(true);
    {
      std::lock_guard lock(sessions_mutex_);
      for (auto& [id, session] : sessions_) session->wake();
    }
    for (auto& t : threads_) t.join();
    publish();
  }

 private:
  // The supervisor's next message, or kTimeout once it is time to publish
  // and beat; a session whose guest resumes or ends cuts the wait short.
  wire::Result<ControlMessage> next_message() {
    const auto wait = quiet_ ? config_.idle_beat : kPublishPeriod;
    pollfd fds[2] = {{control_, POLLIN, 0}, {activity_, POLLIN, 0}};
    int n;
    do {
      n = ::poll(fds, 2, static_cast<int>(wait.count()));
    } while (n < 0 && errno == EINTR);
    if (fds[1].revents & POLLIN) {
      uint64_t count;
      (void)!::read(activity_, &count, sizeof count);
      quiet_ = false;
    }
    if (n > 0 && fds[0].revents != 0) return receive_control(control_, std::chrono::milliseconds(0));
    return wire::make_error(wire::Errc::kTimeout, "no control message");
  }

  void note_activity() {
    const uint64_t one = 1;
    (void)!::write(activity_, &one, sizeof one);
  }

  // The program cache's socket, for the sessions adopted from now on.
  void take_program_cache(ControlMessage& msg) {
    if (msg.fds.size() != 1) return;
    program_cache_ = std::make_shared<ProgramCacheClient>(msg.fds[0]);
    msg.fds.clear();
  }

  void adopt(ControlMessage& msg) {
    wire::ChannelHandoff h;
    h.fds = std::exchange(msg.fds, {});
    // A captured session's file comes after the channel's descriptors.
    int capture_fd = -1;
    if (msg.body.value("capture", false) && !h.fds.empty()) {
      capture_fd = h.fds.back();
      h.fds.pop_back();
    }
    h.kind = static_cast<wire::ChannelHandoff::Kind>(msg.body.value("kind", 0u));
    h.description = msg.body.value("description", std::string());
    h.region_bytes = msg.body.value("region_bytes", uint64_t{0});
    const uint32_t id = msg.body.value("session", 0u);
    auto channel = wire::adopt_channel(std::move(h), config_.transport);
    if (!channel) {
      if (capture_fd >= 0) ::close(capture_fd);
      log_line("session %u: cannot adopt its channel: %s", id, channel.error().describe().c_str());
      (void)send_control(control_, ControlMsg::kEnded, {{"session", id}});
      return;
    }
    ++started_;
    live_.fetch_add(1);
    auto session = std::make_unique<Session>(*display_, std::move(*channel), config_.limits,
                                             registry_, stop_, id);
    session->set_frame_outlet(outlet_.get());
    session->set_log_frame_hashes(config_.log_frame_hashes);
    if (capture_fd >= 0) {
      auto writer = capture::Writer::open(capture_fd, "of session " + std::to_string(id));
      if (writer) session->set_capture(std::move(*writer));
      else log_line("session %u: no capture: %s", id, writer.error().describe().c_str());
    }
    session->set_idle_wait(kSessionIdleWait, [this] { note_activity(); });
    // The supervisor gives a renderer one guest: its session's stamp is the page's.
    session->set_busy_stamp(&counters_->page().busy_since_ms);
    if (program_cache_) session->set_program_cache(program_cache_);
    {
      std::lock_guard lock(sessions_mutex_);
      sessions_[id] = session.get();
    }
    threads_.emplace_back([this, id, s = std::move(session)]() mutable {
      s->run();
      {
        std::lock_guard lock(sessions_mutex_);
        sessions_.erase(id);
      }
      s.reset();  // frees the guest's objects before the supervisor hears of the end
      (void)send_control(control_, ControlMsg::kEnded, {{"session", id}});
      live_.fetch_sub(1);
      note_activity();  // the main loop may have no session left to serve
    });
  }

  // A viewer's event for one of this renderer's sessions.
  void pass_input(const nlohmann::json& body) {
    wire::Input in{};
    uint32_t session = 0;
    try {
      session = body.at("session").get<uint32_t>();
      in = {body.at("surface").get<uint32_t>(), body.at("kind").get<uint32_t>(), body.at("pressed").get<uint32_t>(),
            body.at("code").get<uint32_t>(),    body.at("x").get<int32_t>(),     body.at("y").get<int32_t>()};
    } catch (const nlohmann::json::exception&) {
      return;
    }
    std::lock_guard lock(sessions_mutex_);
    auto it = sessions_.find(session);
    if (it != sessions_.end()) it->second->queue_input(in);
  }

  // Window frames for the supervisor's compositor, when it has one.
  std::unique_ptr<FrameOutlet> make_outlet() {
    if (!config_.viewers) return nullptr;
    auto announce = [this](const BoardAnnouncement& a, const comp::FrameBoardWriter& board) {
      const nlohmann::json body = {{"session", a.session}, {"surface", a.surface}, {"width", a.width},
                                   {"height", a.height},   {"program", a.program}, {"pid", a.pid}};
      (void)send_control(control_, ControlMsg::kSurfaceShown, body, {board.memory_fd(), board.doorbell_fd()});
    };
    auto withdraw = [this](uint32_t session, uint32_t surface) {
      (void)send_control(control_, ControlMsg::kSurfaceGone, {{"session", session}, {"surface", surface}});
    };
    return std::make_unique<FrameOutlet>(announce, withdraw);
  }

  void publish() {
    CountersPage& page = counters_->page();
    uint64_t memory = 0;
    uint32_t pid = 0;
    registry_.sum(page.counters, memory, pid);
    page.memory_bytes.store(memory, std::memory_order_relaxed);
    page.guest_pid.store(pid, std::memory_order_relaxed);
    page.heartbeat.fetch_add(1, std::memory_order_relaxed);
    const uint64_t batches = page.counters.batches.load(std::memory_order_relaxed);
    const auto now = IdleTrim::Clock::now();
    idle_trim_.observe(batches, now);
    if (batches != last_batches_) {
      last_batches_ = batches;
      last_motion_ = now;
    }
    quiet_ = now - last_motion_ >= kQuietAfter;
  }

  int control_;
  RendererConfig config_;
  std::unique_ptr<EglDisplay> display_;
  std::unique_ptr<SharedCounters> counters_;
  std::unique_ptr<FrameOutlet> outlet_ = make_outlet();
  std::shared_ptr<ProgramCacheClient> program_cache_;
  StatsRegistry registry_;
  IdleTrim idle_trim_;
  int activity_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);  // sessions' note_activity()
  uint64_t last_batches_ = 0;
  IdleTrim::Clock::time_point last_motion_ = IdleTrim::Clock::now();
  bool quiet_ = false;  // no batch for kQuietAfter: beat at config_.idle_beat
  std::mutex sessions_mutex_;
  std::map<uint32_t, Session*> sessions_;  // live ones, for input; under sessions_mutex_
  std::atomic<bool> stop_{false};
  std::atomic<int> live_{0};
  int started_ = 0;
  std::list<std::thread> threads_;  // last: joined before the rest goes
};

// Reads the configuration, confines the process around opening the display
// (sandbox.h).
wire::Result<std::unique_ptr<Renderer>> start(int control_fd) {
  auto msg = receive_control(control_fd, std::nullopt);
  if (!msg) return msg.error();
  if (msg->type != ControlMsg::kConfigure || msg->fds.size() != 1) {
    for (int fd : msg->fds) ::close(fd);
    return wire::make_error(wire::Errc::kBadValue, "expected the configuration first");
  }
  auto counters = SharedCounters::map(msg->fds[0]);
  if (!counters) return counters.error();
  auto config = config_from_json(msg->body);
  if (!config) return config.error();
  auto files_confined = confine_process(config->identity, config->shader_cache);
  if (!files_confined) return files_confined.error();
  auto display = EglDisplay::open(config->display);
  if (!display) return display.error();
  WIRE_TRY(confine_calls(config->sandbox, *files_confined));
  WIRE_TRY(send_control(control_fd, ControlMsg::kReady, to_json((*display)->info())));
  return std::make_unique<Renderer>(control_fd, std::move(*config), std::move(*display),
                                    std::move(*counters));
}

}  // namespace

int run_renderer(int control_fd) {
  // A renderer never outlives its supervisor: when the supervisor dies its
  // guests lose their contexts at once instead of being served unaccounted.
  // (The supervisor starts every renderer from one thread that outlives
  // them all; a supervisor that died before this line left the control
  // socket closed, which ends the renderer too.)
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  auto renderer = start(control_fd);
  if (!renderer) {
    (void)send_control(control_fd, ControlMsg::kFailed, {{"error", renderer.error().describe()}});
    return 1;
  }
  (*renderer)->serve();
  return 0;
}

}  // namespace host
