#include "host/capture_writer.h"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "host/log.h"

namespace host::capture {

namespace {

// Flushed to disk at least this often, so that a capture of a program that
// is killed can be replayed up to shortly before.
constexpr auto kFlushPeriod = std::chrono::milliseconds(250);

std::span<const std::byte> as_bytes_of(const auto& value) {
  return std::as_bytes(std::span(&value, 1));
}

}  // namespace

wire::Result<int> create_capture_file(const std::string& dir, uint32_t session) {
  const std::string path = dir + "/conduit-" + std::to_string(::getpid()) + "-" + std::to_string(session) + ".cdcap";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return wire::make_error(wire::Errc::kIo, "capture " + path + ": " + std::strerror(errno));
  return fd;
}

struct Writer::Zstd {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ~Zstd() { ZSTD_freeCCtx(cctx); }
};

Writer::Writer(int fd, std::string name, size_t queue_bytes)
    : fd_(fd), name_(std::move(name)), queue_limit_(queue_bytes), zstd_(std::make_unique<Zstd>()) {}

wire::Result<std::unique_ptr<Writer>> Writer::open(int fd, std::string name, size_t queue_bytes) {
  std::unique_ptr<Writer> w(new Writer(fd, std::move(name), queue_bytes));
  if (!w->zstd_->cctx) return wire::make_error(wire::Errc::kIo, "capture: no zstd context");
  // Fast: the writer must keep up with a program's stream on one core.
  ZSTD_CCtx_setParameter(w->zstd_->cctx, ZSTD_c_compressionLevel, 1);
  FileHeader header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.format_version = kFormatVersion;
  header.protocol_version = wire::kProtocolVersion;
  if (!w->write_out(as_bytes_of(header)))
    return wire::make_error(wire::Errc::kIo, "capture " + w->name_ + ": " + std::strerror(errno));
  w->thread_ = std::thread([p = w.get()] { p->run(); });
  return w;
}

Writer::~Writer() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  ready_.notify_one();
  if (thread_.joinable()) thread_.join();
  const bool complete = ::close(fd_) == 0 && !failed_;
  log_line("capture %s: %llu records%s", name_.c_str(), static_cast<unsigned long long>(records_),
           complete ? "" : ", incomplete");
}

bool Writer::failed() const {
  std::lock_guard lock(mutex_);
  return failed_;
}

void Writer::record(RecordKind kind, std::initializer_list<std::span<const std::byte>> parts) {
  size_t size = 0;
  for (auto p : parts) size += p.size();
  if (size > kMaxRecordBytes) {  // a reader would refuse it: the capture ends before it
    std::lock_guard lock(mutex_);
    if (!failed_) log_line("capture %s: a record of %zu bytes; the capture stops here", name_.c_str(), size);
    failed_ = true;
    return;
  }
  std::vector<std::byte> rec(sizeof(RecordHeader) + size);
  size_t at = sizeof(RecordHeader);
  for (auto p : parts) {
    if (!p.empty()) std::memcpy(rec.data() + at, p.data(), p.size());
    at += p.size();
  }
  const RecordHeader h{static_cast<uint32_t>(kind), static_cast<uint32_t>(size),
                       payload_checksum(std::span(rec).subspan(sizeof(RecordHeader)))};
  std::memcpy(rec.data(), &h, sizeof h);
  std::unique_lock lock(mutex_);
  drained_.wait(lock, [&] { return failed_ || queued_bytes_ < queue_limit_; });
  if (failed_) return;
  queued_bytes_ += rec.size();
  queue_.push_back(std::move(rec));
  ++records_;
  lock.unlock();
  ready_.notify_one();
}

void Writer::run() {
  auto last_flush = std::chrono::steady_clock::now();
  bool dirty = false;  // compressed bytes not flushed yet
  for (;;) {
    std::unique_lock lock(mutex_);
    ready_.wait_for(lock, kFlushPeriod, [&] { return closing_ || !queue_.empty(); });
    if (queue_.empty()) {
      const bool closing = closing_;
      lock.unlock();
      if (closing) {
        compress({}, false, true);
        return;
      }
      if (dirty) dirty = !compress({}, true, false);
      last_flush = std::chrono::steady_clock::now();
      continue;
    }
    std::vector<std::byte> rec = std::move(queue_.front());
    queue_.pop_front();
    const bool failed = failed_;
    lock.unlock();
    const auto now = std::chrono::steady_clock::now();
    const bool flush = now - last_flush >= kFlushPeriod;
    bool ok = failed || compress(rec, flush, false);
    if (flush) last_flush = now;
    dirty = !flush;
    lock.lock();
    queued_bytes_ -= rec.size();
    if (!ok && !failed_) {
      failed_ = true;
      log_line("capture %s: cannot write: %s; the capture stops here, the session goes on", name_.c_str(),
               std::strerror(errno));
    }
    lock.unlock();
    drained_.notify_all();
  }
}

bool Writer::compress(std::span<const std::byte> in, bool flush, bool end) {
  const ZSTD_EndDirective mode = end ? ZSTD_e_end : flush ? ZSTD_e_flush : ZSTD_e_continue;
  out_.resize(ZSTD_CStreamOutSize());
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  for (;;) {
    ZSTD_outBuffer output{out_.data(), out_.size(), 0};
    const size_t left = ZSTD_compressStream2(zstd_->cctx, &output, &input, mode);
    if (ZSTD_isError(left)) {
      errno = EIO;
      return false;
    }
    if (!write_out(std::span(out_).first(output.pos))) return false;
    const bool done = mode == ZSTD_e_continue ? input.pos == input.size : left == 0;
    if (done) return true;
  }
}

bool Writer::write_out(std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes = bytes.subspan(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace host::capture
