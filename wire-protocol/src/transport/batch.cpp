#include "wire/batch.h"

#include "wire/transport.h"

#include <zstd.h>

#include <sys/mman.h>

#include <cstring>
#include <new>
#include <string>

namespace wire {
namespace {

// Bounds the decoder's window so a peer cannot make it allocate more.
constexpr int kWindowLog = 22;

std::string zstd_text(size_t code) { return ZSTD_getErrorName(code); }

}  // namespace

Compression compression_for(Channel& channel) {
  return channel.outgoing_heap() ? Compression::kOff : Compression::kAuto;
}

struct BatchEncoder::Zstd {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ~Zstd() { ZSTD_freeCCtx(cctx); }
};

struct BatchDecoder::Zstd {
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  ~Zstd() { ZSTD_freeDCtx(dctx); }
};

BatchEncoder::BatchEncoder(Compression mode, int level)
    : zstd_(std::make_unique<Zstd>()), mode_(mode) {
  ZSTD_CCtx_setParameter(zstd_->cctx, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(zstd_->cctx, ZSTD_c_windowLog, kWindowLog);
}

BatchEncoder::~BatchEncoder() = default;

bool BatchEncoder::should_compress(size_t raw_size) const {
  switch (mode_) {
    case Compression::kOff: return false;
    case Compression::kFast: return raw_size > 0;
    case Compression::kAuto: return raw_size >= kAutoMinBytes && skip_left_ == 0;
  }
  return false;
}

// Auto mode: after a batch that shrank by less than 1/8, skip the next few
// and double the pause each time it happens again; a good batch resets it.
void BatchEncoder::remember(size_t raw_size, size_t wire_size) {
  if (wire_size * 8 > raw_size * 7) {
    skip_next_ = skip_next_ == 0 ? 4 : (skip_next_ < 256 ? skip_next_ * 2 : 256);
    skip_left_ = skip_next_;
  } else {
    skip_next_ = 0;
  }
}

Result<std::span<const std::byte>> BatchEncoder::encode(std::span<const std::byte> commands,
                                                        uint16_t flags) {
  if (commands.size() > UINT32_MAX) {
    return make_error(Errc::kLimit, "batch of " + std::to_string(commands.size()) + " bytes");
  }
  flags &= static_cast<uint16_t>(~kBatchCompressed);
  const bool compress = should_compress(commands.size());
  if (mode_ == Compression::kAuto && skip_left_ > 0 && commands.size() >= kAutoMinBytes) {
    --skip_left_;
  }

  size_t bound = compress ? ZSTD_compressBound(commands.size()) + 64 : commands.size();
  out_.resize(sizeof(BatchHeader) + bound);
  size_t wire_size = commands.size();
  if (compress) {
    ZSTD_inBuffer in{commands.data(), commands.size(), 0};
    ZSTD_outBuffer out{out_.data() + sizeof(BatchHeader), bound, 0};
    size_t left = 0;
    do {  // with a compressBound-sized buffer one call normally suffices
      left = ZSTD_compressStream2(zstd_->cctx, &out, &in, ZSTD_e_flush);
      if (ZSTD_isError(left)) return make_error(Errc::kCompression, zstd_text(left));
      if (left != 0 && out.pos == out.size) {
        out_.resize(out_.size() + left + 4096);
        out.dst = out_.data() + sizeof(BatchHeader);
        out.size = out_.size() - sizeof(BatchHeader);
      }
    } while (left != 0);
    wire_size = out.pos;
    flags |= kBatchCompressed;
    ++stats_.compressed_batches;
    if (mode_ == Compression::kAuto) remember(commands.size(), wire_size);
  } else if (!commands.empty()) {
    std::memcpy(out_.data() + sizeof(BatchHeader), commands.data(), commands.size());
  }
  if (wire_size > UINT32_MAX) return make_error(Errc::kLimit, "compressed batch too large");

  BatchHeader h{kBatchMagic, kProtocolVersion, flags, static_cast<uint32_t>(commands.size()),
                static_cast<uint32_t>(wire_size)};
  std::memcpy(out_.data(), &h, sizeof h);
  ++stats_.batches;
  stats_.raw_bytes += commands.size();
  stats_.wire_bytes += wire_size;
  return std::span<const std::byte>(out_.data(), sizeof h + wire_size);
}

BatchDecoder::BatchDecoder(size_t max_raw_size)
    : zstd_(std::make_unique<Zstd>()), max_raw_size_(max_raw_size) {
  ZSTD_DCtx_setParameter(zstd_->dctx, ZSTD_d_windowLogMax, kWindowLog);
}

BatchDecoder::~BatchDecoder() = default;

Status BatchDecoder::decompress(std::span<const std::byte> payload, size_t raw_size) {
  ZSTD_inBuffer in{payload.data(), payload.size(), 0};
  ZSTD_outBuffer out{out_.get(), raw_size, 0};
  while (in.pos < in.size) {
    size_t before_in = in.pos, before_out = out.pos;
    size_t ret = ZSTD_decompressStream(zstd_->dctx, &out, &in);
    if (ZSTD_isError(ret)) {
      return make_error(Errc::kCompression, zstd_text(ret),
                        sizeof(BatchHeader) + in.pos);
    }
    if (in.pos == before_in && out.pos == before_out) {
      return make_error(Errc::kBadLength,
                        "payload decompresses to more than raw_size " + std::to_string(raw_size),
                        sizeof(BatchHeader) + in.pos);
    }
  }
  // zstd may hold decoded bytes back when the output buffer is full; any
  // such byte means the payload is longer than raw_size.
  std::byte extra;
  ZSTD_outBuffer probe{&extra, 1, 0};
  ZSTD_inBuffer none{nullptr, 0, 0};
  size_t ret = ZSTD_decompressStream(zstd_->dctx, &probe, &none);
  if (!ZSTD_isError(ret) && probe.pos != 0) {
    return make_error(Errc::kBadLength,
                      "payload decompresses to more than raw_size " + std::to_string(raw_size),
                      sizeof(BatchHeader));
  }
  if (out.pos != raw_size) {
    return make_error(Errc::kBadLength,
                      "payload decompressed to " + std::to_string(out.pos) +
                          " bytes, header says " + std::to_string(raw_size),
                      sizeof(BatchHeader));
  }
  return {};
}

void BatchDecoder::Unmap::operator()(std::byte* p) const { munmap(p, bytes); }

void BatchDecoder::reserve(size_t bytes) {
  if (bytes <= out_capacity_) return;
  out_.reset();  // first: the old and the new buffer are never held together
  out_capacity_ = 0;
  void* pages = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (pages == MAP_FAILED) throw std::bad_alloc();
  out_ = std::unique_ptr<std::byte[], Unmap>(static_cast<std::byte*>(pages), Unmap{bytes});
  out_capacity_ = bytes;
}

void BatchDecoder::trim(size_t keep) {
  if (out_capacity_ <= keep) return;
  out_.reset();
  out_capacity_ = 0;
}

Result<BatchDecoder::Batch> BatchDecoder::decode(std::span<const std::byte> message, size_t room) {
  if (broken_) return make_error(Errc::kCompression, "stream lost after an earlier error");
  BatchHeader h;
  if (message.size() < sizeof h) {
    return make_error(Errc::kTruncated,
                      "batch header needs 16 bytes, got " + std::to_string(message.size()));
  }
  std::memcpy(&h, message.data(), sizeof h);
  if (h.magic != kBatchMagic) return make_error(Errc::kBadMagic, "batch magic", 0);
  if (h.version != kProtocolVersion) {
    return make_error(Errc::kBadVersion, "batch version " + std::to_string(h.version), 4);
  }
  const uint16_t known = kBatchCompressed | kBatchWantsReply;
  if (h.flags & ~known) return make_error(Errc::kBadValue, "batch flags " + std::to_string(h.flags), 6);
  if (h.raw_size > max_raw_size_) {
    return make_error(Errc::kLimit,
                      "raw_size " + std::to_string(h.raw_size) + " above limit " +
                          std::to_string(max_raw_size_),
                      8);
  }
  if (h.raw_size > room) {
    return make_error(Errc::kLimit,
                      "raw_size " + std::to_string(h.raw_size) + " above the peer's memory left (" +
                          std::to_string(room) + " bytes)",
                      8);
  }
  if (h.wire_size != message.size() - sizeof h) {
    return make_error(Errc::kBadLength,
                      "wire_size " + std::to_string(h.wire_size) + " but " +
                          std::to_string(message.size() - sizeof h) + " bytes present",
                      12);
  }
  auto payload = message.subspan(sizeof h);
  reserve(h.raw_size);
  if (h.flags & kBatchCompressed) {
    auto st = decompress(payload, h.raw_size);
    if (!st) {
      broken_ = true;
      return st.error();
    }
  } else {
    if (h.wire_size != h.raw_size) {
      return make_error(Errc::kBadLength,
                        "uncompressed batch: wire_size " + std::to_string(h.wire_size) +
                            " != raw_size " + std::to_string(h.raw_size),
                        8);
    }
    if (!payload.empty()) std::memcpy(out_.get(), payload.data(), payload.size());
  }
  return Batch{h.flags, std::span<const std::byte>(out_.get(), h.raw_size)};
}

}  // namespace wire
