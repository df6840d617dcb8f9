// glArrayElement with client-memory arrays. GL reads one element of every
// enabled array, mostly between glBegin and glEnd, where no array can be
// sent to the host (pointer calls are errors there). The guest reads the
// element itself and sends the immediate-mode calls glArrayElement stands
// for (OpenGL 2.1, section 2.8): every attribute, then the vertex, which is
// the call that emits. Arrays in buffers are the host's: unless every
// enabled array is in client memory, glArrayElement goes to the host as it is.
#include <array>
#include <string>
#include <tuple>
#include <utility>
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

using Call = void (*)(const void*);
using IndexedCall = void (*)(GLuint, const void*);

// The guest's own entry point `name`, or null when GL has none by that
// name (a size or type the immediate calls do not take).
template <typename Fn>
Fn entry(const std::string& name) {
  return reinterpret_cast<Fn>(gl_proc_address(name.c_str()));
}

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

// Every call the element needs, found before any is made: one GL does not
// have means the host must answer for the whole element.
struct Plan {
  std::vector<std::pair<Call, const void*>> calls;
  std::vector<std::tuple<IndexedCall, GLuint, const void*>> indexed;
  bool complete = true;
};

void plan_legacy(GlState& st, GLint i, Plan& p) {
  const auto& slots = st.legacy_arrays().slots;
  const LegacyArray& edge = slots[static_cast<size_t>(LegacySlot::kEdgeFlag)];
  if (edge.enabled) p.calls.push_back({entry<Call>("glEdgeFlagv"), element(edge.pointer, edge.stride_bytes(), i)});
  p.complete = p.complete && (!edge.enabled || p.calls.back().first);
  for (size_t unit = 0; unit < kLegacyTexUnits; ++unit) {
    const LegacyArray& t = slots[static_cast<size_t>(LegacySlot::kTexCoord0) + unit];
    if (!t.enabled) continue;
    const char* suffix = suffix_of(t.type);
    auto fn = suffix ? entry<IndexedCall>("glMultiTexCoord" + std::to_string(t.size) + suffix + "v") : nullptr;
    p.complete = p.complete && fn;
    p.indexed.push_back({fn, static_cast<GLuint>(kTexture0 + unit), element(t.pointer, t.stride_bytes(), i)});
  }
  for (const LegacyCall& c : kAttributeCalls) {
    const LegacyArray& a = slots[static_cast<size_t>(c.slot)];
    if (!a.enabled) continue;
    auto fn = entry<Call>(legacy_name(c, a));
    p.complete = p.complete && fn;
    p.calls.push_back({fn, element(a.pointer, a.stride_bytes(), i)});
  }
}

// Generic attributes 1 and up, then attribute 0 or the vertex array.
void plan_vertex(GlState& st, GLint i, Plan& p) {
  const auto& attribs = st.attribs();
  auto generic = [&](size_t index) {
    const ClientArray& a = attribs[index];
    auto fn = entry<IndexedCall>(generic_name(a));
    p.complete = p.complete && fn;
    p.indexed.push_back({fn, static_cast<GLuint>(index), element(a.pointer, a.stride_bytes(), i)});
  };
  for (size_t index = 1; index < attribs.size(); ++index)
    if (attribs[index].enabled) generic(index);
  if (!attribs.empty() && attribs[0].enabled) return generic(0);
  const LegacyArray& v = st.legacy_arrays().slots[static_cast<size_t>(LegacySlot::kVertex)];
  if (!v.enabled) return;
  const char* suffix = suffix_of(v.type);
  auto fn = suffix ? entry<Call>("glVertex" + std::to_string(v.size) + suffix + "v") : nullptr;
  p.complete = p.complete && fn;
  p.calls.push_back({fn, element(v.pointer, v.stride_bytes(), i)});
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
    if (auto fn = entry<void (*)()>("glPrimitiveRestartNV")) return fn();
  }
  Plan p;
  plan_legacy(st, i, p);
  // The vertex goes last: attributes before it (generic ones in index order).
  Plan vertex;
  plan_vertex(st, i, vertex);
  if (!p.complete || !vertex.complete) {
    wire::encode_glArrayElement(s->writer(), i);
    s->commit();
    return;
  }
  for (auto [fn, data] : p.calls) fn(data);
  for (auto [fn, index, data] : p.indexed) fn(index, data);
  for (auto [fn, index, data] : vertex.indexed) fn(index, data);
  for (auto [fn, data] : vertex.calls) fn(data);
}

}  // namespace icd
