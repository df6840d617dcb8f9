// EGL images of GL objects through the guest ICD against a real host: a
// texture made in one context is read in another context, of another share
// group, through GL_OES_EGL_image; wrong images and targets get EGL's and
// GL's errors.
#include "gl_state_fixture.h"

namespace icd::egl {
namespace {

constexpr GLenum kInvalidValue = 0x0501;

using ImageTarget = void (*)(GLenum, GLeglImageOES);

class EglImage : public GlState {
 protected:
  // A 2x2 texture of `rgba` in the current context.
  GLuint make_texture(std::array<uint8_t, 4> rgba) {
    uint8_t texels[4][4];
    for (auto& t : texels) std::memcpy(t, rgba.data(), 4);
    GLuint tex = 0;
    gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(1, &tex);
    gl<void (*)(GLenum, GLuint)>("glBindTexture")(kTexture2D, tex);
    gl<void (*)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void*)>("glTexImage2D")(
        kTexture2D, 0, kRgba, 2, 2, 0, kRgba, kUbyte, texels);
    return tex;
  }

  // What a framebuffer of the current context reads from `tex`.
  std::array<uint8_t, 4> read_texture(GLuint tex) {
    GLuint fbo = 0;
    gl<void (*)(GLsizei, GLuint*)>("glGenFramebuffers")(1, &fbo);
    gl<void (*)(GLenum, GLuint)>("glBindFramebuffer")(kFramebuffer, fbo);
    gl<void (*)(GLenum, GLenum, GLenum, GLuint, GLint)>("glFramebufferTexture2D")(kFramebuffer, kColorAttachment0,
                                                                                  kTexture2D, tex, 0);
    return pixel(1, 1);
  }

  // A context of its own share group, current on the fixture's surface.
  EGLContext other_context() {
    const EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint n = 0;
    ChooseConfig(dpy_, want, &config, 1, &n);
    const EGLint version[] = {EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE};
    return CreateContext(dpy_, config, EGL_NO_CONTEXT, version);
  }
};

TEST_F(EglImage, ATextureIsSharedWithAnotherShareGroup) {
  const std::string extensions = QueryString(dpy_, EGL_EXTENSIONS);
  ASSERT_NE(extensions.find("EGL_KHR_gl_texture_2D_image"), std::string::npos) << extensions;
  GLuint source = make_texture({10, 200, 30, 255});
  const EGLint level0[] = {EGL_GL_TEXTURE_LEVEL_KHR, 0, EGL_NONE};
  EGLImageKHR image = CreateImageKHR(dpy_, context_, EGL_GL_TEXTURE_2D_KHR,
                                     reinterpret_cast<EGLClientBuffer>(uintptr_t{source}), level0);
  ASSERT_NE(image, EGL_NO_IMAGE_KHR) << std::hex << GetError();
  // The image keeps the storage after its source is gone.
  gl<void (*)(GLsizei, const GLuint*)>("glDeleteTextures")(1, &source);

  EGLContext other = other_context();
  ASSERT_TRUE(MakeCurrent(dpy_, surface_, surface_, other));
  GLuint target = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(1, &target);
  gl<void (*)(GLenum, GLuint)>("glBindTexture")(kTexture2D, target);
  gl<ImageTarget>("glEGLImageTargetTexture2DOES")(kTexture2D, image);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
  EXPECT_EQ(read_texture(target), (std::array<uint8_t, 4>{10, 200, 30, 255}));

  EXPECT_TRUE(DestroyImage(dpy_, image));
  EXPECT_FALSE(DestroyImage(dpy_, image));
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
  // A destroyed image is no image: GL's own error, nothing lost.
  gl<ImageTarget>("glEGLImageTargetTexture2DOES")(kTexture2D, image);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), kInvalidValue);
  EXPECT_EQ(read_texture(target), (std::array<uint8_t, 4>{10, 200, 30, 255}));
  ASSERT_TRUE(MakeCurrent(dpy_, surface_, surface_, context_));
  DestroyContext(dpy_, other);
}

// GL_EXT_EGL_image_storage: the texture takes the image's storage as
// immutable storage; an attribute list other than GL_NONE alone is GL's
// GL_INVALID_VALUE.
TEST_F(EglImage, ImmutableStorageFromAnImage) {
  using TexStorage = void (*)(GLenum, GLeglImageOES, const GLint*);
  constexpr GLenum kTextureImmutableFormat = 0x912F;
  ASSERT_TRUE(offers("GL_EXT_EGL_image_storage"));
  GLuint source = make_texture({40, 50, 220, 255});
  const EGLint level0[] = {EGL_GL_TEXTURE_LEVEL_KHR, 0, EGL_NONE};
  EGLImageKHR image = CreateImageKHR(dpy_, context_, EGL_GL_TEXTURE_2D_KHR,
                                     reinterpret_cast<EGLClientBuffer>(uintptr_t{source}), level0);
  ASSERT_NE(image, EGL_NO_IMAGE_KHR) << std::hex << GetError();
  GLuint target = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(1, &target);
  gl<void (*)(GLenum, GLuint)>("glBindTexture")(kTexture2D, target);
  const GLint none[] = {0};
  gl<TexStorage>("glEGLImageTargetTexStorageEXT")(kTexture2D, image, none);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), 0u);
  GLint immutable = 0;
  gl<void (*)(GLenum, GLenum, GLint*)>("glGetTexParameteriv")(kTexture2D, kTextureImmutableFormat,
                                                              &immutable);
  EXPECT_EQ(immutable, 1);
  EXPECT_EQ(read_texture(target), (std::array<uint8_t, 4>{40, 50, 220, 255}));

  GLuint other = 0;
  gl<void (*)(GLsizei, GLuint*)>("glGenTextures")(1, &other);
  gl<void (*)(GLenum, GLuint)>("glBindTexture")(kTexture2D, other);
  const GLint unknown[] = {0x1234, 1, 0};
  gl<TexStorage>("glEGLImageTargetTexStorageEXT")(kTexture2D, image, unknown);
  EXPECT_EQ(gl<GLenum (*)()>("glGetError")(), kInvalidValue);
  EXPECT_TRUE(DestroyImage(dpy_, image));
}

TEST_F(EglImage, WrongSourcesAreEglErrors) {
  GLuint tex = make_texture({1, 2, 3, 4});
  auto buffer = [](GLuint name) { return reinterpret_cast<EGLClientBuffer>(uintptr_t{name}); };
  EXPECT_EQ(CreateImageKHR(dpy_, context_, EGL_GL_TEXTURE_2D_KHR, buffer(0), nullptr), EGL_NO_IMAGE_KHR);
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
  EXPECT_EQ(CreateImageKHR(dpy_, context_, EGL_GL_TEXTURE_2D_KHR, buffer(tex + 100), nullptr), EGL_NO_IMAGE_KHR);
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
  EXPECT_EQ(CreateImageKHR(dpy_, EGL_NO_CONTEXT, EGL_GL_TEXTURE_2D_KHR, buffer(tex), nullptr), EGL_NO_IMAGE_KHR);
  EXPECT_EQ(GetError(), EGL_BAD_CONTEXT);
  const EGLint zoffset[] = {EGL_GL_TEXTURE_ZOFFSET_KHR, 1, EGL_NONE};  // 3D textures only
  EXPECT_EQ(CreateImageKHR(dpy_, context_, EGL_GL_TEXTURE_2D_KHR, buffer(tex), zoffset), EGL_NO_IMAGE_KHR);
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
  const EGLint level9[] = {EGL_GL_TEXTURE_LEVEL_KHR, 9, EGL_NONE};  // a level the texture has not
  EXPECT_EQ(CreateImageKHR(dpy_, context_, EGL_GL_TEXTURE_2D_KHR, buffer(tex), level9), EGL_NO_IMAGE_KHR);
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
  // The context carries on.
  EXPECT_EQ(read_texture(tex), (std::array<uint8_t, 4>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace icd::egl
