// GLX frame buffer configurations: the list a screen offers (each bound to
// a real X visual), glXChooseFBConfig matching and sorting (GLX 1.4 section
// 3.3.3, table 3.4), the glXChooseVisual attribute form (section 3.3.10)
// and attribute queries.
#pragma once

#include <GL/glx.h>

#include <optional>
#include <span>
#include <vector>

#include "egl/config.h"

namespace icd::glx {

struct FbConfig {
  Config color;  // channel, depth, stencil and sample sizes (shared with EGL)
  int id = 0;    // GLX_FBCONFIG_ID, from 1
  VisualID visual = 0;
  int visual_depth = 0;
  int visual_class = 0;
  bool double_buffer = true;
  int drawable_types = GLX_WINDOW_BIT | GLX_PIXMAP_BIT | GLX_PBUFFER_BIT;
};

// Largest pbuffer a config allows (the host's surfaces are textures).
constexpr int kMaxPbufferSize = 16384;

// Builds the configs for the given TrueColor visuals (first: the screen's
// default). Per visual the first config is the one glXGetConfig describes.
std::vector<FbConfig> build_fbconfigs(std::span<const VisualInfo> visuals);

// Value of a GLX_* config attribute; nullopt for one GLX does not define
// (GLX_BAD_ATTRIBUTE).
std::optional<int> fbconfig_attrib(const FbConfig& config, int attribute);

// A parsed attribute list. parse() fails (nullopt) on an unknown attribute.
class FbConfigFilter {
 public:
  // glXChooseFBConfig's list: (attribute, value) pairs up to None.
  static std::optional<FbConfigFilter> parse(const int* attribs);
  // glXChooseVisual's list: boolean attributes stand alone.
  static std::optional<FbConfigFilter> parse_visual(const int* attribs);

  bool matches(const FbConfig& config) const;
  // True when `a` sorts before `b` (GLX 1.4 table 3.4 precedence).
  bool before(const FbConfig& a, const FbConfig& b) const;

 private:
  int value_of(int attribute) const;
  void set(int attribute, int value);
  int color_bits(const FbConfig& config) const;

  std::vector<std::pair<int, int>> wanted_;  // defaults, overridden by the application
};

std::vector<const FbConfig*> choose_fbconfigs(std::span<const FbConfig> configs,
                                              const FbConfigFilter& filter);

}  // namespace icd::glx
