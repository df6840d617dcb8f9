// glGet pnames whose value is the name of a bound object: GL answers with
// the host's name, which the guest must get back as the name it chose.
#pragma once

#include <epoxy/gl.h>

#include <optional>

#include "gl/context_impl.h"
#include "wire/object_type.h"

namespace host {

// The kind of object `pname` names, or none when its value is not a name.
std::optional<wire::ObjectType> object_named_by(GLenum pname);

// Turns the first of a query's `count` answers into the guest's name when
// `pname` asks for an object's name (0 for an object of the host's own).
template <typename T>
void answer_guest_name(GlContextState::Impl& st, GLenum pname, T* values, size_t count) {
  if (count == 0) return;
  if (auto type = object_named_by(pname)) *values = static_cast<T>(st.names(*type).reverse(static_cast<GLuint>(*values)));
}

}  // namespace host
