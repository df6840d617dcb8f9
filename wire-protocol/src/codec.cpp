#include <algorithm>
#include <string>

#include "wire/reader.h"
#include "wire/writer.h"

namespace wire {

void Writer::put_data(const void* data, size_t size) {
  if (data == nullptr) {
    put(static_cast<uint32_t>(DataKind::kNull));
    return;
  }
  const std::span<std::byte> room = put_data_place(size);
  if (size) std::memcpy(room.data(), data, size);
}

std::span<std::byte> Writer::put_data_place(size_t size) {
  uint64_t offset = 0;
  if (blob_sink_ && size >= blob_sink_->threshold())
    if (std::byte* at = blob_sink_->place(size, &offset)) {
      put(static_cast<uint32_t>(DataKind::kHeap));
      put(offset);
      put(static_cast<uint32_t>(size));
      return {at, size};
    }
  put(static_cast<uint32_t>(DataKind::kInline));
  put(static_cast<uint32_t>(size));
  const size_t at = size_;  // an offset: the padding may grow the buffer
  grow(size);
  pad_to(align_up(size_));
  return {data_.get() + at, size};
}

// Grows by doubling, so that a batch of many small commands is copied a
// few times at most.
void Writer::reserve(size_t wanted) {
  if (wanted <= capacity_) return;
  const size_t capacity = std::max(wanted, capacity_ * 2);
  auto bigger = std::make_unique_for_overwrite<std::byte[]>(capacity);
  if (size_) std::memcpy(bigger.get(), data_.get(), size_);
  data_ = std::move(bigger);
  capacity_ = capacity;
}

void Writer::put_buffer_offset(uint64_t offset) {
  put(static_cast<uint32_t>(DataKind::kBufferOffset));
  put(offset);
}

Error Reader::truncated(size_t wanted) const {
  return make_error(Errc::kTruncated,
                    "wanted " + std::to_string(wanted) + " bytes, " +
                        std::to_string(remaining()) + " left",
                    offset());
}

void HeapCopies::drop_copies() {
  copies_.clear();
  blocks_used_ = 0;
  copied_ = 0;
  // A command that copied a lot does not keep its memory for the next,
  // wherever among its references the large one was.
  std::erase_if(blocks_, [](const auto& block) { return block.capacity() > (1u << 20); });
}

Result<std::span<const std::byte>> HeapCopies::copy(size_t at, uint64_t offset, uint32_t size) {
  // Kept in order of `at`: a command is read front to back, once or again.
  auto it = std::lower_bound(copies_.begin(), copies_.end(), at,
                             [](const Copy& c, size_t a) { return c.at < a; });
  if (it != copies_.end() && it->at == at) return it->bytes;
  if (size > heap_.size() - copied_) {
    return make_error(Errc::kLimit, "heap references of one command above the heap's " +
                                        std::to_string(heap_.size()) + " bytes", at);
  }
  copied_ += size;
  if (blocks_used_ == blocks_.size()) blocks_.emplace_back();
  auto& block = blocks_[blocks_used_++];
  const std::byte* from = heap_.data() + offset;
  block.assign(from, from + size);  // pointers: one memmove
  return copies_.insert(it, Copy{at, block})->bytes;
}

size_t HeapCopies::kept_bytes() const {
  size_t bytes = 0;
  for (const auto& block : blocks_) bytes += block.capacity();
  return bytes;
}

Result<Data> Reader::get_data() { return read_data(copies_ != nullptr); }

Result<Data> Reader::get_data_in_place() { return read_data(false); }

Result<Data> Reader::read_data(bool private_copy) {
  auto kind = get<uint32_t>();
  if (!kind) return kind.error();
  Data out;
  switch (static_cast<DataKind>(*kind)) {
    case DataKind::kNull:
      return out;
    case DataKind::kInline: {
      auto len = get<uint32_t>();
      if (!len) return len.error();
      if (*len > remaining()) return truncated(*len);
      out.kind = DataKind::kInline;
      out.bytes = data_.subspan(pos_, *len);
      pos_ = align_up(pos_ + *len);
      return out;
    }
    case DataKind::kHeap: {
      auto off = get<uint64_t>();
      if (!off) return off.error();
      auto len = get<uint32_t>();
      if (!len) return len.error();
      if (*off > heap_.size() || heap_.size() - *off < *len) {
        return make_error(Errc::kBadLength,
                          "blob [" + std::to_string(*off) + ", +" + std::to_string(*len) +
                              ") outside heap of " + std::to_string(heap_.size()),
                          offset());
      }
      out.kind = DataKind::kHeap;
      if (!private_copy) {
        out.bytes = heap_.subspan(*off, *len);
        if (copies_) copies_->observe(*off, out.bytes);
        return out;
      }
      auto copy = copies_->copy(offset(), *off, *len);
      if (!copy) return copy.error();
      out.bytes = *copy;
      copies_->observe(*off, out.bytes);
      return out;
    }
    case DataKind::kBufferOffset: {
      auto off = get<uint64_t>();
      if (!off) return off.error();
      out.kind = DataKind::kBufferOffset;
      out.offset = *off;
      return out;
    }
  }
  return make_error(Errc::kBadValue, "data kind " + std::to_string(*kind), offset());
}

Error CommandIterator::bad_header(bool truncated, uint32_t size) const {
  if (truncated) return make_error(Errc::kTruncated, "command header", pos_);
  return make_error(Errc::kBadLength, "command size " + std::to_string(size), pos_);
}

}  // namespace wire
