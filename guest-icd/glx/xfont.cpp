// glXUseXFont: one display list per glyph of an X font, each a glBitmap of
// the glyph as the X server draws it (GLX 1.4 section 3.3.11).
#include "glx/objects.h"

#include "glx/protocol.h"
#include <X11/Xutil.h>

#include <vector>

#include "glx/api.h"
#include "icd/stream.h"

namespace icd::glx {
namespace {

constexpr GLenum kCompile = 0x1300;          // GL_COMPILE
constexpr GLenum kUnpackAlignment = 0x0CF5;  // GL_UNPACK_ALIGNMENT
constexpr GLenum kUnpackRowLength = 0x0CF2;
constexpr GLenum kUnpackSkipPixels = 0x0CF4;
constexpr GLenum kUnpackSkipRows = 0x0CF3;

template <typename Fn>
Fn gl(const char* name) {
  return reinterpret_cast<Fn>(icd::gl_proc_address(name));
}

// The glyph's pixels as a GL bitmap: rows bottom-up, most significant bit
// first, byte-aligned.
std::vector<GLubyte> glyph_bits(::Display* dpy, Font font, unsigned ch, const XCharStruct& m) {
  const int w = m.rbearing - m.lbearing, h = m.ascent + m.descent;
  const int row = (w + 7) / 8;
  std::vector<GLubyte> bits(static_cast<size_t>(row) * static_cast<size_t>(h));
  Window root = DefaultRootWindow(dpy);
  Pixmap pm = XCreatePixmap(dpy, root, static_cast<unsigned>(w), static_cast<unsigned>(h), 1);
  XGCValues values{};
  values.font = font;
  values.foreground = 0;
  GC gc = XCreateGC(dpy, pm, GCFont | GCForeground, &values);
  XFillRectangle(dpy, pm, gc, 0, 0, static_cast<unsigned>(w), static_cast<unsigned>(h));
  XSetForeground(dpy, gc, 1);
  XChar2b c2{static_cast<unsigned char>(ch >> 8), static_cast<unsigned char>(ch & 0xff)};
  XDrawString16(dpy, pm, gc, -m.lbearing, m.ascent, &c2, 1);
  XImage* image = XGetImage(dpy, pm, 0, 0, static_cast<unsigned>(w), static_cast<unsigned>(h), 1, XYPixmap);
  if (image) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (XGetPixel(image, x, y)) bits[static_cast<size_t>((h - 1 - y) * row + x / 8)] |= static_cast<GLubyte>(0x80 >> (x % 8));
    XDestroyImage(image);
  }
  XFreeGC(dpy, gc);
  XFreePixmap(dpy, pm);
  return bits;
}

}  // namespace

void UseXFont(Font font, int first, int count, int list_base) {
  GlxDisplay* d = nullptr;
  {
    std::lock_guard lock(api_mutex());
    d = current().display;
  }
  Stream* s = current_stream();
  if (!d || !s) return;  // GLXBadContextState needs a display to report on
  ::Display* dpy = d->x_display();
  XFontStruct* fs = XQueryFont(dpy, font);
  if (!fs) {
    send_error(dpy, BadFont, font, X_GLXUseXFont, true);
    return;
  }
  auto new_list = gl<void (*)(GLuint, GLenum)>("glNewList");
  auto end_list = gl<void (*)()>("glEndList");
  auto bitmap = gl<void (*)(GLsizei, GLsizei, GLfloat, GLfloat, GLfloat, GLfloat, const GLubyte*)>("glBitmap");
  auto store = gl<void (*)(GLenum, GLint)>("glPixelStorei");
  // Bitmaps are byte rows: set the unpack state, then put back what the
  // application had (the guest tracks it).
  const wire::size::PixelStore saved = s->gl_state().unpack();
  store(kUnpackAlignment, 1);
  store(kUnpackRowLength, 0);
  store(kUnpackSkipPixels, 0);
  store(kUnpackSkipRows, 0);
  for (int i = 0; i < count; ++i) {
    const unsigned ch = static_cast<unsigned>(first + i);
    const unsigned byte1 = ch >> 8, byte2 = ch & 0xff;
    const bool present = byte1 >= fs->min_byte1 && byte1 <= fs->max_byte1 && byte2 >= fs->min_char_or_byte2 &&
                         byte2 <= fs->max_char_or_byte2;
    XCharStruct m = fs->max_bounds;
    if (present && fs->per_char) {
      const unsigned cols = fs->max_char_or_byte2 - fs->min_char_or_byte2 + 1;
      m = fs->per_char[(byte1 - fs->min_byte1) * cols + (byte2 - fs->min_char_or_byte2)];
    }
    new_list(static_cast<GLuint>(list_base + i), kCompile);
    const int w = m.rbearing - m.lbearing, h = m.ascent + m.descent;
    if (present && w > 0 && h > 0) {
      auto bits = glyph_bits(dpy, font, ch, m);
      bitmap(w, h, static_cast<GLfloat>(-m.lbearing), static_cast<GLfloat>(m.descent),
             static_cast<GLfloat>(m.width), 0.0f, bits.data());
    } else {
      bitmap(0, 0, 0.0f, 0.0f, present ? static_cast<GLfloat>(m.width) : 0.0f, 0.0f, nullptr);
    }
    end_list();
  }
  store(kUnpackAlignment, saved.alignment);
  store(kUnpackRowLength, saved.row_length);
  store(kUnpackSkipPixels, saved.skip_pixels);
  store(kUnpackSkipRows, saved.skip_rows);
  XFreeFontInfo(nullptr, fs, 1);
}

}  // namespace icd::glx
