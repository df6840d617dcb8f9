// GLX objects of the Conduit vendor. Contexts and configs handed to the
// application are the objects' addresses, drawables are XIDs; every entry
// point looks them up in its display's tables first, so a stale or foreign
// handle is a GLX error, never a dereference. Host surfaces and contexts
// are the EGL front's (egl/objects.h): one present path for both.
#pragma once

// The wire headers come before Xlib, whose `Status` macro would rename
// wire::Status.
#include "egl/objects.h"

#include <GL/glx.h>

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "glx/fbconfig.h"

namespace icd::glx {

struct GlxDrawable {
  enum class Kind { kWindow, kGlxWindow, kPbuffer, kPixmap };
  Kind kind = Kind::kWindow;
  GLXDrawable xid = 0;
  const FbConfig* config = nullptr;
  std::shared_ptr<Surface> surface;
  bool preserved = false;
  unsigned long event_mask = 0;
};

struct GlxContext {
  std::shared_ptr<Context> context;  // the host context and its stream
  const FbConfig* config = nullptr;  // null for GLX_ARB_create_context without one
  int screen = 0;
  int render_type = GLX_RGBA_TYPE;
  int major = 0, minor = 0;
  int profile_mask = 0;
  std::shared_ptr<GlxDrawable> draw, read;
  bool current = false;  // current on some thread
};

class GlxDisplay {
 public:
  explicit GlxDisplay(::Display* dpy);

  ::Display* x_display() const { return dpy_; }
  // Connects to the host on first use; false when it cannot be reached.
  bool connect();
  const std::shared_ptr<Connection>& connection() const { return connection_; }
  RenderCaps caps() const;

  const std::vector<FbConfig>& configs() const { return configs_; }
  const FbConfig* find_config(GLXFBConfig handle) const;
  const FbConfig* config_for_visual(VisualID visual) const;
  // Single- and double-buffered configs share the server's visuals: the
  // config glXChooseVisual picked for the XVisualInfo it returned, else the
  // first of its visual.
  void remember_chosen(const XVisualInfo* info, const FbConfig* config);
  const FbConfig* config_for(const XVisualInfo* info) const;
  GLXFBConfig handle_of(const FbConfig* c) const { return reinterpret_cast<GLXFBConfig>(const_cast<FbConfig*>(c)); }

  // The EGL display object the shared surfaces and contexts belong to.
  Display& owner() { return owner_; }

  std::map<GLXDrawable, std::shared_ptr<GlxDrawable>> drawables;
  std::map<GLXContext, std::shared_ptr<GlxContext>> contexts;

  std::shared_ptr<GlxDrawable> find_drawable(GLXDrawable xid) const;
  std::shared_ptr<GlxContext> find_context(GLXContext handle) const;
  // The drawable for `xid`: a GLX one, or a plain X window bound with
  // glXMakeCurrent (made on first use with `config`).
  std::shared_ptr<GlxDrawable> drawable_for(GLXDrawable xid, const FbConfig* config);

  // The GLX extension's numbers on the server, for errors.
  int glx_opcode() const { return glx_opcode_; }
  int glx_error_base() const { return glx_error_base_; }

 private:
  void forget_gone_windows();

  ::Display* dpy_;
  Display owner_;
  std::shared_ptr<Connection> connection_;
  std::vector<FbConfig> configs_;
  std::map<const XVisualInfo*, const FbConfig*> chosen_;
  int glx_opcode_ = 0;
  int glx_error_base_ = 0;
};

// Serializes the GLX entry points (not the GL ones).
std::mutex& api_mutex();

// The GlxDisplay of an X connection, made on first request.
GlxDisplay* get_display(::Display* dpy);

// `config` of `d` (which may be null) for request `minor_opcode`; null,
// with GLXBadFBConfig sent, when it is none of its configs.
const FbConfig* requested_config(GlxDisplay* d, ::Display* dpy, GLXFBConfig config, int minor_opcode);
// Whether a create request's attribute list is empty, as GLX 1.4 defines no
// window or pixmap attributes; sends BadValue otherwise.
bool no_attributes(::Display* dpy, const int* attribs, int minor_opcode);

// The calling thread's current GLX context.
struct Current {
  std::shared_ptr<GlxContext> context;
  GlxDisplay* display = nullptr;
};
Current& current();

// Reports a GLX (or, with `core`, a core X) protocol error to the
// application's error handler, as a server would for a GLX request.
void send_error(::Display* dpy, int code, XID resource, int minor_opcode, bool core);

}  // namespace icd::glx
