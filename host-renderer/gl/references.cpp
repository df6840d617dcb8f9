#include "gl/references.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <vector>

#include "gl/client_arrays.h"
#include "gl/legacy_arrays.h"

namespace host {
namespace {

GLint get(GLenum pname) {
  GLint v = 0;
  glGetIntegerv(pname, &v);
  return v;
}

GLint get_indexed(GLenum pname, GLuint index) {
  GLint v = 0;
  glGetIntegeri_v(pname, index, &v);
  return v;
}

// An implementation limit, bounded so a driver's answer cannot make a scan long.
GLuint limit(GLenum pname, GLint most) { return static_cast<GLuint>(std::clamp(get(pname), 0, most)); }

class Scan {
 public:
  Scan(GlContextState::Impl& st, ObjectReferences& refs) : st_(st), refs_(refs) {}

  bool run() {
    vertex_arrays();
    framebuffers();
    texture_units();
    buffer_bindings();
    add(ObjectType::kRenderbuffer, get(GL_RENDERBUFFER_BINDING));
    return transform_feedbacks();
  }

 private:
  // Whether the context has what desktop GL `desktop` or GLES `es` brought
  // (major*10+minor; 0: never).
  bool has(int desktop, int es) const {
    const int needed = st_.gles ? es : desktop;
    return needed != 0 && st_.version() >= needed;
  }
  void add(ObjectType kind, GLint name) {
    if (name > 0) refs_.add(kind, static_cast<GLuint>(name));
  }
  std::vector<GLuint> local(ObjectType kind) {
    std::vector<GLuint> out;
    for (const auto& [guest, host] : st_.local.names(kind).entries()) out.push_back(host);
    return out;
  }

  void vertex_arrays() {
    const bool oes = st_.gles && !has(0, 30);
    if (!has(30, 30) && !(oes && epoxy_has_gl_extension("GL_OES_vertex_array_object"))) {
      current_vertex_array();
      return;
    }
    auto bind = [oes](GLuint v) { oes ? glBindVertexArrayOES(v) : glBindVertexArray(v); };
    std::vector<GLuint> arrays = local(ObjectType::kVertexArray);
    // The default vertex array exists outside core profiles.
    if (st_.gles || st_.has_fixed_function_arrays()) arrays.push_back(0);
    const GLint saved = get(GL_VERTEX_ARRAY_BINDING);
    for (GLuint v : arrays) {
      bind(v);
      current_vertex_array();
    }
    bind(static_cast<GLuint>(saved));
  }

  void current_vertex_array() {
    add(ObjectType::kBuffer, get(GL_ELEMENT_ARRAY_BUFFER_BINDING));
    if (has(43, 31)) {
      // Attributes read from binding points, which hold their buffer even
      // when no attribute reads from them.
      for (GLuint i = 0; i < limit(GL_MAX_VERTEX_ATTRIB_BINDINGS, 64); ++i) {
        add(ObjectType::kBuffer, get_indexed(GL_VERTEX_BINDING_BUFFER, i));
      }
    } else {
      for (GLuint b : attribute_buffers(st_)) add(ObjectType::kBuffer, static_cast<GLint>(b));
    }
    for (const LegacyArrayBuffer& a : legacy_array_buffers(st_)) {
      add(ObjectType::kBuffer, static_cast<GLint>(a.buffer));
    }
  }

  void framebuffers() {
    const std::vector<GLuint> fbos = local(ObjectType::kFramebuffer);
    if (fbos.empty()) return;
    // Only the read binding moves where draw and read are apart.
    const bool apart = has(30, 30);
    const GLenum target = apart ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
    const GLint saved = get(apart ? GL_READ_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING);
    const bool many = apart || epoxy_has_gl_extension("GL_EXT_draw_buffers");
    std::vector<GLenum> attachments{GL_DEPTH_ATTACHMENT, GL_STENCIL_ATTACHMENT};
    for (GLuint i = 0; i < (many ? limit(GL_MAX_COLOR_ATTACHMENTS, 32) : 1); ++i) {
      attachments.push_back(GL_COLOR_ATTACHMENT0 + i);
    }
    // OpenGL ES 1.x has framebuffers through GL_OES_framebuffer_object only.
    const bool oes = st_.gles1();
    auto bind = [oes](GLenum t, GLuint f) { oes ? glBindFramebufferOES(t, f) : glBindFramebuffer(t, f); };
    for (GLuint fbo : fbos) {
      bind(target, fbo);
      for (GLenum a : attachments) attachment(target, a, oes);
    }
    bind(target, static_cast<GLuint>(saved));
  }

  void attachment(GLenum target, GLenum a, bool oes) {
    auto query = oes ? glGetFramebufferAttachmentParameterivOES : glGetFramebufferAttachmentParameteriv;
    GLint type = GL_NONE, name = 0;
    query(target, a, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type != GL_TEXTURE && type != GL_RENDERBUFFER) return;
    query(target, a, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
    add(type == GL_TEXTURE ? ObjectType::kTexture : ObjectType::kRenderbuffer, name);
  }

  std::vector<GLenum> texture_bindings() const {
    std::vector<GLenum> out{GL_TEXTURE_BINDING_2D, GL_TEXTURE_BINDING_CUBE_MAP};
    const bool oes_3d = st_.gles && epoxy_has_gl_extension("GL_OES_texture_3D");
    if (has(12, 30) || oes_3d) out.push_back(GL_TEXTURE_BINDING_3D);
    if (has(30, 30)) out.push_back(GL_TEXTURE_BINDING_2D_ARRAY);
    if (has(10, 0)) out.push_back(GL_TEXTURE_BINDING_1D);
    if (has(30, 0)) out.push_back(GL_TEXTURE_BINDING_1D_ARRAY);
    if (has(31, 0)) out.push_back(GL_TEXTURE_BINDING_RECTANGLE);
    if (has(31, 32)) out.push_back(GL_TEXTURE_BINDING_BUFFER);
    if (has(40, 32)) out.push_back(GL_TEXTURE_BINDING_CUBE_MAP_ARRAY);
    if (has(32, 31)) out.push_back(GL_TEXTURE_BINDING_2D_MULTISAMPLE);
    if (has(32, 32)) out.push_back(GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY);
    return out;
  }

  void texture_units() {
    const std::vector<GLenum> bindings = texture_bindings();
    const GLint saved = get(GL_ACTIVE_TEXTURE);
    const GLenum units = has(20, 20) ? GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS : GL_MAX_TEXTURE_UNITS;
    for (GLuint unit = 0; unit < limit(units, 1024); ++unit) {
      glActiveTexture(GL_TEXTURE0 + unit);
      for (GLenum b : bindings) add(ObjectType::kTexture, get(b));
    }
    if (has(31, 32)) default_buffer_texture();
    glActiveTexture(static_cast<GLenum>(saved));
    if (has(42, 31)) {
      for (GLuint i = 0; i < limit(GL_MAX_IMAGE_UNITS, 1024); ++i) {
        add(ObjectType::kTexture, get_indexed(GL_IMAGE_BINDING_NAME, i));
      }
    }
  }

  // The context's own buffer texture (texture 0) has no ledger entry to link.
  void default_buffer_texture() {
    const GLint bound = get(GL_TEXTURE_BINDING_BUFFER);
    GLint store = 0;
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glGetTexLevelParameteriv(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_DATA_STORE_BINDING, &store);
    glBindTexture(GL_TEXTURE_BUFFER, static_cast<GLuint>(bound));
    add(ObjectType::kBuffer, store);
  }

  void buffer_bindings() {
    struct Binding {
      GLenum pname;
      int desktop, es;
      GLenum indexed_limit;  // 0: not an indexed target
    };
    static constexpr Binding kBindings[] = {
        {GL_ARRAY_BUFFER_BINDING, 15, 11, 0},
        {GL_PIXEL_PACK_BUFFER_BINDING, 21, 30, 0},
        {GL_PIXEL_UNPACK_BUFFER_BINDING, 21, 30, 0},
        {GL_COPY_READ_BUFFER_BINDING, 31, 30, 0},
        {GL_COPY_WRITE_BUFFER_BINDING, 31, 30, 0},
        {GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 30, 30, 0},
        {GL_UNIFORM_BUFFER_BINDING, 31, 30, GL_MAX_UNIFORM_BUFFER_BINDINGS},
        {GL_TEXTURE_BUFFER_BINDING, 31, 32, 0},
        {GL_DRAW_INDIRECT_BUFFER_BINDING, 40, 31, 0},
        {GL_ATOMIC_COUNTER_BUFFER_BINDING, 42, 31, GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS},
        {GL_DISPATCH_INDIRECT_BUFFER_BINDING, 43, 31, 0},
        {GL_SHADER_STORAGE_BUFFER_BINDING, 43, 31, GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS},
        {GL_QUERY_BUFFER_BINDING, 44, 0, 0},
        {GL_PARAMETER_BUFFER_BINDING, 46, 0, 0},
    };
    for (const Binding& b : kBindings) {
      if (!has(b.desktop, b.es)) continue;
      add(ObjectType::kBuffer, get(b.pname));
      if (b.indexed_limit == 0) continue;
      for (GLuint i = 0; i < limit(b.indexed_limit, 1024); ++i) {
        add(ObjectType::kBuffer, get_indexed(b.pname, i));
      }
    }
  }

  // Each transform feedback object holds the buffers bound to its indices.
  bool transform_feedbacks() {
    if (!has(30, 30)) return true;
    const GLuint buffers = limit(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, 64);
    auto current = [&] {
      for (GLuint i = 0; i < buffers; ++i) {
        add(ObjectType::kBuffer, get_indexed(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, i));
      }
    };
    current();
    const std::vector<GLuint> objects = local(ObjectType::kTransformFeedback);
    if (objects.empty() || !has(40, 30)) return true;
    // Another object can be bound only while the current one is not recording.
    if (get(GL_TRANSFORM_FEEDBACK_ACTIVE) && !get(GL_TRANSFORM_FEEDBACK_PAUSED)) return false;
    const GLint saved = get(GL_TRANSFORM_FEEDBACK_BINDING);
    for (GLuint tf : objects) {
      glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf);
      current();
    }
    glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, static_cast<GLuint>(saved));
    return true;
  }

  GlContextState::Impl& st_;
  ObjectReferences& refs_;
};

}  // namespace

bool collect_references(GlContextState::Impl& st, ObjectReferences& refs) {
  // The guest's pending error survives the scan; the scan's own are dropped.
  const GLenum pending = glGetError();
  const bool complete = Scan(st, refs).run();
  for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
  }
  if (st.refused_error == GL_NO_ERROR) st.refused_error = pending;
  return complete;
}

}  // namespace host
