// eglChooseConfig matching and sorting (EGL 1.5 section 3.4.1) on the
// configs the vendor builds.
#include <gtest/gtest.h>

#include "egl/config.h"

namespace icd {
namespace {

constexpr EGLint kTrueColor = 4;
const RenderCaps kCaps{32, 45, 45};
const VisualInfo kVisuals[] = {{0x21, 24, kTrueColor}, {0x40, 32, kTrueColor}};

std::vector<Config> configs() { return build_configs(kCaps, kVisuals); }

std::vector<const Config*> choose(const std::vector<Config>& all, std::initializer_list<EGLint> attribs) {
  std::vector<EGLint> list(attribs);
  list.push_back(EGL_NONE);
  auto filter = ConfigFilter::parse(list.data());
  EXPECT_TRUE(filter.has_value());
  return filter ? choose_configs(all, *filter) : std::vector<const Config*>{};
}

TEST(Config, BuildsEveryCombinationWithVisuals) {
  auto all = configs();
  ASSERT_EQ(all.size(), 24u);  // 16 on the depth-24 visual, 8 RGBA on the depth-32 one
  for (const auto& c : all) {
    EXPECT_EQ(c.surface_type, EGL_WINDOW_BIT | EGL_PIXMAP_BIT | EGL_PBUFFER_BIT);
    EXPECT_EQ(c.visual_depth, c.config_id <= 16 ? 24 : 32);
    EXPECT_EQ(c.renderable_type, EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT | EGL_OPENGL_BIT);
    EXPECT_EQ(c.native_visual_id, c.config_id <= 16 ? 0x21 : 0x40);
  }
}

TEST(Config, SurfacelessConfigsArePbufferOnly) {
  auto all = build_configs(RenderCaps{20, 0, 0}, {});
  ASSERT_EQ(all.size(), 16u);
  for (const auto& c : all) {
    EXPECT_EQ(c.surface_type, EGL_PBUFFER_BIT);
    EXPECT_EQ(c.native_visual_id, 0);
    EXPECT_EQ(c.renderable_type, EGL_OPENGL_ES2_BIT);  // host offers GLES 2.0 only
  }
}

TEST(Config, DefaultRenderableTypeIsGles1SoNothingMatches) {
  // EGL_RENDERABLE_TYPE defaults to EGL_OPENGL_ES_BIT, which no config has.
  EXPECT_TRUE(choose(configs(), {}).empty());
}

TEST(Config, PrefersMoreColorBitsThenSmallerBuffers) {
  auto all = configs();
  auto with_alpha = choose(all, {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_RED_SIZE, 1, EGL_ALPHA_SIZE, 1});
  ASSERT_FALSE(with_alpha.empty());
  EXPECT_EQ(with_alpha.front()->alpha, 8);
  EXPECT_EQ(with_alpha.front()->depth, 0);
  EXPECT_EQ(with_alpha.front()->samples, 0);

  // Without a colour request, a smaller buffer sorts first.
  auto any = choose(all, {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT});
  ASSERT_EQ(any.size(), all.size());
  EXPECT_EQ(any.front()->buffer_size(), 24);
}

TEST(Config, SortOrderFollowsSpecPrecedence) {
  auto all = configs();
  auto out = choose(all, {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_RED_SIZE, 8});
  for (size_t i = 1; i < out.size(); ++i) {
    const Config& a = *out[i - 1];
    const Config& b = *out[i];
    // Red is the only colour asked for, so colour bits tie; then buffer
    // size, sample buffers, samples, depth, stencil, id — all ascending.
    auto key = [](const Config& c) {
      return std::make_tuple(c.buffer_size(), c.sample_buffers(), c.samples, c.depth, c.stencil, c.config_id);
    };
    EXPECT_LT(key(a), key(b)) << "configs " << a.config_id << " and " << b.config_id;
  }
}

TEST(Config, AtLeastAndMaskMatching) {
  auto all = configs();
  auto deep = choose(all, {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_DEPTH_SIZE, 16, EGL_STENCIL_SIZE, 8,
                           EGL_SAMPLES, 4});
  ASSERT_FALSE(deep.empty());
  for (const Config* c : deep) {
    EXPECT_GE(c->depth, 16);
    EXPECT_EQ(c->stencil, 8);
    EXPECT_EQ(c->samples, 4);
  }
  EXPECT_EQ(choose(all, {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PIXMAP_BIT}).size(), 24u);
  EXPECT_TRUE(choose(all, {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_DEPTH_SIZE, 32}).empty());
}

TEST(Config, DontCareLiftsTheDefault) {
  auto all = configs();
  auto out = choose(all, {EGL_RENDERABLE_TYPE, EGL_DONT_CARE, EGL_SURFACE_TYPE, EGL_DONT_CARE});
  EXPECT_EQ(out.size(), all.size());
}

TEST(Config, ConfigIdOverridesEverythingElse) {
  auto all = configs();
  auto out = choose(all, {EGL_CONFIG_ID, 7, EGL_DEPTH_SIZE, 100});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out.front()->config_id, 7);
}

TEST(Config, UnknownAttributeIsRejected) {
  const EGLint bad[] = {0x7777, 1, EGL_NONE};
  EXPECT_FALSE(ConfigFilter::parse(bad).has_value());
  const EGLint negative[] = {EGL_RED_SIZE, -5, EGL_NONE};
  EXPECT_FALSE(ConfigFilter::parse(negative).has_value());
}

TEST(Config, AttributesAnswerAndUnknownOnesDoNot) {
  const Config c = configs().front();
  EXPECT_EQ(config_attrib(c, EGL_BUFFER_SIZE), 32);
  EXPECT_EQ(config_attrib(c, EGL_NATIVE_VISUAL_ID), 0x21);
  EXPECT_EQ(config_attrib(c, EGL_CONFIG_CAVEAT), EGL_NONE);
  EXPECT_EQ(config_attrib(c, EGL_COLOR_BUFFER_TYPE), EGL_RGB_BUFFER);
  EXPECT_FALSE(config_attrib(c, 0x7777).has_value());
}

}  // namespace
}  // namespace icd
