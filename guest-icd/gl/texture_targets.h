// The target each texture of a share group was created with, as far as the
// guest saw it made (glBindTexture, glCreateTextures, a named command of
// GL_EXT_direct_state_access). GL refuses a named command whose target is
// not its texture's before it reads the program's pixels; the guest copies
// pixels into the stream before the host's GL sees the command, so it must
// refuse such a command itself (a program may pass memory it already freed).
#pragma once

#include <mutex>
#include <unordered_map>

#include "wire/gl_types.h"

namespace icd {

// The texture target a command's `target` makes or names: a cube map's
// face names the cube map. 0 for a value that is no texture target.
GLenum texture_object_target(GLenum target);

class TextureTargets {
 public:
  // `texture` was bound or made at `target`: GL gives a texture its target
  // once, so a texture known already keeps its own.
  void note(GLuint texture, GLenum target);
  void note(const GLuint* textures, GLsizei count, GLenum target);
  void forget(const GLuint* textures, GLsizei count);
  // Whether GL refuses `target` for `texture`: the guest knows the texture
  // and it was made at another target. A value that is no texture target
  // is left to the host's GL (proxies, enums it refuses).
  bool mismatched(GLuint texture, GLenum target) const;

 private:
  mutable std::mutex mu_;  // contexts of a share group may be on several threads
  std::unordered_map<GLuint, GLenum> targets_;
};

}  // namespace icd
