// What tests of renderer processes share: a host that starts them (with
// --test-faults), a guest served by one, its frames, and faults it asks its
// renderer to commit.
#pragma once

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "host/server.h"
#include "test_guest.h"
#include "wire/gl_encode.h"

namespace hosttest {

// Renderer processes are the `conduit` program, named by CONDUIT_EXE.
inline host::HostOptions isolated(uint32_t max_guests = 64) {
  host::HostOptions o;
  const char* exe = std::getenv("CONDUIT_EXE");
  o.renderer_exe = exe ? exe : "";
  o.limits.test_faults = true;
  o.max_guests = max_guests;
  return o;
}

// A guest with a context current on a 32x32 surface.
inline std::unique_ptr<TestGuest> ready_guest(const std::string& address) {
  // Renderers start one after another, each opening its own display: under
  // ASan on a busy machine the ninth guest may wait tens of seconds.
  auto g = TestGuest::connect(address);
  if (!g || !g->hello(std::chrono::seconds(60)).ok() ||
      g->create_context(1, wire::Api::kGles, 3, 0) != 0) {
    return nullptr;
  }
  g->create_surface(1, 32, 32);
  g->make_current(1, 1, 1);
  return g;
}

// Two guests of the host at `address`, served one after the other; each
// null where it was not served.
struct TwoGuests {
  std::unique_ptr<TestGuest> a, b;
};
inline TwoGuests two_ready_guests(const std::string& address) {
  TwoGuests guests;
  guests.a = ready_guest(address);
  guests.b = ready_guest(address);
  return guests;
}

// Renders one frame of red `level` and checks it came back so.
inline bool renders(TestGuest& g, uint32_t level, uint32_t frame_id) {
  constexpr GLbitfield kColorBufferBit = 0x4000;
  wire::encode_glClearColor(g.w(), static_cast<float>(level) / 255.0f, 0.0f, 0.0f, 1.0f);
  wire::encode_glClear(g.w(), kColorBufferBit);
  g.swap(1, frame_id);
  ReceivedFrame f;
  return g.send().ok() && g.wait_frame(&f) && f.argb(16, 16) == (0xFF000000u | (level << 16));
}

// Asks `g`'s renderer to commit `which`; its answer (an errno for the
// attempts), or ~0 when none came.
inline uint32_t fault(TestGuest& g, wire::Fault which, uint64_t bytes = 0) {
  g.control(wire::ControlOp::kTestFault, wire::TestFault{static_cast<uint32_t>(which), 0, bytes});
  auto reply = g.call();
  if (!reply || reply->size() != sizeof(uint32_t)) return ~0u;
  uint32_t v;
  std::memcpy(&v, reply->data(), sizeof v);
  return v;
}

}  // namespace hosttest
