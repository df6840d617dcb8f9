#include "labels.h"

#include <SDL_ttf.h>
#include <fontconfig/fontconfig.h>

#include <algorithm>
#include <mutex>

namespace comp {

namespace {
constexpr size_t kMaxNameBytes = 64;
constexpr int kPointSize = 12;
constexpr int32_t kTextLeft = 6;
constexpr uint32_t kBarColour = 0x181818;
constexpr SDL_Color kTextColour{0xe0, 0xe0, 0xe0, 0xff};
constexpr const char* kFontPattern = "DejaVu Sans,sans-serif:style=Book";

// SDL_ttf keeps one FreeType library for all its fonts; FreeType wants
// opening and closing faces on it serialised.
std::mutex& ttf_mutex() {
  static std::mutex m;
  return m;
}

// Cuts at a character boundary so the label stays valid UTF-8.
std::string shortened(const std::string& s) {
  if (s.size() <= kMaxNameBytes) return s;
  size_t end = kMaxNameBytes;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xc0) == 0x80) --end;
  return s.substr(0, end) + "…";
}

std::string font_file() {
  FcConfig* config = FcInitLoadConfigAndFonts();
  if (!config) return {};
  std::string path;
  FcPattern* pattern = FcNameParse(reinterpret_cast<const FcChar8*>(kFontPattern));
  if (pattern) {
    FcConfigSubstitute(config, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result = FcResultNoMatch;
    FcPattern* match = FcFontMatch(config, pattern, &result);
    FcChar8* file = nullptr;
    if (match && FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch) {
      path = reinterpret_cast<const char*>(file);
    }
    if (match) FcPatternDestroy(match);
    FcPatternDestroy(pattern);
  }
  FcConfigDestroy(config);
  return path;
}

uint32_t blend(uint32_t under, uint32_t over, uint32_t alpha) {
  uint32_t out = 0;
  for (int shift = 0; shift < 24; shift += 8) {
    const uint32_t u = (under >> shift) & 0xff, o = (over >> shift) & 0xff;
    out |= ((u * (255 - alpha) + o * alpha + 127) / 255) << shift;
  }
  return out;
}

// Lays the rendered text (ARGB8888, coverage in alpha) onto the bar, clipped.
void draw_text(const SDL_Surface& text, int32_t width, std::vector<uint32_t>* bar) {
  const int32_t top = std::max(0, (kLabelHeight - text.h) / 2);
  const int32_t rows = std::min(text.h, kLabelHeight - top);
  const int32_t columns = std::min(text.w, width - kTextLeft);
  for (int32_t y = 0; y < rows; ++y) {
    const auto* src = reinterpret_cast<const uint32_t*>(static_cast<const uint8_t*>(text.pixels) +
                                                        y * text.pitch);
    uint32_t* dst = bar->data() + (top + y) * width + kTextLeft;
    for (int32_t x = 0; x < columns; ++x) dst[x] = blend(dst[x], src[x] & 0xffffff, src[x] >> 24);
  }
}
}  // namespace

struct LabelPainter::Font {
  TTF_Font* ttf = nullptr;
  ~Font() {
    std::lock_guard lock(ttf_mutex());
    if (ttf) TTF_CloseFont(ttf);
    TTF_Quit();
  }
};

std::string label_text(SurfaceKey key, const SurfaceLabel& label) {
  return shortened(label.program) + " (pid " + std::to_string(label.pid) + ") — " +
         shortened(label.guest) + " — surface " + std::to_string(key.surface);
}

LabelPainter::LabelPainter() = default;
LabelPainter::~LabelPainter() = default;

LabelPainter::Font* LabelPainter::font() {
  if (tried_) return font_.get();
  tried_ = true;
  const std::string path = font_file();
  if (path.empty()) return nullptr;
  std::lock_guard lock(ttf_mutex());
  if (TTF_Init() != 0) return nullptr;
  font_ = std::make_unique<Font>();  // from here on its destructor pairs the TTF_Init
  font_->ttf = TTF_OpenFont(path.c_str(), kPointSize);
  return font_.get();
}

std::vector<uint32_t> LabelPainter::render(const std::string& text, int32_t width) {
  std::vector<uint32_t> bar(static_cast<size_t>(std::max(width, 0)) * kLabelHeight, kBarColour);
  Font* f = font();
  if (!f || !f->ttf || width <= kTextLeft || text.empty()) return bar;
  std::lock_guard lock(ttf_mutex());
  SDL_Surface* rendered = TTF_RenderUTF8_Blended(f->ttf, text.c_str(), kTextColour);
  if (!rendered) return bar;
  SDL_Surface* argb = SDL_ConvertSurfaceFormat(rendered, SDL_PIXELFORMAT_ARGB8888, 0);
  SDL_FreeSurface(rendered);
  if (!argb) return bar;
  if (SDL_LockSurface(argb) == 0) {
    draw_text(*argb, width, &bar);
    SDL_UnlockSurface(argb);
  }
  SDL_FreeSurface(argb);
  return bar;
}

}  // namespace comp
