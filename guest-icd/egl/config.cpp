#include "egl/config.h"

#include <EGL/eglext.h>

#include <algorithm>
#include <array>

namespace icd {
namespace {

// How eglChooseConfig compares an attribute (EGL 1.5 table 3.4).
enum class Match { kAtLeast, kExact, kMask, kIgnore, kPixmap };

struct AttribRule {
  EGLint attribute;
  Match match;
  EGLint default_value;
};

constexpr std::array kRules = {
    AttribRule{EGL_BUFFER_SIZE, Match::kAtLeast, 0},
    AttribRule{EGL_RED_SIZE, Match::kAtLeast, 0},
    AttribRule{EGL_GREEN_SIZE, Match::kAtLeast, 0},
    AttribRule{EGL_BLUE_SIZE, Match::kAtLeast, 0},
    AttribRule{EGL_LUMINANCE_SIZE, Match::kAtLeast, 0},
    AttribRule{EGL_ALPHA_SIZE, Match::kAtLeast, 0},
    AttribRule{EGL_ALPHA_MASK_SIZE, Match::kAtLeast, 0},
    AttribRule{EGL_BIND_TO_TEXTURE_RGB, Match::kExact, EGL_DONT_CARE},
    AttribRule{EGL_BIND_TO_TEXTURE_RGBA, Match::kExact, EGL_DONT_CARE},
    AttribRule{EGL_COLOR_BUFFER_TYPE, Match::kExact, EGL_RGB_BUFFER},
    AttribRule{EGL_CONFIG_CAVEAT, Match::kExact, EGL_DONT_CARE},
    AttribRule{EGL_CONFIG_ID, Match::kExact, EGL_DONT_CARE},
    AttribRule{EGL_CONFORMANT, Match::kMask, 0},
    AttribRule{EGL_DEPTH_SIZE, Match::kAtLeast, 0},
    AttribRule{EGL_LEVEL, Match::kExact, 0},
    AttribRule{EGL_MATCH_NATIVE_PIXMAP, Match::kPixmap, EGL_NONE},
    AttribRule{EGL_MAX_PBUFFER_WIDTH, Match::kIgnore, 0},
    AttribRule{EGL_MAX_PBUFFER_HEIGHT, Match::kIgnore, 0},
    AttribRule{EGL_MAX_PBUFFER_PIXELS, Match::kIgnore, 0},
    AttribRule{EGL_MAX_SWAP_INTERVAL, Match::kExact, EGL_DONT_CARE},
    AttribRule{EGL_MIN_SWAP_INTERVAL, Match::kExact, EGL_DONT_CARE},
    AttribRule{EGL_NATIVE_RENDERABLE, Match::kExact, EGL_DONT_CARE},
    AttribRule{EGL_NATIVE_VISUAL_ID, Match::kIgnore, 0},
    AttribRule{EGL_NATIVE_VISUAL_TYPE, Match::kExact, EGL_DONT_CARE},
    AttribRule{EGL_RENDERABLE_TYPE, Match::kMask, EGL_OPENGL_ES_BIT},
    AttribRule{EGL_SAMPLE_BUFFERS, Match::kAtLeast, 0},
    AttribRule{EGL_SAMPLES, Match::kAtLeast, 0},
    AttribRule{EGL_STENCIL_SIZE, Match::kAtLeast, 0},
    AttribRule{EGL_SURFACE_TYPE, Match::kMask, EGL_WINDOW_BIT},
    AttribRule{EGL_TRANSPARENT_TYPE, Match::kExact, EGL_NONE},
    AttribRule{EGL_TRANSPARENT_RED_VALUE, Match::kExact, EGL_DONT_CARE},
    AttribRule{EGL_TRANSPARENT_GREEN_VALUE, Match::kExact, EGL_DONT_CARE},
    AttribRule{EGL_TRANSPARENT_BLUE_VALUE, Match::kExact, EGL_DONT_CARE},
};

const AttribRule* find_rule(EGLint attribute) {
  for (const auto& rule : kRules)
    if (rule.attribute == attribute) return &rule;
  return nullptr;
}

// X visual class TrueColor, from X.h; kept here so this file needs no Xlib.
constexpr EGLint kTrueColor = 4;

}  // namespace

RenderCaps render_caps(const wire::HelloReply& host) {
  return RenderCaps{static_cast<int>(host.max_gles_version), static_cast<int>(host.max_gl_core_version),
                    static_cast<int>(host.max_gl_compat_version), (host.features & wire::kFeatureGles1) != 0,
                    (host.features & wire::kFeatureTexturePbuffers) != 0};
}

EGLint renderable_bits(const RenderCaps& caps) {
  EGLint bits = 0;
  if (caps.gles1) bits |= EGL_OPENGL_ES_BIT;
  if (caps.max_gles >= 20) bits |= EGL_OPENGL_ES2_BIT;
  if (caps.max_gles >= 30) bits |= EGL_OPENGL_ES3_BIT;
  if (caps.max_gl_core > 0 || caps.max_gl_compat > 0) bits |= EGL_OPENGL_BIT;
  return bits;
}

std::vector<Config> build_configs(const RenderCaps& caps, std::span<const VisualInfo> visuals) {
  const VisualInfo* visual24 = nullptr;
  const VisualInfo* visual32 = nullptr;
  for (const auto& v : visuals) {
    if (v.type != kTrueColor) continue;
    if (v.depth == 24 && !visual24) visual24 = &v;
    if (v.depth == 32 && !visual32) visual32 = &v;
  }
  const EGLint renderable = renderable_bits(caps);

  std::vector<Config> configs;
  auto add_set = [&](EGLint alpha, const VisualInfo* visual) {
    for (EGLint depth : {0, 24})
      for (EGLint stencil : {0, 8})
        for (EGLint samples : {0, 4}) {
          Config c;
          c.config_id = static_cast<EGLint>(configs.size() + 1);
          c.alpha = alpha;
          c.depth = depth;
          c.stencil = stencil;
          c.samples = samples;
          c.renderable_type = renderable;
          c.conformant = renderable;
          c.surface_type = EGL_PBUFFER_BIT;
          c.bind_to_texture = caps.texture_pbuffers && samples == 0;
          if (caps.max_pbuffer_side > 0) c.max_pbuffer = std::min(caps.max_pbuffer_side, Config::kLargestPbuffer);
          if (visual) {
            c.surface_type |= EGL_WINDOW_BIT | EGL_PIXMAP_BIT;
            c.visual_depth = visual->depth;
            c.native_visual_id = visual->id;
            c.native_visual_type = visual->type;
          }
          configs.push_back(c);
        }
  };
  // RGBA configs use the default-depth visual first (alpha rendered but not
  // shown, as windows usually are depth 24); a depth-32 visual adds a set
  // for applications that want a translucent window.
  add_set(8, visual24 ? visual24 : visual32);
  add_set(0, visual24);
  if (visual24 && visual32) add_set(8, visual32);
  return configs;
}

std::optional<EGLint> config_attrib(const Config& c, EGLint attribute) {
  switch (attribute) {
    case EGL_BUFFER_SIZE: return c.buffer_size();
    case EGL_RED_SIZE: return c.red;
    case EGL_GREEN_SIZE: return c.green;
    case EGL_BLUE_SIZE: return c.blue;
    case EGL_ALPHA_SIZE: return c.alpha;
    case EGL_LUMINANCE_SIZE: return 0;
    case EGL_ALPHA_MASK_SIZE: return 0;
    case EGL_BIND_TO_TEXTURE_RGB: return c.bind_to_texture ? EGL_TRUE : EGL_FALSE;
    // As Mesa's: an alpha-less buffer binds as RGBA too, its alpha read as one.
    case EGL_BIND_TO_TEXTURE_RGBA: return c.bind_to_texture ? EGL_TRUE : EGL_FALSE;
    case EGL_COLOR_BUFFER_TYPE: return EGL_RGB_BUFFER;
    case EGL_CONFIG_CAVEAT: return EGL_NONE;
    case EGL_CONFIG_ID: return c.config_id;
    case EGL_CONFORMANT: return c.conformant;
    case EGL_DEPTH_SIZE: return c.depth;
    case EGL_LEVEL: return 0;
    case EGL_MAX_PBUFFER_WIDTH: return c.max_pbuffer;
    case EGL_MAX_PBUFFER_HEIGHT: return c.max_pbuffer;
    case EGL_MAX_PBUFFER_PIXELS: return c.max_pbuffer * c.max_pbuffer;
    case EGL_MAX_SWAP_INTERVAL: return c.max_swap_interval;
    case EGL_MIN_SWAP_INTERVAL: return 0;
    case EGL_NATIVE_RENDERABLE: return EGL_FALSE;
    case EGL_NATIVE_VISUAL_ID: return c.native_visual_id;
    case EGL_NATIVE_VISUAL_TYPE: return c.native_visual_type;
    case EGL_RENDERABLE_TYPE: return c.renderable_type;
    case EGL_SAMPLE_BUFFERS: return c.sample_buffers();
    case EGL_SAMPLES: return c.samples;
    case EGL_STENCIL_SIZE: return c.stencil;
    case EGL_SURFACE_TYPE: return c.surface_type;
    case EGL_TRANSPARENT_TYPE: return EGL_NONE;
    case EGL_TRANSPARENT_RED_VALUE: return 0;
    case EGL_TRANSPARENT_GREEN_VALUE: return 0;
    case EGL_TRANSPARENT_BLUE_VALUE: return 0;
    default: return std::nullopt;
  }
}

std::optional<ConfigFilter> ConfigFilter::parse(const EGLint* attribs) {
  ConfigFilter filter;
  for (const EGLint* a = attribs; a && a[0] != EGL_NONE; a += 2) {
    const AttribRule* rule = find_rule(a[0]);
    if (!rule) return std::nullopt;
    const EGLint value = a[1];
    // Masks and exact-match enums reject values that cannot be valid.
    if (rule->match == Match::kMask && value != EGL_DONT_CARE && value < 0) return std::nullopt;
    if (rule->match == Match::kAtLeast && value != EGL_DONT_CARE && value < 0) return std::nullopt;
    auto it = std::find_if(filter.wanted_.begin(), filter.wanted_.end(),
                           [&](const Wanted& w) { return w.attribute == a[0]; });
    if (it != filter.wanted_.end())
      it->value = value;
    else
      filter.wanted_.push_back({a[0], value});
  }
  return filter;
}

std::optional<EGLint> ConfigFilter::value_of(EGLint attribute) const {
  for (const auto& w : wanted_)
    if (w.attribute == attribute) return w.value;
  return std::nullopt;
}

bool ConfigFilter::matches(const Config& config) const {
  // An explicit EGL_CONFIG_ID overrides every other attribute.
  if (auto id = value_of(EGL_CONFIG_ID); id && *id != EGL_DONT_CARE) return config.config_id == *id;

  for (const auto& rule : kRules) {
    const EGLint wanted = value_of(rule.attribute).value_or(rule.default_value);
    if (wanted == EGL_DONT_CARE) continue;
    const EGLint have = *config_attrib(config, rule.attribute);
    switch (rule.match) {
      case Match::kAtLeast:
        if (have < wanted) return false;
        break;
      case Match::kExact:
        if (rule.attribute == EGL_CONFIG_ID) break;
        // Transparent values only matter for transparent configs.
        if (rule.attribute == EGL_TRANSPARENT_RED_VALUE || rule.attribute == EGL_TRANSPARENT_GREEN_VALUE ||
            rule.attribute == EGL_TRANSPARENT_BLUE_VALUE)
          break;
        if (have != wanted) return false;
        break;
      case Match::kMask:
        if ((have & wanted) != wanted) return false;
        break;
      case Match::kPixmap:
        // Configs whose pixmap surfaces the pixmap can be (EGL 1.5 3.4.1.1).
        if (wanted != EGL_NONE &&
            (!(config.surface_type & EGL_PIXMAP_BIT) || config.visual_depth != pixmap_depth_))
          return false;
        break;
      case Match::kIgnore:
        break;
    }
  }
  return true;
}

EGLint ConfigFilter::color_bits(const Config& config) const {
  EGLint bits = 0;
  auto counts = [&](EGLint attribute) {
    auto v = value_of(attribute);
    return v && *v != 0 && *v != EGL_DONT_CARE;
  };
  if (counts(EGL_RED_SIZE)) bits += config.red;
  if (counts(EGL_GREEN_SIZE)) bits += config.green;
  if (counts(EGL_BLUE_SIZE)) bits += config.blue;
  if (counts(EGL_ALPHA_SIZE)) bits += config.alpha;
  return bits;
}

bool ConfigFilter::before(const Config& a, const Config& b) const {
  // EGL 1.5 section 3.4.1.2, in order of precedence. Caveat and colour
  // buffer type are equal for every config offered here.
  if (color_bits(a) != color_bits(b)) return color_bits(a) > color_bits(b);
  if (a.buffer_size() != b.buffer_size()) return a.buffer_size() < b.buffer_size();
  if (a.sample_buffers() != b.sample_buffers()) return a.sample_buffers() < b.sample_buffers();
  if (a.samples != b.samples) return a.samples < b.samples;
  if (a.depth != b.depth) return a.depth < b.depth;
  if (a.stencil != b.stencil) return a.stencil < b.stencil;
  return a.config_id < b.config_id;
}

std::vector<const Config*> choose_configs(std::span<const Config> configs, const ConfigFilter& filter) {
  return matching_best_first(configs, filter);
}

}  // namespace icd
