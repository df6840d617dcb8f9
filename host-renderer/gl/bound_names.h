// glGet pnames whose value is the name of a bound object: GL answers with
// the host's name, which the guest must get back as the name it chose.
#pragma once

#include <epoxy/gl.h>

#include <optional>

#include "wire/object_type.h"

namespace host {

// The kind of object `pname` names, or none when its value is not a name.
std::optional<wire::ObjectType> object_named_by(GLenum pname);

}  // namespace host
