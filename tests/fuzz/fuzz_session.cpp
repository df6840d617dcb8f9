// libFuzzer target: a guest's command stream run by a real host session
// (decode, validate, dispatch into the host's GL driver). Each input is one
// batch after a fixed prelude that greets the host, creates a 64x64 surface,
// a GLES context (id 1) and a desktop GL compatibility context (id 2), and
// makes context 1 current; a stream switches with kMakeCurrent. The session
// is destroyed after every input, so no state carries over.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "host/egl_display.h"
#include "host/session.h"
#include "fuzz_session.h"
#include "replay_channel.h"
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
};

template <typename T>
void put_control(wire::Writer& w, wire::ControlOp op, const T& payload) {
  size_t at = w.begin(static_cast<uint32_t>(op));
  w.put(payload);
  w.end(at);
}

std::vector<std::byte> make_prelude(const host::RendererInfo& info) {
  using wire::ControlOp;
  wire::Writer w;
  put_control(w, ControlOp::kHello, wire::Hello{wire::kProtocolVersion, wire::kFeatureCompression,
                                                static_cast<uint32_t>(getpid())});
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
    h->prelude = make_prelude(h->display->info());
    return h.release();
  }();
  return *host;
}

fuzz::StreamOutcome totals(const host::StatsRegistry& registry) {
  auto total = registry.to_json()["total"];
  return {total["commands"].get<uint64_t>(), total["contexts_lost"].get<uint64_t>()};
}

}  // namespace

namespace fuzz {

StreamOutcome run_stream(std::span<const uint8_t> commands) {
  Host& h = shared_host();
  wire::BatchEncoder encoder(wire::Compression::kOff);
  std::vector<std::vector<std::byte>> messages;
  for (auto batch : {std::span<const std::byte>(h.prelude), std::as_bytes(commands)}) {
    auto framed = encoder.encode(batch, wire::kBatchWantsReply);
    if (!framed) return {};
    messages.emplace_back(framed->begin(), framed->end());
  }
  const StreamOutcome before = totals(h.registry);
  {
    host::Session session(*h.display, std::make_unique<ReplayChannel>(std::move(messages)), h.limits,
                          h.registry, h.stop);
    session.run();
  }
  const StreamOutcome after = totals(h.registry);
  return {after.commands - before.commands, after.contexts_lost - before.contexts_lost};
}

}  // namespace fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  shared_host();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::run_stream({data, size});
  return 0;
}
