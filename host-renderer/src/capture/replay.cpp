#include "host/replay.h"

#include <sys/mman.h>

#include <chrono>
#include <cstring>
#include <vector>

#include "host/capture_format.h"
#include "host/capture_reader.h"

namespace host {

namespace {

using capture::RecordKind;
using wire::Errc;
using wire::make_error;
using Clock = std::chrono::steady_clock;

// Shared-memory heaps are at most this large; a capture claiming more is refused.
constexpr uint64_t kMaxHeapBytes = 1u << 30;
constexpr uint64_t kMaxAreaBytes = uint64_t{16} << 30;

// The guest's side of the session, played from the capture: each batch is
// preceded by the heap bytes it reads, and followed by one empty wait so
// that the session finishes its frames as it does while a guest waits.
class ReplayChannel final : public wire::Channel {
 public:
  ReplayChannel(capture::Reader& reader, size_t heap_bytes, size_t area_bytes, ReplayResult& result)
      : reader_(reader), heap_(heap_bytes), result_(result) {
    // Placements are checked against the area's size; no page of it is
    // read (imports are refused), so untouched pages cost nothing.
    if (area_bytes) {
      void* p = ::mmap(nullptr, area_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p != MAP_FAILED) area_ = {static_cast<std::byte*>(p), area_bytes};
    }
  }
  ~ReplayChannel() override {
    if (!area_.empty()) ::munmap(area_.data(), area_.size());
  }

  wire::Status send(std::span<const std::byte>) override { return {}; }
  wire::Result<std::span<const std::byte>> receive(std::chrono::milliseconds) override {
    const auto start = Clock::now();
    auto r = next();
    reading_ += Clock::now() - start;
    return r;
  }
  void release() override {}
  wire::BlobSink* outgoing_heap() override { return nullptr; }
  std::span<const std::byte> incoming_heap() override { return heap_; }
  std::span<std::byte> shared_area() override { return area_; }
  bool local() const override { return true; }
  void close() override {}
  std::string describe() const override { return "replay"; }

  void stop() { stopping_ = true; }
  Clock::duration reading() const { return reading_; }
  const std::vector<uint64_t>& recorded_hashes() const { return recorded_; }

 private:
  wire::Result<std::span<const std::byte>> next() {
    if (std::exchange(wait_once_, false)) return make_error(Errc::kTimeout, "between batches");
    while (!stopping_ && !done_) {
      auto rec = reader_.next();
      if (!rec) {
        result_.broken = rec.error();
        return finish();
      }
      if (!*rec) return finish();
      const auto& r = **rec;
      switch (r.kind) {
        case RecordKind::kHeap:
          if (!place(r.payload)) return finish();
          break;
        case RecordKind::kBatch:
          message_.assign(r.payload.begin(), r.payload.end());
          ++result_.batches;
          wait_once_ = true;
          return std::span<const std::byte>(message_);
        case RecordKind::kFrame: {
          capture::FrameRecord f;
          if (r.payload.size() != sizeof f) return corrupt("a frame record of " + std::to_string(r.payload.size()) + " bytes");
          std::memcpy(&f, r.payload.data(), sizeof f);
          recorded_.push_back(f.hash);
          break;
        }
        case RecordKind::kEnd:
          result_.complete = true;
          break;
        default:
          break;  // replies and notices: what the guest saw, not what the host needs
      }
    }
    return finish();
  }

  // The bytes the next batch reads from the guest's heap.
  bool place(std::span<const std::byte> payload) {
    uint64_t offset;
    if (payload.size() < sizeof offset) return corrupt("a heap record without its offset"), false;
    std::memcpy(&offset, payload.data(), sizeof offset);
    const auto bytes = payload.subspan(sizeof offset);
    if (offset > heap_.size() || heap_.size() - offset < bytes.size())
      return corrupt("heap bytes [" + std::to_string(offset) + ", +" + std::to_string(bytes.size()) +
                     ") outside the captured heap of " + std::to_string(heap_.size())),
             false;
    if (!bytes.empty()) std::memcpy(heap_.data() + offset, bytes.data(), bytes.size());
    ++result_.heap_records;
    result_.heap_bytes += bytes.size();
    return true;
  }

  wire::Error corrupt(const std::string& why) {
    result_.broken = make_error(Errc::kBadValue, "corrupted: " + why + " (record " +
                                                     std::to_string(reader_.records()) + ", file byte " +
                                                     std::to_string(reader_.file_offset()) + ")");
    return *result_.broken;
  }

  // One last wait lets the session finish the frames it is reading.
  wire::Result<std::span<const std::byte>> finish() {
    if (!done_) {
      done_ = true;
      return make_error(Errc::kTimeout, "finishing frames");
    }
    return make_error(Errc::kClosed, "the capture ends");
  }

  capture::Reader& reader_;
  std::vector<std::byte> heap_;
  std::span<std::byte> area_;
  ReplayResult& result_;
  std::vector<std::byte> message_;
  std::vector<uint64_t> recorded_;
  Clock::duration reading_{};
  bool wait_once_ = false;
  bool done_ = false;
  bool stopping_ = false;
};

// A size the description claims: absent (0), or a whole number of bytes
// up to `max`; anything else (text, a fraction, a negative number) is
// refused before it is read as a number.
wire::Status check_size(const nlohmann::json& info, const char* key, const char* what, uint64_t max) {
  const auto it = info.find(key);
  if (it == info.end()) return {};
  if (!it->is_number_unsigned())
    return make_error(Errc::kBadValue, std::string("capture: ") + key + " is not a byte count: " + it->dump());
  if (it->get<uint64_t>() > max)
    return make_error(Errc::kBadValue, std::string("capture: ") + what + " of " + it->dump() + " bytes");
  return {};
}

wire::Result<nlohmann::json> read_description(capture::Reader& reader) {
  auto rec = reader.next();
  if (!rec) return rec.error();
  if (!*rec) return make_error(Errc::kBadValue, "capture: no description");
  const auto& p = (**rec).payload;
  auto info = nlohmann::json::parse(reinterpret_cast<const char*>(p.data()),
                                    reinterpret_cast<const char*>(p.data()) + p.size(), nullptr, false);
  if (info.is_discarded() || !info.is_object())
    return make_error(Errc::kBadValue, "capture: its description is not JSON");
  WIRE_TRY(check_size(info, "heap_bytes", "a heap", kMaxHeapBytes));
  WIRE_TRY(check_size(info, "area_bytes", "an area", kMaxAreaBytes));
  return info;
}

void compare(const std::vector<uint64_t>& recorded, const std::vector<uint64_t>& replayed, ReplayResult& result) {
  result.recorded_frames = recorded.size();
  result.compared = std::min(recorded.size(), replayed.size());
  for (size_t i = 0; i < result.compared; ++i) {
    if (recorded[i] == replayed[i]) continue;
    if (result.mismatches++ == 0) result.first_mismatch = i + 1;
  }
}

}  // namespace

wire::Result<ReplayResult> replay_capture(const std::string& path, const EglDisplay& display,
                                          const ReplayOptions& options) {
  auto reader = capture::Reader::open(path);
  if (!reader) return reader.error();
  ReplayResult result;
  auto info = read_description(**reader);
  if (!info) return info.error();
  result.info = *info;
  auto channel = std::make_unique<ReplayChannel>(**reader, result.info.value("heap_bytes", uint64_t{0}),
                                                 result.info.value("area_bytes", uint64_t{0}), result);
  ReplayChannel& feed = *channel;
  StatsRegistry registry;
  const std::atomic<bool> stop{false};
  std::vector<uint64_t> replayed;
  const auto start = Clock::now();
  {
    Session session(display, std::move(channel), options.limits, registry, stop);
    session.share_no_memory();
    session.set_frame_tap([&](const wire::Frame& f, std::span<const std::byte> pixels) {
      const uint64_t n = replayed.size() + 1;
      if (n > options.last) return;
      const uint64_t hash = capture::frame_hash(f, pixels);
      replayed.push_back(hash);
      if (n >= options.first && options.on_frame) options.on_frame(n, f, pixels, hash);
      if (n == options.last) feed.stop();
    });
    session.run();
    Counters total;
    uint64_t memory = 0;
    uint32_t pid = 0;
    registry.sum(total, memory, pid);
    result.commands = total.commands.load();
    result.contexts_lost = total.contexts_lost.load();
    result.host_seconds = std::chrono::duration<double>(Clock::now() - start - feed.reading()).count();
    compare(feed.recorded_hashes(), replayed, result);
  }
  result.frames = replayed.size();
  return result;
}

}  // namespace host
