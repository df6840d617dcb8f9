// Conduit's own commands: the handshake, stats and frames; those of
// contexts, surfaces and images go to the GL handler, which EGL serves.
#include <string>

#include "control_args.h"
#include "gl/gl_handler.h"
#include "host/session.h"

namespace host {

using wire::ControlOp;
using wire::Errc;
using wire::make_error;

namespace {

// The program name a guest gave, as viewers' labels show it: printable
// ASCII, bounded; whatever else it sent is replaced or cut.
std::string program_name(wire::Reader& r) {
  constexpr size_t kMaxName = 64;
  auto data = r.get_data();
  if (!data) return {};
  std::string name;
  for (std::byte b : data->bytes.first(std::min(data->bytes.size(), kMaxName))) {
    const auto c = static_cast<unsigned char>(b);
    name += c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?';
  }
  return name;
}

}  // namespace

wire::Status Session::run_control(const ApiCommand& cmd) {
  wire::Reader r = cmd.reader();
  auto op = static_cast<ControlOp>(cmd.opcode);
  if (!greeted_ && op != ControlOp::kHello) {
    return make_error(Errc::kBadValue, "command before kHello", cmd.offset);
  }
  switch (op) {
    case ControlOp::kHello: return hello(r);
    case ControlOp::kSync: return r.remaining() ? make_error(Errc::kBadLength, "kSync payload", cmd.offset)
                                                : wire::Status{};
    case ControlOp::kGetStats: return get_stats();
    case ControlOp::kFrameDone: return frame_done(r);
    case ControlOp::kTestFault:
      if (limits_.test_faults) return test_fault(r);
      return unknown_control_op(cmd.opcode, cmd.offset);
    default: return gl_->run_control(cmd);
  }
}

wire::Status Session::hello(wire::Reader& r) {
  auto h = r.get<wire::Hello>();  // later versions may append fields
  if (!h) return h.error();
  uint32_t host_features = wire::kFeatureCompression;
  if (channel_->outgoing_heap() || !channel_->incoming_heap().empty()) host_features |= wire::kFeatureBlobHeap;
  host_features |= gl_->features();
  const RendererInfo& info = display_.info();
  wire::HelloReply reply{wire::kProtocolVersion, h->features & host_features, stats_->id, info.max_gles,
                         info.max_gl_core, info.max_gl_compat,
                         static_cast<uint32_t>(limits_.max_batch_bytes)};
  if (!(reply.features & wire::kFeatureCompression)) encoder_.set_mode(wire::Compression::kOff);
  gl_->tell_links(reply.features & wire::kFeatureProgramReflection);
  std::string strings = info.renderer + '\0' + info.vendor + '\0' +
                        (info.gl_compat_version.empty() ? info.gles_version : info.gl_compat_version) +
                        '\0' + info.platform + '\0' + std::to_string(limits_.guest.max_total_bytes) + '\0' +
                        std::to_string(largest_pbuffer_side(display_)) + '\0';
  reply_.put(reply);
  reply_.put_data(strings.data(), strings.size());
  stats_->guest_pid = h->pid;
  if (r.remaining() > 0) program_ = program_name(r);
  greeted_ = true;
  return {};
}

// The guest is done with a frame's pixels. Nothing the session holds waits
// for that, so only the command's form is checked.
wire::Status Session::frame_done(wire::Reader& r) {
  auto m = read_control<wire::FrameDone>(r);
  if (!m) return m.error();
  return {};
}

wire::Status Session::get_stats() {
  reclaim();  // the guest's own figure is exact
  stats_->memory_bytes.store(account_.total_bytes, std::memory_order_relaxed);
  // A guest sees its own session only: other guests' peers, sizes and
  // activity are not its business.
  const uint64_t held = stats_->memory_bytes.load(std::memory_order_relaxed);
  const nlohmann::json counters = stats_->counters.to_json();
  nlohmann::json j = {{"total", counters},
                      {"memory_bytes", held},
                      {"sessions", {{{"id", stats_->id}, {"peer", stats_->peer}, {"pid", stats_->guest_pid},
                                     {"memory_bytes", held}, {"counters", counters}}}}};
  j["session"] = stats_->id;
  const RendererInfo& info = display_.info();
  j["host"] = {{"renderer", info.renderer},       {"vendor", info.vendor},
               {"platform", info.platform},       {"gles_version", info.gles_version},
               {"gl_core_version", info.gl_core_version},
               {"gl_compat_version", info.gl_compat_version},
               {"gles1_version", info.gles1_version},
               {"egl_version", info.egl_version}, {"gles1_extensions", info.gles1_extensions},
               {"gles_extensions", info.gles_extensions},
               {"gl_extensions", info.gl_extensions},
               {"gl_compat_extensions", info.gl_compat_extensions}};
  std::string text = j.dump();
  for (char ch : text) reply_.put(ch);
  return {};
}

}  // namespace host
