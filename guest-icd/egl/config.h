// EGL frame buffer configurations: the list a display offers, matching and
// sorting for eglChooseConfig (EGL 1.5 section 3.4.1) and attribute queries.
#pragma once

#include <EGL/egl.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "wire/control.h"

namespace icd {

struct Config {
  EGLint config_id = 0;
  EGLint red = 8, green = 8, blue = 8, alpha = 0;
  EGLint depth = 0, stencil = 0;
  EGLint samples = 0;
  EGLint surface_type = 0;     // EGL_WINDOW_BIT | EGL_PIXMAP_BIT | EGL_PBUFFER_BIT
  EGLint visual_depth = 0;     // of the X visual: windows and pixmaps of this depth
  EGLint renderable_type = 0;  // EGL_OPENGL_ES2_BIT ...
  EGLint conformant = 0;
  EGLint native_visual_id = 0;
  EGLint native_visual_type = EGL_NONE;
  EGLint max_swap_interval = 1;
  bool bind_to_texture = false;  // EGL_BIND_TO_TEXTURE_RGB and _RGBA
  static constexpr EGLint kLargestPbuffer = 16384;  // offered where the host does not say
  EGLint max_pbuffer = kLargestPbuffer;              // EGL_MAX_PBUFFER_WIDTH and _HEIGHT

  EGLint buffer_size() const { return red + green + blue + alpha; }
  EGLint sample_buffers() const { return samples > 0 ? 1 : 0; }
};

// An X visual a window config can carry.
struct VisualInfo {
  EGLint id = 0;
  EGLint depth = 0;   // 24 or 32
  EGLint type = 0;    // X visual class (TrueColor)
};

// What the host can create, from its handshake.
struct RenderCaps {
  int max_gles = 0;  // major * 10 + minor
  int max_gl_core = 0;
  int max_gl_compat = 0;
  bool gles1 = false;  // OpenGL ES 1.x contexts
  bool texture_pbuffers = false;  // pbuffers bound to textures (eglBindTexImage)
  int max_pbuffer_side = 0;       // the host's largest pbuffer width and height; 0: not told
};

// What the host said it can make.
RenderCaps render_caps(const wire::HelloReply& host);

EGLint renderable_bits(const RenderCaps& caps);

// Builds the configs: RGBA8888 / RGB888 x depth 0/24 x stencil 0/8 x
// samples 0/4. Window configs need a visual of matching depth; without
// visuals (surfaceless) every config is pbuffer-only.
std::vector<Config> build_configs(const RenderCaps& caps, std::span<const VisualInfo> visuals);

// Value of one attribute, or nullopt for an attribute EGL does not define
// for configs (EGL_BAD_ATTRIBUTE).
std::optional<EGLint> config_attrib(const Config& config, EGLint attribute);

// A parsed eglChooseConfig attribute list. parse() fails (nullopt) on an
// unknown attribute or a bad value, which is EGL_BAD_ATTRIBUTE.
class ConfigFilter {
 public:
  static std::optional<ConfigFilter> parse(const EGLint* attribs);

  bool matches(const Config& config) const;
  // EGL_MATCH_NATIVE_PIXMAP's pixmap, or EGL_NONE; the caller finds its depth.
  EGLint native_pixmap() const { return value_of(EGL_MATCH_NATIVE_PIXMAP).value_or(EGL_NONE); }
  void set_native_pixmap_depth(EGLint depth) { pixmap_depth_ = depth; }
  // True when `a` sorts before `b` under the spec's precedence rules.
  bool before(const Config& a, const Config& b) const;

 private:
  struct Wanted {
    EGLint attribute;
    EGLint value;
  };
  std::optional<EGLint> value_of(EGLint attribute) const;
  EGLint color_bits(const Config& config) const;

  std::vector<Wanted> wanted_;  // defaults overridden by the application
  EGLint pixmap_depth_ = 0;     // of EGL_MATCH_NATIVE_PIXMAP's pixmap
};

// The configs matching `attribs`, best first.
std::vector<const Config*> choose_configs(std::span<const Config> configs, const ConfigFilter& filter);

// The configs `filter` matches, best first, as eglChooseConfig and
// glXChooseFBConfig answer alike; `Filter` has matches() and before().
template <typename C, typename Filter>
std::vector<const C*> matching_best_first(std::span<const C> configs, const Filter& filter) {
  std::vector<const C*> out;
  for (const auto& c : configs)
    if (filter.matches(c)) out.push_back(&c);
  std::stable_sort(out.begin(), out.end(), [&](const C* a, const C* b) { return filter.before(*a, *b); });
  return out;
}

}  // namespace icd
