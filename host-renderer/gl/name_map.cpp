#include "gl/name_map.h"

namespace host {

GLuint NameMap::reverse(GLuint host) const {
  for (const auto& [guest, mapped] : map_) {
    if (mapped == host) return guest;
  }
  return 0;
}

}  // namespace host
