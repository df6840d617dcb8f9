// `conduit replay FILE`: runs a capture (`conduit run --capture`, `conduit
// host --capture-dir`) on this host with no guest: frames as hashes or
// PNG files, and the host's throughput (docs/capture.md).
#include <png.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "host/egl_display.h"
#include "host/replay.h"

namespace cli {
namespace {

struct ReplayArgs {
  std::string file;
  std::string frames;  // "A-B", "A-" or "A"
  std::string snapshot_dir;
  bool hashes = false;
  bool bench = false;
};

bool parse_frames(const std::string& s, host::ReplayOptions& o) {
  if (s.empty()) return true;
  try {
    size_t used = 0;
    o.first = std::stoull(s, &used);
    if (used == s.size()) {
      o.last = o.first;
    } else if (s[used] == '-') {
      const std::string rest = s.substr(used + 1);
      if (!rest.empty()) {
        size_t end = 0;
        o.last = std::stoull(rest, &end);
        if (end != rest.size()) return false;
      }
    } else {
      return false;
    }
  } catch (const std::exception&) {
    return false;
  }
  return o.first >= 1 && o.first <= o.last;
}

// BGRA rows, top first, as RGBA PNG.
bool write_png(const std::string& path, const wire::Frame& f, std::span<const std::byte> pixels) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (!out) return false;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  bool ok = png && info && !setjmp(png_jmpbuf(png));
  if (ok) {
    png_init_io(png, out);
    png_set_IHDR(png, info, f.width, f.height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_set_bgr(png);
    for (uint32_t y = 0; y < f.height; ++y) {
      const size_t at = size_t{y} * f.stride;
      if (at + size_t{f.width} * 4 > pixels.size()) break;
      png_write_row(png, reinterpret_cast<png_const_bytep>(pixels.data() + at));
    }
    png_write_end(png, nullptr);
  }
  png_destroy_write_struct(png ? &png : nullptr, info ? &info : nullptr);
  return std::fclose(out) == 0 && ok;
}

void report(const ReplayArgs& a, const host::ReplayResult& r) {
  std::fprintf(stderr,
               "conduit replay: %" PRIu64 " batches, %" PRIu64 " commands, %" PRIu64 " shared-heap reads (%" PRIu64
               " bytes), %" PRIu64 " frames",
               r.batches, r.commands, r.heap_records, r.heap_bytes, r.frames);
  if (r.contexts_lost) std::fprintf(stderr, ", %" PRIu64 " contexts lost", r.contexts_lost);
  std::fprintf(stderr, "; %" PRIu64 " frames compared with the capture's: %s\n", r.compared,
               r.mismatches == 0 ? "all equal"
                                 : (std::to_string(r.mismatches) + " differ, the first is frame " +
                                    std::to_string(r.first_mismatch))
                                       .c_str());
  if (a.bench) {
    const double s = r.host_seconds > 0 ? r.host_seconds : 1e-9;
    std::printf("bench: %.3f s host-side, %.0f commands/s, %.1f frames/s, %" PRIu64 " commands, %" PRIu64
                " frames\n",
                r.host_seconds, r.commands / s, r.frames / s, r.commands, r.frames);
  }
}

int replay(const ReplayArgs& a) {
  host::ReplayOptions options;
  if (!parse_frames(a.frames, options)) {
    std::fprintf(stderr, "conduit replay: --frames %s: expected A-B, A- or A (frames count from 1)\n",
                 a.frames.c_str());
    return 2;
  }
  if (!a.snapshot_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.snapshot_dir, ec);
    if (ec) {
      std::fprintf(stderr, "conduit replay: --snapshot %s: %s\n", a.snapshot_dir.c_str(), ec.message().c_str());
      return 1;
    }
  }
  bool wrote = true;
  options.on_frame = [&](uint64_t n, const wire::Frame& f, std::span<const std::byte> pixels, uint64_t hash) {
    if (a.hashes)
      std::printf("frame %" PRIu64 " surface %u %ux%u hash %016" PRIx64 "\n", n, f.surface_id, f.width, f.height,
                  hash);
    if (a.snapshot_dir.empty()) return;
    char name[64];
    std::snprintf(name, sizeof name, "frame-%06" PRIu64 ".png", n);
    const std::string path = (std::filesystem::path(a.snapshot_dir) / name).string();
    if (!write_png(path, f, pixels) && wrote) {
      std::fprintf(stderr, "conduit replay: cannot write %s\n", path.c_str());
      wrote = false;
    }
  };
  auto display = host::EglDisplay::open({});
  if (!display) {
    std::fprintf(stderr, "conduit replay: no display: %s\n", display.error().describe().c_str());
    return 1;
  }
  auto result = host::replay_capture(a.file, **display, options);
  if (!result) {
    std::fprintf(stderr, "conduit replay: %s\n", result.error().detail.c_str());
    return 1;
  }
  std::fflush(stdout);
  report(a, *result);
  if (result->broken) {
    std::fprintf(stderr, "conduit replay: %s; stopped after frame %" PRIu64 " (batch %" PRIu64 ")\n",
                 result->broken->detail.c_str(), result->frames, result->batches);
    return 1;
  }
  if (result->mismatches) return 1;
  return wrote ? 0 : 1;
}

}  // namespace

CLI::App* add_replay_command(CLI::App& app, int* status) {
  auto* cmd = app.add_subcommand("replay", "Run a capture (conduit run --capture, conduit host --capture-dir) "
                                           "on this host with no guest");
  auto args = std::make_shared<ReplayArgs>();
  cmd->add_option("file", args->file, "The capture file")->required();
  cmd->add_option("--frames", args->frames,
                  "Frames A-B only (from 1; A- or A alone too): the batches before still run, the replay "
                  "stops after B")
      ->type_name("A-B");
  cmd->add_option("--snapshot", args->snapshot_dir, "Write the frames as DIR/frame-NNNNNN.png")->type_name("DIR");
  cmd->add_flag("--hashes", args->hashes, "Print one line per frame with its hash");
  cmd->add_flag("--bench", args->bench,
                "Print host-side throughput: commands and frames per second, reading the file excluded");
  cmd->callback([status, args] { *status = replay(*args); });
  return cmd;
}

}  // namespace cli
