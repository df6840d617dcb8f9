// A guest's command stream run by a real host session (decode, validate,
// dispatch into the host's GL and Vulkan drivers), for the session fuzz
// targets and the replay test. A GL stream is one batch after a fixed
// prelude that greets the host, creates a 64x64 surface, a GLES context
// (id 1) and a desktop GL compatibility context (id 2), and makes context 1
// current; a stream switches with kMakeCurrent. A Vulkan stream runs between
// the Vulkan prelude and epilogue (vk_prelude.h). The session is destroyed
// after every input, so no state carries over.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "host/egl_display.h"
#include "host/session.h"
#include "fuzz_session.h"
#include "replay_channel.h"
#include "vk_prelude.h"
#include "wire/batch.h"
#include "wire/control.h"
#include "wire/writer.h"

namespace {

struct Host {
  std::unique_ptr<host::EglDisplay> display;  // opened once: the costly part
  host::StatsRegistry registry;
  host::SessionLimits limits;
  std::atomic<bool> stop{false};
  std::vector<std::byte> prelude;
  std::vector<std::byte> vk_prelude;  // greeting, then the Vulkan objects
  std::vector<std::byte> vk_epilogue;
};

template <typename T>
void put_control(wire::Writer& w, wire::ControlOp op, const T& payload) {
  size_t at = w.begin(static_cast<uint32_t>(op));
  w.put(payload);
  w.end(at);
}

void put_hello(wire::Writer& w) {
  put_control(w, wire::ControlOp::kHello, wire::Hello{wire::kProtocolVersion, wire::kFeatureCompression,
                                                      static_cast<uint32_t>(getpid())});
}

std::vector<std::byte> make_prelude(const host::RendererInfo& info) {
  using wire::ControlOp;
  wire::Writer w;
  put_hello(w);
  put_control(w, ControlOp::kCreateSurface, wire::CreateSurface{1, 64, 64, {8, 8, 8, 8, 24, 8, 0}, wire::kSurfaceWindow | wire::kSurfaceDoubleBuffered});
  uint32_t gles = info.max_gles ? info.max_gles : 20;
  put_control(w, ControlOp::kCreateContext,
              wire::CreateContext{1, 0, static_cast<uint32_t>(wire::Api::kGles), gles / 10, gles % 10,
                                  static_cast<uint32_t>(wire::Profile::kNone), 0});
  if (info.max_gl_compat) {
    put_control(w, ControlOp::kCreateContext,
                wire::CreateContext{2, 0, static_cast<uint32_t>(wire::Api::kGl), info.max_gl_compat / 10,
                                    info.max_gl_compat % 10,
                                    static_cast<uint32_t>(wire::Profile::kCompatibility), 0});
  }
  put_control(w, ControlOp::kMakeCurrent, wire::MakeCurrent{1, 1, 1});
  return {w.bytes().begin(), w.bytes().end()};
}

std::vector<std::byte> make_vk_prelude() {
  wire::Writer w;
  put_hello(w);
  std::vector<std::byte> out(w.bytes().begin(), w.bytes().end());
  const auto objects = fuzz::vk::prelude_commands();
  out.insert(out.end(), objects.begin(), objects.end());
  return out;
}

// Opened once per process, since an EGL display costs far more than a
// session, and never closed: a driver unloaded at exit would leave
// LeakSanitizer stacks of its own allocations that it cannot name, and so
// cannot suppress (tests/lsan.supp).
Host& shared_host() {
  static Host* const host = [] {
    auto display = host::EglDisplay::open({});
    if (!display) {
      std::fprintf(stderr, "fuzz_session: no EGL display: %s\n", display.error().describe().c_str());
      std::exit(1);
    }
    auto h = std::make_unique<Host>();
    h->display = std::move(*display);
    // Small enough that hostile sizes meet the limits quickly rather than
    // keeping the driver busy for seconds.
    h->limits.guest.max_object_bytes = 16u << 20;
    h->limits.guest.max_total_bytes = 128u << 20;
    h->limits.guest.max_draw_vertices = 1u << 20;
    h->limits.guest.max_dispatch_groups = 1u << 12;
    h->prelude = make_prelude(h->display->info());
    h->vk_prelude = make_vk_prelude();
    h->vk_epilogue = fuzz::vk::epilogue_commands();
    return h.release();
  }();
  return *host;
}

fuzz::StreamOutcome totals(const host::StatsRegistry& registry) {
  auto total = registry.to_json()["total"];
  return {total["commands"].get<uint64_t>(), total["contexts_lost"].get<uint64_t>()};
}

// The batches in turn through a fresh session; what it counted meanwhile.
fuzz::StreamOutcome run_batches(Host& h, std::initializer_list<std::span<const std::byte>> batches) {
  wire::BatchEncoder encoder(wire::Compression::kOff);
  std::vector<std::vector<std::byte>> messages;
  for (auto batch : batches) {
    auto framed = encoder.encode(batch, wire::kBatchWantsReply);
    if (!framed) return {};
    messages.emplace_back(framed->begin(), framed->end());
  }
  const fuzz::StreamOutcome before = totals(h.registry);
  {
    host::Session session(*h.display, std::make_unique<fuzz::ReplayChannel>(std::move(messages)), h.limits,
                          h.registry, h.stop);
    session.run();
  }
  const fuzz::StreamOutcome after = totals(h.registry);
  return {after.commands - before.commands, after.contexts_lost - before.contexts_lost};
}

}  // namespace

namespace fuzz {

void open_shared_host() { shared_host(); }

StreamOutcome run_stream(std::span<const uint8_t> commands) {
  Host& h = shared_host();
  return run_batches(h, {h.prelude, std::as_bytes(commands)});
}

StreamOutcome run_vk_stream(std::span<const uint8_t> commands) {
  Host& h = shared_host();
  return run_batches(h, {h.vk_prelude, std::as_bytes(commands), h.vk_epilogue});
}

}  // namespace fuzz
