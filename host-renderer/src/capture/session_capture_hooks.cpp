// The session's side of capture and replay (docs/capture.md).
#include <cinttypes>
#include <cstring>
#include <vector>

#include "capture_identity.h"
#include "capture/session_capture.h"
#include "gl/gl_handler.h"
#include "host/capture_format.h"
#include "host/log.h"
#include "host/session.h"

namespace host {

namespace {

nlohmann::json describe_capture(const RendererInfo& info, wire::Channel& channel, size_t heap_bytes,
                                uint32_t host_features, const SessionLimits& limits) {
  return {{"format", capture::kFormatVersion},
          {"protocol", wire::kProtocolVersion},
          {"conduit", capture::kConduitVersion},
          {"registries",
           {{"gl.xml", capture::kGlRegistrySha256},
            {"vk.xml", capture::kVkRegistrySha256},
            {"gl-opcodes.txt", capture::kGlOpcodesSha256},
            {"vk-opcodes.txt", capture::kVkOpcodesSha256}}},
          {"host_features", host_features},
          {"transport", channel.describe()},
          {"heap_bytes", heap_bytes},
          {"area_bytes", channel.shared_area().size()},
          {"max_batch_bytes", limits.max_batch_bytes},
          {"renderer", {{"renderer", info.renderer}, {"vendor", info.vendor}, {"platform", info.platform},
                        {"gles", info.gles_version}, {"gl_compat", info.gl_compat_version}}}};
}

}  // namespace

void Session::set_capture(std::unique_ptr<capture::Writer> writer) {
  uint32_t features = wire::kFeatureCompression | gl_->features();
  if (channel_->outgoing_heap() || !channel_->incoming_heap().empty()) features |= wire::kFeatureBlobHeap;
  capture_ = std::make_unique<capture::SessionCapture>(
      std::move(writer), describe_capture(display_.info(), *channel_, channel_->incoming_heap().size(), features,
                                          limits_));
  heap_copies_.set_observer(
      [c = capture_.get()](uint64_t offset, std::span<const std::byte> bytes) { c->heap_read(offset, bytes); });
}

void Session::note_frame(const wire::Frame& frame, std::span<const std::byte> pixels) {
  const uint64_t n = ++frames_sent_;
  if (frame_tap_) frame_tap_(frame, pixels);
  if (!capture_ && !log_frame_hashes_) return;
  const uint64_t hash = capture::frame_hash(frame, pixels);
  if (capture_) capture_->frame(frame, hash);
  if (log_frame_hashes_)
    log_line("session %u: frame %" PRIu64 " surface %u %ux%u hash %016" PRIx64, stats_->id, n, frame.surface_id,
             frame.width, frame.height, hash);
}

void Session::note_to_guest(uint32_t control_op, std::span<const std::byte> payload) {
  if (capture_) capture_->to_guest(control_op, payload);
}

// As the guest receives them: a count, then the fences' ids.
void Session::note_fences(std::span<const uint64_t> fences) {
  if (!capture_) return;
  const uint32_t n = static_cast<uint32_t>(fences.size());
  std::vector<std::byte> payload(sizeof n + fences.size_bytes());
  std::memcpy(payload.data(), &n, sizeof n);
  if (n) std::memcpy(payload.data() + sizeof n, fences.data(), fences.size_bytes());
  note_to_guest(static_cast<uint32_t>(wire::ControlOp::kFencesSignalled), payload);
}

}  // namespace host
