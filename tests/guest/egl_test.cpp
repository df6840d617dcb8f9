// The EGL front against a real host: displays, configs, surfaces, contexts,
// fences and the errors the spec asks for on wrong use.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "conn/connection.h"
#include "egl/api.h"
#include "egl/objects.h"
#include "host_process.h"

namespace icd::egl {
namespace {

guesttest::HostProcess& host() {
  static guesttest::HostProcess h;
  return h;
}

class Egl : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(host().ok()) << host().error();
    setenv("CONDUIT_HOST", host().address().c_str(), 1);
    dpy_ = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
    ASSERT_NE(dpy_, EGL_NO_DISPLAY);
    ASSERT_TRUE(Initialize(dpy_, nullptr, nullptr)) << std::hex << GetError();
    ASSERT_TRUE(BindAPI(EGL_OPENGL_ES_API));
  }
  void TearDown() override { MakeCurrent(dpy_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT); }

  EGLConfig config(std::initializer_list<EGLint> extra = {}) {
    std::vector<EGLint> attribs = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT};
    attribs.insert(attribs.end(), extra);
    attribs.push_back(EGL_NONE);
    EGLConfig c = nullptr;
    EGLint n = 0;
    EXPECT_TRUE(ChooseConfig(dpy_, attribs.data(), &c, 1, &n));
    EXPECT_EQ(n, 1);
    return c;
  }
  EGLSurface pbuffer(EGLConfig c, EGLint w = 64, EGLint h = 32) {
    const EGLint attribs[] = {EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE};
    return CreatePbufferSurface(dpy_, c, attribs);
  }
  EGLContext context(EGLConfig c, EGLint major = 2) {
    const EGLint attribs[] = {EGL_CONTEXT_CLIENT_VERSION, major, EGL_NONE};
    return CreateContext(dpy_, c, EGL_NO_CONTEXT, attribs);
  }

  EGLDisplay dpy_ = EGL_NO_DISPLAY;
};

TEST_F(Egl, StringsNameConduit) {
  EXPECT_STREQ(QueryString(dpy_, EGL_VENDOR), "Conduit");
  EXPECT_STREQ(QueryString(dpy_, EGL_VERSION), "1.5 Conduit");
  EXPECT_NE(std::strstr(QueryString(dpy_, EGL_CLIENT_APIS), "OpenGL_ES"), nullptr);
  EXPECT_NE(std::strstr(QueryString(dpy_, EGL_EXTENSIONS), "EGL_KHR_create_context"), nullptr);
  EXPECT_NE(std::strstr(QueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS), "EGL_MESA_platform_surfaceless"), nullptr);
  EXPECT_EQ(QueryString(dpy_, 0x7777), nullptr);
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
}

// EGL_MESA_query_driver names the driver in the program's process.
TEST_F(Egl, DriverQueriesNameConduit) {
  EXPECT_NE(std::strstr(QueryString(dpy_, EGL_EXTENSIONS), "EGL_MESA_query_driver"), nullptr);
  EXPECT_STREQ(GetDisplayDriverName(dpy_), "conduit");
  char* config = GetDisplayDriverConfig(dpy_);
  ASSERT_NE(config, nullptr);
  EXPECT_NE(std::strstr(config, "<driinfo>"), nullptr);
  std::free(config);
  EXPECT_EQ(GetError(), EGL_SUCCESS);
  int not_a_display = 0;
  EXPECT_EQ(GetDisplayDriverName(&not_a_display), nullptr);
  EXPECT_EQ(GetError(), EGL_BAD_DISPLAY);
  EXPECT_EQ(GetDisplayDriverConfig(&not_a_display), nullptr);
  EXPECT_EQ(GetError(), EGL_BAD_DISPLAY);
}

TEST_F(Egl, BadAndUninitializedDisplays) {
  int not_a_display = 0;
  EXPECT_FALSE(Initialize(&not_a_display, nullptr, nullptr));
  EXPECT_EQ(GetError(), EGL_BAD_DISPLAY);
  EXPECT_EQ(QueryString(&not_a_display, EGL_VENDOR), nullptr);
  EXPECT_EQ(GetError(), EGL_BAD_DISPLAY);
  // A second display object, never initialized (another platform key).
  EGLDisplay other = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  EXPECT_EQ(other, dpy_);  // the same platform and native display give the same handle
  EXPECT_EQ(GetError(), EGL_SUCCESS);
  EXPECT_EQ(get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, &not_a_display, nullptr), EGL_NO_DISPLAY);
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
}

TEST_F(Egl, ConfigQueriesAndErrors) {
  EGLint count = 0;
  ASSERT_TRUE(GetConfigs(dpy_, nullptr, 0, &count));
  EXPECT_GE(count, 16);
  EXPECT_FALSE(GetConfigs(dpy_, nullptr, 0, nullptr));
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
  const EGLint bad[] = {0x7777, 0, EGL_NONE};
  EGLint n = 0;
  EXPECT_FALSE(ChooseConfig(dpy_, bad, nullptr, 0, &n));
  EXPECT_EQ(GetError(), EGL_BAD_ATTRIBUTE);

  EGLConfig c = config({EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8});
  EGLint v = 0;
  ASSERT_TRUE(GetConfigAttrib(dpy_, c, EGL_DEPTH_SIZE, &v));
  EXPECT_EQ(v, 24);
  ASSERT_TRUE(GetConfigAttrib(dpy_, c, EGL_SURFACE_TYPE, &v));
  EXPECT_EQ(v & EGL_WINDOW_BIT, 0);  // surfaceless: pbuffers only
  int not_a_config = 0;
  EXPECT_FALSE(GetConfigAttrib(dpy_, &not_a_config, EGL_DEPTH_SIZE, &v));
  EXPECT_EQ(GetError(), EGL_BAD_CONFIG);
  EXPECT_FALSE(GetConfigAttrib(dpy_, c, 0x7777, &v));
  EXPECT_EQ(GetError(), EGL_BAD_ATTRIBUTE);
}

TEST_F(Egl, PbufferContextMakeCurrentAndQueries) {
  EGLConfig c = config();
  EGLSurface s = pbuffer(c, 64, 32);
  ASSERT_NE(s, EGL_NO_SURFACE) << std::hex << GetError();
  EGLContext ctx = context(c);
  ASSERT_NE(ctx, EGL_NO_CONTEXT) << std::hex << GetError();
  ASSERT_TRUE(MakeCurrent(dpy_, s, s, ctx)) << std::hex << GetError();
  EXPECT_NE(icd::current_stream(), nullptr);

  EGLint v = 0;
  ASSERT_TRUE(QuerySurface(dpy_, s, EGL_WIDTH, &v));
  EXPECT_EQ(v, 64);
  ASSERT_TRUE(QuerySurface(dpy_, s, EGL_HEIGHT, &v));
  EXPECT_EQ(v, 32);
  EXPECT_FALSE(QuerySurface(dpy_, s, 0x7777, &v));
  EXPECT_EQ(GetError(), EGL_BAD_ATTRIBUTE);
  ASSERT_TRUE(QueryContext(dpy_, ctx, EGL_CONTEXT_CLIENT_TYPE, &v));
  EXPECT_EQ(v, EGL_OPENGL_ES_API);
  ASSERT_TRUE(QueryContext(dpy_, ctx, EGL_CONTEXT_CLIENT_VERSION, &v));
  EXPECT_EQ(v, 2);

  EXPECT_TRUE(SwapBuffers(dpy_, s));  // no effect on a pbuffer, but no error
  EXPECT_TRUE(WaitClient());          // a round trip through the host
  EXPECT_TRUE(MakeCurrent(dpy_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  EXPECT_EQ(icd::current_stream(), nullptr);
  EXPECT_TRUE(DestroyContext(dpy_, ctx));
  EXPECT_TRUE(DestroySurface(dpy_, s));
  EXPECT_FALSE(DestroySurface(dpy_, s));
  EXPECT_EQ(GetError(), EGL_BAD_SURFACE);
}

// EGL_EXT_device_*: one device, the displays' own, and a headless display on it.
TEST_F(Egl, OneDeviceWhoseDisplayRenders) {
  EGLint n = 0;
  ASSERT_TRUE(QueryDevicesEXT(0, nullptr, &n));
  EXPECT_EQ(n, 1);
  EGLDeviceEXT device = EGL_NO_DEVICE_EXT;
  ASSERT_TRUE(QueryDevicesEXT(4, &device, &n));
  EXPECT_EQ(n, 1);
  EXPECT_FALSE(QueryDevicesEXT(0, &device, &n));
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);

  EGLAttrib of_display = 0;
  ASSERT_TRUE(QueryDisplayAttribEXT(dpy_, EGL_DEVICE_EXT, &of_display));
  EXPECT_EQ(reinterpret_cast<EGLDeviceEXT>(of_display), device);
  EXPECT_FALSE(QueryDisplayAttribEXT(dpy_, 0x7777, &of_display));
  EXPECT_EQ(GetError(), EGL_BAD_ATTRIBUTE);
  EXPECT_STREQ(QueryDeviceStringEXT(device, EGL_EXTENSIONS), "");
  EXPECT_EQ(QueryDeviceStringEXT(device, EGL_VENDOR), nullptr);
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
  int not_a_device = 0;
  EXPECT_EQ(QueryDeviceStringEXT(&not_a_device, EGL_EXTENSIONS), nullptr);
  EXPECT_EQ(GetError(), EGL_BAD_DEVICE_EXT);
  EGLAttrib value = 0;
  EXPECT_FALSE(QueryDeviceAttribEXT(device, EGL_DEVICE_EXT, &value));
  EXPECT_EQ(GetError(), EGL_BAD_ATTRIBUTE);

  EXPECT_EQ(get_platform_display(EGL_PLATFORM_DEVICE_EXT, &not_a_device, nullptr), EGL_NO_DISPLAY);
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
  EGLDisplay on_device = get_platform_display(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
  ASSERT_NE(on_device, EGL_NO_DISPLAY);
  ASSERT_TRUE(Initialize(on_device, nullptr, nullptr)) << std::hex << GetError();
  const EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
  EGLConfig c = nullptr;
  ASSERT_TRUE(ChooseConfig(on_device, want, &c, 1, &n));
  ASSERT_EQ(n, 1);
  const EGLint size[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
  EGLSurface s = CreatePbufferSurface(on_device, c, size);
  const EGLint version[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext ctx = CreateContext(on_device, c, EGL_NO_CONTEXT, version);
  ASSERT_TRUE(MakeCurrent(on_device, s, s, ctx)) << std::hex << GetError();
  EXPECT_TRUE(WaitClient());  // a round trip: the host made the context current
  EXPECT_TRUE(MakeCurrent(on_device, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  EXPECT_TRUE(DestroyContext(on_device, ctx));
  EXPECT_TRUE(DestroySurface(on_device, s));
  EXPECT_TRUE(Terminate(on_device));
}

// Pbuffers bound to textures: the attributes EGL checks and the binding's errors.
TEST_F(Egl, TexturePbuffersAndTheirBindings) {
  EGLConfig c = config({EGL_BIND_TO_TEXTURE_RGBA, EGL_TRUE});
  const EGLint rgba[] = {EGL_WIDTH, 8, EGL_HEIGHT, 8, EGL_TEXTURE_FORMAT, EGL_TEXTURE_RGBA,
                         EGL_TEXTURE_TARGET, EGL_TEXTURE_2D, EGL_NONE};
  EGLSurface s = CreatePbufferSurface(dpy_, c, rgba);
  ASSERT_NE(s, EGL_NO_SURFACE) << std::hex << GetError();
  EGLint v = 0;
  ASSERT_TRUE(QuerySurface(dpy_, s, EGL_TEXTURE_FORMAT, &v));
  EXPECT_EQ(v, EGL_TEXTURE_RGBA);
  ASSERT_TRUE(QuerySurface(dpy_, s, EGL_TEXTURE_TARGET, &v));
  EXPECT_EQ(v, EGL_TEXTURE_2D);

  const EGLint no_target[] = {EGL_TEXTURE_FORMAT, EGL_TEXTURE_RGB, EGL_NONE};
  EXPECT_EQ(CreatePbufferSurface(dpy_, c, no_target), EGL_NO_SURFACE);
  EXPECT_EQ(GetError(), EGL_BAD_MATCH);
  const EGLint bad_format[] = {EGL_TEXTURE_FORMAT, 0x7777, EGL_TEXTURE_TARGET, EGL_TEXTURE_2D, EGL_NONE};
  EXPECT_EQ(CreatePbufferSurface(dpy_, c, bad_format), EGL_NO_SURFACE);
  EXPECT_EQ(GetError(), EGL_BAD_ATTRIBUTE);

  EGLSurface plain = pbuffer(c);
  EGLContext ctx = context(c);
  ASSERT_TRUE(MakeCurrent(dpy_, plain, plain, ctx)) << std::hex << GetError();
  EXPECT_FALSE(BindTexImage(dpy_, s, EGL_SINGLE_BUFFER));
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
  EXPECT_FALSE(BindTexImage(dpy_, plain, EGL_BACK_BUFFER));
  EXPECT_EQ(GetError(), EGL_BAD_MATCH);
  EXPECT_TRUE(ReleaseTexImage(dpy_, s, EGL_BACK_BUFFER));  // not bound: nothing to do
  ASSERT_TRUE(BindTexImage(dpy_, s, EGL_BACK_BUFFER)) << std::hex << GetError();
  EXPECT_FALSE(BindTexImage(dpy_, s, EGL_BACK_BUFFER));
  EXPECT_EQ(GetError(), EGL_BAD_ACCESS);
  EXPECT_TRUE(ReleaseTexImage(dpy_, s, EGL_BACK_BUFFER));
  // The host ran both without losing the context (a loss shows by the second wait).
  EXPECT_TRUE(WaitClient());
  EXPECT_TRUE(WaitClient()) << std::hex << GetError();
  EXPECT_TRUE(MakeCurrent(dpy_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  EXPECT_TRUE(DestroyContext(dpy_, ctx));
  EXPECT_TRUE(DestroySurface(dpy_, plain));
  EXPECT_TRUE(DestroySurface(dpy_, s));
}

TEST_F(Egl, MakeCurrentErrors) {
  EGLConfig c = config();
  EGLSurface s = pbuffer(c);
  EGLContext ctx = context(c);
  ASSERT_NE(ctx, EGL_NO_CONTEXT);
  EXPECT_FALSE(MakeCurrent(dpy_, s, EGL_NO_SURFACE, ctx));
  EXPECT_EQ(GetError(), EGL_BAD_MATCH);
  EXPECT_FALSE(MakeCurrent(dpy_, s, s, EGL_NO_CONTEXT));
  EXPECT_EQ(GetError(), EGL_BAD_MATCH);
  int bogus = 0;
  EXPECT_FALSE(MakeCurrent(dpy_, s, s, &bogus));
  EXPECT_EQ(GetError(), EGL_BAD_CONTEXT);
  EXPECT_FALSE(MakeCurrent(dpy_, &bogus, &bogus, ctx));
  EXPECT_EQ(GetError(), EGL_BAD_SURFACE);
  // Surfaceless (EGL_KHR_surfaceless_context) is fine.
  EXPECT_TRUE(MakeCurrent(dpy_, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
  // Swapping a surface that is not current is an error.
  EXPECT_FALSE(SwapBuffers(dpy_, s));
  EXPECT_EQ(GetError(), EGL_BAD_SURFACE);

  // A context current here cannot be made current on another thread.
  EGLint other_error = EGL_SUCCESS;
  std::thread([&] {
    MakeCurrent(dpy_, s, s, ctx);
    other_error = GetError();
  }).join();
  EXPECT_EQ(other_error, EGL_BAD_ACCESS);
  DestroyContext(dpy_, ctx);
  DestroySurface(dpy_, s);
}

TEST_F(Egl, CreateContextErrors) {
  EGLConfig c = config();
  const EGLint gles4[] = {EGL_CONTEXT_CLIENT_VERSION, 4, EGL_NONE};  // no such version
  EXPECT_EQ(CreateContext(dpy_, c, EGL_NO_CONTEXT, gles4), EGL_NO_CONTEXT);
  EXPECT_EQ(GetError(), EGL_BAD_MATCH);
  const EGLint bad[] = {0x7777, 1, EGL_NONE};
  EXPECT_EQ(CreateContext(dpy_, c, EGL_NO_CONTEXT, bad), EGL_NO_CONTEXT);
  EXPECT_EQ(GetError(), EGL_BAD_ATTRIBUTE);
  int bogus = 0;
  EXPECT_EQ(CreateContext(dpy_, &bogus, EGL_NO_CONTEXT, nullptr), EGL_NO_CONTEXT);
  EXPECT_EQ(GetError(), EGL_BAD_CONFIG);
  EXPECT_EQ(context(c) != EGL_NO_CONTEXT, true);
  const EGLint es2[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EXPECT_EQ(CreateContext(dpy_, c, &bogus, es2), EGL_NO_CONTEXT);
  EXPECT_EQ(GetError(), EGL_BAD_CONTEXT);
}

TEST_F(Egl, SharedAndDesktopContexts) {
  EGLConfig c = config();
  EGLContext first = context(c);
  ASSERT_NE(first, EGL_NO_CONTEXT);
  const EGLint es2[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext second = CreateContext(dpy_, c, first, es2);
  EXPECT_NE(second, EGL_NO_CONTEXT) << std::hex << GetError();

  auto conn = Connection::shared();
  ASSERT_TRUE(conn);
  if (conn->host().reply.max_gl_compat_version >= 21) {
    const EGLint gl_cfg[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLConfig gc = nullptr;
    EGLint n = 0;
    ASSERT_TRUE(ChooseConfig(dpy_, gl_cfg, &gc, 1, &n));
    ASSERT_TRUE(BindAPI(EGL_OPENGL_API));
    const EGLint gl21[] = {EGL_CONTEXT_MAJOR_VERSION, 2, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
    EGLContext gl = CreateContext(dpy_, gc, EGL_NO_CONTEXT, gl21);
    EXPECT_NE(gl, EGL_NO_CONTEXT) << std::hex << GetError();
    // Sharing across APIs is not allowed.
    EXPECT_EQ(CreateContext(dpy_, gc, first, gl21), EGL_NO_CONTEXT);
    EXPECT_EQ(GetError(), EGL_BAD_MATCH);
    BindAPI(EGL_OPENGL_ES_API);
    DestroyContext(dpy_, gl);
  }
  DestroyContext(dpy_, second);
  DestroyContext(dpy_, first);
}

TEST_F(Egl, FenceSyncIsARoundTrip) {
  EGLConfig c = config();
  EXPECT_EQ(CreateSync(dpy_, EGL_SYNC_FENCE, nullptr), EGL_NO_SYNC);
  EXPECT_EQ(GetError(), EGL_BAD_MATCH);  // no current context
  EGLContext ctx = context(c);
  ASSERT_TRUE(MakeCurrent(dpy_, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
  EXPECT_EQ(CreateSync(dpy_, EGL_SYNC_REUSABLE_KHR, nullptr), EGL_NO_SYNC);
  EXPECT_EQ(GetError(), EGL_BAD_ATTRIBUTE);

  auto conn = Connection::shared();
  const uint64_t before = conn->stats().round_trips;
  EGLSync sync = CreateSync(dpy_, EGL_SYNC_FENCE, nullptr);
  ASSERT_NE(sync, EGL_NO_SYNC);
  EXPECT_EQ(ClientWaitSync(dpy_, sync, EGL_SYNC_FLUSH_COMMANDS_BIT, EGL_FOREVER), EGL_CONDITION_SATISFIED);
  EXPECT_EQ(conn->stats().round_trips, before + 1);
  EGLAttrib status = 0;
  ASSERT_TRUE(GetSyncAttrib(dpy_, sync, EGL_SYNC_STATUS, &status));
  EXPECT_EQ(status, EGL_SIGNALED);
  EXPECT_EQ(conn->stats().round_trips, before + 1);  // already known
  EXPECT_TRUE(WaitSync(dpy_, sync, 0));
  EXPECT_TRUE(DestroySync(dpy_, sync));
  EXPECT_FALSE(DestroySync(dpy_, sync));
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
  MakeCurrent(dpy_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  DestroyContext(dpy_, ctx);
}

TEST_F(Egl, SurfaceErrors) {
  EGLConfig c = config();
  EXPECT_EQ(CreateWindowSurface(dpy_, c, 0x1234, nullptr), EGL_NO_SURFACE);
  EXPECT_EQ(GetError(), EGL_BAD_MATCH);  // surfaceless configs have no EGL_WINDOW_BIT
  const EGLint negative[] = {EGL_WIDTH, -1, EGL_NONE};
  EXPECT_EQ(CreatePbufferSurface(dpy_, c, negative), EGL_NO_SURFACE);
  EXPECT_EQ(GetError(), EGL_BAD_PARAMETER);
  const EGLint texture[] = {EGL_TEXTURE_FORMAT, EGL_TEXTURE_RGBA, EGL_TEXTURE_TARGET, EGL_TEXTURE_2D, EGL_NONE};
  // Multisampled configs do not bind to textures.
  EXPECT_EQ(CreatePbufferSurface(dpy_, config({EGL_SAMPLES, 4}), texture), EGL_NO_SURFACE);
  EXPECT_EQ(GetError(), EGL_BAD_ATTRIBUTE);
  EXPECT_EQ(CreatePixmapSurface(dpy_, c, 0, nullptr), EGL_NO_SURFACE);
  EXPECT_EQ(GetError(), EGL_BAD_MATCH);
  EGLSurface s = pbuffer(c);
  EXPECT_FALSE(SurfaceAttrib(dpy_, s, EGL_SWAP_BEHAVIOR, EGL_BUFFER_PRESERVED));
  EXPECT_EQ(GetError(), EGL_BAD_MATCH);
  DestroySurface(dpy_, s);
}

TEST(Connection, HandshakeReportsTheHostRenderer) {
  ASSERT_TRUE(host().ok()) << host().error();
  auto conn = Connection::open(host().address());
  ASSERT_TRUE(conn) << conn.error().describe();
  const HostInfo& info = (*conn)->host();
  EXPECT_FALSE(info.renderer.empty());
  EXPECT_GE(info.reply.max_gles_version, 20u);
  EXPECT_TRUE((*conn)->sync());
  EXPECT_EQ((*conn)->stats().round_trips, 2u);  // hello + sync
}

TEST(Connection, NoHostIsAnErrorNotAHang) {
  auto conn = Connection::open("unix:/tmp/conduit-no-such-host.sock");
  EXPECT_FALSE(conn);
}

// Programs tear EGL down from their own exit handlers (piglit does); the
// driver's per-thread and global state must still be there then.
TEST_F(Egl, ExitHandlersCanStillReleaseAndDestroy) {
  const char* exe = std::getenv("CONDUIT_EXIT_TEARDOWN");
  ASSERT_TRUE(exe && *exe) << "CONDUIT_EXIT_TEARDOWN is not set";
  const pid_t pid = fork();
  if (pid == 0) {
    execl(exe, exe, static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace icd::egl
