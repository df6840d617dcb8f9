// A guest process for the soak test: renders frames until it is killed, and
// writes one byte to stdout once its first frame came back. With `idle`
// (measuring what an idle guest costs), it says hello only, writes its byte
// and then waits without a word until it is killed; with `idle-frame`, it
// renders one frame first.
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "test_guest.h"
#include "wire/gl_encode.h"

namespace {

int stay_idle(hosttest::TestGuest& g, bool one_frame) {
  if (one_frame) {
    if (g.create_context(1, wire::Api::kGles, 3, 0) != 0) return 1;
    g.create_surface(1, 64, 64);
    g.make_current(1, 1, 1);
    wire::encode_glClear(g.w(), 0x4000);
    g.swap(1, 1);
    if (!g.send().ok() || !g.wait_frame(nullptr)) return 1;
  }
  if (write(STDOUT_FILENO, "R", 1) != 1) return 1;
  for (;;) pause();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s ADDRESS [idle|idle-frame]\n", argv[0]);
    return 2;
  }
  auto g = hosttest::TestGuest::connect(argv[1]);
  if (!g || !g->hello().ok()) return 1;
  if (argc == 3) return stay_idle(*g, std::strcmp(argv[2], "idle-frame") == 0);
  if (g->create_context(1, wire::Api::kGles, 3, 0) != 0) return 1;
  g->create_surface(1, 64, 64);
  g->make_current(1, 1, 1);
  wire::encode_glClearColor(g->w(), 1.0f, 0.0f, 1.0f, 1.0f);
  bool told = false;
  for (uint32_t frame = 1;; ++frame) {
    wire::encode_glClear(g->w(), 0x4000);
    g->swap(1, frame);
    if (!g->send().ok()) return 1;
    if (!told) {
      if (!g->wait_frame(nullptr)) return 1;
      told = write(STDOUT_FILENO, "R", 1) == 1;
    }
    g->frames.clear();
    (void)g->wait_frame(nullptr, std::chrono::milliseconds(1));
  }
}
