// Guest-side GL state of one context: what the guest answers and tracks
// without asking the host.
#pragma once

#include <cstdint>

namespace icd {

class GlState {
 public:
  // `gles`: an OpenGL ES context; `major.minor`: the version it was created as.
  GlState(bool gles, int major, int minor) : gles_(gles), major_(major), minor_(minor) {}

  bool gles() const { return gles_; }
  int major() const { return major_; }
  int minor() const { return minor_; }

 private:
  bool gles_;
  int major_;
  int minor_;
};

}  // namespace icd
