#include "capture/session_capture.h"

#include <cstring>

namespace host::capture {

namespace {

std::span<const std::byte> text_bytes(const std::string& s) { return std::as_bytes(std::span(s.data(), s.size())); }

template <typename T>
std::span<const std::byte> bytes_of(const T& value) {
  return std::as_bytes(std::span(&value, 1));
}

}  // namespace

SessionCapture::SessionCapture(std::unique_ptr<Writer> writer, const nlohmann::json& info)
    : writer_(std::move(writer)) {
  writer_->record(RecordKind::kInfo, {text_bytes(info.dump())});
}

SessionCapture::~SessionCapture() {
  const nlohmann::json end = {{"batches", batches_}, {"frames", frames_}};
  writer_->record(RecordKind::kEnd, {text_bytes(end.dump())});
}

void SessionCapture::begin_batch(std::span<const std::byte> message) {
  message_.assign(message.begin(), message.end());
  heap_reads_.clear();
  heap_bytes_.clear();
}

// A command decoded twice reads its references twice: once is enough.
bool SessionCapture::seen(uint64_t offset, std::span<const std::byte> bytes) const {
  for (const auto& r : heap_reads_)
    if (r.offset == offset && r.size == bytes.size() &&
        (bytes.empty() || std::memcmp(heap_bytes_.data() + r.at, bytes.data(), bytes.size()) == 0))
      return true;
  return false;
}

void SessionCapture::heap_read(uint64_t offset, std::span<const std::byte> bytes) {
  if (seen(offset, bytes)) return;
  heap_reads_.push_back({offset, heap_bytes_.size(), bytes.size()});
  heap_bytes_.insert(heap_bytes_.end(), bytes.begin(), bytes.end());
}

void SessionCapture::end_batch(bool replied, std::span<const std::byte> reply) {
  for (const auto& r : heap_reads_)
    writer_->record(RecordKind::kHeap,
                    {bytes_of(r.offset), std::span<const std::byte>(heap_bytes_).subspan(r.at, r.size)});
  writer_->record(RecordKind::kBatch, {message_});
  if (replied) writer_->record(RecordKind::kReply, {reply});
  ++batches_;
  // Large batches do not keep their memory.
  if (message_.capacity() > (1u << 20)) message_ = {};
  if (heap_bytes_.capacity() > (1u << 20)) heap_bytes_ = {};
}

void SessionCapture::frame(const wire::Frame& frame, uint64_t hash) {
  const FrameRecord rec{frame, 0, hash};
  writer_->record(RecordKind::kFrame, {bytes_of(rec)});
  ++frames_;
}

void SessionCapture::to_guest(uint32_t control_op, std::span<const std::byte> payload) {
  writer_->record(RecordKind::kToGuest, {bytes_of(control_op), payload});
}

}  // namespace host::capture
