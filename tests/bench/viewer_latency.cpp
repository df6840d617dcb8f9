// viewer-latency HOST:PORT SECONDS PROBE_HEIGHT [ENCODINGS]: a VNC viewer
// (libvncclient) that reads input_probe's frame counter out of every update
// and prints when it first saw each frame number:
//   seen N t=NS      (CLOCK_MONOTONIC, the clock input_probe's --log-frames uses)
// and at the end how many updates it received in all ("updates N").
// The probe must be the only surface shown: its picture is the canvas's
// bottom PROBE_HEIGHT rows, from the left edge (the compositor's single
// tile under its label bar). ENCODINGS defaults to libvncclient's, Tight
// with JPEG as noVNC asks for. Ends after SECONDS; exits 1 when it could not
// connect or the server went away.
#include <rfb/rfbclient.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

namespace {

constexpr int kCellBits = 24, kCellSide = 8;

int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

struct Reader {
  int probe_height = 0;
  int64_t last_seen = -1;
  long updates = 0;
};
char g_tag;

// A cell's middle pixel: white is 1. Lossy encodings blur the value, never
// across the middle.
bool cell_is_one(rfbClient* client, int x, int y) {
  const auto* fb = reinterpret_cast<const uint32_t*>(client->frameBuffer);
  const uint32_t p = fb[size_t(y) * client->width + x];
  const int sum = int(p & 0xff) + int((p >> 8) & 0xff) + int((p >> 16) & 0xff);
  return sum > 3 * 128;
}

void on_frame_done(rfbClient* client) {
  auto* reader = static_cast<Reader*>(rfbClientGetClientData(client, &g_tag));
  ++reader->updates;
  const int top = client->height - reader->probe_height;
  if (top < 0 || client->width < kCellBits * kCellSide) return;
  int64_t frame = 0;
  for (int bit = 0; bit < kCellBits; ++bit) {
    frame = frame << 1 | (cell_is_one(client, bit * kCellSide + kCellSide / 2, top + kCellSide / 2) ? 1 : 0);
  }
  if (frame <= reader->last_seen) return;
  reader->last_seen = frame;
  std::printf("seen %lld t=%lld\n", static_cast<long long>(frame), static_cast<long long>(monotonic_ns()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: viewer-latency HOST:PORT SECONDS PROBE_HEIGHT [ENCODINGS]\n");
    return 2;
  }
  const std::string address = argv[1];
  const size_t colon = address.rfind(':');
  const double seconds = std::atof(argv[2]);
  Reader reader;
  reader.probe_height = std::atoi(argv[3]);
  if (colon == std::string::npos || seconds <= 0 || reader.probe_height <= 0) {
    std::fprintf(stderr, "viewer-latency: bad arguments\n");
    return 2;
  }
  rfbClient* client = rfbGetClient(8, 3, 4);
  if (argc > 4) client->appData.encodingsString = argv[4];
  client->FinishedFrameBufferUpdate = on_frame_done;
  std::free(client->serverHost);
  client->serverHost = strdup(address.substr(0, colon).c_str());
  client->serverPort = std::atoi(address.c_str() + colon + 1);
  rfbClientSetClientData(client, &g_tag, &reader);
  if (!rfbInitClient(client, nullptr, nullptr)) return 1;  // frees the client
  const int64_t end = monotonic_ns() + static_cast<int64_t>(seconds * 1e9);
  int status = 0;
  while (monotonic_ns() < end) {
    // Bytes libvncclient has buffered already are not seen by select().
    const int ready = client->buffered > 0 ? 1 : WaitForMessage(client, 10'000);
    if (ready < 0 || (ready > 0 && !HandleRFBServerMessage(client))) {
      status = 1;
      break;
    }
  }
  std::printf("updates %ld\n", reader.updates);
  std::fflush(stdout);
  rfbClientCleanup(client);
  return status;
}
