#include "gl_state_fixture.h"

namespace icd::egl {

guesttest::HostProcess& host() {
  static guesttest::HostProcess h;
  return h;
}

}  // namespace icd::egl
