// The pixel loops: box-scaled rows, block damage found while copying, and
// rectangles filled and copied, on frames read as little-endian words.
#include "pixels.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace comp {

static_assert(std::endian::native == std::endian::little,
              "frame pixels are read as 0xAARRGGBB words");

namespace {
constexpr int32_t kBlock = 64;  // damage granularity
}  // namespace

BoxScaler::BoxScaler(FrameSize from, FrameSize to)
    : from_(from),
      xs_(spans(from.width, to.width)),
      ys_(spans(from.height, to.height)),
      sums_(size_t{from.width} * 3),
      out_(to.width) {}

const uint32_t* BoxScaler::row(const uint32_t* src, uint32_t y) {
  std::fill(sums_.begin(), sums_.end(), 0);
  for (uint32_t sy = ys_[y]; sy < ys_[y + 1]; ++sy) {
    const uint32_t* line = src + size_t{sy} * from_.width;
    for (uint32_t sx = 0; sx < from_.width; ++sx) {
      sums_[3 * sx] += (line[sx] >> 16) & 0xff;
      sums_[3 * sx + 1] += (line[sx] >> 8) & 0xff;
      sums_[3 * sx + 2] += line[sx] & 0xff;
    }
  }
  const uint64_t rows = ys_[y + 1] - ys_[y];
  for (size_t x = 0; x < out_.size(); ++x) {
    uint64_t r = 0, g = 0, b = 0;
    for (uint32_t sx = xs_[x]; sx < xs_[x + 1]; ++sx) {
      r += sums_[3 * sx];
      g += sums_[3 * sx + 1];
      b += sums_[3 * sx + 2];
    }
    const uint64_t n = rows * (xs_[x + 1] - xs_[x]);
    out_[x] =
        static_cast<uint32_t>(((r + n / 2) / n) << 16 | ((g + n / 2) / n) << 8 | (b + n / 2) / n);
  }
  return out_.data();
}

std::vector<uint32_t> BoxScaler::spans(uint32_t from, uint32_t to) {
  std::vector<uint32_t> edges(size_t{to} + 1);
  for (uint32_t i = 0; i <= to; ++i) edges[i] = static_cast<uint32_t>(uint64_t{i} * from / to);
  return edges;
}

BlockDamage::BlockDamage(Rect tile)
    : tile_(tile),
      columns_((tile.width + kBlock - 1) / kBlock),
      dirty_(size_t(columns_) * ((tile.height + kBlock - 1) / kBlock), false) {}

void BlockDamage::copy_row(int32_t y, const uint32_t* src, uint32_t* dst) {
  const size_t band = size_t(y / kBlock) * columns_;
  for (int32_t c = 0; c < columns_; ++c) {
    const int32_t x = c * kBlock;
    const size_t bytes = size_t(std::min(kBlock, tile_.width - x)) * 4;
    if (!dirty_[band + c] && std::memcmp(dst + x, src + x, bytes) == 0) continue;
    std::memcpy(dst + x, src + x, bytes);
    dirty_[band + c] = true;
  }
}

void BlockDamage::append_rects(std::vector<Rect>* out) const {
  const size_t first = out->size();
  const int32_t bands = columns_ == 0 ? 0 : static_cast<int32_t>(dirty_.size()) / columns_;
  for (int32_t b = 0; b < bands; ++b) {
    for (int32_t c = 0; c < columns_;) {
      if (!dirty_[size_t(b) * columns_ + c]) {
        ++c;
        continue;
      }
      const int32_t start = c;
      while (c < columns_ && dirty_[size_t(b) * columns_ + c]) ++c;
      const int32_t y = b * kBlock;
      add(out, first,
          {tile_.x + start * kBlock, tile_.y + y,
           std::min(c * kBlock, tile_.width) - start * kBlock,
           std::min(kBlock, tile_.height - y)});
    }
  }
}

void BlockDamage::add(std::vector<Rect>* out, size_t first, Rect r) {
  for (size_t i = first; i < out->size(); ++i) {
    Rect& above = (*out)[i];
    if (above.x == r.x && above.width == r.width && above.y + above.height == r.y) {
      above.height += r.height;
      return;
    }
  }
  out->push_back(r);
}

void fill(Canvas* canvas, Rect r, uint32_t colour) {
  for (int32_t y = r.y; y < r.y + r.height; ++y) {
    uint32_t* line = canvas->pixels.data() + size_t(y) * canvas->width + r.x;
    std::fill(line, line + r.width, colour);
  }
}

void copy_frame(std::span<const std::byte> bytes, std::vector<uint32_t>* pixels) {
  pixels->resize(bytes.size() / 4);
  std::memcpy(pixels->data(), bytes.data(), pixels->size() * 4);
  for (auto& p : *pixels) p &= 0xffffff;
}

void copy_rects(const Canvas& from, const std::vector<Rect>& rects, Canvas* to) {
  for (const auto& r : rects) {
    for (int32_t y = r.y; y < r.y + r.height; ++y) {
      const size_t at = size_t(y) * from.width + r.x;
      std::memcpy(to->pixels.data() + at, from.pixels.data() + at, size_t(r.width) * 4);
    }
  }
}

}  // namespace comp
