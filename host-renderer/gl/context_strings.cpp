// Every string glGetString and glGetStringi(GL_EXTENSIONS) answer on the
// current context, for the guest to fetch in one round trip
// (wire::ControlOp::kContextStrings) instead of one per extension.
#include <epoxy/gl.h>

#include <optional>
#include <string>

#include "gl/context_impl.h"
#include "gl/dispatch_support.h"
#include "host/gl_dispatch.h"

namespace host {

namespace {

// GL's answer to a string query, or none where it refused it.
std::optional<std::string> answer(const GLubyte* text) {
  if (glGetError() != GL_NO_ERROR || !text) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(text));
}

}  // namespace

wire::ContextStrings GlContextState::context_strings() {
  return own_queries(*impl_, [] {
    wire::ContextStrings out;
    for (size_t i = 0; i < wire::kContextStringNames.size(); ++i) {
      out.named[i] = answer(glGetString(wire::kContextStringNames[i]));
    }
    GLint count = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &count);
    out.indexed = glGetError() == GL_NO_ERROR;
    for (GLint i = 0; out.indexed && i < count; ++i) {
      const GLubyte* e = glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i));
      out.extensions.emplace_back(e ? reinterpret_cast<const char*>(e) : "");
    }
    return out;
  });
}

}  // namespace host
