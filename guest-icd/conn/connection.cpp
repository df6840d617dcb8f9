#include "conn/connection.h"

#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <errno.h>
#include <string_view>
#include <utility>

#include "conn/hello.h"
#include "gl/program_reflections.h"
#include "wire/address.h"
#include "wire/reader.h"

namespace icd {
namespace {

using std::chrono::milliseconds;

// Largest batch the host may send us (a frame of 8192x8192 BGRA plus slack).
constexpr size_t kMaxIncomingBatch = size_t{8192} * 8192 * 4 + (1u << 20);
constexpr milliseconds kPumpSlice{100};

milliseconds timeout_from_env() {
  const char* v = std::getenv("CONDUIT_TIMEOUT_MS");
  long ms = v ? std::strtol(v, nullptr, 10) : 0;
  return milliseconds(ms > 0 ? ms : 30000);
}

std::mutex g_shared_mu;
// Never destroyed, like the display registries: exit handlers of the
// program may still draw or tear down through it.
std::shared_ptr<Connection>& g_shared = *new std::shared_ptr<Connection>;
bool g_stats_registered = false;

void print_stats_at_exit() {
  std::lock_guard lock(g_shared_mu);
  if (g_shared) g_shared->stats().print(stderr);
}

}  // namespace

std::shared_ptr<Connection> Connection::shared() {
  std::lock_guard lock(g_shared_mu);
  if (g_shared && !g_shared->lost()) return g_shared;
  // A lost connection stays lost for the objects made on it; a display
  // initialized later tries to reach the host again.
  const std::string address = wire::address_from_environment();
  auto c = open(address);
  if (!c) {
    std::fprintf(stderr, "conduit: cannot reach the host at %s: %s\n", address.c_str(),
                 c.error().describe().c_str());
    return nullptr;
  }
  g_shared = std::move(c.value());
  if (!g_stats_registered && stats_enabled()) std::atexit(print_stats_at_exit);
  g_stats_registered = true;
  return g_shared;
}

wire::Result<std::shared_ptr<Connection>> Connection::open(const std::string& address) {
  // CONDUIT_TOKEN(_FILE) and CONDUIT_INSECURE, as `conduit info` reads them.
  auto opts = wire::options_from_environment();
  if (!opts) return opts.error();
  auto channel = wire::connect(address, *opts);
  if (!channel) return channel.error();
  auto conn = std::make_shared<Connection>(std::move(channel.value()));
  WIRE_TRY(conn->handshake());
  return conn;
}

Connection::Connection(std::unique_ptr<wire::Channel> channel)
    : channel_(std::move(channel)),
      timeout_(timeout_from_env()),
      encoder_(wire::compression_for(*channel_)),
      capture_(Capture::from_env()),
      decoder_(kMaxIncomingBatch),
      patient_(wire::Patience::wanted()) {}

Connection::~Connection() {
  stopping_ = true;
  if (receiver_.joinable()) receiver_.join();
  if (channel_) channel_->close();
}

wire::Status Connection::handshake() {
  // Frames arrive whenever the host finishes them, also while the
  // application waits for input, so one thread receives all the time.
  receiver_ = std::thread([this] { receive_loop(); });
  uint32_t wanted = wire::kFeatureCompression | wire::kFeatureBlobHeap | wire::kFeatureGles1 | wire::kFeatureGlImages |
                    wire::kFeatureSrgbSurfaces | wire::kFeatureUniformReach | wire::kFeatureTexturePbuffers;
  if (program_reflection_wanted()) wanted |= wire::kFeatureProgramReflection;
  if (context_strings_wanted()) wanted |= wire::kFeatureContextStrings;
  wire::Hello hello{wire::kProtocolVersion, wanted, static_cast<uint32_t>(getpid())};
  // The program's name labels its windows in host viewers.
  const std::string_view name = program_invocation_short_name;
  wire::Writer w;
  size_t at = w.begin(static_cast<uint32_t>(wire::ControlOp::kHello));
  w.put(hello);
  w.put_data(name.data(), name.size());
  w.end(at);
  uint64_t ticket = 0;
  WIRE_TRY(send(nullptr, w.bytes(), w.commands(), &ticket));
  auto reply = wait_reply(ticket);
  if (!reply) return reply.error();
  auto info = parse_hello_reply(reply.value());
  if (!info) return info.error();
  host_ = std::move(info.value());
  const uint32_t features = host_.reply.features;
  if (!(features & wire::kFeatureCompression)) {
    std::lock_guard lock(send_mu_);
    encoder_.set_mode(wire::Compression::kOff);
  }
  if (features & wire::kFeatureBlobHeap) blob_sink_ = channel_->outgoing_heap();
  return {};
}

bool Connection::lost() const { return lost_; }

bool Connection::context_lost(uint32_t context_id) const {
  if (lost_) return true;
  if (!any_context_lost_) return false;
  std::lock_guard lock(mu_);
  return lost_contexts_.count(context_id) != 0;
}

uint32_t Connection::new_id() {
  std::lock_guard lock(mu_);
  return next_id_++;
}

void Connection::mark_lost(const std::string& why) {
  std::lock_guard lock(mu_);
  if (!lost_) std::fprintf(stderr, "conduit: connection to the host lost: %s\n", why.c_str());
  lost_ = true;
  batches_handled_.fetch_add(1, std::memory_order_release);
  cv_.notify_all();
}

wire::Status Connection::encode_and_send(std::span<const std::byte> commands, uint16_t flags) {
  auto framed = encoder_.encode(commands, flags);
  if (!framed) return framed.error();
  WIRE_TRY(channel_->send(framed.value()));
  if (capture_) capture_->write(commands);
  stats_.batches++;
  stats_.raw_bytes += commands.size();
  stats_.wire_bytes += framed.value().size();
  return {};
}

wire::Status Connection::send(const Binding* binding, std::span<const std::byte> commands,
                              uint32_t command_count, uint64_t* ticket) {
  if (lost()) return wire::make_error(wire::Errc::kClosed, "host connection lost");
  std::lock_guard lock(send_mu_);
  if (binding && !(*binding == host_current_)) {
    wire::Writer w;
    size_t at = w.begin(static_cast<uint32_t>(wire::ControlOp::kMakeCurrent));
    w.put(wire::MakeCurrent{binding->context_id, binding->draw_id, binding->read_id});
    w.end(at);
    if (auto s = encode_and_send(w.bytes(), 0); !s) {
      mark_lost(s.error().describe());
      return s;
    }
    host_current_ = *binding;
  }
  if (commands.empty() && !ticket) return {};
  uint16_t flags = 0;
  if (ticket) {
    *ticket = next_ticket_++;
    flags |= wire::kBatchWantsReply;
    std::lock_guard state(mu_);
    waiting_.push_back(*ticket);
  }
  auto s = encode_and_send(commands, flags);
  if (!s) {
    mark_lost(s.error().describe());
    return s;
  }
  stats_.commands += command_count;
  return {};
}

wire::Status Connection::sync() {
  wire::Writer w;
  w.end(w.begin(static_cast<uint32_t>(wire::ControlOp::kSync)));
  uint64_t ticket = 0;
  WIRE_TRY(send(nullptr, w.bytes(), w.commands(), &ticket));
  auto reply = wait_reply(ticket);
  if (!reply) return reply.error();
  return {};
}

void Connection::forget(uint32_t id) {
  static const Binding kNone{};
  bool bound = false;
  {
    std::lock_guard lock(send_mu_);
    bound = host_current_.context_id == id || host_current_.draw_id == id || host_current_.read_id == id;
  }
  if (bound) (void)send(&kNone, {}, 0);
}

void Connection::receive_loop() {
  while (!stopping_ && !lost_) {
    auto message = channel_->receive(kPumpSlice);
    if (!message) {
      if (message.error().code != wire::Errc::kTimeout) mark_lost(message.error().describe());
      continue;
    }
    auto batch = decoder_.decode(message.value());
    if (!batch) {
      channel_->release();
      mark_lost(batch.error().describe());
      continue;
    }
    handle_batch(batch.value().commands);
    channel_->release();
    batches_handled_.fetch_add(1, std::memory_order_release);
  }
  std::lock_guard lock(mu_);
  cv_.notify_all();
}

void Connection::handle_batch(std::span<const std::byte> commands) {
  wire::CommandIterator it(commands);
  std::lock_guard lock(mu_);
  // Woken waiters run once the lock is released, so they see the whole batch.
  cv_.notify_all();
  while (!it.done()) {
    auto cmd = it.next();
    if (!cmd) {
      std::fprintf(stderr, "conduit: bad message from the host: %s\n", cmd.error().describe().c_str());
      lost_ = true;
      return;
    }
    wire::Reader r(cmd->payload, cmd->offset, channel_->incoming_heap());
    switch (static_cast<wire::ControlOp>(cmd->opcode)) {
      case wire::ControlOp::kReply: {
        auto data = r.get_data();
        if (!data || waiting_.empty()) {
          std::fprintf(stderr, "conduit: unexpected reply from the host\n");
          lost_ = true;
          return;
        }
        if (!given_up_.erase(waiting_.front())) replies_[waiting_.front()].assign(data->bytes.begin(), data->bytes.end());
        waiting_.pop_front();
        break;
      }
      case wire::ControlOp::kFrame: {
        auto frame = r.get<wire::Frame>();
        auto pixels = frame ? r.get_data() : wire::Result<wire::Data>(frame.error());
        if (!pixels) break;
        auto sink = sinks_.find(frame->surface_id);
        if (sink != sinks_.end()) sink->second->on_frame(frame.value(), pixels->bytes);
        if (sink == sinks_.end() || sink->second->acknowledged())
          frames_done_.push_back(wire::FrameDone{frame->surface_id, frame->frame_id});
        break;
      }
      case wire::ControlOp::kInput: {
        auto input = r.get<wire::Input>();
        if (!input) break;
        auto sink = sinks_.find(input->surface_id);
        if (sink != sinks_.end()) sink->second->on_input(input.value());
        break;
      }
      case wire::ControlOp::kContextLost: {
        auto lost = r.get<wire::ContextLost>();
        if (!lost) break;
        std::fprintf(stderr, "conduit: the host lost context %u (opcode %u at byte %u)\n", lost->context_id,
                     lost->opcode, lost->offset);
        lost_contexts_.insert(lost->context_id);
        any_context_lost_ = true;
        break;
      }
      case wire::ControlOp::kRefused: {
        auto why = r.get_data();
        refusal_ = why ? std::string(reinterpret_cast<const char*>(why->bytes.data()), why->bytes.size())
                       : "no reason given";
        lost_ = true;  // the host closes the connection next
        return;
      }
      default:
        if (auto l = listeners_.find(static_cast<wire::ControlOp>(cmd->opcode)); l != listeners_.end()) l->second(r);
        break;  // newer hosts may send more; skipping keeps older guests working
    }
  }
}

bool Connection::wait_until(const std::function<bool()>& ready, milliseconds timeout, uint32_t context_id) {
  auto gone = [&] { return lost_ || (context_id && lost_contexts_.count(context_id)); };
  auto done = [&] { return ready() || gone(); };
  const auto start = std::chrono::steady_clock::now();
  bool ended = looked_for(done);
  std::unique_lock lock(mu_);
  if (!ended) ended = cv_.wait_for(lock, timeout, done);
  remember_wait(std::chrono::steady_clock::now() - start);
  return ended && !gone();
}

// Where cores are to spare, a wait that lately ended within a millisecond
// looks for its answer (yielding) before it sleeps: waking the thread costs
// tens of microseconds, paid every frame by a glFinish or a fence wait.
bool Connection::looked_for(const std::function<bool()>& done) {
  if (!patient_) return false;
  const auto start = std::chrono::steady_clock::now();
  const auto limit = wire::Patience::look_on(std::chrono::nanoseconds(typical_wait_ns_.load(std::memory_order_relaxed)));
  uint64_t seen = UINT64_MAX;
  while (std::chrono::steady_clock::now() - start < limit) {
    if (const uint64_t handled = batches_handled_.load(std::memory_order_acquire); handled != seen) {
      seen = handled;
      std::lock_guard lock(mu_);
      if (done()) return true;
    }
    sched_yield();
  }
  return false;
}

void Connection::remember_wait(std::chrono::steady_clock::duration spent) {
  if (!patient_) return;
  const auto typical = std::chrono::nanoseconds(typical_wait_ns_.load(std::memory_order_relaxed));
  const auto smoothed = wire::Patience::smoothed(typical, spent);
  typical_wait_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(smoothed).count(),
                         std::memory_order_relaxed);
}

wire::Result<std::vector<std::byte>> Connection::wait_reply(uint64_t ticket) {
  auto reply = wait_reply_unless(ticket, [] { return false; });
  if (!reply) return reply.error();
  return std::move(**reply);
}

wire::Result<std::optional<std::vector<std::byte>>> Connection::wait_reply_unless(uint64_t ticket,
                                                                                  const Enough& enough) {
  stats_.round_trips++;
  bool enough_first = false;
  wait_until([&] { return replies_.count(ticket) != 0 || (enough_first = enough()); }, timeout_);
  std::lock_guard lock(mu_);
  auto it = replies_.find(ticket);
  if (it != replies_.end()) {
    std::vector<std::byte> out = std::move(it->second);
    replies_.erase(it);
    return std::optional(std::move(out));
  }
  if (enough_first && !lost_) {
    given_up_.insert(ticket);
    stats_.ended_before_reply++;
    return std::optional<std::vector<std::byte>>();
  }
  if (!refusal_.empty()) {
    return wire::make_error(wire::Errc::kLimit, "the host refused this program: " + refusal_);
  }
  if (!lost_) {
    std::fprintf(stderr, "conduit: the host did not answer within %lld ms\n",
                 static_cast<long long>(timeout_.count()));
    lost_ = true;
    cv_.notify_all();
  }
  return wire::make_error(wire::Errc::kClosed, "no reply from the host");
}

std::vector<wire::FrameDone> Connection::take_frames_done() {
  std::lock_guard lock(mu_);
  return std::exchange(frames_done_, {});
}

void Connection::listen(wire::ControlOp op, MessageListener listener) {
  std::lock_guard lock(mu_);
  listeners_[op] = std::move(listener);
}

void Connection::add_sink(uint32_t surface_id, FrameSink* sink) {
  std::lock_guard lock(mu_);
  sinks_[surface_id] = sink;
}

void Connection::remove_sink(uint32_t surface_id) {
  std::lock_guard lock(mu_);
  sinks_.erase(surface_id);
}

}  // namespace icd
