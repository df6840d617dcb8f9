// Reads a capture file record by record, trusting none of it: the header
// must name this protocol, every record's size is bounded and its checksum
// checked, and a file that ends before its end record is truncated. Errors
// say where (the file byte, and the record's byte in the decompressed
// stream).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "host/capture_format.h"
#include "wire/result.h"

namespace host::capture {

class Reader {
 public:
  // Opens `path` and checks its header: another format or protocol version
  // is refused with both versions named.
  static wire::Result<std::unique_ptr<Reader>> open(const std::string& path);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  struct Record {
    RecordKind kind;
    std::span<const std::byte> payload;  // valid until the next next()
    uint64_t stream_offset;              // of its header in the decompressed stream
  };
  // The next record; nullopt after the end record. kTruncated when the file
  // ends before it, kBadValue for a corrupted one.
  wire::Result<std::optional<Record>> next();

  uint64_t file_offset() const { return file_offset_; }      // compressed bytes read
  uint64_t stream_offset() const { return stream_offset_; }  // where the next record starts
  uint64_t records() const { return records_; }

 private:
  Reader(int fd, std::string path);
  // Decompresses until `wanted` bytes lie ahead in pending_; false at the
  // file's end; an error for a broken zstd stream.
  wire::Result<bool> fill(size_t wanted);
  wire::Error fail(wire::Errc code, const std::string& why) const;

  int fd_;
  std::string path_;
  struct Zstd;
  std::unique_ptr<Zstd> zstd_;
  std::vector<std::byte> in_;
  size_t in_pos_ = 0;
  size_t in_size_ = 0;
  std::vector<std::byte> pending_;  // decompressed, not yet handed out
  size_t pending_pos_ = 0;
  uint64_t file_offset_ = sizeof(FileHeader);
  uint64_t stream_offset_ = 0;
  uint64_t records_ = 0;
  bool ended_ = false;
  bool eof_ = false;
};

}  // namespace host::capture
