#include "glx/fbconfig.h"

namespace icd::glx {
namespace {

// GLX_DONT_CARE (0xFFFFFFFF) as the ints attribute lists hold.
constexpr int kDontCare = -1;

enum class Rule { kExact, kAtLeast, kMask, kIgnore };

struct AttribRule {
  int attribute;
  int default_value;
  Rule rule;
};

// GLX 1.4 table 3.4: defaults and how each attribute selects configs.
constexpr AttribRule kRules[] = {
    {GLX_FBCONFIG_ID, kDontCare, Rule::kExact},
    {GLX_BUFFER_SIZE, 0, Rule::kAtLeast},
    {GLX_LEVEL, 0, Rule::kExact},
    {GLX_DOUBLEBUFFER, kDontCare, Rule::kExact},
    {GLX_STEREO, False, Rule::kExact},
    {GLX_AUX_BUFFERS, 0, Rule::kAtLeast},
    {GLX_RED_SIZE, 0, Rule::kAtLeast},
    {GLX_GREEN_SIZE, 0, Rule::kAtLeast},
    {GLX_BLUE_SIZE, 0, Rule::kAtLeast},
    {GLX_ALPHA_SIZE, 0, Rule::kAtLeast},
    {GLX_DEPTH_SIZE, 0, Rule::kAtLeast},
    {GLX_STENCIL_SIZE, 0, Rule::kAtLeast},
    {GLX_ACCUM_RED_SIZE, 0, Rule::kAtLeast},
    {GLX_ACCUM_GREEN_SIZE, 0, Rule::kAtLeast},
    {GLX_ACCUM_BLUE_SIZE, 0, Rule::kAtLeast},
    {GLX_ACCUM_ALPHA_SIZE, 0, Rule::kAtLeast},
    {GLX_RENDER_TYPE, GLX_RGBA_BIT, Rule::kMask},
    {GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, Rule::kMask},
    {GLX_X_RENDERABLE, kDontCare, Rule::kExact},
    {GLX_X_VISUAL_TYPE, kDontCare, Rule::kExact},
    {GLX_CONFIG_CAVEAT, kDontCare, Rule::kExact},
    {GLX_TRANSPARENT_TYPE, GLX_NONE, Rule::kExact},
    {GLX_TRANSPARENT_INDEX_VALUE, kDontCare, Rule::kIgnore},
    {GLX_TRANSPARENT_RED_VALUE, kDontCare, Rule::kIgnore},
    {GLX_TRANSPARENT_GREEN_VALUE, kDontCare, Rule::kIgnore},
    {GLX_TRANSPARENT_BLUE_VALUE, kDontCare, Rule::kIgnore},
    {GLX_TRANSPARENT_ALPHA_VALUE, kDontCare, Rule::kIgnore},
    {GLX_SAMPLE_BUFFERS, 0, Rule::kAtLeast},
    {GLX_SAMPLES, 0, Rule::kAtLeast},
    {GLX_MAX_PBUFFER_WIDTH, kDontCare, Rule::kIgnore},
    {GLX_MAX_PBUFFER_HEIGHT, kDontCare, Rule::kIgnore},
    {GLX_MAX_PBUFFER_PIXELS, kDontCare, Rule::kIgnore},
    {GLX_VISUAL_ID, kDontCare, Rule::kExact},
    {GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB, kDontCare, Rule::kExact},
};

const AttribRule* rule_of(int attribute) {
  for (const auto& r : kRules)
    if (r.attribute == attribute) return &r;
  return nullptr;
}

}  // namespace

std::vector<FbConfig> build_fbconfigs(std::span<const VisualInfo> visuals) {
  struct DepthStencil {
    int depth, stencil;
  };
  constexpr DepthStencil kDepthStencil[] = {{24, 8}, {24, 0}, {0, 0}};
  std::vector<FbConfig> out;
  for (const VisualInfo& v : visuals) {
    // A 24-bit visual shows RGB, but the host buffer may still carry alpha.
    const std::vector<int> alphas = v.depth == 32 ? std::vector<int>{8} : std::vector<int>{0, 8};
    for (int alpha : alphas)
      for (const auto& ds : kDepthStencil)
        for (int samples : {0, 4})
          for (bool double_buffer : {true, false}) {
            FbConfig c;
            c.double_buffer = double_buffer;
            c.color.alpha = alpha;
            c.color.depth = ds.depth;
            c.color.stencil = ds.stencil;
            c.color.samples = samples;
            c.id = static_cast<int>(out.size()) + 1;
            c.visual = static_cast<VisualID>(v.id);
            c.visual_depth = v.depth;
            c.visual_class = v.type;
            out.push_back(c);
          }
  }
  return out;
}

std::optional<int> fbconfig_attrib(const FbConfig& c, int attribute) {
  switch (attribute) {
    case GLX_FBCONFIG_ID: return c.id;
    case GLX_BUFFER_SIZE: return c.color.buffer_size();
    case GLX_LEVEL: return 0;
    case GLX_DOUBLEBUFFER: return c.double_buffer ? True : False;
    case GLX_STEREO: return False;
    case GLX_AUX_BUFFERS: return 0;
    case GLX_RED_SIZE: return c.color.red;
    case GLX_GREEN_SIZE: return c.color.green;
    case GLX_BLUE_SIZE: return c.color.blue;
    case GLX_ALPHA_SIZE: return c.color.alpha;
    case GLX_DEPTH_SIZE: return c.color.depth;
    case GLX_STENCIL_SIZE: return c.color.stencil;
    case GLX_ACCUM_RED_SIZE:
    case GLX_ACCUM_GREEN_SIZE:
    case GLX_ACCUM_BLUE_SIZE:
    case GLX_ACCUM_ALPHA_SIZE: return 0;
    case GLX_RENDER_TYPE: return GLX_RGBA_BIT;
    case GLX_DRAWABLE_TYPE: return c.drawable_types;
    case GLX_X_RENDERABLE: return c.visual ? True : False;
    case GLX_VISUAL_ID: return static_cast<int>(c.visual);
    case GLX_X_VISUAL_TYPE: return c.visual ? GLX_TRUE_COLOR : GLX_NONE;
    case GLX_CONFIG_CAVEAT: return GLX_NONE;
    case GLX_TRANSPARENT_TYPE: return GLX_NONE;
    case GLX_TRANSPARENT_INDEX_VALUE:
    case GLX_TRANSPARENT_RED_VALUE:
    case GLX_TRANSPARENT_GREEN_VALUE:
    case GLX_TRANSPARENT_BLUE_VALUE:
    case GLX_TRANSPARENT_ALPHA_VALUE: return 0;
    case GLX_MAX_PBUFFER_WIDTH:
    case GLX_MAX_PBUFFER_HEIGHT: return kMaxPbufferSize;
    case GLX_MAX_PBUFFER_PIXELS: return kMaxPbufferSize * kMaxPbufferSize;
    case GLX_SAMPLE_BUFFERS: return c.color.sample_buffers();
    case GLX_SAMPLES: return c.color.samples;
    case GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB: return False;
    default: return std::nullopt;
  }
}

int FbConfigFilter::value_of(int attribute) const {
  for (const auto& [a, v] : wanted_)
    if (a == attribute) return v;
  const AttribRule* r = rule_of(attribute);
  return r ? r->default_value : kDontCare;
}

void FbConfigFilter::set(int attribute, int value) {
  for (auto& [a, v] : wanted_)
    if (a == attribute) {
      v = value;
      return;
    }
  wanted_.emplace_back(attribute, value);
}

std::optional<FbConfigFilter> FbConfigFilter::parse(const int* attribs) {
  FbConfigFilter f;
  for (const int* a = attribs; a && a[0] != None; a += 2) {
    if (!rule_of(a[0])) return std::nullopt;
    f.set(a[0], a[1]);
  }
  return f;
}

std::optional<FbConfigFilter> FbConfigFilter::parse_visual(const int* attribs) {
  FbConfigFilter f;
  bool rgba = false, double_buffer = false;
  for (const int* a = attribs; a && a[0] != None;) {
    switch (a[0]) {
      case GLX_USE_GL: a += 1; continue;
      case GLX_RGBA: rgba = true; a += 1; continue;
      case GLX_DOUBLEBUFFER: double_buffer = true; a += 1; continue;
      case GLX_STEREO: f.set(GLX_STEREO, True); a += 1; continue;
      default: break;
    }
    if (!rule_of(a[0])) return std::nullopt;
    if (a[0] != GLX_BUFFER_SIZE) f.set(a[0], a[1]);  // a colour-index size
    a += 2;
  }
  // Without GLX_RGBA the request is for colour-index visuals.
  f.set(GLX_RENDER_TYPE, rgba ? GLX_RGBA_BIT : GLX_COLOR_INDEX_BIT);
  f.set(GLX_X_RENDERABLE, True);
  // Without GLX_DOUBLEBUFFER only single-buffered visuals are considered
  // (GLX 1.4 section 3.3.10).
  f.set(GLX_DOUBLEBUFFER, double_buffer ? True : False);
  return f;
}

bool FbConfigFilter::matches(const FbConfig& c) const {
  const int id = value_of(GLX_FBCONFIG_ID);
  if (id != kDontCare) return c.id == id;  // the other attributes are ignored
  for (const auto& r : kRules) {
    const int want = value_of(r.attribute);
    if (want == kDontCare || r.rule == Rule::kIgnore) continue;
    const int have = *fbconfig_attrib(c, r.attribute);
    switch (r.rule) {
      case Rule::kExact:
        if (have != want) return false;
        break;
      case Rule::kAtLeast:
        if (have < want) return false;
        break;
      case Rule::kMask:
        if ((have & want) != want) return false;
        break;
      case Rule::kIgnore: break;
    }
  }
  return true;
}

int FbConfigFilter::color_bits(const FbConfig& c) const {
  int bits = 0;
  for (int a : {GLX_RED_SIZE, GLX_GREEN_SIZE, GLX_BLUE_SIZE, GLX_ALPHA_SIZE}) {
    const int want = value_of(a);
    if (want != 0 && want != kDontCare) bits += *fbconfig_attrib(c, a);
  }
  return bits;
}

bool FbConfigFilter::before(const FbConfig& a, const FbConfig& b) const {
  if (color_bits(a) != color_bits(b)) return color_bits(a) > color_bits(b);
  if (a.color.buffer_size() != b.color.buffer_size()) return a.color.buffer_size() < b.color.buffer_size();
  if (a.double_buffer != b.double_buffer) return !a.double_buffer;  // single first
  if (a.color.samples != b.color.samples) return a.color.samples < b.color.samples;
  // Depth: larger first when asked for, else smallest (Mesa does the same).
  if (a.color.depth != b.color.depth)
    return value_of(GLX_DEPTH_SIZE) > 0 ? a.color.depth > b.color.depth : a.color.depth < b.color.depth;
  if (a.color.stencil != b.color.stencil) return a.color.stencil < b.color.stencil;
  return a.id < b.id;
}

std::vector<const FbConfig*> choose_fbconfigs(std::span<const FbConfig> configs,
                                              const FbConfigFilter& filter) {
  return matching_best_first(configs, filter);
}

}  // namespace icd::glx
