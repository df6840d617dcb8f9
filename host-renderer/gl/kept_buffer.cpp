#include "gl/kept_buffer.h"

#include <algorithm>
#include <utility>

namespace host {

KeptBuffer& KeptBuffer::operator=(KeptBuffer&& other) noexcept {
  if (this == &other) return *this;
  give_back();
  account_ = std::exchange(other.account_, nullptr);
  words_ = std::move(other.words_);
  other.words_.clear();
  return *this;
}

KeptBuffer KeptBuffer::make(ResourceAccount& account, size_t words) {
  KeptBuffer out;
  const GuestLimits& limits = account.limits;
  if (words > limits.max_object_bytes / sizeof(uint32_t)) return out;
  // At least one word, so an empty buffer means a refused one.
  words = std::max<size_t>(words, 1);
  // Deleted objects GL has freed since may make room.
  if (!account.try_charge(words * sizeof(uint32_t))) return out;
  out.words_.assign(words, 0);
  out.account_ = &account;
  return out;
}

void KeptBuffer::give_back() {
  if (account_ != nullptr) account_->release(words_.size() * sizeof(uint32_t));
  account_ = nullptr;
}

}  // namespace host
