// Composition of guest frames: tiles show frames 1:1 or scaled to fit,
// damage stays small for small changes, a writer never waits for a viewer,
// and input reaches the surface it was aimed at in that surface's pixels.
#include "comp/compositor.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <span>
#include <utility>

namespace comp {
namespace {

using namespace std::chrono_literals;
constexpr auto kPatience = 5s;

// A guest surface: a renderer-side board and the frames it publishes.
struct Guest {
  explicit Guest(FrameSize size) : size(size) {
    auto w = FrameBoardWriter::create(size);
    EXPECT_TRUE(w);
    if (w) writer = std::move(*w);
  }

  std::unique_ptr<FrameBoardReader> reader() const {
    auto r =
        FrameBoardReader::adopt(::dup(writer->memory_fd()), ::dup(writer->doorbell_fd()), size);
    EXPECT_TRUE(r);
    return r ? std::move(*r) : nullptr;
  }

  // Publishes BGRA pixels given as 0xAARRGGBB words.
  void publish(const std::vector<uint32_t>& pixels, uint32_t frame_id) {
    writer->publish(std::as_bytes(std::span(pixels)), frame_id);
  }

  FrameSize size;
  std::unique_ptr<FrameBoardWriter> writer;
};

// Every pixel different, alpha set to garbage the compositor must drop.
std::vector<uint32_t> pattern(FrameSize size, uint32_t seed) {
  std::vector<uint32_t> px(size_t{size.width} * size.height);
  for (uint32_t y = 0; y < size.height; ++y) {
    for (uint32_t x = 0; x < size.width; ++x) {
      px[size_t{y} * size.width + x] =
          0x5a000000 | ((x * 7 + seed) & 0xff) << 16 | ((y * 5) & 0xff) << 8 | ((x ^ y) & 0xff);
    }
  }
  return px;
}

std::vector<uint32_t> solid(FrameSize size, uint32_t colour) {
  return std::vector<uint32_t>(size_t{size.width} * size.height, colour);
}

bool region_shows(const Canvas& canvas, Rect where, const std::vector<uint32_t>& frame) {
  if (where.x + where.width > int32_t(canvas.width) ||
      where.y + where.height > int32_t(canvas.height))
    return false;
  for (int32_t y = 0; y < where.height; ++y) {
    for (int32_t x = 0; x < where.width; ++x) {
      const uint32_t want = frame[size_t(y) * where.width + x] & 0xffffff;
      if (canvas.pixels[size_t(where.y + y) * canvas.width + where.x + x] != want) return false;
    }
  }
  return true;
}

// A viewer: takes pictures until one satisfies `ok` (the one it has may already).
struct Viewer {
  bool wait_for(Compositor& c, const std::function<bool(const Canvas&)>& ok) {
    if (version != 0 && ok(canvas)) return true;
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    while (std::chrono::steady_clock::now() < deadline) {
      if (c.wait_picture(&version, &canvas, &damage, 100ms) && ok(canvas)) return true;
    }
    return false;
  }
  uint64_t version = 0;
  Canvas canvas;
  std::vector<Rect> damage;
};

bool wait_shows(Compositor& c, Viewer* v, SurfaceKey key, const std::vector<uint32_t>& frame) {
  return v->wait_for(c, [&](const Canvas& canvas) {
    for (const auto& t : c.tiles()) {
      if (t.key == key) return region_shows(canvas, t.frame, frame);
    }
    return false;
  });
}

bool overlap(Rect a, Rect b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

struct Recorder {
  InputRoute route() {
    return [this](SurfaceKey key, const InputEvent& e) { events.push_back({key, e}); };
  }
  std::vector<std::pair<SurfaceKey, InputEvent>> take() { return std::exchange(events, {}); }
  std::vector<std::pair<SurfaceKey, InputEvent>> events;
};

bool is(const std::pair<SurfaceKey, InputEvent>& got, SurfaceKey key, InputEvent::Kind kind,
        uint32_t code, uint32_t pressed, int32_t x, int32_t y) {
  const InputEvent& e = got.second;
  return got.first == key && e.kind == kind && e.code == code && e.pressed == pressed && e.x == x &&
         e.y == y;
}

constexpr SurfaceKey kA{1, 1}, kB{2, 7}, kC{2, 8}, kD{3, 1};

SurfaceLabel label_of(const char* program, uint32_t pid) { return {"uid 1000", program, pid}; }

TEST(Compositor, EmptyCanvasIsDarkGrey) {
  Compositor c({.empty_width = 320, .empty_height = 200}, nullptr);
  Viewer v;
  ASSERT_TRUE(c.wait_picture(&v.version, &v.canvas, &v.damage, kPatience));
  EXPECT_EQ(v.canvas.width, 320u);
  EXPECT_EQ(v.canvas.height, 200u);
  ASSERT_EQ(v.damage.size(), 1u);
  EXPECT_EQ(v.damage[0].width, 320);
  EXPECT_EQ(v.damage[0].height, 200);
  const uint32_t grey = v.canvas.pixels[0];
  EXPECT_NE(grey, 0u);
  EXPECT_EQ(grey >> 16, grey & 0xff);  // grey: red equals blue
  EXPECT_LT(grey & 0xff, 0x80u);       // and dark
  for (uint32_t p : v.canvas.pixels) ASSERT_EQ(p, grey);
  EXPECT_TRUE(c.tiles().empty());
}

TEST(Compositor, SmallSurfaceIsShownOneToOne) {
  Compositor c({}, nullptr);
  Guest g({64, 48});
  c.add_surface(kA, label_of("glxgears", 42), g.reader());
  const auto tiles = c.tiles();
  ASSERT_EQ(tiles.size(), 1u);
  EXPECT_EQ(tiles[0].frame.width, 64);
  EXPECT_EQ(tiles[0].frame.height, 48);
  EXPECT_GT(tiles[0].frame.y, 0);  // the label bar is above
  EXPECT_EQ(tiles[0].label.program, "glxgears");
  EXPECT_EQ(tiles[0].source_width, 64u);

  Viewer v;
  // Before its first frame a tile is black.
  ASSERT_TRUE(wait_shows(c, &v, kA, solid(g.size, 0)));
  const auto frame = pattern(g.size, 3);
  g.publish(frame, 77);
  ASSERT_TRUE(wait_shows(c, &v, kA, frame));
  EXPECT_EQ(c.tiles()[0].last.frame_id, 77u);
  EXPECT_EQ(c.tiles()[0].last.sequence, 1u);
}

TEST(Compositor, LabelBarNamesTheSurface) {
  Compositor c({}, nullptr);
  Guest g({300, 40});
  c.add_surface(kA, label_of("es2gears", 4242), g.reader());
  const Rect f = c.tiles()[0].frame;
  Viewer v;
  ASSERT_TRUE(wait_shows(c, &v, kA, solid(g.size, 0)));
  // The bar above the pixels: dark, unlike the background around tiles,
  // with light text on it when the font the project installs is there.
  uint32_t darkest = 0xffffffff, lightest = 0;
  for (int32_t y = 0; y < f.y; ++y) {
    for (int32_t x = f.x; x < f.x + f.width; ++x) {
      const uint32_t green = (v.canvas.pixels[size_t(y) * v.canvas.width + x] >> 8) & 0xff;
      darkest = std::min(darkest, green);
      lightest = std::max(lightest, green);
    }
  }
  EXPECT_LT(darkest, 0x30u);
  if (std::filesystem::exists("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")) {
    EXPECT_GT(lightest, 0xa0u);
  }
}

TEST(Compositor, TwoSurfacesGetTheirOwnTiles) {
  Compositor c({}, nullptr);
  Guest a({100, 80}), b({50, 120});
  c.add_surface(kA, label_of("a", 1), a.reader());
  c.add_surface(kB, label_of("b", 2), b.reader());
  const auto fa = pattern(a.size, 1), fb = pattern(b.size, 90);
  a.publish(fa, 1);
  b.publish(fb, 1);
  Viewer v;
  ASSERT_TRUE(wait_shows(c, &v, kA, fa));
  ASSERT_TRUE(wait_shows(c, &v, kB, fb));
  const auto tiles = c.tiles();
  ASSERT_EQ(tiles.size(), 2u);
  EXPECT_EQ(tiles[0].key, kA);  // in the order they were added
  EXPECT_EQ(tiles[1].key, kB);
  EXPECT_FALSE(overlap(tiles[0].frame, tiles[1].frame));
  EXPECT_TRUE(region_shows(v.canvas, tiles[0].frame, fa));
  EXPECT_TRUE(region_shows(v.canvas, tiles[1].frame, fb));
}

TEST(Compositor, ShowOnlyGivesTheSurfaceAtItsOwnSize) {
  Compositor c({}, nullptr);
  Guest a({90, 60}), b({33, 21});
  c.add_surface(kA, label_of("a", 1), a.reader());
  c.add_surface(kB, label_of("b", 2), b.reader());
  const auto fb = pattern(b.size, 5);
  b.publish(fb, 1);
  c.show_only(kB);
  EXPECT_EQ(c.shown_alone(), kB);
  Viewer v;
  ASSERT_TRUE(v.wait_for(c, [&](const Canvas& canvas) {
    return canvas.width == 33 && canvas.height == 21 && region_shows(canvas, {0, 0, 33, 21}, fb);
  }));
  ASSERT_EQ(c.tiles().size(), 1u);
  c.show_only(kD);  // no such surface: nothing changes
  EXPECT_EQ(c.shown_alone(), kB);
  c.show_all();
  EXPECT_FALSE(c.shown_alone());
  EXPECT_EQ(c.tiles().size(), 2u);
  ASSERT_TRUE(v.wait_for(c, [&](const Canvas& canvas) { return canvas.width > 90; }));
}

TEST(Compositor, LargeSurfaceIsScaledToFit) {
  Compositor c({.max_tile_width = 960, .max_tile_height = 720}, nullptr);
  Guest g({1920, 1080});
  c.add_surface(kA, label_of("big", 1), g.reader());
  // Four quadrants of solid colour.
  std::vector<uint32_t> frame(size_t{1920} * 1080);
  const uint32_t colours[4] = {0xffff0000, 0xff00ff00, 0xff0000ff, 0xff808040};
  for (uint32_t y = 0; y < 1080; ++y) {
    for (uint32_t x = 0; x < 1920; ++x)
      frame[size_t{y} * 1920 + x] = colours[(y >= 540) * 2 + (x >= 960)];
  }
  g.publish(frame, 1);
  const auto tiles = c.tiles();
  ASSERT_EQ(tiles.size(), 1u);
  const Rect f = tiles[0].frame;
  EXPECT_EQ(f.width, 960);
  EXPECT_EQ(f.height, 540);
  EXPECT_EQ(tiles[0].source_width, 1920u);
  EXPECT_EQ(tiles[0].source_height, 1080u);
  auto at = [&](const Canvas& canvas, int32_t x, int32_t y) {
    return canvas.pixels[size_t(f.y + y) * canvas.width + f.x + x];
  };
  Viewer v;
  ASSERT_TRUE(v.wait_for(c, [&](const Canvas& canvas) { return at(canvas, 10, 10) == 0xff0000; }));
  for (int32_t y : {0, 100, 268}) {
    for (int32_t x : {0, 200, 478}) {
      EXPECT_EQ(at(v.canvas, x, y), 0xff0000u);
      EXPECT_EQ(at(v.canvas, x + 481, y), 0x00ff00u);
      EXPECT_EQ(at(v.canvas, x, y + 271), 0x0000ffu);
      EXPECT_EQ(at(v.canvas, x + 481, y + 271), 0x808040u);
    }
  }
}

TEST(Compositor, SmallChangeGivesSmallDamage) {
  Compositor c({}, nullptr);
  Guest g({512, 384});
  c.add_surface(kA, label_of("a", 1), g.reader());
  auto frame = pattern(g.size, 0);
  g.publish(frame, 1);
  Viewer v;
  ASSERT_TRUE(wait_shows(c, &v, kA, frame));
  const Rect tile = c.tiles()[0].frame;

  const Rect changed{300, 200, 10, 6};
  for (int32_t y = changed.y; y < changed.y + changed.height; ++y) {
    for (int32_t x = changed.x; x < changed.x + changed.width; ++x)
      frame[size_t(y) * 512 + x] = 0xffffffff;
  }
  const uint64_t before = v.version;
  g.publish(frame, 2);
  ASSERT_TRUE(wait_shows(c, &v, kA, frame));
  ASSERT_EQ(v.version, before + 1);
  int64_t area = 0;
  for (const auto& r : v.damage) area += int64_t{r.width} * r.height;
  EXPECT_GT(area, 0);
  EXPECT_LT(area, int64_t{tile.width} * tile.height / 8);
  for (int32_t y = changed.y; y < changed.y + changed.height; ++y) {
    for (int32_t x = changed.x; x < changed.x + changed.width; ++x) {
      const Rect px{tile.x + x, tile.y + y, 1, 1};
      EXPECT_TRUE(
          std::any_of(v.damage.begin(), v.damage.end(), [&](Rect r) { return overlap(r, px); }))
          << "pixel " << x << "," << y << " not in the damage";
    }
  }
  // The same frame again changes nothing, so there is no new picture.
  g.publish(frame, 3);
  EXPECT_FALSE(c.wait_picture(&v.version, &v.canvas, &v.damage, 100ms));
}

TEST(Compositor, DamageOfAnOldVersionIsTheWholeCanvas) {
  Compositor c({}, nullptr);
  Guest g({64, 64});
  c.add_surface(kA, label_of("a", 1), g.reader());
  Viewer v;
  ASSERT_TRUE(c.wait_picture(&v.version, &v.canvas, &v.damage, kPatience));
  const uint64_t old = v.version;
  for (uint32_t i = 1; i <= 40; ++i) {
    const auto frame = solid(g.size, i);
    g.publish(frame, i);
    ASSERT_TRUE(wait_shows(c, &v, kA, frame));
  }
  uint64_t version = old;
  Canvas canvas;
  std::vector<Rect> damage;
  ASSERT_TRUE(c.wait_picture(&version, &canvas, &damage, kPatience));
  ASSERT_EQ(damage.size(), 1u);
  EXPECT_EQ(damage[0].width, int32_t(canvas.width));
  EXPECT_EQ(damage[0].height, int32_t(canvas.height));
  EXPECT_EQ(version, v.version);
}

TEST(Compositor, WaitTimesOutWhenNothingNewComes) {
  Compositor c({}, nullptr);
  Viewer v;
  ASSERT_TRUE(c.wait_picture(&v.version, &v.canvas, &v.damage, kPatience));
  const uint64_t seen = v.version;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(c.wait_picture(&v.version, &v.canvas, &v.damage, 50ms));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 50ms);
  EXPECT_EQ(v.version, seen);
}

TEST(Compositor, WriterIsNeverHeldBackByAbsentViewers) {
  Compositor c({}, nullptr);
  Guest g({200, 150});
  c.add_surface(kA, label_of("a", 1), g.reader());
  std::vector<uint32_t> frame;
  for (uint32_t i = 1; i <= 1000; ++i) {
    frame = solid(g.size, 0xff000000 | i * 0x010203);
    g.publish(frame, i);
  }
  Viewer v;
  ASSERT_TRUE(wait_shows(c, &v, kA, frame));
  EXPECT_EQ(c.tiles()[0].last.frame_id, 1000u);
}

// A compositor showing guests A and B of 100x100, its input recorded.
struct SideBySide {
  SideBySide() {
    c.add_surface(kA, label_of("a", 1), a.reader());
    c.add_surface(kB, label_of("b", 2), b.reader());
  }
  Recorder rec;
  Compositor c{{}, rec.route()};
  Guest a{{100, 100}}, b{{100, 100}};
};

TEST(Compositor, ClickFocusesAndGoesToTheSurfaceUnderThePointer) {
  SideBySide shown;
  Compositor& c = shown.c;
  Recorder& rec = shown.rec;
  const auto tiles = c.tiles();
  const Rect fb = tiles[1].frame;
  EXPECT_FALSE(c.focused());

  c.pointer(fb.x + 10, fb.y + 20, 0);
  c.pointer(fb.x + 10, fb.y + 20, 1);
  c.pointer(fb.x + 10, fb.y + 20, 0);
  auto got = rec.take();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_TRUE(is(got[0], kB, InputEvent::Kind::kMotion, 0, 0, 10, 20));
  EXPECT_TRUE(is(got[1], kB, InputEvent::Kind::kButton, 1, 1, 10, 20));
  EXPECT_TRUE(is(got[2], kB, InputEvent::Kind::kButton, 1, 0, 10, 20));
  EXPECT_EQ(c.focused(), kB);

  // Keys follow the focus, wherever the pointer is, at the last position in that surface.
  c.pointer(tiles[0].frame.x + 1, tiles[0].frame.y + 2, 0);
  rec.take();
  c.key(0x61, true);
  c.key(0x61, false);
  got = rec.take();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(is(got[0], kB, InputEvent::Kind::kKey, 0x61, 1, 10, 20));
  EXPECT_TRUE(is(got[1], kB, InputEvent::Kind::kKey, 0x61, 0, 10, 20));

  // Right button and wheel: X11 buttons 3 and 4.
  c.pointer(tiles[0].frame.x + 1, tiles[0].frame.y + 2, 4 | 8);
  got = rec.take();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(is(got[0], kA, InputEvent::Kind::kButton, 3, 1, 1, 2));
  EXPECT_TRUE(is(got[1], kA, InputEvent::Kind::kButton, 4, 1, 1, 2));
  EXPECT_EQ(c.focused(), kA);
}

TEST(Compositor, DragKeepsGoingToThePressedSurface) {
  SideBySide shown;
  Compositor& c = shown.c;
  Recorder& rec = shown.rec;
  const auto tiles = c.tiles();
  const Rect fa = tiles[0].frame, fb = tiles[1].frame;
  ASSERT_LT(fa.x + fa.width, fb.x);  // side by side

  c.pointer(fa.x + 50, fa.y + 50, 1);
  c.pointer(fb.x + 30, fb.y + 40, 1);  // over B, but the button went down on A
  c.pointer(fb.x + 30, fb.y + 40, 0);
  c.pointer(fb.x + 31, fb.y + 40, 0);  // released: B again
  const auto got = rec.take();
  ASSERT_EQ(got.size(), 5u);
  EXPECT_TRUE(is(got[0], kA, InputEvent::Kind::kMotion, 0, 0, 50, 50));
  EXPECT_TRUE(is(got[1], kA, InputEvent::Kind::kButton, 1, 1, 50, 50));
  EXPECT_TRUE(
      is(got[2], kA, InputEvent::Kind::kMotion, 0, 0, 99, 40));  // clamped to A's right edge
  EXPECT_TRUE(is(got[3], kA, InputEvent::Kind::kButton, 1, 0, 99, 40));
  EXPECT_TRUE(is(got[4], kB, InputEvent::Kind::kMotion, 0, 0, 31, 40));
  EXPECT_EQ(c.focused(), kA);
}

TEST(Compositor, PointerOverALabelOrGapGoesNowhere) {
  Recorder rec;
  Compositor c({}, rec.route());
  Guest a({100, 100});
  c.add_surface(kA, label_of("a", 1), a.reader());
  const Rect f = c.tiles()[0].frame;
  c.pointer(f.x + 5, f.y - 5, 0);  // the label bar
  c.pointer(f.x + 5, f.y - 5, 1);
  c.pointer(f.x + 5, f.y + 5, 1);  // dragged in from the bar: still nobody's
  c.pointer(f.x + 5, f.y + 5, 0);
  EXPECT_TRUE(rec.take().empty());
  EXPECT_FALSE(c.focused());
  // With one surface shown, keys go to it even without focus.
  c.key(0xff0d, true);
  const auto got = rec.take();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].first, kA);
  EXPECT_EQ(got[0].second.kind, InputEvent::Kind::kKey);
}

TEST(Compositor, ScaledTileMapsPointerBackToSurfacePixels) {
  Recorder rec;
  Compositor c({.max_tile_width = 960, .max_tile_height = 720}, rec.route());
  Guest g({1920, 1080});
  c.add_surface(kA, label_of("big", 1), g.reader());
  const Rect f = c.tiles()[0].frame;
  c.pointer(f.x + 480, f.y + 270, 1);
  const auto got = rec.take();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(is(got[0], kA, InputEvent::Kind::kMotion, 0, 0, 960, 540));
  EXPECT_TRUE(is(got[1], kA, InputEvent::Kind::kButton, 1, 1, 960, 540));
}

TEST(Compositor, RemovingSurfacesShrinksTheLayout) {
  Recorder rec;
  Compositor c({.empty_width = 300, .empty_height = 200}, rec.route());
  Guest a({120, 90}), b({120, 90}), cc({120, 90}), d({120, 90});
  c.add_surface(kA, label_of("a", 1), a.reader());
  c.add_surface(kB, label_of("b", 2), b.reader());
  c.add_surface(kC, label_of("b", 2), cc.reader());
  c.add_surface(kD, label_of("d", 3), d.reader());
  const auto frame = pattern(d.size, 9);
  d.publish(frame, 1);
  Viewer v;
  ASSERT_TRUE(wait_shows(c, &v, kD, frame));
  const uint32_t width = v.canvas.width, height = v.canvas.height;
  const Rect fd = c.tiles()[3].frame;
  c.pointer(fd.x + 1, fd.y + 1, 1);
  c.pointer(fd.x + 1, fd.y + 1, 0);
  EXPECT_EQ(c.focused(), kD);

  c.remove_guest(2);  // both of B's surfaces
  auto tiles = c.tiles();
  ASSERT_EQ(tiles.size(), 2u);
  EXPECT_EQ(tiles[0].key, kA);
  EXPECT_EQ(tiles[1].key, kD);
  ASSERT_TRUE(wait_shows(c, &v, kD, frame));  // D keeps its last frame
  EXPECT_EQ(v.canvas.width, width);
  EXPECT_LT(v.canvas.height, height);

  c.remove_surface(kD);
  EXPECT_FALSE(c.focused());
  ASSERT_EQ(c.tiles().size(), 1u);
  ASSERT_TRUE(v.wait_for(c, [&](const Canvas& canvas) { return canvas.width < width; }));
  c.remove_surface(kA);
  EXPECT_TRUE(c.tiles().empty());
  ASSERT_TRUE(v.wait_for(
      c, [&](const Canvas& canvas) { return canvas.width == 300 && canvas.height == 200; }));
}

TEST(Compositor, AddingASurfaceAgainReplacesItsBoard) {
  Compositor c({}, nullptr);
  Guest a({40, 30}), b({80, 60}), bigger({64, 50});
  c.add_surface(kA, label_of("a", 1), a.reader());
  c.add_surface(kB, label_of("b", 2), b.reader());
  const auto frame = pattern(bigger.size, 11);
  bigger.publish(frame, 5);  // published before the compositor sees the new board
  c.add_surface(kA, label_of("a", 1), bigger.reader());
  const auto tiles = c.tiles();
  ASSERT_EQ(tiles.size(), 2u);
  EXPECT_EQ(tiles[0].key, kA);  // a resize keeps its place
  EXPECT_EQ(tiles[0].source_width, 64u);
  EXPECT_EQ(tiles[0].frame.height, 50);
  Viewer v;
  ASSERT_TRUE(wait_shows(c, &v, kA, frame));
  EXPECT_EQ(c.tiles()[0].last.frame_id, 5u);
}

}  // namespace
}  // namespace comp
