// A host that dies mid-session: EGL calls fail cleanly with
// EGL_CONTEXT_LOST, glGetError reports GL_CONTEXT_LOST, the stream stops
// sending, and nothing waits long.
#include <gtest/gtest.h>

#include <chrono>

#include "egl/api.h"
#include "egl/objects.h"
#include "host_process.h"
#include "icd/stream.h"

namespace icd::egl {
namespace {

TEST(HostLost, EglFailsCleanlyAndQuickly) {
  guesttest::HostProcess host;
  ASSERT_TRUE(host.ok()) << host.error();
  setenv("CONDUIT_HOST", host.address().c_str(), 1);
  EGLDisplay dpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  ASSERT_TRUE(Initialize(dpy, nullptr, nullptr));
  const EGLint cfg_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
  EGLConfig cfg = nullptr;
  EGLint n = 0;
  ASSERT_TRUE(ChooseConfig(dpy, cfg_attribs, &cfg, 1, &n));
  const EGLint pb[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
  EGLSurface surf = CreatePbufferSurface(dpy, cfg, pb);
  const EGLint es2[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext ctx = CreateContext(dpy, cfg, EGL_NO_CONTEXT, es2);
  ASSERT_NE(ctx, EGL_NO_CONTEXT);
  ASSERT_TRUE(MakeCurrent(dpy, surf, surf, ctx));

  host.stop(SIGKILL);
  const auto start = std::chrono::steady_clock::now();
  Stream* stream = current_stream();
  ASSERT_NE(stream, nullptr);
  EXPECT_FALSE(WaitClient());
  EXPECT_EQ(GetError(), EGL_CONTEXT_LOST);
  EXPECT_TRUE(stream->lost());
  // GL says so too: never "no error" (GL_CONTEXT_LOST), and a reset happened.
  auto get_error = reinterpret_cast<GLenum (*)()>(gl_proc_address("glGetError"));
  auto reset_status = reinterpret_cast<GLenum (*)()>(gl_proc_address("glGetGraphicsResetStatusKHR"));
  EXPECT_EQ(get_error(), 0x0507u);
  EXPECT_EQ(reset_status(), 0x8255u);  // GL_UNKNOWN_CONTEXT_RESET
  // Commands on a lost stream go nowhere and a round trip fails at once.
  stream->writer().end(stream->writer().begin(static_cast<uint32_t>(wire::ControlOp::kSync)));
  EXPECT_FALSE(stream->roundtrip());
  EXPECT_FALSE(SwapBuffers(dpy, surf));
  EXPECT_EQ(GetError(), EGL_CONTEXT_LOST);
  EXPECT_EQ(CreateContext(dpy, cfg, EGL_NO_CONTEXT, es2), EGL_NO_CONTEXT);
  EXPECT_TRUE(MakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));  // releasing always works
  EXPECT_FALSE(MakeCurrent(dpy, surf, surf, ctx));
  EXPECT_EQ(GetError(), EGL_CONTEXT_LOST);
  EXPECT_TRUE(DestroyContext(dpy, ctx));
  EXPECT_TRUE(DestroySurface(dpy, surf));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

}  // namespace
}  // namespace icd::egl
