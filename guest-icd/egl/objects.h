// EGL objects of the Conduit vendor. Handles given to the application are
// the objects' addresses, but every entry point looks a handle up in its
// display's tables before using it, so a stale or foreign handle is an EGL
// error, never a dereference.
#pragma once

// The wire headers come before Xlib, whose `Status` macro would rename
// wire::Status.
#include "conn/connection.h"
#include "gl/context_stream.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <X11/Xlib.h>

#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <vector>

#include "egl/config.h"
#include "egl/error.h"
#include "x11/presenter.h"

namespace icd {

class Display;

// What a display's table holds for `handle` (EGL's and GLX's alike), or
// null: a stale or foreign handle is an error, never a dereference.
template <typename Table>
typename Table::mapped_type find_handle(const Table& table, const typename Table::key_type& handle) {
  auto it = table.find(handle);
  return it == table.end() ? nullptr : it->second;
}

class Surface final : public FrameSink {
 public:
  // `double_buffered`: whether a window has a back buffer (GLX visuals may
  // not); `colorspace`: EGL_GL_COLORSPACE_SRGB for surfaces GL writes
  // sRGB-encoded colours into.
  // `texture`: a pbuffer's wire::kSurfaceTexture* and kSurfaceMipmapTexture.
  Surface(std::shared_ptr<Connection> connection, const Config& config, EGLint type, int width,
          int height, bool double_buffered = true, EGLint colorspace = EGL_GL_COLORSPACE_LINEAR,
          uint32_t texture = 0);
  ~Surface();
  Surface(const Surface&) = delete;
  Surface& operator=(const Surface&) = delete;

  uint32_t id() const { return id_; }
  EGLint type() const { return type_; }
  const Config& config() const { return config_; }
  int width() const { return width_; }
  int height() const { return height_; }
  EGLint colorspace() const { return colorspace_; }
  // EGL_TEXTURE_FORMAT: EGL_TEXTURE_RGB(A) for a pbuffer that binds to textures.
  EGLint texture_format() const;
  bool mipmap_texture() const { return texture_ & wire::kSurfaceMipmapTexture; }

  // Window surfaces: the X window frames go to, through `presenter`.
  void attach_window(Window window, std::unique_ptr<Presenter> presenter);
  Window window() const { return window_; }
  // Asks the window's size; true when it changed (the host must follow).
  bool poll_window_size();
  // poll_window_size(), and the change written for the host to follow.
  void follow_window_size(wire::Writer& w);
  // The window's size now, for queries: what the host has is left alone,
  // so that the next poll still sees the change and sends it (without a
  // window, or when the server cannot tell, the surface's own size).
  void current_window_size(int* width, int* height) const;
  // Whether the X window still exists, asked on the presenter's own
  // connection so that the program's error handler sees nothing of it.
  // Without a presenter that could reach the server: not known, true.
  bool window_exists() const;
  // eglCopyBuffers' presenter for `pixmap`, named on the program's
  // connection `app`: kept while the program copies into the same pixmap,
  // so a copy a frame does not open an X connection a frame.
  Presenter& copy_target(::Display* app, Pixmap pixmap);

  // eglSwapBuffers on a window surface, `stream` being the current context's.
  bool swap(ContextStream& stream);

  // A finished frame from the host: straight into the window.
  void on_frame(const wire::Frame& frame, std::span<const std::byte> pixels) override;
  void on_input(const wire::Input& input) override;

  EGLint swap_interval = 1;
  bool largest_pbuffer = false;
  EGLint mipmap_level = 0;        // EGL_MIPMAP_LEVEL
  bool bound_to_texture = false;  // between eglBindTexImage and eglReleaseTexImage
  EGLint swap_behavior = EGL_BUFFER_DESTROYED;
  // The context this surface is current with, for EGL_BAD_ACCESS checks.
  const void* bound_context = nullptr;

 private:
  std::shared_ptr<Connection> connection_;
  uint32_t id_;
  Config config_;
  EGLint type_;
  EGLint colorspace_;
  uint32_t texture_;
  int width_;
  int height_;
  Window window_ = 0;
  std::unique_ptr<Presenter> presenter_;
  Pixmap copy_pixmap_ = 0;
  std::unique_ptr<Presenter> copy_presenter_;
  uint32_t next_frame_ = 1;
  std::atomic<uint32_t> last_received_{0};
  uint64_t round_trips_at_swap_ = 0;
};

class Context {
 public:
  // The context the host made for `request`.
  Context(Display& display, std::shared_ptr<Connection> connection, const wire::CreateContext& request,
          const Config* config);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  uint32_t id() const { return stream_.context_id(); }
  ContextStream& stream() { return stream_; }
  EGLenum api() const { return api_; }
  int major() const { return major_; }
  const Config* config() const { return has_config_ ? &config_ : nullptr; }
  Display& display() { return display_; }

  // Surfaces bound by eglMakeCurrent; they stay alive while bound.
  std::shared_ptr<Surface> draw, read;
  bool current = false;  // current on some thread

 private:
  Display& display_;
  std::shared_ptr<Connection> connection_;
  Config config_;
  bool has_config_;
  EGLenum api_;
  int major_;
  ContextStream stream_;
};

// What the host answered a CreateContext: made, refused (a version or
// profile it cannot make), or nothing (it could not be asked, or is gone).
enum class HostAnswer { kMade, kRefused, kNoAnswer };
// Asks the host to make the context `request` describes, and waits for it.
HostAnswer make_on_host(Connection& connection, const wire::CreateContext& request);

// A fence: signalled once the host ran every command sent before it.
struct Sync {
  EGLenum type = EGL_SYNC_FENCE;
  bool signaled = false;
};

class Display {
 public:
  Display(EGLenum platform, void* native);
  ~Display();

  EGLenum platform() const { return platform_; }
  void* native() const { return native_; }
  ::Display* x_display() const { return x_display_; }

  // eglInitialize / eglTerminate; the caller holds api_mutex().
  EGLint initialize();
  void terminate();
  bool initialized() const { return initialized_; }
  const std::shared_ptr<Connection>& connection() const { return connection_; }
  // Whether the host offers `feature` (wire::kFeature*); once initialized.
  bool host_offers(uint32_t feature) const { return connection_ && (connection_->host().reply.features & feature); }
  bool offers_srgb() const { return host_offers(wire::kFeatureSrgbSurfaces); }

  const std::vector<Config>& configs() const { return configs_; }
  const Config* find_config(EGLConfig handle) const;
  EGLConfig handle_of(const Config* config) const { return const_cast<Config*>(config); }

  std::map<const void*, std::shared_ptr<Surface>> surfaces;
  std::map<const void*, std::shared_ptr<Context>> contexts;
  std::map<const void*, std::unique_ptr<Sync>> syncs;
  std::set<const void*> images;  // EGLImage handles: the images' ids

  std::shared_ptr<Surface> find_surface(EGLSurface handle) const;
  std::shared_ptr<Context> find_context(EGLContext handle) const;
  Sync* find_sync(EGLSync handle) const;

 private:
  bool open_x_display();

  EGLenum platform_;
  void* native_;
  ::Display* x_display_ = nullptr;
  bool owns_x_display_ = false;
  bool initialized_ = false;
  std::shared_ptr<Connection> connection_;
  std::vector<Config> configs_;
};

// Serializes the EGL entry points (not the GL ones).
std::mutex& api_mutex();

// Returns the display for (platform, native), made on first request; the
// object lives as long as the process, as EGLDisplay handles must.
Display* get_display(EGLenum platform, void* native);
// The display behind a handle, or null when it is not one of ours.
Display* find_display(EGLDisplay handle);
// The same for a display that must be initialized; null, with the EGL
// error set, when it is not one of ours or not initialized.
Display* initialized_display(EGLDisplay handle);

// The TrueColor 8-bit-per-channel visuals of `x_display`'s default screen,
// its default visual first, which EGL's and GLX's configs carry; none
// without an X display (surfaceless).
std::vector<VisualInfo> true_color_visuals(::Display* x_display);

// eglDestroyContext, eglDestroySurface and eglDestroySync: `handle` leaves
// `table` of an initialized `dpy`; when it is not there, `bad_handle`.
template <typename Table, typename Handle>
EGLBoolean destroy_handle(EGLDisplay dpy, Table Display::*table, Handle handle, EGLint bad_handle) {
  std::lock_guard lock(api_mutex());
  Display* d = initialized_display(dpy);
  if (!d) return EGL_FALSE;
  if (!(d->*table).erase(handle)) return fail(bad_handle, EGL_FALSE);
  return ok();
}

// The calling thread's current EGL state.
struct CurrentState {
  std::shared_ptr<Context> context;
  Display* display = nullptr;
};
CurrentState& current_state();

// Lets the calling thread's current context (EGL's `CurrentState` or GLX's
// `Current`) go of its surfaces and of the thread; its commands went first.
template <typename Current>
void clear_current(Current& cur) {
  cur.context->draw.reset();
  cur.context->read.reset();
  cur.context->current = false;
  cur.context.reset();
  cur.display = nullptr;
  set_current_stream(nullptr);
}

// `surface` of an initialized `dpy` that the calling thread's context draws
// into, with that context; sets the EGL error and gives nulls otherwise.
// The caller holds api_mutex().
struct DrawnSurface {
  Display* display = nullptr;
  std::shared_ptr<Surface> surface;
  std::shared_ptr<Context> context;
};
DrawnSurface current_draw_surface(EGLDisplay dpy, EGLSurface surface);

}  // namespace icd
