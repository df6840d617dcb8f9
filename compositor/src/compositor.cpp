// The compositor's state shared by its callers and its composing thread,
// that thread, and the public API. Its parts: layout.h (where tiles go),
// composer.h (drawing them), pixels.h, input_routing.h (where input goes).
#include "comp/compositor.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <deque>

#include "composer.h"
#include "input_routing.h"
#include "labels.h"
#include "layout.h"
#include "pixels.h"

namespace comp {

namespace {
constexpr size_t kHistory = 16;  // damaged rectangles kept for this many pictures
constexpr size_t kMaxDamageRects = 256;
constexpr int kFallbackPollMs = 50;  // only without a wake-up eventfd
// Pictures are composed at most this often: a guest drawing faster than any
// display shows costs one composition a period, with its newest frame.
constexpr std::chrono::nanoseconds kComposePeriod{1'000'000'000 / 120};
// Pictures are composed while a viewer has asked for one this recently: an
// RFB server without viewers asks for none, and then composing costs nothing.
constexpr std::chrono::seconds kWatchedFor{1};

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
