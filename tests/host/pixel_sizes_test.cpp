// The size functions checked against GL itself (Mesa's llvmpipe through a
// real EGL context): for every format/type pair and a grid of pixel-store
// states, GL reads and writes exactly the bytes wire::size::image_bytes
// says. Reads: a pixel buffer of that size is enough and one byte less is
// GL_INVALID_OPERATION, and client memory that ends at an inaccessible page
// is read without a fault. Writes: GL writes the last byte and nothing after
// it. Pairs the table does not know must be ones GL refuses.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <epoxy/gl.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gl/context_impl.h"
#include "gl/pixel_transfer.h"
#include "host/egl_context.h"
#include "host/egl_display.h"
#include "wire/sanitizer.h"
#include "wire/sizes.h"

namespace {

using wire::size::PixelStore;

constexpr GLenum kFormats[] = {
    GL_COLOR_INDEX, GL_STENCIL_INDEX, GL_DEPTH_COMPONENT, GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA,
    GL_RGB, GL_RGBA, GL_LUMINANCE, GL_LUMINANCE_ALPHA, GL_BGR, GL_BGRA, GL_ABGR_EXT, GL_RG,
    GL_DEPTH_STENCIL, GL_RED_INTEGER, GL_GREEN_INTEGER, GL_BLUE_INTEGER, GL_ALPHA_INTEGER,
    GL_RG_INTEGER, GL_RGB_INTEGER, GL_RGBA_INTEGER, GL_BGR_INTEGER, GL_BGRA_INTEGER,
    GL_LUMINANCE_INTEGER_EXT, GL_LUMINANCE_ALPHA_INTEGER_EXT, GL_SRGB_EXT, GL_SRGB_ALPHA_EXT,
    GL_INTENSITY, GL_YCBCR_MESA, GL_CMYK_EXT,
};
constexpr GLenum kTypes[] = {
    GL_BITMAP, GL_BYTE, GL_UNSIGNED_BYTE, GL_SHORT, GL_UNSIGNED_SHORT, GL_INT, GL_UNSIGNED_INT,
    GL_FLOAT, GL_HALF_FLOAT, GL_HALF_FLOAT_OES, GL_DOUBLE, GL_UNSIGNED_BYTE_3_3_2,
    GL_UNSIGNED_BYTE_2_3_3_REV, GL_UNSIGNED_SHORT_5_6_5, GL_UNSIGNED_SHORT_5_6_5_REV,
    GL_UNSIGNED_SHORT_4_4_4_4, GL_UNSIGNED_SHORT_4_4_4_4_REV, GL_UNSIGNED_SHORT_5_5_5_1,
    GL_UNSIGNED_SHORT_1_5_5_5_REV, GL_UNSIGNED_INT_8_8_8_8, GL_UNSIGNED_INT_8_8_8_8_REV,
    GL_UNSIGNED_INT_10_10_10_2, GL_UNSIGNED_INT_2_10_10_10_REV, GL_UNSIGNED_INT_24_8,
    GL_UNSIGNED_INT_10F_11F_11F_REV, GL_UNSIGNED_INT_5_9_9_9_REV,
    GL_FLOAT_32_UNSIGNED_INT_24_8_REV, GL_UNSIGNED_SHORT_8_8_MESA, GL_UNSIGNED_SHORT_8_8_REV_MESA,
};

bool integer_format(GLenum f) {
  switch (f) {
    case GL_RED_INTEGER: case GL_GREEN_INTEGER: case GL_BLUE_INTEGER: case GL_ALPHA_INTEGER:
    case GL_RG_INTEGER: case GL_RGB_INTEGER: case GL_RGBA_INTEGER: case GL_BGR_INTEGER:
    case GL_BGRA_INTEGER: case GL_LUMINANCE_INTEGER_EXT: case GL_LUMINANCE_ALPHA_INTEGER_EXT:
      return true;
    default:
      return false;
  }
}

// A texture internal format that takes uploads in `format`.
GLenum internal_format_for(GLenum format) {
  if (integer_format(format)) return GL_RGBA32UI;
  switch (format) {
    case GL_DEPTH_COMPONENT: return GL_DEPTH_COMPONENT32F;
    case GL_DEPTH_STENCIL: return GL_DEPTH32F_STENCIL8;
    case GL_STENCIL_INDEX: return GL_STENCIL_INDEX8;
    default: return GL_RGBA32F;
  }
}

// The pixel-store grid: alignments, row lengths, skipped rows and pixels
// (and for volumes image heights and skipped images).
std::vector<PixelStore> store_grid(int width, bool volumes) {
  std::vector<PixelStore> out;
  for (int32_t alignment : {1, 2, 4, 8}) {
    for (int32_t row_length : {0, width + 3}) {
      for (int32_t skip_rows : {0, 2}) {
        for (int32_t skip_pixels : {0, 3}) {
          PixelStore s{alignment, row_length, 0, skip_pixels, skip_rows, 0};
          if (!volumes) {
            out.push_back(s);
            continue;
          }
          for (int32_t image_height : {0, 7}) {
            for (int32_t skip_images : {0, 1}) {
              s.image_height = image_height;
              s.skip_images = skip_images;
              out.push_back(s);
            }
          }
        }
      }
    }
  }
  return out;
}

void apply(const PixelStore& s, bool pack) {
  glPixelStorei(pack ? GL_PACK_ALIGNMENT : GL_UNPACK_ALIGNMENT, s.alignment);
  glPixelStorei(pack ? GL_PACK_ROW_LENGTH : GL_UNPACK_ROW_LENGTH, s.row_length);
  glPixelStorei(pack ? GL_PACK_SKIP_ROWS : GL_UNPACK_SKIP_ROWS, s.skip_rows);
  glPixelStorei(pack ? GL_PACK_SKIP_PIXELS : GL_UNPACK_SKIP_PIXELS, s.skip_pixels);
  glPixelStorei(pack ? GL_PACK_IMAGE_HEIGHT : GL_UNPACK_IMAGE_HEIGHT, s.image_height);
  glPixelStorei(pack ? GL_PACK_SKIP_IMAGES : GL_UNPACK_SKIP_IMAGES, s.skip_images);
}

GLenum drain_errors() {
  GLenum first = glGetError();
  while (glGetError() != GL_NO_ERROR) {
  }
  return first;
}

std::string describe(GLenum format, GLenum type, const PixelStore& s) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "format 0x%04X type 0x%04X align %d row %d skip rows %d pixels %d "
                "image height %d skip images %d", format, type, s.alignment, s.row_length,
                s.skip_rows, s.skip_pixels, s.image_height, s.skip_images);
  return buf;
}

// `bytes` of client memory that end where an inaccessible page begins.
class GuardedBytes {
 public:
  explicit GuardedBytes(size_t bytes) : page_(static_cast<size_t>(sysconf(_SC_PAGESIZE))) {
    readable_ = (bytes + page_ - 1) / page_ * page_ + page_;
    map_ = mmap(nullptr, readable_ + page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                -1, 0);
    mprotect(static_cast<char*>(map_) + readable_, page_, PROT_NONE);
    data_ = static_cast<unsigned char*>(map_) + readable_ - bytes;
    std::memset(data_, 0x5A, bytes);
  }
  ~GuardedBytes() { munmap(map_, readable_ + page_); }
  const void* data() const { return data_; }

 private:
  size_t page_, readable_ = 0;
  void* map_ = nullptr;
  unsigned char* data_ = nullptr;
};

class PixelSizes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    host::DisplayOptions opts;
    opts.platform = host::PlatformKind::kSurfaceless;
    auto d = host::EglDisplay::open(opts);
    if (!d) return;
    display_ = d->release();
    host::ContextRequest req{wire::Api::kGl, 3, 0, wire::Profile::kNone, 0};
    auto ctx = host::create_egl_context(*display_, req, EGL_NO_CONTEXT);
    if (!ctx) return;
    context_ = *ctx;
    if (!host::make_current(display_->handle(), wire::Api::kGl, context_, EGL_NO_SURFACE,
                            EGL_NO_SURFACE)) {
      return;
    }
    GLuint fbo = 0, rb[2] = {};
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 64, 64);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, 64, 64);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
    glGenBuffers(1, &buffer_);
    ready_ = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  }
  static void TearDownTestSuite() {
    if (context_ != EGL_NO_CONTEXT) {
      eglMakeCurrent(display_->handle(), EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglDestroyContext(display_->handle(), context_);
    }
    delete display_;
  }
  void SetUp() override {
#if CONDUIT_ASAN
    // The grid drives llvmpipe's JIT-compiled pixel paths, which the
    // sanitizer does not see: a write of theirs past one of its heap blocks
    // shows only as a corrupt block header much later, with no stack to
    // follow. The normal build checks client memory with guard pages.
    GTEST_SKIP() << "llvmpipe's pixel paths are not instrumented";
#endif
    ASSERT_TRUE(ready_) << "no desktop GL context with a framebuffer";
  }

  // Runs `op` reading from (or writing to) offset 0 of a bound pixel buffer
  // of `bytes`; GL's first error.
  static GLenum through_buffer(GLenum target, size_t bytes, void (*op)(const void*, void*),
                               void* ctx) {
    glBindBuffer(target, buffer_);
    glBufferData(target, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_COPY);
    drain_errors();
    op(nullptr, ctx);
    const GLenum error = drain_errors();
    glBindBuffer(target, 0);
    return error;
  }

  static host::EglDisplay* display_;
  static EGLContext context_;
  static GLuint buffer_;
  static bool ready_;
};
host::EglDisplay* PixelSizes::display_ = nullptr;
EGLContext PixelSizes::context_ = EGL_NO_CONTEXT;
GLuint PixelSizes::buffer_ = 0;
bool PixelSizes::ready_ = false;

struct Upload {
  int dims;
  GLenum format, type;
  GLsizei width, height, depth;
};

// The uploads GL offers for a pair: glDrawPixels, and glTexImage2D/3D into
// a texture whose internal format takes that format.
void draw_pixels(const void* pixels, void* u) {
  auto* up = static_cast<Upload*>(u);
  glDrawPixels(up->width, up->height, up->format, up->type, pixels);
}
void tex_image(const void* pixels, void* u) {
  auto* up = static_cast<Upload*>(u);
  const auto internal = static_cast<GLint>(internal_format_for(up->format));
  if (up->dims == 3) {
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, internal, up->width, up->height, up->depth, 0,
                 up->format, up->type, pixels);
  } else {
    glTexImage2D(GL_TEXTURE_2D, 0, internal, up->width, up->height, 0, up->format, up->type,
                 pixels);
  }
}

using Run = GLenum (*)(GLenum, size_t, void (*)(const void*, void*), void*);

// What a transfer of `t` (by `op`) through a pixel buffer at `target` shows.
struct Sized {
  bool gl_takes = false;        // with room to spare
  std::optional<size_t> bytes;  // what the host sizes; GL takes exactly that
  std::string what;             // the pair and store, for messages
};

template <typename Transfer>
Sized sized_through_buffer(GLenum target, void (*op)(const void*, void*), Transfer& t,
                           const PixelStore& store, Run run) {
  Sized sized;
  const auto ours =
      wire::size::image_bytes(store, t.dims, t.format, t.type, t.width, t.height, t.depth);
  const size_t roomy = (ours ? *ours : 0) + (1u << 16);
  if (run(target, roomy, op, &t) != GL_NO_ERROR) return sized;
  sized.gl_takes = true;
  sized.what = describe(t.format, t.type, store);
  EXPECT_TRUE(ours.has_value()) << "GL takes a pair the host cannot size: " << sized.what;
  if (ours) {
    EXPECT_EQ(run(target, *ours, op, &t), GLenum(GL_NO_ERROR)) << sized.what;
  }
  sized.bytes = ours;
  return sized;
}

// Checks one upload of a pair GL takes; false when GL refuses the pair.
bool check_upload(void (*op)(const void*, void*), Upload& up, const PixelStore& store, Run run) {
  // Refused by the host on purpose (sizes.cpp): llvmpipe prints per pixel
  // for stencil bitmaps, and reads colour indices from a pixel buffer past
  // its end.
  if (up.format == GL_STENCIL_INDEX && up.type == GL_BITMAP) return false;
  if (!wire::size::drawable_from_buffer(up.format)) return false;
  apply(store, false);
  const Sized sized = sized_through_buffer(GL_PIXEL_UNPACK_BUFFER, op, up, store, run);
  if (!sized.bytes) return sized.gl_takes;
  const size_t ours = *sized.bytes;
  const std::string& what = sized.what;
  // Mesa checks 1-bit images only up to their last whole byte.
  if (up.type != GL_BITMAP) {
    EXPECT_EQ(run(GL_PIXEL_UNPACK_BUFFER, ours - 1, op, &up), GLenum(GL_INVALID_OPERATION)) << what;
  }
  GuardedBytes client(ours);
  op(client.data(), &up);  // reads past `ours` fault
  EXPECT_EQ(drain_errors(), GLenum(GL_NO_ERROR)) << what;
  return true;
}

TEST_F(PixelSizes, UploadsReadExactlyTheSizedBytes) {
  GLuint tex[2] = {};
  glGenTextures(2, tex);
  glBindTexture(GL_TEXTURE_2D, tex[0]);
  glBindTexture(GL_TEXTURE_2D_ARRAY, tex[1]);
  const auto flat = store_grid(5, false), volume = store_grid(3, true);
  size_t taken = 0;
  for (GLenum format : kFormats) {
    for (GLenum type : kTypes) {
      // Whether GL takes a pair does not depend on the pixel store: the
      // grid runs only where the default state is taken.
      bool gl_takes = false;
      for (auto [op, dims] : {std::pair{&draw_pixels, 2}, {&tex_image, 2}, {&tex_image, 3}}) {
        Upload up{dims, format, type, dims == 3 ? 3 : 5, dims == 3 ? 2 : 3, dims == 3 ? 2 : 1};
        if (!check_upload(op, up, PixelStore{}, through_buffer)) continue;
        gl_takes = true;
        for (const PixelStore& store : dims == 3 ? volume : flat) {
          check_upload(op, up, store, through_buffer);
        }
      }
      taken += gl_takes;
    }
  }
  apply(PixelStore{}, false);
  glDeleteTextures(2, tex);
  // Sanity: the probes reached GL's real paths for many pairs.
  EXPECT_GT(taken, 100u);
}

struct Readback {
  int dims;
  GLenum format, type;
  GLsizei width, height, depth;
  GLenum texture_target;  // 0: glReadPixels
};

void pack_op(void* out, const Readback& rb) {
  if (rb.texture_target == 0) {
    glReadPixels(0, 0, rb.width, rb.height, rb.format, rb.type, out);
  } else {
    glGetTexImage(rb.texture_target, 0, rb.format, rb.type, out);
  }
}

void pack_through_buffer(const void*, void* r) { pack_op(nullptr, *static_cast<Readback*>(r)); }

// Checks one read-back of a pair GL takes; false when GL refuses the pair.
bool check_readback(Readback& rb, const PixelStore& store, Run run) {
  // Color index read-backs: llvmpipe crashes or writes past the image; the
  // host refuses them (wire::size::readable_pixels). Stencil bitmaps print.
  if (rb.texture_target == 0 && !wire::size::readable_pixels(rb.format, rb.type)) return false;
  if (rb.format == GL_COLOR_INDEX || rb.type == GL_BITMAP) return false;
  apply(store, true);
  const Sized sized =
      sized_through_buffer(GL_PIXEL_PACK_BUFFER, pack_through_buffer, rb, store, run);
  if (!sized.bytes) return sized.gl_takes;
  const size_t ours = *sized.bytes;
  const std::string& what = sized.what;
  EXPECT_EQ(run(GL_PIXEL_PACK_BUFFER, ours - 1, pack_through_buffer, &rb),
            GLenum(GL_INVALID_OPERATION))
      << what;
  // Into client memory: the last byte is GL's, the canaries after it are not.
  constexpr size_t kCanary = 64;
  bool last_written = false;
  for (unsigned char fill : {0xA5, 0x5A}) {
    std::vector<unsigned char> out(ours + kCanary, fill);
    pack_op(out.data(), rb);
    EXPECT_EQ(drain_errors(), GLenum(GL_NO_ERROR)) << what;
    last_written |= out[ours - 1] != fill;
    for (size_t i = out.size(); i > ours; --i) {
      if (out[i - 1] != fill) {
        ADD_FAILURE() << "GL wrote up to byte " << i - 1 << ", past " << ours << ": " << what;
        break;
      }
    }
  }
  // llvmpipe writes less than a texture's stencil indices take (never more).
  const bool texture_stencil = rb.texture_target != 0 && rb.format == GL_STENCIL_INDEX;
  EXPECT_TRUE(last_written || texture_stencil) << what;
  return true;
}

TEST_F(PixelSizes, ReadbacksWriteExactlyTheSizedBytes) {
  // Textures to read back: float, integer, depth, depth-stencil, a volume.
  GLuint tex[5] = {};
  glGenTextures(5, tex);
  const std::vector<float> zeros(6 * 4 * 3 * 4, 0.25f);
  glBindTexture(GL_TEXTURE_1D, tex[0]);
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA32F, 5, 0, GL_RGBA, GL_FLOAT, zeros.data());
  glBindTexture(GL_TEXTURE_RECTANGLE, tex[1]);
  glTexImage2D(GL_TEXTURE_RECTANGLE, 0, GL_RGBA32UI, 5, 3, 0, GL_RGBA_INTEGER, GL_UNSIGNED_INT,
               zeros.data());
  glBindTexture(GL_TEXTURE_2D, tex[2]);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH32F_STENCIL8, 5, 3, 0, GL_DEPTH_STENCIL,
               GL_FLOAT_32_UNSIGNED_INT_24_8_REV, nullptr);
  glBindTexture(GL_TEXTURE_3D, tex[3]);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA32F, 3, 2, 2, 0, GL_RGBA, GL_FLOAT, zeros.data());
  glClearColor(0.3f, 0.6f, 0.9f, 1.0f);
  glClearDepth(0.5);
  glClearStencil(0x35);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  drain_errors();
  const auto flat = store_grid(5, false), volume = store_grid(3, true);
  const Readback kinds[] = {
      {2, 0, 0, 5, 3, 1, 0},  // glReadPixels
      {1, 0, 0, 5, 1, 1, GL_TEXTURE_1D},
      {2, 0, 0, 5, 3, 1, GL_TEXTURE_RECTANGLE},
      {2, 0, 0, 5, 3, 1, GL_TEXTURE_2D},
      {3, 0, 0, 3, 2, 2, GL_TEXTURE_3D},
  };
  size_t taken = 0;
  for (GLenum format : kFormats) {
    for (GLenum type : kTypes) {
      bool gl_takes = false;
      for (Readback rb : kinds) {
        rb.format = format;
        rb.type = type;
        if (!check_readback(rb, PixelStore{}, PixelSizes::through_buffer)) continue;
        gl_takes = true;
        for (const PixelStore& store : rb.dims == 3 ? volume : flat) {
          check_readback(rb, store, PixelSizes::through_buffer);
        }
      }
      taken += gl_takes;
    }
  }
  apply(PixelStore{}, true);
  glDeleteTextures(5, tex);
  EXPECT_GT(taken, 60u);
}

TEST_F(PixelSizes, StipplesAndBitmapsFollowThePixelStore) {
  for (const PixelStore& store : store_grid(32, false)) {
    const std::string what = describe(GL_COLOR_INDEX, GL_BITMAP, store);
    apply(store, false);
    const size_t stipple = *wire::size::image_bytes(store, 2, wire::size::kColorIndex,
                                                    wire::size::kBitmap, 32, 32, 1);
    GuardedBytes in(stipple);
    glPolygonStipple(static_cast<const GLubyte*>(in.data()));  // reads past it fault
    const size_t bitmap = *wire::size::image_bytes(store, 2, wire::size::kColorIndex,
                                                   wire::size::kBitmap, 13, 5, 1);
    GuardedBytes glyph(bitmap);
    glBitmap(13, 5, 0, 0, 0, 0, static_cast<const GLubyte*>(glyph.data()));
    EXPECT_EQ(drain_errors(), GLenum(GL_NO_ERROR)) << what;

    apply(store, true);
    const size_t packed = *wire::size::image_bytes(store, 2, wire::size::kColorIndex,
                                                   wire::size::kBitmap, 32, 32, 1);
    std::vector<unsigned char> out(packed + 64, 0xA5);
    glGetPolygonStipple(out.data());
    EXPECT_EQ(drain_errors(), GLenum(GL_NO_ERROR)) << what;
    for (size_t i = packed; i < out.size(); ++i) {
      ASSERT_EQ(out[i], 0xA5) << "GL wrote byte " << i << " past " << packed << ": " << what;
    }
  }
  apply(PixelStore{}, false);
  apply(PixelStore{}, true);
}

TEST_F(PixelSizes, IndicesReadAreCountTimesTheirSize) {
  for (GLenum type : {GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT, GL_UNSIGNED_INT}) {
    const size_t bytes = wire::size::index_bytes(7, type);
    GuardedBytes indices(bytes);
    // A vertex array of nothing: GL still reads the indices (no fault past them).
    GLuint vao = 0, ebo = 0;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes), indices.data(),
                 GL_STATIC_DRAW);
    glDrawElementsInstancedBaseInstance(GL_POINTS, 7, type, nullptr, 1, 0);
    EXPECT_EQ(drain_errors(), GLenum(GL_NO_ERROR));
    glDeleteBuffers(1, &ebo);
    glBindVertexArray(0);
    glDeleteVertexArrays(1, &vao);
  }
}

// The host's own view of the pixel-store state is GL's: what glPixelStoref
// set, what GL refused, what glPopClientAttrib put back.
TEST_F(PixelSizes, TheHostAsksGlForThePixelStore) {
  host::ResourceAccount account;
  host::GlContextState::Impl st(host::GlContextState::new_share_group(), account, false);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 7);
  glPixelStoref(GL_UNPACK_ROW_LENGTH, 63.6f);
  EXPECT_EQ(host::gl_pixel_store(st, false, 3).row_length, 64);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, -5);  // GL_INVALID_VALUE
  EXPECT_EQ(drain_errors(), GLenum(GL_INVALID_VALUE));
  EXPECT_EQ(host::gl_pixel_store(st, false, 3).row_length, 64);
  glPushClientAttrib(GL_CLIENT_PIXEL_STORE_BIT);
  glPixelStorei(GL_PACK_SKIP_ROWS, 9);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  EXPECT_EQ(host::gl_pixel_store(st, true, 3).skip_rows, 9);
  glPopClientAttrib();
  EXPECT_EQ(host::gl_pixel_store(st, true, 3).skip_rows, 0);
  EXPECT_EQ(host::gl_pixel_store(st, false, 3).row_length, 64);
  EXPECT_EQ(drain_errors(), GLenum(GL_NO_ERROR)) << "asking raised an error";
  apply(PixelStore{}, false);
  // What asking costs, once per transfer (docs/host.md): images, and
  // volumes with their image height and skipped images.
  for (int dims : {2, 3}) {
    constexpr int kRounds = 100000;
    const auto start = std::chrono::steady_clock::now();
    int32_t sum = 0;
    for (int i = 0; i < kRounds; ++i) sum += host::gl_pixel_store(st, i % 2 == 0, dims).alignment;
    const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(sum, 4 * kRounds);
    std::printf("asking GL for the pixel-store state of %dD images: %.0f ns\n", dims,
                took.count() / kRounds);
  }
}

}  // namespace
