#include "host/capture_reader.h"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace host::capture {

using wire::Errc;
using wire::make_error;

struct Reader::Zstd {
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  ~Zstd() { ZSTD_freeDCtx(dctx); }
};

Reader::Reader(int fd, std::string path) : fd_(fd), path_(std::move(path)), zstd_(std::make_unique<Zstd>()) {}

Reader::~Reader() { ::close(fd_); }

wire::Result<std::unique_ptr<Reader>> Reader::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error(Errc::kIo, path + ": " + std::strerror(errno));
  std::unique_ptr<Reader> r(new Reader(fd, path));
  FileHeader h{};
  size_t got = 0;
  while (got < sizeof h) {
    const ssize_t n = ::read(fd, reinterpret_cast<char*>(&h) + got, sizeof h - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  if (got < sizeof h || std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    return make_error(Errc::kBadValue, path + ": not a Conduit capture (no capture header)");
  if (h.format_version != kFormatVersion)
    return make_error(Errc::kBadValue, path + ": capture format " + std::to_string(h.format_version) +
                                           "; this conduit reads format " + std::to_string(kFormatVersion));
  if (h.protocol_version != wire::kProtocolVersion)
    return make_error(Errc::kBadValue, path + ": captured with wire protocol version " +
                                           std::to_string(h.protocol_version) + "; this host speaks version " +
                                           std::to_string(wire::kProtocolVersion) +
                                           " and replays only captures of its own protocol");
  if (!r->zstd_->dctx) return make_error(Errc::kIo, "capture: no zstd context");
  r->in_.resize(ZSTD_DStreamInSize());
  return r;
}

wire::Error Reader::fail(Errc code, const std::string& why) const {
  return make_error(code, path_ + ": " + why + " at file byte " + std::to_string(file_offset_) +
                              " (record " + std::to_string(records_) + ", stream byte " +
                              std::to_string(stream_offset_) + ")");
}

wire::Result<bool> Reader::fill(size_t wanted) {
  // What was handed out goes; what lies ahead moves to the front.
  if (pending_pos_ > 0) {
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<ptrdiff_t>(pending_pos_));
    pending_pos_ = 0;
  }
  while (pending_.size() < wanted) {
    if (in_pos_ == in_size_) {
      if (eof_) return false;
      ssize_t n;
      do n = ::read(fd_, in_.data(), in_.size());
      while (n < 0 && errno == EINTR);
      if (n < 0) return make_error(Errc::kIo, path_ + ": " + std::strerror(errno));
      if (n == 0) {
        eof_ = true;
        return false;
      }
      in_pos_ = 0;
      in_size_ = static_cast<size_t>(n);
    }
    // Room for what is wanted, but at most as much again as is here: a
    // record's size is only a claim until its bytes come (a corrupted
    // header would otherwise cost its claim in memory at once).
    const size_t have = pending_.size();
    const size_t step = ZSTD_DStreamOutSize();
    const size_t room = std::clamp(wanted - have, step, std::max(step, have));
    pending_.resize(have + room);
    ZSTD_outBuffer out{pending_.data() + have, room, 0};
    ZSTD_inBuffer in{in_.data(), in_size_, in_pos_};
    const size_t rc = ZSTD_decompressStream(zstd_->dctx, &out, &in);
    file_offset_ += in.pos - in_pos_;
    in_pos_ = in.pos;
    pending_.resize(have + out.pos);
    if (ZSTD_isError(rc))
      return fail(Errc::kBadValue, std::string("corrupted compressed stream (") + ZSTD_getErrorName(rc) + ")");
  }
  return true;
}

wire::Result<std::optional<Reader::Record>> Reader::next() {
  if (ended_) return std::optional<Record>();
  auto got = fill(sizeof(RecordHeader));
  if (!got) return got.error();
  if (!*got) {
    if (pending_.empty()) return fail(Errc::kTruncated, "truncated: the file ends before its end record");
    return fail(Errc::kTruncated, "truncated inside a record header");
  }
  RecordHeader h;
  std::memcpy(&h, pending_.data(), sizeof h);
  if (h.kind < static_cast<uint32_t>(RecordKind::kInfo) || h.kind > static_cast<uint32_t>(RecordKind::kEnd))
    return fail(Errc::kBadValue, "corrupted: unknown record kind " + std::to_string(h.kind));
  if (h.size > kMaxRecordBytes) return fail(Errc::kBadValue, "corrupted: a record of " + std::to_string(h.size) + " bytes");
  if (records_ == 0 && h.kind != static_cast<uint32_t>(RecordKind::kInfo))
    return fail(Errc::kBadValue, "corrupted: the first record is not the capture's description");
  got = fill(sizeof h + h.size);
  if (!got) return got.error();
  if (!*got) return fail(Errc::kTruncated, "truncated inside a record of " + std::to_string(h.size) + " bytes");
  const auto payload = std::span<const std::byte>(pending_).subspan(sizeof h, h.size);
  if (payload_checksum(payload) != h.checksum) return fail(Errc::kBadValue, "corrupted: a record's checksum differs");
  Record rec{static_cast<RecordKind>(h.kind), payload, stream_offset_};
  pending_pos_ = sizeof h + h.size;
  stream_offset_ += pending_pos_;
  ++records_;
  if (rec.kind == RecordKind::kEnd) ended_ = true;
  return std::optional<Record>(rec);
}

}  // namespace host::capture
