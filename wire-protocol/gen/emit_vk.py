"""Vulkan's generated C++: descriptions of every travelling structure and
command (read by one hand-written codec, wire/vk_codec.h), the argument
records of each command, the host's calls into its driver and the guest's
entry points.

A description is data, not code: a structure's members in order, each with
its kind, offset, element size, fixed count and, for pointers, a function
that computes its element count from the owner (vk.xml's len/altlen). The
codec walks them to encode, decode, check and answer, so the checks a
hostile guest meets are written once.
"""

import re

from emit_common import HEADER

# Command parameter kinds of the model -> the codec's kinds (vk_codec.h).
SYNC_FREE_OUTPUTS = {"out_handle"}


def travelling_structs(m):
    """Selected structures that can travel, and the structures they nest."""
    todo = [m.resolve(t) for t in m.selected_types if m.resolve(t) in m.structs]
    # A selected command's parameters travel even where vk.xml lists their
    # type with another extension (VK_NV_viewport_swizzle's, of
    # VK_EXT_extended_dynamic_state3's vkCmdSetViewportSwizzleNV).
    todo += [m.resolve(p.base) for c in m.commands.values() for p in c.params if m.resolve(p.base) in m.structs]
    seen = set()
    while todo:
        name = todo.pop()
        if name in seen or m.struct_problem(name):
            continue
        seen.add(name)
        for mem in m.structs[name].members:
            base = m.resolve(mem.base)
            if base in m.structs:
                todo.append(base)
    return sorted(seen)


def generated_commands(m):
    return [c for c in sorted(m.commands.values(), key=lambda c: c.opcode)
            if not any(p.kind == "" for p in c.params) and c.custom != "guest"]


# -- lengths -------------------------------------------------------------------

def _count_expr(length, owner):
    """C++ for an element count given by vk.xml's len on members of `owner`
    (an expression "s" of the owner's type): members become uint64 values."""
    expr = length.removesuffix(",null-terminated").split(",")[0]

    def member(match):
        path = match.group(0)
        if "->" in path:
            head, tail = path.split("->", 1)
            return f"({owner}.{head} ? as_number({owner}.{head}->{tail}) : 0)"
        return f"as_number({owner}.{path})"
    return re.sub(r"[A-Za-z_]\w*(?:->[A-Za-z_]\w*)?", member, expr)


def _count_fn(fn_name, owner_type, length, enumerated=False):
    if enumerated:
        body = f"return a.{length} ? as_number(*a.{length}) : 0;"
    else:
        body = f"return {_count_expr(length, 'a')};"
    return (f"uint64_t {fn_name}(const void* owner) {{\n"
            f"  const auto& a = *static_cast<const {owner_type}*>(owner);\n"
            f"  {body}\n}}\n")


# -- members -------------------------------------------------------------------

class Desc:
    """One MemberDesc initialiser and the count function it needs."""

    def __init__(self, name, offset, kind, elem="Elem::kScalar", size="0", fixed="1",
                 optional=False, dispatchable=False, object_type="VK_OBJECT_TYPE_UNKNOWN",
                 nested="nullptr", count="nullptr", known="nullptr"):
        self.line = (f"{{\"{name}\", {offset}, Kind::{kind}, {elem}, {str(optional).lower()}, "
                     f"{str(dispatchable).lower()}, static_cast<uint32_t>({size}), "
                     f"static_cast<uint32_t>({fixed}), {object_type}, {nested}, {count}, {known}}}")


def _known_fn(m, base, fns, made):
    """The name of a function telling whether a value is one vk.xml gives
    the enumerated type `base`, or holds only bits it gives the bitmask
    type `base`, written once into `fns`; nullptr for other types."""
    if made is None or (base not in m.enum_values and base not in m.flag_masks):
        return "nullptr"
    name = f"known_{base}"
    if name not in made:
        made.add(name)
        if base in m.flag_masks:
            fns.append(f"bool {name}(uint32_t value) {{ return (value & ~{m.flag_masks[base]:#x}u) == 0; }}\n")
            return name
        cases = "".join(f"    case {v}:\n" for v in sorted(m.enum_values[base]))
        fns.append(f"bool {name}(uint32_t value) {{\n  switch (static_cast<int32_t>(value)) {{\n{cases}"
                   f"      return true;\n    default:\n      return false;\n  }}\n}}\n")
    return name


def _element(m, base):
    """(Elem, size expression, object type, nested description) of a type."""
    if base in m.handles:
        return "Elem::kHandle", f"sizeof({base})", m.object_types[base], "nullptr", m.handles[base]
    if base in m.structs and not m.structs[base].union:
        return "Elem::kStruct", f"sizeof({base})", "VK_OBJECT_TYPE_UNKNOWN", f"&k{base}", False
    return "Elem::kScalar", f"sizeof({base})", "VK_OBJECT_TYPE_UNKNOWN", "nullptr", False


def _struct_member(m, s, mem, fns, made=None):
    base = m.resolve(mem.base)
    off = f"offsetof({s.name}, {mem.name})"
    elem, size, objtype, nested, disp = _element(m, base)
    fixed = f"sizeof({s.name}::{mem.name}) / sizeof({base})" if mem.array else "1"
    if mem.kind == "pnext":
        return Desc(mem.name, off, "kPNext")
    if mem.kind in ("scalar", "handle") or (mem.kind == "struct" and mem.pointer == 0):
        kind = {"Elem::kHandle": "kHandle", "Elem::kStruct": "kStruct"}.get(elem, "kScalar")
        # sType is judged by the chain's walk; other enumerated and bitmask
        # members by the values and bits vk.xml gives their type, but for a
        # bitmask whose value the spec lets be ignored (noautovalidity: a
        # barrier's access masks in an ownership transfer, the statistics of
        # a pool of another query type).
        known = "nullptr"
        if kind == "kScalar" and mem.name != "sType" and not (base in m.flag_masks and mem.unchecked):
            known = _known_fn(m, base, fns, made)
        return Desc(mem.name, off, kind, elem, size, fixed, mem.optional, disp, objtype, nested, known=known)
    count = "nullptr"
    if mem.len and mem.kind != "string":
        count = f"count_{s.name}_{mem.name}"
        fns.append(_count_fn(count, s.name, mem.len))
    kind = {"string": "kString", "strings": "kStrings", "bytes": "kBytes"}.get(mem.kind, "kArray")
    if kind == "kBytes":
        elem, size = "Elem::kScalar", "1"
    return Desc(mem.name, off, kind, elem, size, "1", mem.optional, disp, objtype, nested, count)


def _param(m, c, p, fns, made=None):
    base = m.resolve(p.base)
    args = f"VkArgs_{c.name}"
    off = f"offsetof({args}, {p.name})"
    elem, size, objtype, nested, disp = _element(m, base)
    count = "nullptr"
    if getattr(p, "stride", ""):
        # The bytes from the first element to the last one's end, `stride`
        # apart: what the driver reads, and no more of the guest's memory.
        count = f"count_{c.name}_{p.name}"
        fns.append(f"uint64_t {count}(const void* owner) {{\n"
                   f"  const auto& a = *static_cast<const {args}*>(owner);\n"
                   f"  const uint64_t n = as_number(a.{p.len});\n"
                   f"  return n ? (n - 1) * as_number(a.{p.stride}) + sizeof({base}) : 0;\n}}\n")
        return Desc(p.name, off, "kBytes", "Elem::kScalar", "1", "1", p.nullable, count=count)
    if p.len and p.kind not in ("in_string",):
        count = f"count_{c.name}_{p.name}"
        by_pointer = any(q.name == p.len and q.pointer == 1 for q in c.params)
        fns.append(_count_fn(count, args, p.len, enumerated=by_pointer))
    if getattr(p, "array", ""):
        count = f"count_{c.name}_{p.name}"
        fns.append(f"uint64_t {count}(const void*) {{ return {p.array}; }}\n")
        return Desc(p.name, off, "kArray", elem, size, count=count)
    k = p.kind
    if k == "allocator":
        return Desc(p.name, off, "kAllocator")
    if k in ("scalar", "handle"):
        kind = "kHandle" if k == "handle" else "kScalar"
        known = _known_fn(m, base, fns, made) if kind == "kScalar" else "nullptr"
        return Desc(p.name, off, kind, elem, size, "1", p.nullable, disp, objtype, nested, known=known)
    if k == "in_string":
        return Desc(p.name, off, "kString", optional=p.nullable)
    if k in ("in_bytes", "out_bytes"):
        kind = "kBytes" if k == "in_bytes" else "kOutArray"
        return Desc(p.name, off, kind, "Elem::kScalar", "1", "1", p.nullable, count=count)
    if k in ("in_struct", "in_array", "in_scalar"):  # one value given by pointer: an array of one
        return Desc(p.name, off, "kArray", elem, size, "1", p.nullable, disp, objtype, nested, count)
    if k == "out_scalar":
        return Desc(p.name, off, "kOutScalar", elem, size, "1", p.nullable)
    if elem == "Elem::kHandle" and k in ("out_handle", "out_array"):
        return Desc(p.name, off, "kOutHandles", elem, size, "1", False, disp, objtype, nested, count)
    # out_struct, out_array, out_enumerated
    return Desc(p.name, off, "kOutArray", elem, size, "1", p.nullable, disp, objtype, nested, count)


def _device_extension(m, c):
    """The device extension a command comes from, quoted, or nullptr."""
    where = m.versions.get(c.name, "")
    return f"\"{where}\"" if where in m.device_extensions else "nullptr"


def _instance_extension(m, c):
    """The instance extension a command comes from, quoted, or nullptr."""
    where = m.versions.get(c.name, "")
    return f"\"{where}\"" if where in m.instance_extensions else "nullptr"


def _ret_kind(m, c):
    ret = m.resolve(c.ret)
    if ret == "void":
        return "Ret::kVoid"
    if ret == "VkResult":
        return "Ret::kResult"
    return "Ret::kValue"


def _synchronous(m, c):
    if c.name in m.async_results:
        return False
    return c.ret != "void" or any(p.kind.startswith("out_") and p.kind not in SYNC_FREE_OUTPUTS
                                  for p in c.params)


def _recorded(c):
    """Where a command-buffer command may be recorded (vk.xml's renderpass
    and cmdbufferlevel) and the pipeline it runs (draws and dispatches), as
    a Recorded initializer."""
    if not c.render_pass:
        return "{}"
    scope = {"inside": "kInside", "outside": "kOutside", "both": "kBoth"}[c.render_pass]
    levels = c.levels.split(",")
    need = "kGraphics" if c.name.startswith("vkCmdDraw") else "kCompute" if c.name.startswith("vkCmdDispatch") else "kNone"
    return (f"{{RenderPassScope::{scope}, {str('primary' in levels).lower()}, "
            f"{str('secondary' in levels).lower()}, Pipeline::{need}}}")


# -- files ---------------------------------------------------------------------

def vk_commands_h(m):
    out = [HEADER, "// Vulkan opcodes and each command's argument record.\n#pragma once\n\n",
           "#include <cstdint>\n\n#include <vulkan/vulkan.h>\n\n",
           "#include \"wire/vk_codec.h\"\n\nnamespace wire::vk {\n\n",
           "enum class VkOp : uint32_t {\n"]
    for c in sorted(m.commands.values(), key=lambda c: c.opcode):
        out.append(f"  {c.name} = {c.opcode},\n")
    out.append("};\n\n// A command's parameters, in order, as the codec reads and writes them.\n")
    for c in sorted(m.commands.values(), key=lambda c: c.opcode):
        if any(p.kind == "" for p in c.params):
            continue  # a platform type: the guest's own (vk-annotations.toml)
        fields = []
        for p in c.params:
            ctype = p.ctype
            if getattr(p, "array", ""):
                ctype = f"{p.ctype}*"
            fields.append(f"  {ctype} {p.name};\n")
        out.append(f"struct VkArgs_{c.name} {{\n{''.join(fields)}}};\n")
    out.append("\n}  // namespace wire::vk\n")
    return "".join(out)


def vk_tables_cpp(m):
    structs = travelling_structs(m)
    fns, bodies = [], []
    made_known = set()
    out = [HEADER, "#include <algorithm>\n#include <cstddef>\n#include <iterator>\n#include <vector>\n\n",
           "#include \"wire/vk_commands.h\"\n\n",
           "namespace wire::vk {\nnamespace {\n\n"]
    for name in structs:
        if not m.structs[name].union:  # unions travel as their bytes
            out.append(f"extern const StructDesc k{name};\n")
    for name in structs:
        s = m.structs[name]
        if s.union:
            continue
        descs = [_struct_member(m, s, mem, fns, made_known) for mem in s.members]
        lines = ",\n  ".join(d.line for d in descs)
        extenders = sorted(m.structs[o].stype for o in structs
                           if m.structs[o].stype and any(m.resolve(e) == name for e in m.structs[o].extends))
        ext = "".join(f"  {e},\n" for e in extenders)
        bodies.append(f"const MemberDesc k{name}_members[] = {{\n  {lines}}};\n")
        if extenders:
            bodies.append(f"const VkStructureType k{name}_next[] = {{\n{ext}}};\n")
        stype = s.stype or "VkStructureType(0)"
        nxt = f"k{name}_next, {len(extenders)}" if extenders else "nullptr, 0"
        bodies.append(f"const StructDesc k{name} = {{\"{name}\", {stype}, sizeof({name}), "
                      f"k{name}_members, {len(descs)}, {nxt}}};\n\n")
    commands = generated_commands(m)
    for c in commands:
        descs = [_param(m, c, p, fns, made_known) for p in c.params]
        lines = ",\n  ".join(d.line for d in descs)
        arr = f"k{c.name}_params" if descs else "nullptr"
        if descs:
            bodies.append(f"const MemberDesc k{c.name}_params[] = {{\n  {lines}}};\n")
        bodies.append(f"const CommandDesc k{c.name} = {{\"{c.name}\", {c.opcode}, sizeof(VkArgs_{c.name}), "
                      f"{arr}, {len(descs)}, {_ret_kind(m, c)}, {str(_synchronous(m, c)).lower()}, "
                      f"{_recorded(c)}, {str(c.name.startswith(('vkDestroy', 'vkFree'))).lower()}, "
                      f"{str(c.name in m.ranges).lower()}, {_device_extension(m, c)}, "
                      f"{_instance_extension(m, c)}}};\n\n")
    out += ["\n"] + fns + ["\n"] + bodies
    out.append("// By structure type (sorted by value where first used).\n")
    by_stype = sorted((m.structs[n].stype, n) for n in structs if m.structs[n].stype)
    out.append("const StypeEntry kByStype[] = {\n")
    out += [f"  {{{st}, &k{n}}},\n" for st, n in by_stype]
    out.append("};\n\nconst CommandDesc* const kCommands[] = {\n")
    out += [f"  &k{c.name},\n" for c in commands]
    out.append("};\n\n}  // namespace\n\n")
    out.append("std::span<const StypeEntry> structs_by_stype() {\n"
               "  static const std::vector<StypeEntry> sorted = [] {\n"
               "    std::vector<StypeEntry> v(std::begin(kByStype), std::end(kByStype));\n"
               "    std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.stype < b.stype; });\n"
               "    return v;\n  }();\n  return sorted;\n}\n")
    out.append("std::span<const CommandDesc* const> command_descs() { return kCommands; }\n")
    out.append("\nstd::span<const CarriedExtension> carried_extensions() {\n"
               "  static const CarriedExtension kCarried[] = {\n")
    known = {e.get("name"): e.get("type") for e in m.root.iter("extension")}
    for name in m.notes["carried_extensions"]:
        out.append(f"    {{\"{name}\", {str(known[name] == 'instance').lower()}}},\n")
    out.append("  };\n  return kCarried;\n}\n")
    out.append("\nconst StructDesc* plain_struct(std::string_view name) {\n")
    plain = [n for n in structs if not m.structs[n].stype and not m.structs[n].union]
    for n in plain:
        out.append(f"  if (name == \"{n}\") return &k{n};\n")
    out.append("  return nullptr;\n}\n\n}  // namespace wire::vk\n")
    return "".join(out)


def vk_host_calls_cpp(m):
    """The host's driver entry points, found through the loader, and one
    call per generated command with its decoded argument record."""
    commands = generated_commands(m)
    out = [HEADER, "#include \"vk/host_calls.h\"\n\n#include \"wire/vk_commands.h\"\n\n",
           "namespace host::vk {\n\nusing namespace wire::vk;\n\n",
           "// Only entries still missing are filled: those the loader gives no\n"
           "// instance (global commands asked with one), or only one that enabled\n"
           "// their extension, keep what an earlier load found.\n",
           "void HostDispatch::load(PFN_vkGetInstanceProcAddr gipa, VkInstance instance) {\n"]
    for c in _host_run(m):
        out.append(f"  if (!{c.name}) {c.name} = reinterpret_cast<PFN_{c.name}>(gipa(instance, \"{c.name}\"));\n")
    out.append("}\n\nnamespace {\n\n")
    for c in commands:
        args = ", ".join("nullptr" if p.kind == "allocator" else f"a.{p.name}" for p in c.params)
        call = f"d.{c.name}({args})"
        ret = "return 0;" if c.ret == "void" else ""
        expr = f"return static_cast<uint64_t>({call});" if c.ret != "void" else f"{call};\n  {ret}"
        out.append(f"uint64_t call_{c.name}(const HostDispatch& d, void* args) {{\n"
                   f"  auto& a = *static_cast<VkArgs_{c.name}*>(args);\n"
                   f"  if (!d.{c.name}) return VK_ERROR_FEATURE_NOT_PRESENT;\n  {expr}\n}}\n\n")
    out.append("}  // namespace\n\nHostCall host_call(uint32_t opcode) {\n  switch (opcode) {\n")
    for c in commands:
        out.append(f"    case {c.opcode}: return call_{c.name};\n")
    out.append("    default: return nullptr;\n  }\n}\n\n}  // namespace host::vk\n")
    return "".join(out)


def vk_host_specials_cpp(m):
    """VkHandler::special: the member that runs each command the host runs
    by hand, from vk-annotations.toml's [host_runs]."""
    out = [HEADER, "#include \"vk/vk_handler.h\"\n#include \"wire/vk_commands.h\"\n\n",
           "namespace host::vk {\n\nusing namespace wire::vk;\n\n",
           "VkHandler::Special VkHandler::special(uint32_t opcode) {\n  switch (static_cast<VkOp>(opcode)) {\n"]
    for name, member in m.host_runs.items():
        out.append(f"    case VkOp::{name}: return &VkHandler::{member};\n")
    out.append("    default: return nullptr;\n  }\n}\n\n}  // namespace host::vk\n")
    return "".join(out)


def _host_run(m):
    """Commands the host's driver runs (all but the guest's own)."""
    return [c for c in sorted(m.commands.values(), key=lambda c: c.name) if c.custom != "guest"]


def vk_host_dispatch_h(m):
    out = [HEADER, "// The host driver's entry points for every carried command.\n#pragma once\n\n",
           "#include <vulkan/vulkan.h>\n\nnamespace host::vk {\n\nstruct HostDispatch {\n",
           "  void load(PFN_vkGetInstanceProcAddr gipa, VkInstance instance);\n"]
    for c in _host_run(m):
        out.append(f"  PFN_{c.name} {c.name} = nullptr;\n")
    out.append("};\n\n}  // namespace host::vk\n")
    return "".join(out)


def _recorded_only(m, c):
    """A command recorded into a command buffer that returns nothing, waits
    for nothing and makes or ends no object (the guest's run_recorded)."""
    return (bool(c.render_pass) and c.ret == "void" and not _synchronous(m, c)
            and not any(p.kind.startswith("out_") for p in c.params)
            and not c.name.startswith(("vkDestroy", "vkFree")))


def vk_guest_entry_cpp(m):
    """The guest ICD's entry point for each generated command: the arguments
    go to the codec as their record; hand-written ones live in guest-icd/vk."""
    commands = [c for c in generated_commands(m) if c.custom not in ("both",)]
    out = [HEADER, "#include <cstring>\n\n#include \"vk/entry.h\"\n#include \"wire/vk_commands.h\"\n\n",
           "namespace icd::vk {\n\nusing namespace wire::vk;\n\nnamespace {\n\n"]
    for c in commands:
        params = ", ".join(f"{p.ctype}* {p.name}" if getattr(p, "array", "") else f"{p.ctype} {p.name}"
                           for p in c.params)
        inits = ", ".join(p.name for p in c.params)
        ret = "" if c.ret == "void" else f"return static_cast<{c.ret}>(static_cast<int64_t>("
        close = "" if c.ret == "void" else "))"
        run = "run_recorded" if _recorded_only(m, c) else "run_command"
        out.append(f"VKAPI_ATTR {c.ret} VKAPI_CALL entry_{c.name}({params}) {{\n"
                   f"  static const CommandDesc& desc = *command_desc({c.opcode});\n"
                   f"  VkArgs_{c.name} a{{{inits}}};\n"
                   f"  {ret}{run}(desc, &a){close};\n}}\n\n")
    out.append("}  // namespace\n\nPFN_vkVoidFunction generated_entry(const char* name) {\n")
    for c in commands:
        for n in [c.name] + c.aliases:
            out.append(f"  if (std::strcmp(name, \"{n}\") == 0) "
                       f"return reinterpret_cast<PFN_vkVoidFunction>(entry_{c.name});\n")
    out.append("  return nullptr;\n}\n\n}  // namespace icd::vk\n")
    return "".join(out)
