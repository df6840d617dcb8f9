#include "context_request.h"

namespace icd {

bool gl_version_exists(int major, int minor) {
  static constexpr int kLastMinor[] = {-1, 5, 1, 3, 6};  // by major version
  return major >= 1 && major <= 4 && minor >= 0 && minor <= kLastMinor[major];
}

bool gles_version_exists(int major, int minor) {
  static constexpr int kLastMinor[] = {-1, 1, 0, 2};
  return major >= 1 && major <= 3 && minor >= 0 && minor <= kLastMinor[major];
}

bool has_profiles(int major, int minor) { return major > 3 || (major == 3 && minor >= 2); }

std::optional<wire::Profile> desktop_profile(int major, int minor, int mask, int core_bit, int compat_bit) {
  if (!has_profiles(major, minor)) return wire::Profile::kCompatibility;
  if (mask == core_bit) return wire::Profile::kCore;
  if (mask == compat_bit) return wire::Profile::kCompatibility;
  return std::nullopt;
}

bool host_offers(const RenderCaps& caps, wire::Profile profile, int major, int minor) {
  const int version = major * 10 + minor;  // as RenderCaps counts
  if (profile == wire::Profile::kNone) {
    // OpenGL ES 1.x is an API of its own: 2.0 and later do not include it.
    return gles_version_exists(major, minor) && (major == 1 ? caps.gles1 : version <= caps.max_gles);
  }
  const int max = profile == wire::Profile::kCore ? caps.max_gl_core : caps.max_gl_compat;
  return gl_version_exists(major, minor) && version <= max;
}

}  // namespace icd
