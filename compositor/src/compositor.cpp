#include "comp/compositor.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <ctime>
#include <deque>

#include "labels.h"

namespace comp {

static_assert(std::endian::native == std::endian::little,
              "frame pixels are read as 0xAARRGGBB words");

namespace {
constexpr int32_t kGap = 4;
constexpr int32_t kMinCellWidth = 160;  // room for a readable label over a tiny surface
constexpr int32_t kBlock = 64;          // damage granularity
constexpr size_t kHistory = 16;         // damaged rectangles kept for this many pictures
constexpr size_t kMaxDamageRects = 256;
constexpr int kFallbackPollMs = 50;  // only without a wake-up eventfd
// Pictures are composed at most this often: a guest drawing faster than any
// display shows costs one composition a period, with its newest frame.
constexpr std::chrono::nanoseconds kComposePeriod{1'000'000'000 / 120};
// Pictures are composed while a viewer has asked for one this recently: an
// RFB server without viewers asks for none, and then composing costs nothing.
constexpr std::chrono::seconds kWatchedFor{1};
constexpr uint32_t kBackground = 0x303030;
constexpr uint32_t kNoFrame = 0x000000;

// Copies the rectangles `rects` of `from` into `to`, a canvas of its size.
void copy_rects(const Canvas& from, const std::vector<Rect>& rects, Canvas* to) {
  for (const auto& r : rects) {
    for (int32_t y = r.y; y < r.y + r.height; ++y) {
      const size_t at = size_t(y) * from.width + r.x;
      std::memcpy(to->pixels.data() + at, from.pixels.data() + at, size_t(r.width) * 4);
    }
  }
}

// ---- layout ----------------------------------------------------------------

// One shown surface: its pixels on the canvas and its label bar (none when
// it is shown alone).
struct Placement {
  SurfaceKey key;
  Rect frame;
  Rect bar;
  std::string caption;
  FrameSize source;
};

struct Layout {
  uint32_t width = 0, height = 0;
  std::vector<Placement> tiles;
};

struct LayoutEntry {
  SurfaceKey key;
  std::string caption;
  FrameSize size;
};

// The largest size within the options' tile bounds with the surface's
// shape; a surface that fits already keeps its own size.
FrameSize fit(FrameSize s, const CompositorOptions& o) {
  const uint32_t mw = std::max(o.max_tile_width, 1u), mh = std::max(o.max_tile_height, 1u);
  if (s.width <= mw && s.height <= mh) return s;
  if (uint64_t{s.width} * mh >= uint64_t{s.height} * mw) {
    return {mw, static_cast<uint32_t>(std::max<uint64_t>(1, uint64_t{s.height} * mw / s.width))};
  }
  return {static_cast<uint32_t>(std::max<uint64_t>(1, uint64_t{s.width} * mh / s.height)), mh};
}

Layout grid_layout(const std::vector<LayoutEntry>& entries, const CompositorOptions& o) {
  const int32_t n = static_cast<int32_t>(entries.size());
  int32_t columns = 1;
  while (columns * columns < n) ++columns;
  const int32_t rows = (n + columns - 1) / columns;
  const int32_t min_width =
      std::min(kMinCellWidth, static_cast<int32_t>(std::max(o.max_tile_width, 1u)));
  std::vector<FrameSize> fitted;
  std::vector<int32_t> column_width(columns, 0), row_height(rows, 0);
  for (int32_t i = 0; i < n; ++i) {
    fitted.push_back(fit(entries[i].size, o));
    auto& w = column_width[i % columns];
    auto& h = row_height[i / columns];
    w = std::max({w, min_width, static_cast<int32_t>(fitted[i].width)});
    h = std::max(h, kLabelHeight + static_cast<int32_t>(fitted[i].height));
  }
  std::vector<int32_t> left(columns, 0), top(rows, 0);
  for (int32_t c = 1; c < columns; ++c) left[c] = left[c - 1] + column_width[c - 1] + kGap;
  for (int32_t r = 1; r < rows; ++r) top[r] = top[r - 1] + row_height[r - 1] + kGap;
  Layout layout;
  layout.width = static_cast<uint32_t>(left.back() + column_width.back());
  layout.height = static_cast<uint32_t>(top.back() + row_height.back());
  for (int32_t i = 0; i < n; ++i) {
    const int32_t x = left[i % columns], y = top[i / columns];
    const int32_t cell_width = std::max(min_width, static_cast<int32_t>(fitted[i].width));
    layout.tiles.push_back({entries[i].key,
                            {x, y + kLabelHeight, static_cast<int32_t>(fitted[i].width),
                             static_cast<int32_t>(fitted[i].height)},
                            {x, y, cell_width, kLabelHeight},
                            entries[i].caption,
                            entries[i].size});
  }
  return layout;
}

Layout alone_layout(const LayoutEntry& e) {
  const Rect frame{0, 0, static_cast<int32_t>(e.size.width), static_cast<int32_t>(e.size.height)};
  return {e.size.width, e.size.height, {{e.key, frame, {}, {}, e.size}}};
}

Layout empty_layout(const CompositorOptions& o) {
  return {std::max(o.empty_width, 1u), std::max(o.empty_height, 1u), {}};
}

const Placement* placement_of(const Layout& layout, SurfaceKey key) {
  for (const auto& t : layout.tiles) {
    if (t.key == key) return &t;
  }
  return nullptr;
}

// ---- pixels ------------------------------------------------------------------

// Area-averaging downscale: each output pixel is the mean of the source
// pixels it covers, so text and thin lines stay legible.
class BoxScaler {
 public:
  BoxScaler(FrameSize from, FrameSize to)
      : from_(from),
        xs_(spans(from.width, to.width)),
        ys_(spans(from.height, to.height)),
        sums_(size_t{from.width} * 3),
        out_(to.width) {}

  // Output row y from the whole source frame.
  const uint32_t* row(const uint32_t* src, uint32_t y) {
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

 private:
  // Boundaries of the source ranges that each output pixel averages.
  static std::vector<uint32_t> spans(uint32_t from, uint32_t to) {
    std::vector<uint32_t> edges(size_t{to} + 1);
    for (uint32_t i = 0; i <= to; ++i) edges[i] = static_cast<uint32_t>(uint64_t{i} * from / to);
    return edges;
  }

  FrameSize from_;
  std::vector<uint32_t> xs_, ys_;
  std::vector<uint32_t> sums_;  // red, green, blue per source column
  std::vector<uint32_t> out_;
};

// Which kBlock x kBlock blocks of one tile changed, found while copying its
// rows into the picture: a mostly still frame costs a few small rectangles.
class BlockDamage {
 public:
  explicit BlockDamage(Rect tile)
      : tile_(tile),
        columns_((tile.width + kBlock - 1) / kBlock),
        dirty_(size_t(columns_) * ((tile.height + kBlock - 1) / kBlock), false) {}

  void copy_row(int32_t y, const uint32_t* src, uint32_t* dst) {
    const size_t band = size_t(y / kBlock) * columns_;
    for (int32_t c = 0; c < columns_; ++c) {
      const int32_t x = c * kBlock;
      const size_t bytes = size_t(std::min(kBlock, tile_.width - x)) * 4;
      if (!dirty_[band + c] && std::memcmp(dst + x, src + x, bytes) == 0) continue;
      std::memcpy(dst + x, src + x, bytes);
      dirty_[band + c] = true;
    }
  }

  // Runs of changed blocks per band, joined downwards when they line up.
  void append_rects(std::vector<Rect>* out) const {
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

 private:
  static void add(std::vector<Rect>* out, size_t first, Rect r) {
    for (size_t i = first; i < out->size(); ++i) {
      Rect& above = (*out)[i];
      if (above.x == r.x && above.width == r.width && above.y + above.height == r.y) {
        above.height += r.height;
        return;
      }
    }
    out->push_back(r);
  }

  Rect tile_;
  int32_t columns_;
  std::vector<bool> dirty_;
};

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

// ---- composing ---------------------------------------------------------------

struct BoardRef {
  SurfaceKey key;
  std::shared_ptr<FrameBoardReader> board;
};

// A surface's newest frame as the composing thread last copied it.
struct Source {
  std::shared_ptr<FrameBoardReader> board;  // which board it came from
  std::vector<uint32_t> pixels;             // 0x00RRGGBB; empty before the first frame
  FrameStamp stamp;
  bool fresh = false;  // taken but not drawn yet
};

// Everything the composing thread owns: copies of the newest frames and the
// picture it draws them into. Only that thread touches it, without a lock.
class Composer {
 public:
  void set_layout(Layout layout) {
    layout_ = std::move(layout);
    rebuild_ = true;
  }

  // Drains every doorbell and copies the newest frame of each shown surface.
  void pull(const std::vector<BoardRef>& boards) {
    std::erase_if(sources_, [&](const auto& entry) {
      return std::none_of(boards.begin(), boards.end(),
                          [&](const BoardRef& b) { return b.key == entry.first; });
    });
    for (const auto& b : boards) {
      Source& s = sources_[b.key];
      if (s.board != b.board) s = Source{b.board};  // new, or resized
      b.board->drain_doorbell();
      std::span<const std::byte> bytes;
      FrameStamp stamp;
      if (placement_of(layout_, b.key) && b.board->take(&bytes, &stamp)) {
        copy_frame(bytes, &s.pixels);
        s.stamp = stamp;
        s.fresh = true;
      }
    }
  }

  // Draws what changed since the last call; `damage` gets the changed
  // rectangles, `full` whether the picture was drawn anew.
  void compose(std::vector<Rect>* damage, bool* full) {
    damage->clear();
    *full = rebuild_;
    if (rebuild_) {
      rebuild();
      damage->push_back(
          {0, 0, static_cast<int32_t>(picture_.width), static_cast<int32_t>(picture_.height)});
      return;
    }
    for (const auto& t : layout_.tiles) {
      auto it = sources_.find(t.key);
      if (it == sources_.end() || !it->second.fresh) continue;
      BlockDamage blocks(t.frame);
      draw_tile(t, &it->second, &blocks);
      blocks.append_rects(damage);
    }
  }

  const Canvas& picture() const { return picture_; }

  // The newest frame drawn from `board`, if any.
  const FrameStamp* stamp(SurfaceKey key, const FrameBoardReader* board) const {
    auto it = sources_.find(key);
    if (it == sources_.end() || it->second.board.get() != board || it->second.pixels.empty())
      return nullptr;
    return &it->second.stamp;
  }

 private:
  void rebuild() {
    rebuild_ = false;
    picture_.width = layout_.width;
    picture_.height = layout_.height;
    picture_.pixels.assign(size_t{layout_.width} * layout_.height, kBackground);
    for (const auto& t : layout_.tiles) {
      if (t.bar.width > 0) draw_bar(t);
      auto it = sources_.find(t.key);
      if (it == sources_.end() || it->second.pixels.empty()) {
        fill(&picture_, t.frame, kNoFrame);
      } else {
        draw_tile(t, &it->second, nullptr);
      }
    }
  }

  void draw_bar(const Placement& t) {
    const std::vector<uint32_t> bar = painter_.render(t.caption, t.bar.width);
    for (int32_t y = 0; y < t.bar.height; ++y) {
      std::memcpy(picture_.pixels.data() + size_t(t.bar.y + y) * picture_.width + t.bar.x,
                  bar.data() + size_t(y) * t.bar.width, size_t(t.bar.width) * 4);
    }
  }

  void draw_tile(const Placement& t, Source* s, BlockDamage* blocks) {
    s->fresh = false;
    if (s->pixels.size() != t.source.bytes() / 4) return;  // a board replaced under this layout
    const bool scaled = t.frame.width != static_cast<int32_t>(t.source.width);
    std::optional<BoxScaler> scaler;
    if (scaled)
      scaler.emplace(t.source, FrameSize{uint32_t(t.frame.width), uint32_t(t.frame.height)});
    for (int32_t y = 0; y < t.frame.height; ++y) {
      const uint32_t* row = scaled ? scaler->row(s->pixels.data(), uint32_t(y))
                                   : s->pixels.data() + size_t(y) * t.source.width;
      uint32_t* dst = picture_.pixels.data() + size_t(t.frame.y + y) * picture_.width + t.frame.x;
      if (blocks) {
        blocks->copy_row(y, row, dst);
      } else {
        std::memcpy(dst, row, size_t(t.frame.width) * 4);
      }
    }
  }

  Layout layout_;
  bool rebuild_ = true;
  std::map<SurfaceKey, Source> sources_;
  Canvas picture_;
  LabelPainter painter_;
};

// ---- input -------------------------------------------------------------------

struct Routed {
  SurfaceKey key;
  InputEvent event;
};

struct Hit {
  SurfaceKey key;
  int32_t x = 0, y = 0;  // in the surface's pixels
};

// Canvas point to surface pixel; `clamp` pulls a point outside the tile
// onto its nearest pixel (a drag that left the surface it began on).
std::optional<Hit> hit_tile(const Placement& t, int32_t x, int32_t y, bool clamp) {
  const Rect& f = t.frame;
  const bool inside = x >= f.x && x < f.x + f.width && y >= f.y && y < f.y + f.height;
  if (!inside && !clamp) return std::nullopt;
  const int64_t cx = std::clamp(x, f.x, f.x + f.width - 1) - f.x;
  const int64_t cy = std::clamp(y, f.y, f.y + f.height - 1) - f.y;
  return Hit{t.key, static_cast<int32_t>(cx * t.source.width / f.width),
             static_cast<int32_t>(cy * t.source.height / f.height)};
}

std::optional<Hit> hit_layout(const Layout& layout, int32_t x, int32_t y) {
  for (const auto& t : layout.tiles) {
    if (auto hit = hit_tile(t, x, y, false)) return hit;
  }
  return std::nullopt;
}

// Pointer buttons, focus and where input goes (RFB semantics: one event
// carries the position and the state of every button).
class InputState {
 public:
  void pointer(const Layout& layout, int32_t x, int32_t y, uint32_t mask,
               std::vector<Routed>* out) {
    std::optional<Hit> target;
    if (buttons_ == 0) {
      target = hit_layout(layout, x, y);
    } else if (grab_) {
      const Placement* t = placement_of(layout, *grab_);
      if (t) target = hit_tile(*t, x, y, true);
    }
    if (target) move(*target, out);
    if (buttons_ == 0 && mask != 0) grab_ = target ? std::optional(target->key) : std::nullopt;
    for (uint32_t changed = buttons_ ^ mask; changed != 0; changed &= changed - 1) {
      const uint32_t bit = static_cast<uint32_t>(std::countr_zero(changed));
      const uint32_t pressed = (mask >> bit) & 1;
      if (!target) continue;
      if (pressed) focus_ = target->key;
      out->push_back(
          {target->key, {InputEvent::Kind::kButton, pressed, bit + 1, target->x, target->y}});
    }
    buttons_ = mask;
    if (buttons_ == 0) grab_.reset();
  }

  void key(const Layout& layout, uint32_t keysym, bool pressed, std::vector<Routed>* out) const {
    std::optional<SurfaceKey> target;
    if (focus_ && placement_of(layout, *focus_)) {
      target = focus_;
    } else if (layout.tiles.size() == 1) {
      target = layout.tiles.front().key;
    }
    if (!target) return;
    auto at = positions_.find(*target);
    const Hit pos = at != positions_.end() ? at->second : Hit{*target};
    out->push_back({*target, {InputEvent::Kind::kKey, pressed ? 1u : 0u, keysym, pos.x, pos.y}});
  }

  void forget(SurfaceKey key) {
    if (focus_ == key) focus_.reset();
    if (last_motion_ && last_motion_->key == key) last_motion_.reset();
    positions_.erase(key);
  }

  std::optional<SurfaceKey> focused() const { return focus_; }

 private:
  void move(const Hit& to, std::vector<Routed>* out) {
    positions_[to.key] = to;
    if (last_motion_ && last_motion_->key == to.key && last_motion_->x == to.x &&
        last_motion_->y == to.y)
      return;
    last_motion_ = to;
    out->push_back({to.key, {InputEvent::Kind::kMotion, 0, 0, to.x, to.y}});
  }

  uint32_t buttons_ = 0;
  std::optional<SurfaceKey> grab_;  // while buttons are held: the surface they were pressed on
  std::optional<SurfaceKey> focus_;
  std::optional<Hit> last_motion_;
  std::map<SurfaceKey, Hit> positions_;  // the pointer's last place in each surface, for keys
};

struct Damage {
  uint64_t version = 0;
  bool full = false;
  std::vector<Rect> rects;
};

Rect bounds(const std::vector<Rect>& rects) {
  int32_t x0 = rects.front().x, y0 = rects.front().y, x1 = x0, y1 = y0;
  for (const auto& r : rects) {
    x0 = std::min(x0, r.x);
    y0 = std::min(y0, r.y);
    x1 = std::max(x1, r.x + r.width);
    y1 = std::max(y1, r.y + r.height);
  }
  return {x0, y0, x1 - x0, y1 - y0};
}

struct Surface {
  SurfaceKey key;
  SurfaceLabel label;
  std::shared_ptr<FrameBoardReader> board;
  FrameStamp last;
};
}  // namespace

// ---- the shared state and the composing thread --------------------------------

struct Compositor::Impl {
  Impl(CompositorOptions o, InputRoute r)
      : options(o), route(std::move(r)), layout(empty_layout(o)) {
    wake_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    thread = std::thread([this] { run(); });
  }

  ~Impl() {
    {
      std::lock_guard lock(mutex);
      stopping = true;
    }
    wake();
    thread.join();
    if (wake_fd >= 0) ::close(wake_fd);
  }

  void wake() const {
    const uint64_t one = 1;
    if (wake_fd >= 0) (void)!::write(wake_fd, &one, sizeof one);
  }

  bool watched_locked(std::chrono::steady_clock::time_point now) const {
    return now - asked < kWatchedFor;
  }

  // A viewer asks for pictures: composing starts again if it had stopped.
  void note_asked_locked() {
    const auto now = std::chrono::steady_clock::now();
    const bool idle = !watched_locked(now);
    asked = now;
    if (idle) wake();
  }

  Surface* find_locked(SurfaceKey key) {
    auto it = std::find_if(surfaces.begin(), surfaces.end(),
                           [&](const Surface& s) { return s.key == key; });
    return it == surfaces.end() ? nullptr : &*it;
  }

  void relayout_locked() {
    std::vector<LayoutEntry> entries;
    for (const auto& s : surfaces) {
      if (alone && s.key != *alone) continue;
      entries.push_back({s.key, label_text(s.key, s.label), s.board->size()});
    }
    if (entries.empty()) {
      layout = empty_layout(options);
    } else {
      layout = alone ? alone_layout(entries.front()) : grid_layout(entries, options);
    }
    ++layout_generation;
    wake();
  }

  void remove_locked(SurfaceKey key) {
    input.forget(key);
    if (alone == key) alone.reset();
  }

  void run() {
    Composer composer;
    std::vector<BoardRef> boards;
    uint64_t drawn_generation = 0;
    std::vector<Rect> damage;
    for (;;) {
      bool watched = false;
      {
        std::lock_guard lock(mutex);
        if (stopping) return;
        watched = watched_locked(std::chrono::steady_clock::now());
        boards.clear();
        if (watched) {
          for (const auto& s : surfaces) boards.push_back({s.key, s.board});
        }
        if (drawn_generation != layout_generation) {
          composer.set_layout(layout);
          drawn_generation = layout_generation;
        }
      }
      if (!watched) {
        // Frames wait on their boards; the newest is taken when a viewer asks.
        wait_for_doorbells(boards);
        continue;
      }
      const auto started = std::chrono::steady_clock::now();
      composer.pull(boards);
      bool full = false;
      composer.compose(&damage, &full);
      publish(composer, damage, full);
      rest_until(started + kComposePeriod);
      wait_for_doorbells(boards);
    }
  }

  // Sleeps until `until`, or until woken (a change of surfaces, or stopping).
  void rest_until(std::chrono::steady_clock::time_point until) const {
    const auto left = until - std::chrono::steady_clock::now();
    if (left <= std::chrono::nanoseconds::zero() || wake_fd < 0) return;
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
    const timespec timeout{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
    pollfd fd{wake_fd, POLLIN, 0};
    ::ppoll(&fd, 1, &timeout, nullptr);
  }

  // Brings the viewers' canvas up to the composer's picture: whole when it
  // was drawn anew, else only the damaged rectangles.
  void publish(const Composer& composer, const std::vector<Rect>& damage, bool full) {
    std::lock_guard lock(mutex);
    for (auto& s : surfaces) {
      if (const FrameStamp* stamp = composer.stamp(s.key, s.board.get())) s.last = *stamp;
    }
    if (damage.empty()) return;
    const Canvas& picture = composer.picture();
    if (full) {
      canvas = picture;
    } else {
      copy_rects(picture, damage, &canvas);
    }
    history.push_back({++version, full, damage});
    if (history.size() > kHistory) history.pop_front();
    pictures.notify_all();
  }

  void wait_for_doorbells(const std::vector<BoardRef>& boards) const {
    std::vector<pollfd> fds{{wake_fd, POLLIN, 0}};
    for (const auto& b : boards) fds.push_back({b.board->doorbell_fd(), POLLIN, 0});
    ::poll(fds.data(), fds.size(), wake_fd >= 0 ? -1 : kFallbackPollMs);
    uint64_t count = 0;
    if (fds[0].revents & POLLIN) (void)!::read(wake_fd, &count, sizeof count);
  }

  void damage_since_locked(uint64_t since, std::vector<Rect>* out) const {
    out->clear();
    const Rect whole{0, 0, static_cast<int32_t>(canvas.width), static_cast<int32_t>(canvas.height)};
    if (since == 0 || history.empty() || history.front().version > since + 1) {
      out->push_back(whole);
      return;
    }
    for (const auto& d : history) {
      if (d.version <= since) continue;
      if (d.full) {
        out->assign(1, whole);
        return;
      }
      out->insert(out->end(), d.rects.begin(), d.rects.end());
    }
    if (out->size() > kMaxDamageRects) out->assign(1, bounds(*out));
  }

  void deliver(const std::vector<Routed>& events) const {
    if (!route) return;
    for (const auto& e : events) route(e.key, e.event);
  }

  const CompositorOptions options;
  const InputRoute route;

  mutable std::mutex mutex;
  std::condition_variable pictures;
  // Guarded by `mutex`.
  std::vector<Surface> surfaces;  // in the order they were added
  std::optional<SurfaceKey> alone;
  Layout layout;
  uint64_t layout_generation = 1;
  Canvas canvas;
  uint64_t version = 0;
  std::deque<Damage> history;
  InputState input;
  bool stopping = false;

  int wake_fd = -1;
  std::chrono::steady_clock::time_point asked{};  // a viewer last asked for a picture
  std::thread thread;  // last: it starts once everything above exists
};

Compositor::Compositor(CompositorOptions options, InputRoute route)
    : impl_(std::make_unique<Impl>(options, std::move(route))) {}

Compositor::~Compositor() = default;

void Compositor::add_surface(SurfaceKey key, SurfaceLabel label,
                             std::unique_ptr<FrameBoardReader> board) {
  if (!board) return;
  std::lock_guard lock(impl_->mutex);
  if (Surface* s = impl_->find_locked(key)) {
    *s = Surface{key, std::move(label), std::move(board), {}};
  } else {
    impl_->surfaces.push_back({key, std::move(label), std::move(board), {}});
  }
  impl_->relayout_locked();
}

void Compositor::remove_surface(SurfaceKey key) {
  std::lock_guard lock(impl_->mutex);
  if (std::erase_if(impl_->surfaces, [&](const Surface& s) { return s.key == key; }) == 0) return;
  impl_->remove_locked(key);
  impl_->relayout_locked();
}

void Compositor::remove_guest(uint32_t guest) {
  std::lock_guard lock(impl_->mutex);
  auto gone = std::stable_partition(impl_->surfaces.begin(), impl_->surfaces.end(),
                                    [&](const Surface& s) { return s.key.guest != guest; });
  if (gone == impl_->surfaces.end()) return;
  for (auto it = gone; it != impl_->surfaces.end(); ++it) impl_->remove_locked(it->key);
  impl_->surfaces.erase(gone, impl_->surfaces.end());
  impl_->relayout_locked();
}

void Compositor::show_all() {
  std::lock_guard lock(impl_->mutex);
  impl_->alone.reset();
  impl_->relayout_locked();
}

// A key with no surface is ignored: there would be nothing to show.
void Compositor::show_only(SurfaceKey key) {
  std::lock_guard lock(impl_->mutex);
  if (!impl_->find_locked(key)) return;
  impl_->alone = key;
  impl_->relayout_locked();
}

std::optional<SurfaceKey> Compositor::shown_alone() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->alone;
}

bool Compositor::wait_picture(uint64_t* version, Canvas* out, std::vector<Rect>* damage,
                              std::chrono::milliseconds timeout) {
  std::unique_lock lock(impl_->mutex);
  impl_->note_asked_locked();
  // A version this compositor never gave out counts as none at all.
  const uint64_t since = *version <= impl_->version ? *version : 0;
  if (!impl_->pictures.wait_for(lock, timeout, [&] { return impl_->version > since; }))
    return false;
  const Canvas& canvas = impl_->canvas;
  impl_->damage_since_locked(since, damage);
  // `out` holds the picture of `since` when it is a viewer's own from the
  // last call: then only what changed is copied.
  const bool holds_since = since != 0 && out->width == canvas.width && out->height == canvas.height &&
                           out->pixels.size() == canvas.pixels.size();
  if (holds_since) {
    copy_rects(canvas, *damage, out);
  } else {
    *out = canvas;
  }
  *version = impl_->version;
  return true;
}

std::vector<TileInfo> Compositor::tiles() const {
  std::lock_guard lock(impl_->mutex);
  std::vector<TileInfo> out;
  for (const auto& t : impl_->layout.tiles) {
    const Surface* s = impl_->find_locked(t.key);
    out.push_back({t.key, s->label, t.frame, t.source.width, t.source.height, s->last});
  }
  return out;
}

void Compositor::pointer(int32_t x, int32_t y, uint32_t button_mask) {
  std::vector<Routed> events;
  {
    std::lock_guard lock(impl_->mutex);
    impl_->input.pointer(impl_->layout, x, y, button_mask, &events);
  }
  impl_->deliver(events);
}

void Compositor::key(uint32_t keysym, bool pressed) {
  std::vector<Routed> events;
  {
    std::lock_guard lock(impl_->mutex);
    impl_->input.key(impl_->layout, keysym, pressed, &events);
  }
  impl_->deliver(events);
}

std::optional<SurfaceKey> Compositor::focused() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->input.focused();
}

}  // namespace comp
