// Memory the host hands GL to keep: the selection and feedback buffers GL
// writes until glRenderMode (OpenGL 4.6 compatibility profile, 20.2 and
// 20.3). Owned by the guest's context, so it stays where GL was told it is
// for as long as GL may write it, and charged to the guest's memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/gl_dispatch.h"

namespace host {

class KeptBuffer {
 public:
  KeptBuffer() = default;
  ~KeptBuffer() { give_back(); }
  KeptBuffer(KeptBuffer&& other) noexcept { *this = std::move(other); }
  // Moving keeps the storage, so a pointer GL holds stays valid.
  KeptBuffer& operator=(KeptBuffer&& other) noexcept;
  KeptBuffer(const KeptBuffer&) = delete;
  KeptBuffer& operator=(const KeptBuffer&) = delete;

  // `words` (at least one) zeroed 4-byte values charged to `account`;
  // empty, nothing charged, when they do not fit the guest's limits.
  static KeptBuffer make(ResourceAccount& account, size_t words);

  bool empty() const { return words_.empty(); }
  void* data() { return words_.data(); }
  size_t words() const { return words_.size(); }
  uint32_t word(size_t at) const { return words_[at]; }

 private:
  void give_back();

  ResourceAccount* account_ = nullptr;
  std::vector<uint32_t> words_;
};

// What GL keeps of one context.
struct KeptBuffers {
  KeptBuffer select;
  KeptBuffer feedback;
};

}  // namespace host
