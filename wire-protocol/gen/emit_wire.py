"""Emits the GL-API-agnostic wire code: types, opcodes, encoders, decoders."""

import json

from emit_common import HEADER, encoder_params, inputs
from model import SCALARS

SKIP_TYPES = {"GLhandleARB", "GLvdpauSurfaceNV", "GLVULKANPROCNV", "GLDEBUGPROCAMD",
              "GLDEBUGPROCARB", "GLDEBUGPROCKHR", "struct _cl_context", "struct _cl_event"}


def gl_types_h(model):
    out = [HEADER, "#pragma once\n\n#include <KHR/khrplatform.h>\n\n"
           "#ifndef GLAPIENTRY\n#define GLAPIENTRY KHRONOS_APIENTRY\n#endif\n\n"]
    for t in model.root.find("types"):
        name = t.find("name")
        if name is None or name.text in SKIP_TYPES or t.get("name"):
            continue
        text = "".join(
            ("GLAPIENTRY" if e.tag == "apientry" else (e.text or "")) + (e.tail or "")
            for e in t.iter() if e is not t) if len(t) else (t.text or "")
        text = (t.text or "") + text
        if "typedef" not in text or "#" in text:
            continue
        out.append(text.strip() + "\n")
    # gl.xml defines it per platform; everywhere but Apple's it is this.
    out.append("typedef unsigned int GLhandleARB;\n")
    return "".join(out)


def extension_words(model):
    return max(1, (len(model.extensions) + 63) // 64)


def gl_opcodes_h(model):
    rows = "".join(f"  {c.name} = {c.opcode},\n" for c in model.ordered())
    return (HEADER + "#pragma once\n\n#include <cstdint>\n\nnamespace wire {\n\n"
            "enum class GlOp : uint32_t {\n" + rows + "};\n\n"
            f"// Words of a bit set over gl_extension_names().\n"
            f"constexpr int kGlExtensionWords = {extension_words(model)};\n\n"
            "// The kinds of GL context, as bits.\n"
            "enum class GlApi : uint32_t { kGl = 1, kGles1 = 2, kGles = 4 };\n\n"
            + facts_h(model) +
            "// Where a command comes from, to tell whether a host context has it,\n"
            "// and what the host must know of it.\n"
            "struct GlCommandInfo {\n  const char* name;\n  uint16_t gl_version;    "
            "// major*10+minor, 0 = not in desktop GL\n  uint16_t gles_version;  "
            "// 0 = not in OpenGL ES 2.0+\n  bool gles1;             // in OpenGL ES 1.x\n  uint64_t extensions[kGlExtensionWords];  // bits of gl_extension_names()\n"
            "  uint32_t facts;         // GlFact bits\n  GlDraw draw;\n"
            "};\n\n// Info for a GL opcode, or null when it is none.\n"
            "const GlCommandInfo* gl_command_info(uint32_t opcode);\n"
            "// Whether an extension brings commands that Conduit does not carry in\n"
            "// contexts of `api`, so the guest must not advertise it there.\n"
            "bool gl_extension_blocked(const char* name, GlApi api);\n"
            "// Why Conduit hides an extension (a command it does not carry), or null.\n"
            "const char* gl_extension_block_reason(const char* name, GlApi api);\n"
            "// The carried extensions, in the order of GlCommandInfo::extensions bits.\n"
            "const char* const* gl_extension_names(int* count);\n\n}  // namespace wire\n")


def camel(name):
    return "".join(part.capitalize() for part in name.split("_"))


def facts_h(model):
    """What the host must know of each command (annotations.toml [facts])."""
    bits = "".join(f"  k{camel(n)} = 1u << {i},\n" for i, n in enumerate(model.fact_names))
    kinds = "".join(f"  k{camel(k)},\n" for k in model.draw_kinds)
    return ("// Facts of a command (annotations.toml [facts]), as bits.\n"
            "enum GlFact : uint32_t {\n" + bits + "};\n\n"
            "// What a draw reads of the vertex arrays (annotations.toml [facts.draws]).\n"
            "enum class GlDraw : uint8_t {\n  kNone,\n" + kinds + "};\n\n")


def fact_fields(model, c):
    bits = " | ".join(f"k{camel(n)}" for n in model.fact_names if n in c.facts) or "0"
    return f"{bits}, GlDraw::k{camel(c.draw) if c.draw else 'None'}"


API_BITS = {"gl": 1, "gles1": 2, "gles2": 4}  # wire::GlApi


def blocked_by_api(model):
    """(name, (reason, GlApi mask)) of every extension hidden in some API."""
    out = {}
    for api, bit in API_BITS.items():
        for name, why in model.blocked_extensions((api,)).items():
            reason, mask = out.get(name, (why, 0))
            out[name] = (reason, mask | bit)
    return sorted(out.items())


def gl_opcodes_cpp(model):
    cmds = model.ordered()
    first, last = cmds[0].opcode, cmds[-1].opcode
    by_op = {c.opcode: c for c in cmds}
    rows = []
    for op in range(first, last + 1):
        c = by_op.get(op)
        if c is None:
            rows.append("  {nullptr, 0, 0, false, {}, 0, GlDraw::kNone},\n")
            continue
        words = [0] * extension_words(model)
        for ext in c.extensions:
            bit = model.extensions.index(ext)
            words[bit // 64] |= 1 << (bit % 64)
        mask = ", ".join(f"0x{w:x}ull" for w in words)
        rows.append(f'  {{"{c.name}", {c.gl_version}, {c.gles_version}, {str(c.gles1).lower()}, {{{mask}}}, {fact_fields(model, c)}}},\n')
    exts = "".join(f'  "{e}",\n' for e in model.extensions)
    blocked = "".join(f'  {{"{e}", {json.dumps(why)}, {mask}}},\n' for e, (why, mask) in blocked_by_api(model))
    return (HEADER + '#include "wire/gl_opcodes.h"\n\n#include <algorithm>\n#include <cstring>\n#include <iterator>\n\n'
            'namespace wire {\nnamespace {\n\n'
            f"constexpr uint32_t kFirst = {first};\n"
            "constexpr GlCommandInfo kInfo[] = {\n" + "".join(rows) + "};\n"
            "constexpr const char* kExtensions[] = {\n" + exts + "};\n"
            "struct Blocked {\n  const char* name;\n  const char* reason;\n  uint32_t apis;  // GlApi bits\n};\n\n"
            "constexpr Blocked kBlocked[] = {\n" + blocked + "};\n\n}  // namespace\n\n"
            "const char* gl_extension_block_reason(const char* name, GlApi api) {\n"
            "  auto it = std::lower_bound(std::begin(kBlocked), std::end(kBlocked), name,\n"
            "      [](const Blocked& a, const char* b) { return std::strcmp(a.name, b) < 0; });\n"
            "  const bool found = it != std::end(kBlocked) && std::strcmp(it->name, name) == 0;\n"
            "  return found && (it->apis & static_cast<uint32_t>(api)) ? it->reason : nullptr;\n}\n\n"
            "bool gl_extension_blocked(const char* name, GlApi api) {\n"
            "  return gl_extension_block_reason(name, api) != nullptr;\n}\n\n"
            "const GlCommandInfo* gl_command_info(uint32_t opcode) {\n"
            "  if (opcode < kFirst || opcode - kFirst >= sizeof kInfo / sizeof kInfo[0]) "
            "return nullptr;\n  const GlCommandInfo* info = &kInfo[opcode - kFirst];\n"
            "  return info->name ? info : nullptr;\n}\n\n"
            "const char* const* gl_extension_names(int* count) {\n"
            "  *count = static_cast<int>(sizeof kExtensions / sizeof kExtensions[0]);\n"
            "  return kExtensions;\n}\n\n}  // namespace wire\n")


def encodable(c):
    """Whether the generator writes the command's wire code."""
    return c.custom != "manual" or bool(c.layout)


def gl_encode_h(model):
    decls = "".join(f"void encode_{c.name}(Writer& wire_out{', ' if encoder_params(c) else ''}"
                    f"{encoder_params(c)});\n" for c in model.ordered() if encodable(c))
    return (HEADER + "// Pure encoders: one command with its inputs, byte counts given by the "
            "caller.\n#pragma once\n\n#include <cstddef>\n\n#include \"wire/gl_types.h\"\n"
            "#include \"wire/writer.h\"\n\nnamespace wire {\n\n" + decls +
            "\n}  // namespace wire\n")


def encode_body(c):
    lines = [f"  size_t wire_start = wire_out.begin({c.opcode});"]
    lines += put_fields(inputs(c))
    lines.append("  wire_out.end(wire_start);")
    return "\n".join(lines)


def put_fields(fields):
    """Statements writing `fields` to `wire_out` in order."""
    lines = []
    for p in fields:
        if p.kind == "scalar":
            lines.append(f"  wire_out.put<{p.base}>({p.name});")
        elif p.kind == "in_string":
            lines.append(f"  wire_out.put_data({p.name}, {p.name} ? std::strlen({p.name}) + 1 : 0);")
        elif p.kind == "data_list":
            lines.append(f"  for (int64_t i = 0; i < {p.count_expr}; ++i) {{\n"
                         f"{put_data(p, f'{p.name}[i]', f'{p.name}_bytes[i]', '    ')}\n  }}")
        else:
            lines.append(put_data(p, p.name, f"{p.name}_bytes", "  "))
    return lines


def put_data(p, value, size, indent):
    """A Data of `size` bytes at `value`, or its buffer offset when the field
    may be one."""
    data = f"wire_out.put_data({value}, {size});"
    if not p.buffer_source:
        return indent + data
    return (f"{indent}if ({p.name}_in_buffer) {{\n"
            f"{indent}  wire_out.put_buffer_offset(reinterpret_cast<uintptr_t>({value}));\n"
            f"{indent}}} else {{\n{indent}  {data}\n{indent}}}")


def gl_encode_cpp(model):
    out = [HEADER, '#include "wire/gl_encode.h"\n\n#include <cstring>\n\nnamespace wire {\n\n']
    for c in model.ordered():
        if not encodable(c):
            continue
        sep = ", " if encoder_params(c) else ""
        out.append(f"void encode_{c.name}(Writer& wire_out{sep}{encoder_params(c)}) {{\n"
                   f"{encode_body(c)}\n}}\n\n")
    out.append("}  // namespace wire\n")
    return "".join(out)


def scalar_size_checks(model):
    """Every scalar type must have its wire size in this build (64-bit hosts)."""
    types = sorted({p.base for c in model.ordered() for p in inputs(c) if p.kind == "scalar"})
    return "".join(f"static_assert(sizeof({t}) == {SCALARS[t][1]});\n" for t in types)


def args_struct(c):
    return fields_struct(f"Args_{c.name}", inputs(c))


def fields_struct(name, fields):
    lines = []
    for p in fields:
        if p.kind == "scalar":  # zeroed: a hand-written handler may fill one in part
            lines.append(f"  {p.base} {p.name}{{}};")
        elif p.kind == "data_list":
            lines.append(f"  std::vector<Data> {p.name};")
        else:
            lines.append(f"  Data {p.name};")
    return f"struct {name} {{\n" + "\n".join(lines) + "\n};\n"


def gl_decode_h(model):
    out = [HEADER, "// Decoded arguments; Data members borrow from the batch.\n#pragma once\n\n"
           '#include <vector>\n\n#include "wire/gl_types.h"\n#include "wire/reader.h"\n#include "wire/result.h"\n\n'
           "namespace wire {\n\n"]
    for c in model.ordered():
        if encodable(c):
            out.append(args_struct(c))
            out.append(f"Status decode_{c.name}(Reader& r, Args_{c.name}& a);\n\n")
    out.append("}  // namespace wire\n")
    return "".join(out)


def decode_body(c):
    return decode_fields(inputs(c))


def decode_fields(fields):
    """Statements reading `fields` from `r` into `a`, then returning."""
    lines = []
    for p in fields:
        if p.kind == "data_list":
            lines.append(data_list_decode(p))
            continue
        v = f"v_{p.name}"
        in_place = p.in_place or p.size_kind == "pixels"
        read = (f"r.get<{p.base}>()" if p.kind == "scalar" else
                "r.get_data_in_place()" if in_place else "r.get_data()")
        value = f"*{v}"
        lines.append(f"  auto {v} = {read};\n  if (!{v}) return {v}.error();\n"
                     f"  a.{p.name} = {value};")
    lines.append("  return {};")
    return "\n".join(lines)


def data_list_decode(p):
    """As many Data as an earlier field says; each takes at least a word, so
    a count beyond what is left of the command is refused before any room
    is made for it."""
    n = f"a.{p.count_expr}"
    return (f"  if ({n} < 0 || static_cast<uint64_t>({n}) > r.remaining() / sizeof(uint32_t)) {{\n"
            f"    return make_error(Errc::kBadLength, \"{p.name}: {p.count_expr} beyond the command\");\n  }}\n"
            f"  a.{p.name}.resize(static_cast<size_t>({n}));\n"
            f"  for (Data& d : a.{p.name}) {{\n    auto v = r.get_data();\n"
            f"    if (!v) return v.error();\n    d = *v;\n  }}")


def gl_decode_cpp(model):
    out = [HEADER, '#include "wire/gl_decode.h"\n\nnamespace wire {\n\n', scalar_size_checks(model), "\n"]
    for c in model.ordered():
        if encodable(c):
            unused = "[[maybe_unused]] " if not inputs(c) else ""
            out.append(f"Status decode_{c.name}({unused}Reader& r, "
                       f"{unused}Args_{c.name}& a) {{\n{decode_body(c)}\n}}\n\n")
    out.append("}  // namespace wire\n")
    return "".join(out)
