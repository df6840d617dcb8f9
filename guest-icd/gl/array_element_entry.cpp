// glArrayElement with client-memory arrays. GL reads one element of every
// enabled array, mostly between glBegin and glEnd, where no array can be
// sent to the host (pointer calls are errors there). The guest reads the
// element itself and sends the immediate-mode calls glArrayElement stands
// for (OpenGL 2.1, section 2.8): every attribute, then the vertex, which is
// the call that emits. Arrays in buffers are the host's: unless every
// enabled array is in client memory, glArrayElement goes to the host as it is.
#include <array>
#include <string>
#include <vector>

#include "gl/entry_support.h"
#include "gl/gl_handlers.h"
#include "icd/stream.h"
#include "wire/gl_encode.h"

namespace icd {
namespace {

constexpr GLenum kByte = 0x1400, kUbyte = 0x1401, kShort = 0x1402, kUshort = 0x1403, kInt = 0x1404,
                 kUint = 0x1405, kFloat = 0x1406, kDouble = 0x140A;
constexpr GLenum kTexture0 = 0x84C0;

// The suffix of the immediate-mode call taking `type`, or null for types
// that have none (half floats, packed and fixed-point values).
const char* suffix_of(GLenum type) {
  switch (type) {
    case kByte: return "b";
    case kUbyte: return "ub";
    case kShort: return "s";
    case kUshort: return "us";
    case kInt: return "i";
    case kUint: return "ui";
    case kFloat: return "f";
    case kDouble: return "d";
    default: return nullptr;
  }
}

// The guest's own entry point `name`, or null when GL has none by that
// name (a size or type the immediate calls do not take).
void* entry(const std::string& name) { return gl_proc_address(name.c_str()); }

const void* element(const void* pointer, size_t stride, GLint i) {
  return static_cast<const std::byte*>(pointer) + static_cast<size_t>(i) * stride;
}

// One immediate call for a fixed-function array: `base` + size + suffix +
// "v" (glColor4ubv ...), or base + suffix + "v" for fixed-size ones.
struct LegacyCall {
  LegacySlot slot;
  const char* base;
  bool sized;  // the size is part of the name
};

constexpr std::array<LegacyCall, 5> kAttributeCalls = {{
    {LegacySlot::kColor, "glColor", true},
    {LegacySlot::kSecondaryColor, "glSecondaryColor3", false},
    {LegacySlot::kFogCoord, "glFogCoord", false},
    {LegacySlot::kIndex, "glIndex", false},
    {LegacySlot::kNormal, "glNormal3", false},
}};

std::string legacy_name(const LegacyCall& c, const LegacyArray& a) {
  const char* suffix = suffix_of(a.type);
  if (!suffix) return {};
  return std::string(c.base) + (c.sized ? std::to_string(a.size) : "") + suffix + "v";
}

// The generic attribute's call: VertexAttrib{I,L}, N for normalized
// integers (only in the four-component forms, as GL has them).
std::string generic_name(const ClientArray& a) {
  const char* suffix = suffix_of(a.type);
  if (!suffix) return {};
  const char* kind = a.format == AttribFormat::kInteger ? "I" : a.format == AttribFormat::kLong ? "L" : "";
  const bool normalized = a.normalized && a.format == AttribFormat::kFloat && a.type != kFloat && a.type != kDouble;
  return std::string("glVertexAttrib") + kind + std::to_string(a.size) + (normalized ? "N" : "") + suffix + "v";
}

// Whether every enabled array is in client memory, and at least one is.
bool all_client(GlState& st) {
  bool any = false;
  for (const LegacyArray& a : st.legacy_arrays().slots) {
    if (!a.enabled) continue;
    if (!a.client) return false;
    any = true;
  }
  for (const ClientArray& a : st.attribs()) {
    if (!a.enabled) continue;
    if (!a.client) return false;
    any = true;
  }
  return any;
}

// One immediate-mode call: its entry point, the array's element type (the
// call's pointer type), and for glMultiTexCoord and glVertexAttrib the
// unit or index it takes first.
struct Step {
  void* fn;
  GLenum type;
  bool indexed;
  GLuint index;
  const void* data;
};

template <typename T>
void call_as(const Step& c) {
  const auto* data = static_cast<const T*>(c.data);
  if (c.indexed) return reinterpret_cast<void (*)(GLuint, const T*)>(c.fn)(c.index, data);
  reinterpret_cast<void (*)(const T*)>(c.fn)(data);
}

// Calls through the entry point's own type: each takes the element as
// pointer to its component type.
void run(const Step& c) {
  switch (c.type) {
    case kByte: return call_as<GLbyte>(c);
    case kUbyte: return call_as<GLubyte>(c);
    case kShort: return call_as<GLshort>(c);
    case kUshort: return call_as<GLushort>(c);
    case kInt: return call_as<GLint>(c);
    case kUint: return call_as<GLuint>(c);
    case kFloat: return call_as<GLfloat>(c);
    case kDouble: return call_as<GLdouble>(c);
    default: return;  // planned only for the types above
  }
}

// Every call the element needs, found before any is made: one GL does not
// have means the host must answer for the whole element.
struct Plan {
  std::vector<Step> steps;
  bool complete = true;

  void add(void* fn, GLenum type, bool indexed, GLuint index, const void* data) {
    complete = complete && fn && suffix_of(type);
    steps.push_back({fn, type, indexed, index, data});
  }
};

void plan_legacy(GlState& st, GLint i, Plan& p) {
  const auto& slots = st.legacy_arrays().slots;
  const LegacyArray& edge = slots[static_cast<size_t>(LegacySlot::kEdgeFlag)];
  if (edge.enabled) p.add(entry("glEdgeFlagv"), kUbyte, false, 0, element(edge.pointer, edge.stride_bytes(), i));
  for (size_t unit = 0; unit < kLegacyTexUnits; ++unit) {
    const LegacyArray& t = slots[static_cast<size_t>(LegacySlot::kTexCoord0) + unit];
    if (!t.enabled) continue;
    const char* suffix = suffix_of(t.type);
    void* fn = suffix ? entry("glMultiTexCoord" + std::to_string(t.size) + suffix + "v") : nullptr;
    p.add(fn, t.type, true, static_cast<GLuint>(kTexture0 + unit), element(t.pointer, t.stride_bytes(), i));
  }
  for (const LegacyCall& c : kAttributeCalls) {
    const LegacyArray& a = slots[static_cast<size_t>(c.slot)];
    if (a.enabled) p.add(entry(legacy_name(c, a)), a.type, false, 0, element(a.pointer, a.stride_bytes(), i));
  }
}

// Generic attributes 1 and up, then attribute 0 or the vertex array: the
// vertex is the call that emits, so it goes last.
void plan_vertex(GlState& st, GLint i, Plan& p) {
  const auto& attribs = st.attribs();
  auto generic = [&](size_t index) {
    const ClientArray& a = attribs[index];
    p.add(entry(generic_name(a)), a.type, true, static_cast<GLuint>(index), element(a.pointer, a.stride_bytes(), i));
  };
  for (size_t index = 1; index < attribs.size(); ++index)
    if (attribs[index].enabled) generic(index);
  if (!attribs.empty() && attribs[0].enabled) return generic(0);
  const LegacyArray& v = st.legacy_arrays().slots[static_cast<size_t>(LegacySlot::kVertex)];
  if (!v.enabled) return;
  const char* suffix = suffix_of(v.type);
  void* fn = suffix ? entry("glVertex" + std::to_string(v.size) + suffix + "v") : nullptr;
  p.add(fn, v.type, false, 0, element(v.pointer, v.stride_bytes(), i));
}

}  // namespace

void GLAPIENTRY handle_glArrayElement(GLint i) {
  Stream* s = current_stream();
  if (!s) return;
  GlState& st = s->gl_state();
  const auto& restart = st.primitive_restart();
  if (i < 0 || !all_client(st)) {
    wire::encode_glArrayElement(s->writer(), i);
    s->commit();
    return;
  }
  // With primitive restart on, the restart index restarts the primitive.
  if (restart.enabled && static_cast<uint32_t>(i) == restart.index) {
    if (void* fn = entry("glPrimitiveRestartNV")) return reinterpret_cast<void (*)()>(fn)();
  }
  Plan p;
  plan_legacy(st, i, p);
  plan_vertex(st, i, p);
  if (!p.complete) {
    wire::encode_glArrayElement(s->writer(), i);
    s->commit();
    return;
  }
  for (const Step& c : p.steps) run(c);
}

}  // namespace icd
