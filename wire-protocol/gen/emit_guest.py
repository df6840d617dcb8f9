"""Emits the guest ICD's GL entry points and its proc-address table."""

import re

from emit_common import HEADER, element_count, elem_bytes, inputs, outputs
from emit_host import OBJECT_TYPES


def handler_decl(c):
    return f"{c.ret} GLAPIENTRY handle_{c.name}({c.arg_list()});\n"


def gl_handlers_h(model):
    hand_written = [c for c in model.ordered() if c.custom in ("guest", "both", "manual")]
    decls = "".join(handler_decl(c) for c in hand_written + sorted(model.guest_only.values(),
                                                                    key=lambda c: c.name))
    return (HEADER + "// Hand-written guest entry points (see annotations.toml).\n#pragma once\n\n"
            '#include "wire/gl_types.h"\n\nnamespace icd {\n\n' + decls + "\n}  // namespace icd\n")


def _default_return(c):
    return "" if c.ret == "void" else f" {c.ret}{{}}"


def _byte_count(p):
    if p.size_kind == "pixels":
        return (f"wire::size::pixel_bytes(cstate.{'unpack' if p.kind == 'in_array' else 'pack'}(), "
                f"{p.count_expr})")
    count = element_count(p, lambda name: name)
    if p.size_kind == "counted_string":
        count = f"({p.count_expr} >= 0 ? {count} : ({p.name} ? std::strlen({p.name}) : 0))"
    return f"{count} * {elem_bytes(p)}"


def _uniform_values(c):
    """The values of a glUniform*v-like call (a location, a count and values
    counted by it), or None."""
    names = {p.name for p in c.params}
    if not {"location", "count"} <= names:
        return None
    for p in c.params:
        if p.kind == "in_array" and p.size_kind == "expr" and "count" in re.findall(r"\w+", p.count_expr):
            return p
    return None


def _param(c, name, cls=None):
    return next((p for p in c.params if p.name == name and (cls is None or p.cls == cls)), None)


def _names_a_texture_at_its_target(c):
    """A named command of GL_EXT_direct_state_access (texture, target, ...)."""
    return (len(c.params) >= 2 and c.params[0].name == "texture" and c.params[0].cls == "texture"
            and c.params[1].name == "target" and c.params[1].kind == "scalar")


def _texture_target_lines(c):
    """What the command tells the guest of its textures' targets
    (gl/texture_targets.h): binds and named commands make a texture at
    their target, glCreateTextures its new names, deletes end them."""
    texture, target = _param(c, "texture", "texture"), _param(c, "target")
    textures = next((p for p in c.params if p.cls == "texture" and p.pointer), None)
    if texture and target and texture.kind == "scalar" and (
            c.name.startswith("glBind") or _names_a_texture_at_its_target(c)):
        call = "note(texture, target)"
    elif textures and c.names_mode == "gen" and target:
        call = f"note({textures.name}, {textures.name}_bytes / 4, target)"
    elif textures and c.names_mode == "delete":
        call = f"forget({textures.name}, {textures.name}_bytes / 4)"
    else:
        return []
    return [f"  if (auto* targets = cs->gl_state().texture_targets()) targets->{call};"]


def entry_body(c):
    lines = ["  Stream* cs = current_stream();",
             f"  if (!cs) return{_default_return(c)};"]
    if _names_a_texture_at_its_target(c) and any(p.kind == "in_array" for p in c.params):
        # GL refuses another target before it reads the pixels; the guest
        # would read them first.
        lines.append(f"  if (cs->gl_state().refused_texture_target(texture, target)) return{_default_return(c)};")
    values = _uniform_values(c)
    if values:
        program = "program" if any(p.name == "program" for p in c.params) else "0"
        one = element_count(values, lambda name: "1" if name == "count" else name)
        lines.append(f"  if (!bound_uniform_count(*cs, {program}, location, &count, {one} * {elem_bytes(values)}))"
                     f" return{_default_return(c)};")
    if any(p.size_kind == "pixels" or p.buffer_source for p in c.params):
        lines.append("  GlState& cstate = cs->gl_state();")
    args = []
    for p in inputs(c):
        args.append(p.name)
    for p in c.params:
        if p.kind in ("in_array", "out_array"):
            lines.append(f"  const size_t {p.name}_bytes = {_byte_count(p)};")
        if p.gen:
            lines.append(f"  cs->gl_state().names().allocate(wire::ObjectType::{OBJECT_TYPES[p.cls]}, "
                         f"{p.name}_bytes / 4, {p.name});")
    for p in inputs(c):
        if p.kind == "in_array":
            args.append(f"{p.name}_bytes")
            if p.buffer_source:
                args.append("cstate.unpack_buffer_bound()")
    lines.append(f"  wire::encode_{c.name}(cs->writer(){', ' if args else ''}{', '.join(args)});")
    lines += _texture_target_lines(c)
    if not c.sync:
        lines.append("  cs->commit();")
        return "\n".join(lines)
    lines.append("  auto creply = cs->roundtrip();")
    lines.append(f"  if (!creply) return{_default_return(c)};")
    lines.append("  wire::Reader cr(*creply, 0);")
    if c.ret != "void":
        lines.append(f"  auto cret = cr.get<{c.ret}>();")
    for p in outputs(c):
        lines.append(f"  copy_reply_data(cr, {p.name}, {p.name}_bytes);")
    if c.ret != "void":
        lines.append(f"  return cret ? *cret : {c.ret}{{}};")
    return "\n".join(lines)


def gl_entry_cpp(model):
    out = [HEADER, '#include <algorithm>\n#include <cstring>\n\n#include "icd/stream.h"\n'
           '#include "gl/gl_state.h"\n#include "gl/uniform_reach.h"\n#include "gl_handlers.h"\n#include "wire/gl_encode.h"\n'
           '#include "wire/reader.h"\n#include "wire/sizes.h"\n\nnamespace icd {\nnamespace {\n\n'
           "// Copies a reply array into the caller's memory, never more than it holds.\n"
           "void copy_reply_data(wire::Reader& r, void* dst, size_t capacity) {\n"
           "  auto data = r.get_data();\n"
           "  if (!data || dst == nullptr) return;\n"
           "  std::memcpy(dst, data->bytes.data(), std::min(capacity, data->bytes.size()));\n"
           "}\n\n"]
    procs = []
    for c in model.ordered():
        if c.custom in ("guest", "both", "manual"):
            target = f"handle_{c.name}"
        else:
            target = f"e_{c.name}"
            out.append(f"{c.ret} GLAPIENTRY e_{c.name}({c.arg_list()}) {{\n{entry_body(c)}\n}}\n\n")
        for name in [c.name] + c.aliases:
            procs.append((name, target))
    procs += [(name, f"handle_{name}") for name in model.guest_only]
    procs.sort()
    table = "".join(f'    {{"{n}", reinterpret_cast<void*>(&{t})}},\n' for n, t in procs)
    out.append("struct Proc {\n  const char* name;\n  void* address;\n};\n\n}  // namespace\n\n"
               "void* gl_proc_address(const char* name) {\n"
               "  static const Proc kProcs[] = {\n" + table + "  };\n"
               "  auto it = std::lower_bound(std::begin(kProcs), std::end(kProcs), name,\n"
               "      [](const Proc& p, const char* n) { return std::strcmp(p.name, n) < 0; });\n"
               "  return it != std::end(kProcs) && std::strcmp(it->name, name) == 0 ? "
               "it->address : nullptr;\n}\n\n}  // namespace icd\n")
    return "".join(out)
