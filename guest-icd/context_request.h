// What EGL's and GLX's context requests share (EGL_KHR_create_context,
// GLX_ARB_create_context_profile, GLX_EXT_create_context_es_profile): the
// versions that exist, profiles, and whether the host can make one.
#pragma once

#include <optional>

#include "egl/config.h"
#include "wire/control.h"

namespace icd {

// The OpenGL and OpenGL ES versions that exist, which EGL's and GLX's
// context requests are checked against (others are EGL_BAD_MATCH, BadMatch).
bool gl_version_exists(int major, int minor);
bool gles_version_exists(int major, int minor);

// OpenGL 3.2 brought profiles; earlier versions are compatibility contexts.
bool has_profiles(int major, int minor);

// The profile a desktop OpenGL request gets: compatibility before 3.2,
// else the one `mask` names of the API's `core_bit` and `compat_bit`;
// nullopt when it names none, both, or unknown bits.
std::optional<wire::Profile> desktop_profile(int major, int minor, int mask, int core_bit, int compat_bit);

// Whether the host makes contexts of this existing version: OpenGL ES for
// wire::Profile::kNone, else desktop OpenGL of that profile.
bool host_offers(const RenderCaps& caps, wire::Profile profile, int major, int minor);

}  // namespace icd
