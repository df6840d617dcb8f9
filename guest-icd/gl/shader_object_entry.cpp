// GL_ARB_shader_objects' own commands. A handle names a program or a
// shader (both take their names from one guest counter), and each command
// is OpenGL 2.0's for the kind of object it names; the extension's other
// commands are registry aliases of OpenGL 2.0's.
#include "gl/entry_support.h"
#include "gl/gl_handlers.h"

namespace icd {
namespace {

constexpr GLenum kInvalidEnum = 0x0500, kInvalidValue = 0x0501;
constexpr GLenum kObjectType = 0x8B4E, kProgramObject = 0x8B40, kShaderObject = 0x8B48;
constexpr GLenum kCurrentProgram = 0x8B8D;

// OpenGL 2.0's entry point `name`, as a program would get it.
template <typename Fn>
Fn gl20(const char* name) {
  return reinterpret_cast<Fn>(gl_proc_address(name));
}

enum class Kind { kNone, kProgram, kShader };

// What `object` names, asked of the host.
Kind kind_of(GLhandleARB object) {
  if (gl20<GLboolean (*)(GLuint)>("glIsProgram")(object)) return Kind::kProgram;
  if (gl20<GLboolean (*)(GLuint)>("glIsShader")(object)) return Kind::kShader;
  return Kind::kNone;
}

// GL_INVALID_VALUE for a handle that names nothing (GL raises it natively).
Kind kind_or_error(GLhandleARB object) {
  const Kind kind = kind_of(object);
  Stream* s = current_stream();
  if (kind == Kind::kNone && s) s->gl_state().raise_error(kInvalidValue);
  return kind;
}

}  // namespace

void GLAPIENTRY handle_glDeleteObjectARB(GLhandleARB object) {
  if (object == 0) return;  // deleting 0 is silently ignored
  const Kind kind = kind_or_error(object);
  if (kind == Kind::kProgram) gl20<void (*)(GLuint)>("glDeleteProgram")(object);
  if (kind == Kind::kShader) gl20<void (*)(GLuint)>("glDeleteShader")(object);
}

GLhandleARB GLAPIENTRY handle_glGetHandleARB(GLenum pname) {
  if (pname != kProgramObject) {
    if (Stream* s = current_stream()) s->gl_state().raise_error(kInvalidEnum);
    return 0;
  }
  GLint program = 0;
  handle_glGetIntegerv(kCurrentProgram, &program);
  return static_cast<GLhandleARB>(program);
}

void GLAPIENTRY handle_glGetInfoLogARB(GLhandleARB object, GLsizei max_length, GLsizei* length,
                                       GLcharARB* log) {
  using Fn = void (*)(GLuint, GLsizei, GLsizei*, GLchar*);
  const Kind kind = kind_or_error(object);
  if (kind == Kind::kProgram) gl20<Fn>("glGetProgramInfoLog")(object, max_length, length, log);
  if (kind == Kind::kShader) gl20<Fn>("glGetShaderInfoLog")(object, max_length, length, log);
}

// GL_OBJECT_TYPE_ARB is the extension's own; its other names are OpenGL
// 2.0's (GL_OBJECT_COMPILE_STATUS_ARB is GL_COMPILE_STATUS, and so on).
void GLAPIENTRY handle_glGetObjectParameterivARB(GLhandleARB object, GLenum pname, GLint* params) {
  using Fn = void (*)(GLuint, GLenum, GLint*);
  const Kind kind = kind_or_error(object);
  if (kind == Kind::kNone) return;
  if (pname == kObjectType) {
    if (params) *params = kind == Kind::kProgram ? kProgramObject : kShaderObject;
    return;
  }
  gl20<Fn>(kind == Kind::kProgram ? "glGetProgramiv" : "glGetShaderiv")(object, pname, params);
}

// Every value of these queries is an integer. GL writes nothing for a
// query it refuses, so the program's value stays then.
void GLAPIENTRY handle_glGetObjectParameterfvARB(GLhandleARB object, GLenum pname, GLfloat* params) {
  constexpr GLint kUnwritten = -0x7fffffff;
  GLint value = kUnwritten;
  handle_glGetObjectParameterivARB(object, pname, &value);
  if (params && value != kUnwritten) *params = static_cast<GLfloat>(value);
}

void GLAPIENTRY handle_glGetAttachedObjectsARB(GLhandleARB container, GLsizei max_count,
                                               GLsizei* count, GLhandleARB* objects) {
  gl20<void (*)(GLuint, GLsizei, GLsizei*, GLuint*)>("glGetAttachedShaders")(container, max_count,
                                                                            count, objects);
}

}  // namespace icd
