"""Emits the command model the structure-aware fuzzers build commands from:
every encodable command's opcode and argument layout, and for enum arguments
the values of their gl.xml group."""

from emit_common import HEADER, elem_bytes, inputs
from emit_wire import encodable
from model import SCALARS

FLOATS = {"GLfloat", "GLclampf", "GLdouble", "GLclampd"}
COUNTS = {"GLsizei", "GLsizeiptr", "GLsizeiptrARB"}


def _enum_groups(model):
    """gl.xml group name -> sorted 32-bit values of its enums."""
    groups = {}
    for enums in model.root.iter("enums"):
        for e in enums.iter("enum"):
            value = e.get("value")
            if not value or not e.get("group"):
                continue
            number = int(value, 0)
            if number >= 1 << 32:
                continue
            for g in e.get("group").split(","):
                groups.setdefault(g, set()).add(number)
    return {g: sorted(v) for g, v in groups.items()}


def _param_groups(model, c):
    elem = model.all[c.name]
    return {p.find("name").text: p.get("group") for p in elem.findall("param")}


def _scalar_kind(p, group_values):
    if p.base in FLOATS:
        return "kFloat"
    if p.cls:
        return "kName"
    if group_values:
        return "kEnum"
    if p.base in COUNTS:
        return "kCount"
    return "kInt"


def _arg_rows(model, c, groups, pool, pool_at):
    rows = []
    param_groups = _param_groups(model, c)
    for p in inputs(c):
        if p.kind == "scalar":
            values = groups.get(param_groups.get(p.name) or "", [])
            kind = _scalar_kind(p, values)
            first, count = 0, 0
            if kind == "kEnum":
                key = tuple(values)
                if key not in pool_at:
                    pool_at[key] = len(pool)
                    pool.extend(values)
                first, count = pool_at[key], len(values)
            rows.append(f"{{ArgKind::{kind}, {SCALARS[p.base][1]}, {first}, {count}}}")
        elif p.kind == "in_string":
            rows.append("{ArgKind::kString, 1, 0, 0}")
        else:
            kind = "kPixels" if p.buffer_source else "kData"
            rows.append(f"{{ArgKind::{kind}, {elem_bytes(p)}, 0, 0}}")
    return rows


def gl_fuzz_model_cpp(model):
    groups = _enum_groups(model)
    pool, pool_at, args, commands = [], {}, [], []
    for c in model.ordered():
        if not encodable(c) or any(p.kind == "data_list" for p in inputs(c)):
            continue  # lists of Data follow a count: left to plain mutation
        rows = _arg_rows(model, c, groups, pool, pool_at)
        commands.append(f'  {{{c.opcode}, "{c.name}", {len(args)}, {len(rows)}}},\n')
        args += rows
    values = ", ".join(f"0x{v:x}u" for v in pool) or "0"
    arg_table = "".join(f"  {r},\n" for r in args)
    return (HEADER + '#include "fuzz_model.h"\n\nnamespace fuzz {\nnamespace {\n\n'
            f"constexpr uint32_t kEnumValues[] = {{{values}}};\n"
            "constexpr ArgSpec kArgs[] = {\n" + arg_table + "};\n"
            "constexpr CommandSpec kCommands[] = {\n" + "".join(commands) + "};\n\n"
            "}  // namespace\n\n"
            "std::span<const CommandSpec> gl_commands() { return kCommands; }\n\n"
            "std::span<const ArgSpec> args_of(const CommandSpec& c) {\n"
            "  return std::span<const ArgSpec>(kArgs).subspan(c.first_arg, c.arg_count);\n}\n\n"
            "std::span<const uint32_t> enum_values(const ArgSpec& a) {\n"
            "  return std::span<const uint32_t>(kEnumValues).subspan(a.enum_first, a.enum_count);\n}\n\n"
            "}  // namespace fuzz\n")
